import { createHmac } from "node:crypto";

/**
 * The `X-Pos-Signature` header: `t=<unix seconds>,v1=<hex>`, where hex is HMAC-SHA256 keyed with the
 * endpoint's whole secret string (`whsec_` included) over `<t>.<raw body>`. It is Stripe's scheme, so
 * Stripe's libraries verify our deliveries too.
 */
export function signatureHeader(options: { secret: string; timestampSeconds: number; body: string }): string {
  const digest = createHmac("sha256", options.secret)
    .update(`${options.timestampSeconds}.${options.body}`)
    .digest("hex");
  return `t=${options.timestampSeconds},v1=${digest}`;
}
