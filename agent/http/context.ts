/**
 * Who is calling the agent: the gateway (service key), a premium key holder, or the public.
 * A premium caller speaks for its `owner`: `wallet:0x…` for a holder's key (so a holder's new key
 * keeps its conversations and its limits), `key:<id>` for an operator's. A bearer token that is
 * neither key, or a premium key no longer good, is refused, never downgraded to public access.
 * (A module of types alone, so the job queue can name callers without importing the HTTP layer.)
 */
export type Caller = { kind: "service" } | { kind: "premium"; keyId: string; owner: string } | { kind: "public"; address: string };

/** The agent app's Hono environment: what its middleware sets on a request's context. */
export type AgentEnv = {
  Variables: {
    /** Set by requireServiceOrPremium (agent/http/access.ts); read with callerOf. */
    caller?: Caller;
  };
};
