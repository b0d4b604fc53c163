import net from "node:net";
import type { AddressInfo } from "node:net";

/**
 * A TCP proxy in front of one service (the chain's RPC, a facilitator) that can be made
 * unreachable and brought back on the same port: `cut()` closes the listening socket (new
 * connections are refused, as when a host is down) and resets every open connection; `restore()`
 * listens again. Used by `npm run chaos` to inject network faults between the gateway and what it
 * depends on, without touching the service behind.
 */
export type FaultProxy = { url: string; port: number; cut: () => Promise<void>; restore: () => Promise<void>; close: () => Promise<void> };

export async function startFaultProxy(target: { host: string; port: number }, { protocol = "http" }: { protocol?: string } = {}): Promise<FaultProxy> {
  const open = new Set<net.Socket>();
  const onConnection = (client: net.Socket) => {
    const upstream = net.connect(target.port, target.host);
    open.add(client);
    open.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    client.pipe(upstream);
    upstream.pipe(client);
  };
  let server = net.createServer(onConnection);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  let listening = true;

  const cut = async () => {
    if (!listening) return;
    listening = false;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of open) socket.resetAndDestroy();
    open.clear();
    await closed;
  };
  const restore = async () => {
    if (listening) return;
    server = net.createServer(onConnection);
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve());
    });
    listening = true;
  };
  return { url: `${protocol}://127.0.0.1:${port}`, port, cut, restore, close: cut };
}
