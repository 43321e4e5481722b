import { type BodyOf, type CallOptions, call, type QueryOf, type Schema } from "./call.ts";

/** Payouts to the merchant's verified wallet, and the merchant's profile that names it. */
export type Payout = Schema<"Payout">;
export type MerchantProfile = Schema<"MerchantProfile">;

export const listPayouts = (query: QueryOf<"/v1/payouts", "get">) => call("get", "/v1/payouts", { query });

/** Money: `options.idempotencyKey` is the action's key. */
export const createPayout = (body: BodyOf<"/v1/payouts", "post">, options: CallOptions) =>
  call("post", "/v1/payouts", { ...options, body });

export const getMerchantProfile = () => call("get", "/v1/me");
