import http from "node:http";
import type { AddressInfo } from "node:net";

export type ScriptedRequest = { path: string; headers: http.IncomingHttpHeaders; body: string };
/** How the receiver answers its n-th request (1-based) on a path: a status and a body. */
export type ScriptedAnswer = (requestNumber: number, request: ScriptedRequest) => { status: number; body: string };

/**
 * A webhook receiver on a loopback port whose answers (status and body) a test scripts and changes,
 * recording every request's path, headers and raw body. Unlike `webhook-receiver.ts` it answers with
 * chosen bodies (for response excerpts) and tells endpoints apart by path.
 */
export async function startScriptedReceiver(initial: ScriptedAnswer = () => ({ status: 200, body: "ok" })) {
  let answer = initial;
  const received: ScriptedRequest[] = [];
  const server = http.createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const request = {
        path: incoming.url ?? "/",
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      received.push(request);
      const { status, body } = answer(received.length, request);
      response.writeHead(status, { "Content-Type": "text/plain; charset=utf-8" }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    /** The URL of one path on this receiver (`/a`, `/b`), so several endpoints can share it. */
    urlOf: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    receivedOn: (path: string) => received.filter((request) => request.path === path),
    answerWith: (next: ScriptedAnswer) => {
      answer = next;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
