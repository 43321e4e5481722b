import { createHmac } from "node:crypto";

/**
 * The `X-Pos-Signature` header: `t=<unix seconds>,v1=<hex>`, where hex is HMAC-SHA256 keyed with the
 * endpoint's whole secret string (`whsec_` included) over `<t>.<raw body>`. It is Stripe's scheme, so
 * Stripe's libraries verify our deliveries too. After a secret roll, while the previous secret still
 * signs, there is one `v1=` per secret (the current one first), all over the same `t`: a receiver
 * that knows either secret accepts the delivery, as Stripe's do.
 */
export function signatureHeader(options: {
  secrets: readonly [string, ...string[]];
  timestampSeconds: number;
  body: string;
}): string {
  const digests = options.secrets.map(
    (secret) =>
      `v1=${createHmac("sha256", secret).update(`${options.timestampSeconds}.${options.body}`).digest("hex")}`,
  );
  return `t=${options.timestampSeconds},${digests.join(",")}`;
}
