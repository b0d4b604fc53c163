import { getConfig } from "@/lib/gateway/config";
import { jsonResponse, withApi } from "@/lib/shared/http";
import { getEnclaveKey } from "@/lib/gateway/private/enclave-key";
import { describeSealingSuite, SEALING_PAGE_PATH } from "@/lib/shared/sealing/descriptor";
import { getAgentApi } from "@/lib/gateway/upstream";

export const dynamic = "force-dynamic";

// GET /api/enclave-key – the enclave's X25519 public key and the suite to seal to it (free, cached 60 s)
export const GET = withApi("GET /api/enclave-key", async () => {
  const key = await getEnclaveKey(getAgentApi());
  const sealing = describeSealingSuite({ pageUrl: `${getConfig().publicUrl}${SEALING_PAGE_PATH}` });
  return jsonResponse({ ...key, sealing }, { headers: { "cache-control": "public, max-age=60" } });
});
