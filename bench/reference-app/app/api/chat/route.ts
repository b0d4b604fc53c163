import type { FacilitatorClient } from "@x402/core/server";
import { x402Facilitator } from "@x402/core/facilitator";
import type { Network } from "@x402/core/types";
import { ExactEvmScheme as FacilitatorScheme } from "@x402/evm/exact/facilitator";
import { ExactEvmScheme as ServerScheme } from "@x402/evm/exact/server";
import { withX402, x402ResourceServer } from "@x402/next";
import { NextResponse, type NextRequest } from "next/server";
import { chatAcceptedSchema, chatRequestSchema } from "@/lib/shared/contracts";
import { errorResponse, parseJsonBody } from "@/lib/shared/http";
import { createEvmFacilitatorSigner } from "@/lib/gateway/payments/facilitator";
import { UpstreamClient } from "@/lib/gateway/upstream/client";

let upstream: UpstreamClient;

// The gateway's chat handler, minus its payment wrapper.
async function handler(request: NextRequest): Promise<NextResponse> {
  try {
    const body = await parseJsonBody(request, chatRequestSchema, { maxBytes: 256 * 1024 });
    const { status, data } = await upstream.json("/api/chat", chatAcceptedSchema, { method: "POST", body });
    return NextResponse.json({ requestId: data.requestId, status: data.status }, { status });
  } catch (err) {
    return errorResponse(err) as NextResponse;
  }
}

export const dynamic = "force-dynamic";

type Wrapped = (request: NextRequest) => Promise<NextResponse>;
let wrapped: Wrapped | undefined;

// POST /api/chat – benchmark reference: the same handler behind @x402/next's withX402
export async function POST(request: NextRequest): Promise<NextResponse> {
  wrapped ??= createRoute();
  return wrapped(request);
}

// Configuration comes straight from the bench script's environment (built lazily: not at build time).
function createRoute(): Wrapped {
  const env = process.env;
  const network = (env.X402_NETWORK ?? "eip155:31337") as Network;
  const signer = createEvmFacilitatorSigner({
    rpcUrl: env.RPC_URL!,
    chainId: Number(network.split(":")[1]),
    network,
    privateKey: env.FACILITATOR_PRIVATE_KEY as `0x${string}`,
    confirmationTimeoutMs: 60_000,
  });
  // The same in-process facilitator code as the gateway's self-hosted one.
  const facilitator = new x402Facilitator().register(network, new FacilitatorScheme(signer));
  const facilitatorClient: FacilitatorClient = {
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    settle: (payload, requirements) => facilitator.settle(payload, requirements),
    getSupported: async () => facilitator.getSupported() as never,
  };
  const server = new x402ResourceServer(facilitatorClient).register(network, new ServerScheme());
  upstream = new UpstreamClient({ baseUrl: env.UPSTREAM_API_URL!, timeoutMs: 15_000 });
  return withX402(
    handler,
    {
      accepts: {
        scheme: "exact",
        network,
        payTo: env.PAY_TO_ADDRESS!,
        price: { amount: "20000", asset: env.X402_ASSET!, extra: { name: "USD Coin", version: "2" } },
        maxTimeoutSeconds: 300,
      },
      description: "Start chat ($0.02)",
      mimeType: "application/json",
    },
    server,
  );
}
