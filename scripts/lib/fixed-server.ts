/**
 * A bare node:http server answering every request with one fixed status and JSON body, run in a
 * process of its own by the benchmarks: the reference a framework's figures are compared with, or
 * a stand-in upstream whose cost is negligible. Usage: fixed-server.ts PORT STATUS BODY
 */
import http from "node:http";

const [port, status, body] = process.argv.slice(2);
http
  .createServer((_req, res) => {
    res.writeHead(Number(status), { "content-type": "application/json" });
    res.end(body);
  })
  .listen(Number(port), "127.0.0.1");
