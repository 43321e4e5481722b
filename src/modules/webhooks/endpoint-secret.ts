import { type Config, requireWebhookSecretKey } from "../../platform/config.ts";
import type { SecretKeyring } from "./secret-box.ts";

/** The operator keys that seal endpoint secrets: the current one, and the previous during a rotation. */
export function keyringOf(config: Config): SecretKeyring {
  return { current: requireWebhookSecretKey(config), previous: config.webhook.previousSecretKey };
}

/** Binds a sealed secret to its endpoint: a ciphertext copied onto another row does not open. */
export const associatedDataOf = (endpoint: { merchant_id: string; id: string }) =>
  `${endpoint.merchant_id}/${endpoint.id}`;
