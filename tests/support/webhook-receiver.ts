import http from "node:http";
import type { AddressInfo } from "node:net";

export type ReceivedDelivery = { headers: http.IncomingHttpHeaders; body: string; receivedAtMs: number };
/** How the receiver answers its n-th request (1-based): a status, or `hang` to never answer. */
export type ReceiverBehaviour = (requestNumber: number) => number | "hang";

/** A webhook receiver on a loopback port that records every request's raw body and headers. */
export async function startReceiver(initial: ReceiverBehaviour = () => 200) {
  let behaviour = initial;
  const received: ReceivedDelivery[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        receivedAtMs: Date.now(),
      });
      const answer = behaviour(received.length);
      if (answer !== "hang") {
        response.writeHead(answer, { "Content-Type": "text/plain" }).end("ok");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    answerWith: (next: ReceiverBehaviour) => {
      behaviour = next;
    },
    /** Waits until `count` requests arrived, or fails after the timeout. */
    waitFor: async (count: number, timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) {
          throw new Error(`receiver got ${received.length} requests, expected ${count}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
