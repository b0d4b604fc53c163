import { isRecord } from "@/lib/shared/narrow";

/** A response's JSON object body; an empty object when the body is not JSON or not an object. */
export async function readJsonObject(response: Response): Promise<Record<string, unknown>> {
  const value: unknown = await response.json().catch(() => ({}));
  return isRecord(value) ? value : {};
}
