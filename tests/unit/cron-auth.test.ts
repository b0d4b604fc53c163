import { afterEach, describe, expect, it } from "vitest";
import { GET } from "@/app/api/cron/route";
import { resetConfigForTests } from "@/lib/gateway/config";

const SECRET = "cron-secret-0123456789abcdef";

function cron(authorization?: string): Promise<Response> {
  const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
  return GET(new Request("http://gateway.test/api/cron", { headers }));
}

function withSecret(secret: string | undefined): void {
  if (secret === undefined) delete process.env.CRON_SECRET;
  else process.env.CRON_SECRET = secret;
  resetConfigForTests();
}

describe("GET /api/cron authorisation", () => {
  afterEach(() => withSecret(undefined));

  it.each([
    ["no Authorization header", undefined],
    ["a wrong token", "Bearer not-the-secret-at-all"],
    ["the secret without Bearer", SECRET],
    ["a Basic scheme", `Basic ${Buffer.from(`u:${SECRET}`).toString("base64")}`],
    ["an empty bearer", "Bearer "],
    ["a prefix of the secret", `Bearer ${SECRET.slice(0, -1)}`],
    ["the secret with a suffix", `Bearer ${SECRET}x`],
  ])("answers 401 with {error} for %s", async (_name, authorization) => {
    withSecret(SECRET);
    const response = await cron(authorization);
    expect(response.status).toBe(401);
    const body = (await response.json()) as { error: unknown };
    expect(typeof body.error).toBe("string");
  });

  it("answers 401 to every caller when no secret is configured", async () => {
    withSecret(undefined);
    expect((await cron("Bearer ")).status).toBe(401);
    expect((await cron("Bearer undefined")).status).toBe(401);
    const response = await cron();
    expect(await response.json()).toMatchObject({ error: expect.stringContaining("CRON_SECRET") });
  });

});
