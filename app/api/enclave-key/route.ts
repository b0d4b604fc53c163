import { jsonResponse, withApi } from "@/lib/http";
import { getEnclaveKey } from "@/lib/private/enclave-key";
import { getAgentApi } from "@/lib/upstream";

export const dynamic = "force-dynamic";

// GET /api/enclave-key – the enclave's X25519 public key for sealing private requests (free, cached 60 s)
export const GET = withApi("GET /api/enclave-key", async () => {
  const key = await getEnclaveKey(getAgentApi());
  return jsonResponse(key, { headers: { "cache-control": "public, max-age=60" } });
});
