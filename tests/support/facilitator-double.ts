import http from "node:http";
import type { AddressInfo } from "node:net";
import { x402Facilitator } from "@x402/core/facilitator";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/facilitator";
import { createWalletClient, http as viemHttp, publicActions, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { localViemChain } from "../../scripts/lib/local-chain";

/**
 * A hosted facilitator standing in for Coinbase's or any other x402 facilitator, reached over
 * HTTP like the real one (`POST /verify`, `POST /settle`, `GET /supported`). Behind it runs the
 * official x402 facilitator with a real key on the suite's chain, so `real` mode verifies and
 * settles for real; the other modes answer the ways hosted facilitators fail.
 */
type FacilitatorMode =
  /** Verify and settle for real. */
  | "real"
  /** Refuse every settlement with HTTP 400 and an x402 SettleResponse body (as some facilitators do for an empty wallet). */
  | "refuse-400"
  /** Refuse with HTTP 400 and a body that is not an x402 response at all. */
  | "refuse-400-plain"
  /** Answer 500 without doing anything. */
  | "error-500"
  /** Settle for real, then never answer (the client's timeout fires after the transfer happened). */
  | "transfer-then-hang"
  /** Never answer, do nothing. */
  | "hang"
  /**
   * Settle fails on the facilitator's own side, nothing sent: what the official facilitator answers
   * when two settlements of its account raced for one transaction nonce (seen under load).
   */
  | "own-nonce-clash"
  /**
   * Verify and settle say the signature is invalid, whatever it is: what the official facilitator
   * answers when it cannot reach its chain (viem checks a signature with an eth_call).
   */
  | "chain-blind";

export type FacilitatorDouble = {
  url: string;
  mode: FacilitatorMode;
  /** When set, requests without exactly this header value get 401. */
  requiredHeader: { name: string; value: string | ((value: string | undefined) => boolean) } | null;
  requests: { path: string; headers: http.IncomingHttpHeaders }[];
  /** Transactions this facilitator sent, in order. */
  transactions: string[];
  close: () => Promise<void>;
};

export async function startFacilitatorDouble({ rpcUrl, chainId, privateKey, network }: { rpcUrl: string; chainId: number; privateKey: Hex; network: string }): Promise<FacilitatorDouble> {
  const account = privateKeyToAccount(privateKey);
  const chain = localViemChain(rpcUrl, chainId);
  const client = createWalletClient({ account, chain, transport: viemHttp(rpcUrl) }).extend(publicActions);
  const signer = toFacilitatorEvmSigner({
    address: account.address,
    readContract: (args) => client.readContract(args as never),
    verifyTypedData: (args) => client.verifyTypedData(args as never),
    writeContract: (args) => client.writeContract(args as never),
    sendTransaction: (args) => client.sendTransaction(args as never),
    waitForTransactionReceipt: (args) => client.waitForTransactionReceipt({ ...(args as object), pollingInterval: 50 } as never),
    getCode: (args) => client.getCode(args as never),
  });
  const facilitator = new x402Facilitator().register(network as PaymentRequirements["network"], new ExactEvmScheme(signer));
  const hanging = new Set<http.ServerResponse>();

  const double: FacilitatorDouble = {
    url: "",
    mode: "real",
    requiredHeader: null,
    requests: [],
    transactions: [],
    close: async () => undefined,
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    // The official facilitator throws when its chain cannot be reached (viem's eth_getCode and
    // eth_call reject): a hosted one answers 500 then, and an unhandled rejection here would end
    // the process running the double (npm run chaos, during its chain fault).
    req.on("end", () => void answer(req, res, chunks).catch((err: unknown) => {
      if (res.headersSent) return void res.destroy();
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: `facilitator error: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}` }));
    }));
  });

  async function answer(req: http.IncomingMessage, res: http.ServerResponse, chunks: Buffer[]): Promise<void> {
    const path = req.url ?? "/";
    double.requests.push({ path, headers: req.headers });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const required = double.requiredHeader;
    if (required) {
      const value = req.headers[required.name.toLowerCase()];
      const given = Array.isArray(value) ? value[0] : value;
      const ok = typeof required.value === "function" ? required.value(given) : given === required.value;
      if (!ok) return send(401, { error: "unauthorized" });
    }
    if (path === "/supported") return send(200, { kinds: [{ x402Version: 2, scheme: "exact", network }], extensions: [], signers: {} });
    let body: { paymentPayload: PaymentPayload; paymentRequirements: PaymentRequirements };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString());
    } catch {
      return send(400, { error: "bad json" });
    }
    const mode = double.mode;
    if (mode === "hang") {
      hanging.add(res);
      return;
    }
    if (mode === "error-500") return send(500, { error: "internal error" });
    if (mode === "chain-blind") {
      return path === "/verify"
        ? send(200, { isValid: false, invalidReason: "invalid_exact_evm_signature", invalidMessage: "signature could not be verified", payer: "" })
        : send(200, { success: false, errorReason: "invalid_exact_evm_signature", errorMessage: "signature could not be verified", transaction: "", network });
    }
    if (path === "/verify") {
      if (mode === "refuse-400") return send(400, { isValid: false, invalidReason: "insufficient_funds", payer: "" });
      if (mode === "refuse-400-plain") return send(400, { error: "wallet is empty" });
      return send(200, await facilitator.verify(body.paymentPayload, body.paymentRequirements));
    }
    if (path === "/settle") {
      if (mode === "refuse-400") {
        return send(400, { success: false, errorReason: "insufficient_funds", transaction: "", network });
      }
      if (mode === "refuse-400-plain") return send(400, { error: "wallet is empty" });
      if (mode === "own-nonce-clash") {
        return send(200, {
          success: false,
          errorReason: "invalid_exact_evm_transaction_failed",
          errorMessage: "Nonce provided for the transaction is lower than the current nonce of the account. Try increasing the nonce or find the latest nonce with `getTransactionCount`.",
          transaction: "",
          network,
        });
      }
      const result = await facilitator.settle(body.paymentPayload, body.paymentRequirements);
      if (result.transaction) double.transactions.push(result.transaction);
      if (mode === "transfer-then-hang") {
        hanging.add(res);
        return;
      }
      return send(200, result);
    }
    send(404, { error: "unknown path" });
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  double.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  double.close = () =>
    new Promise((resolve) => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return double;
}
