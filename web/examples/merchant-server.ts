import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { components, paths } from "../lib/api/generated.ts";

/** The API's types, generated from docs/openapi.json (web/lib/api/generated.ts): what a merchant's SDK would use. */
type NewPayment = paths["/v1/payments"]["post"]["requestBody"]["content"]["application/json"];
type Payment = components["schemas"]["Payment"];

/**
 * An example merchant site using pos.js: a drop-in button whose server creates the payment with the
 * merchant's secret key (which never reaches the browser), and a button driving POS.pay directly.
 * The browser tests run it; `node web/examples/merchant-server.ts` with PLATFORM_URL and SECRET_KEY
 * runs it by hand.
 */
export async function startMerchantSite(options: { platformUrl: string; secretKey: string; port?: number }) {
  const createPayment = () => createExamplePayment(options);

  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (request.method === "POST" && url.pathname === "/create-payment") {
      createPayment().then(
        (payment) =>
          response
            .writeHead(200, { "content-type": "application/json" })
            .end(JSON.stringify({ checkout_url: payment.checkout_url })),
        () => response.writeHead(502).end(),
      );
      return;
    }
    if (url.pathname === "/thanks") {
      response
        .writeHead(200, { "content-type": "text/html" })
        .end(
          `<!doctype html><title>Thanks</title><p id="thanks">Thanks for payment ${url.searchParams.get("payment_id") ?? ""}</p>`,
        );
      return;
    }
    if (url.pathname === "/") {
      const scripted = url.searchParams.get("checkout_url") ?? "";
      response
        .writeHead(200, { "content-type": "text/html" })
        .end(shopPage(options.platformUrl, scripted.replaceAll('"', "")));
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    createPayment,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The shop's one page: the drop-in button, and a button that opens the checkout URL given with POS.pay. */
function shopPage(platformUrl: string, checkoutUrlForScriptButton: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Example shop</title>
<script src="${platformUrl}/static/pos.js"></script></head>
<body>
<h1>Example shop</h1>
<button id="drop-in" data-pos-pay data-endpoint="/create-payment" data-success="/thanks">Pay USD 12.50</button>
<button id="scripted" data-checkout-url="${checkoutUrlForScriptButton}">Pay with POS.pay</button>
<p id="result"></p>
<script>
document.getElementById("scripted").addEventListener("click", () => {
  POS.pay({
    checkoutUrl: document.getElementById("scripted").dataset.checkoutUrl,
    onSuccess: (result) => { document.getElementById("result").textContent = "paid " + result.payment_id; },
    onCancel: (result) => { document.getElementById("result").textContent = "cancelled " + result.reason; },
  });
});
</script>
</body>
</html>`;
}

/** The merchant's server creating a USD 12.50 payment with its secret key, as a merchant's backend would. */
async function createExamplePayment(options: { platformUrl: string; secretKey: string }): Promise<Payment> {
  const order: NewPayment = { amount_cents: 1250, narration: "Example order" };
  const response = await fetch(`${options.platformUrl}/v1/payments`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${options.secretKey}`,
      "idempotency-key": randomUUID(),
      "content-type": "application/json",
    },
    body: JSON.stringify(order),
  });
  if (!response.ok) {
    throw new Error(`creating the payment failed: ${response.status}`);
  }
  return (await response.json()) as Payment;
}

if (import.meta.main) {
  const site = await startMerchantSite({
    platformUrl: process.env.PLATFORM_URL ?? "http://localhost:8080",
    secretKey: process.env.SECRET_KEY ?? "",
    port: 3000,
  });
  process.stdout.write(`example shop at ${site.url}\n`);
}
