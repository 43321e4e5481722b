import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Verifies a webhook delivery on the merchant's side, against the raw request bytes (never a
 * re-serialised body). Self-contained: copy this file into a receiver as it is.
 *
 * Throws `WebhookVerificationError` for a malformed `X-Pos-Signature` header, a timestamp further than
 * `tolerance_s` from now (replays), or no digest that matches; returns the parsed event otherwise.
 * The header is `t=<unix seconds>,v1=<hex>`, with one more `v1=` per extra secret while the endpoint's
 * secret is being rolled (`t=…,v1=<new>,v1=<old>`): a delivery passes when any of them matches, so a
 * receiver holding either secret accepts it. Every digest is compared, each in constant time.
 */
export class WebhookVerificationError extends Error {
  override name = "WebhookVerificationError";
  readonly reason: "malformed_header" | "timestamp_out_of_tolerance" | "signature_mismatch" | "malformed_body";

  constructor(reason: WebhookVerificationError["reason"], message: string) {
    super(message);
    this.reason = reason;
  }
}

export type WebhookEvent = {
  id: string;
  type: string;
  livemode: boolean;
  created_at: string;
  data: Record<string, unknown>;
};

// At most four signatures: a roll overlap sends two.
const HEADER_PATTERN = /^t=(\d{1,12})((?:,v1=[0-9a-f]{64}){1,4})$/;

export function verifyWebhook(
  rawBody: string | Buffer,
  header: string | undefined,
  secret: string,
  options: { tolerance_s?: number; now_s?: number } = {},
): WebhookEvent {
  const match = header === undefined ? null : HEADER_PATTERN.exec(header);
  if (match === null) {
    throw new WebhookVerificationError("malformed_header", "X-Pos-Signature is missing or not t=<digits>,v1=<hex>…");
  }
  const [, timestamp = "", signatures = ""] = match;
  const digests = signatures
    .split(",v1=")
    .slice(1)
    .map((digest) => Buffer.from(digest, "hex"));
  const tolerance = options.tolerance_s ?? 300;
  const now = options.now_s ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > tolerance) {
    throw new WebhookVerificationError(
      "timestamp_out_of_tolerance",
      "The signature timestamp is outside the tolerance",
    );
  }
  const body = typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : rawBody;
  const expected = createHmac("sha256", secret)
    .update(Buffer.concat([Buffer.from(`${timestamp}.`, "utf8"), body]))
    .digest();
  // No early exit: the time taken does not depend on which digest matched.
  const matched = digests.reduce((found, digest) => timingSafeEqual(expected, digest) || found, false);
  if (!matched) {
    throw new WebhookVerificationError("signature_mismatch", "The signature does not match the body");
  }
  try {
    return JSON.parse(body.toString("utf8")) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError("malformed_body", "The body is not JSON");
  }
}
