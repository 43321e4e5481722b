import http from "node:http";
import type { AddressInfo } from "node:net";
import { verifyWebhook } from "../src/sdk/verify-webhook.ts";

/**
 * The receiving end of a webhook storm: one URL per merchant (`/hooks/<index>`), so each delivery is
 * verified against that merchant's endpoint secret, exactly as a merchant's server would (raw bytes,
 * `X-Pos-Signature`, 300 s tolerance). Records what arrived and when; answers 200 at once.
 */
export type ReceivedWebhook = { eventId: string; paymentId: string | null; receivedAtMs: number; verified: boolean };

export async function startWebhookSink(options: { host: string; port: number; publicUrl?: string }) {
  const secrets = new Map<number, string>();
  const received: ReceivedWebhook[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const receivedAtMs = performance.now();
      const body = Buffer.concat(chunks);
      const index = Number(/^\/hooks\/(\d+)$/.exec(request.url ?? "")?.[1] ?? Number.NaN);
      const secret = secrets.get(index);
      let verified = false;
      let paymentId: string | null = null;
      try {
        if (secret !== undefined) {
          const event = verifyWebhook(body, request.headers["x-pos-signature"] as string | undefined, secret);
          verified = true;
          paymentId = typeof event.data.payment_id === "string" ? event.data.payment_id : null;
        }
      } catch {
        verified = false;
      }
      received.push({ eventId: String(request.headers["x-pos-event-id"] ?? ""), paymentId, receivedAtMs, verified });
      response.writeHead(verified ? 200 : 400).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port, options.host, resolve));
  const port = (server.address() as AddressInfo).port;
  const base = (options.publicUrl ?? `http://${options.host}:${port}`).replace(/\/+$/, "");
  return {
    received,
    /** The URL that merchant number `index` registers, and the secret its deliveries are checked with. */
    urlFor: (index: number) => `${base}/hooks/${index}`,
    trust: (index: number, secret: string) => {
      secrets.set(index, secret);
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
