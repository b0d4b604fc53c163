/**
 * The command line of `npm run ask` (scripts/ask.ts), read without side effects so it can be tested:
 * the arguments and the environment in, what to do out, or an AskUsageError saying what is wrong.
 */
import { EnclaveTrustError, parseEnclaveTrust, type EnclaveTrust } from "../../lib/shared/sealing/trust";

export type AskKind = "chat" | "literature" | "deep-research";

export type AskOptions = {
  kind: AskKind;
  question: string;
  json: boolean;
  isPrivate: boolean;
  conversationId: string | undefined;
  /** As given: a key, `new`, or undefined. */
  recoveryKey: string | undefined;
  /** The enclave this client trusts (--enclave-repo / --enclave-measurement, else TRUSTED_ENCLAVE_REPO / TRUSTED_ENCLAVE_MEASUREMENT); null: none. */
  trust: EnclaveTrust | null;
  /** --require-attestation or ENCLAVE_REQUIRE_ATTESTATION=1 (needs a trusted repository). */
  requireAttestation: boolean;
};

const ASK_USAGE = `Usage: npm run ask -- <chat|literature|deep-research> "question" [--conversation <id>] [--json]
       npm run ask -- <chat|literature|deep-research> --private "question" [--recovery-key <key>|new]
                      [--enclave-repo owner/name [--enclave-measurement <hex>]] [--require-attestation] [--json]`;

/** Thrown for a command line that cannot be run; the message says why (with the usage when it helps). */
export class AskUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AskUsageError";
  }
}

const VALUE_FLAGS = ["--conversation", "--recovery-key", "--enclave-repo", "--enclave-measurement"] as const;
const SWITCHES = ["--json", "--private", "--require-attestation"] as const;

/** Reads `npm run ask`'s arguments (after `--`) and environment. A flag wins over its variable. */
export function parseAskOptions(args: readonly string[], env: Record<string, string | undefined>): AskOptions {
  const values = new Map<string, string>();
  const switches = new Set<string>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    if ((VALUE_FLAGS as readonly string[]).includes(flag)) {
      const value = inline ?? args[++i];
      if (value === undefined || (inline === undefined && value.startsWith("--"))) throw new AskUsageError(`${flag} needs a value.\n${ASK_USAGE}`);
      values.set(flag, value);
    } else if ((SWITCHES as readonly string[]).includes(arg)) {
      switches.add(arg);
    } else if (arg.startsWith("--")) {
      throw new AskUsageError(`Unknown option ${arg}.\n${ASK_USAGE}`);
    } else {
      positional.push(arg);
    }
  }
  const [kind, ...words] = positional;
  const question = words.join(" ").trim();
  if (!kind || !["chat", "literature", "deep-research"].includes(kind) || !question) throw new AskUsageError(ASK_USAGE);

  const repoFlag = values.get("--enclave-repo");
  const measurementFlag = values.get("--enclave-measurement");
  let trust: EnclaveTrust | null;
  try {
    // The flags replace the variables as a pair: a measurement from the environment never pins a repository named on the command line.
    trust =
      repoFlag !== undefined || measurementFlag !== undefined
        ? parseEnclaveTrust({ repo: repoFlag, measurement: measurementFlag }, { repo: "--enclave-repo", measurement: "--enclave-measurement" })
        : parseEnclaveTrust({ repo: env.TRUSTED_ENCLAVE_REPO, measurement: env.TRUSTED_ENCLAVE_MEASUREMENT }, { repo: "TRUSTED_ENCLAVE_REPO", measurement: "TRUSTED_ENCLAVE_MEASUREMENT" });
  } catch (err) {
    if (err instanceof EnclaveTrustError) throw new AskUsageError(err.message);
    throw err;
  }
  const isPrivate = switches.has("--private");
  if (!isPrivate && (repoFlag !== undefined || measurementFlag !== undefined || switches.has("--require-attestation"))) {
    throw new AskUsageError("--enclave-repo, --enclave-measurement and --require-attestation apply to private requests: add --private.");
  }
  const conversationId = values.get("--conversation");
  if (conversationId !== undefined && kind === "literature") throw new AskUsageError("--conversation continues a chat or deep-research conversation; a literature search has none.");
  if (conversationId !== undefined && isPrivate) throw new AskUsageError("--conversation applies to plain requests: a private chat is continued with its --recovery-key.");
  return {
    kind: kind as AskKind,
    question,
    json: switches.has("--json"),
    isPrivate,
    conversationId,
    recoveryKey: values.get("--recovery-key"),
    trust,
    requireAttestation: switches.has("--require-attestation") || env.ENCLAVE_REQUIRE_ATTESTATION === "1",
  };
}
