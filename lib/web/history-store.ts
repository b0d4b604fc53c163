/**
 * The research history of this browser, per wallet, in IndexedDB: every question asked and what
 * came back, grouped in threads. Kept only here (never sent anywhere); sealed requests are not
 * kept at all, since writing their answers to disk in clear would undo the sealing.
 */
import type { ThreadEntry } from "@/lib/web/thread";

/**
 * The entry schemas, loaded with the history (zod is not in the page's first load), and always
 * before a transaction opens: an IndexedDB transaction ends when a task passes with nothing asked
 * of it, as loading a module may.
 */
const schemas = () => import("@/lib/web/thread-entry-schema");

/** Stored values as entries: those that do not read (written by an earlier page, or altered) are left out. */
function readEntries(values: unknown[], { threadEntrySchema }: Awaited<ReturnType<typeof schemas>>): ThreadEntry[] {
  return values.flatMap((value) => {
    const parsed = threadEntrySchema.safeParse(value);
    return parsed.success ? [parsed.data] : [];
  });
}

const DB_NAME = "lra-history";
const STORE = "entries";

let opening: Promise<IDBDatabase> | null = null;

function open(): Promise<IDBDatabase> {
  opening ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => {
      const store = request.result.createObjectStore(STORE, { keyPath: "id" });
      store.createIndex("wallet", "wallet");
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => {
      opening = null;
      reject(request.error ?? new Error("IndexedDB could not be opened"));
    };
  });
  return opening;
}

function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error("IndexedDB request failed"));
  });
}

/** Adds or replaces an entry. */
export async function saveEntry(entry: ThreadEntry): Promise<void> {
  const db = await open();
  await done(db.transaction(STORE, "readwrite").objectStore(STORE).put(entry));
}

/** Applies `change` to the stored entry `id`, if there is one; returns the entry as saved. */
export async function updateEntry(id: string, change: (entry: ThreadEntry) => ThreadEntry): Promise<ThreadEntry | null> {
  const read = await schemas();
  const db = await open();
  const store = db.transaction(STORE, "readwrite").objectStore(STORE);
  const stored: unknown = await done(store.get(id));
  const [current] = stored === undefined ? [] : readEntries([stored], read);
  if (!current) return null;
  const next = change(current);
  await done(store.put(next));
  return next;
}

/** Every entry of `wallet` that reads, oldest first. */
export async function listEntries(wallet: string): Promise<ThreadEntry[]> {
  const read = await schemas();
  const db = await open();
  const stored: unknown[] = await done(db.transaction(STORE).objectStore(STORE).index("wallet").getAll(wallet.toLowerCase()));
  return readEntries(stored, read).sort((a, b) => a.askedAt.localeCompare(b.askedAt));
}

/** Deletes every entry of the thread `threadId` of `wallet`. */
export async function deleteThread(wallet: string, threadId: string): Promise<void> {
  const { storedEntryKeySchema } = await schemas();
  const db = await open();
  const store = db.transaction(STORE, "readwrite").objectStore(STORE);
  const stored: unknown[] = await done(store.index("wallet").getAll(wallet.toLowerCase()));
  const keys = stored.flatMap((value) => {
    const parsed = storedEntryKeySchema.safeParse(value);
    return parsed.success ? [parsed.data] : [];
  });
  await Promise.all(keys.filter((e) => e.threadId === threadId).map((e) => done(store.delete(e.id))));
}
