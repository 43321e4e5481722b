import type { Gateways, PaymentGateway } from "../../gateway/wallet-gateway.ts";
import type { Config } from "../../platform/config.ts";
import type { Database } from "../../platform/db/pool.ts";
import type { Logger } from "../../platform/telemetry/logger.ts";
import type { PaymentHooks } from "./hooks.ts";

/**
 * Payments: created with a code from the world's gateway, settled exactly once.
 *
 * Invariants:
 * - `pending → paid | expired | failed` happens once, by a guarded UPDATE; whoever observes the outcome
 *   first (poller, a GET refresh, mockpay, the expiry job's last inquiry) wins, the others change nothing;
 * - a paid payment credits the merchant exactly once (ledger posting key `payment:<id>:settle`): the
 *   gross from gateway clearing, the fee from the merchant to platform fees;
 * - an expiry is decided only after a last inquiry of the gateway, so a payment paid in the last
 *   second is paid, not expired; an unclear answer (gateway down) is retried, never guessed;
 * - the gateway is asked at most once per `PAYMENT_INQUIRY_MIN_INTERVAL_SECONDS` per payment, across
 *   every replica, however often clients poll.
 *
 * - modules built on payments (sales) attach work to a payment's end through hooks (`hooks.ts`) that
 *   run inside the transaction of the transition, so their effects happen exactly once with it; the
 *   hooks come with the dependencies (`paymentHooks`), given by the composition, never registered.
 *
 * Error codes: `invalid_amount`, `invalid_currency` (400), `gateway_error`, `code_generation_failed`
 * (502), `resource_missing` (404); for mockpay (`finishTestPayment`), `test_mode_only` (403) and
 * `payment_not_pending` (409).
 */

export type PaymentDependencies = {
  database: Database;
  config: Config;
  gateways: Gateways;
  logger: Logger;
  /** What runs inside the transaction that ends a payment (`hooks.ts`); `src/wiring/modules.ts` lists them. */
  paymentHooks: PaymentHooks;
};
/** What the composition gives the routes and tasks that reach payments: the rest comes with each request or job. */
export type PaymentWiring = Pick<PaymentDependencies, "gateways" | "paymentHooks">;
/** What ending a payment takes: the database and the hooks that run in the ending transaction. */
export type PaymentEnding = Pick<PaymentDependencies, "database" | "paymentHooks">;

/** The world's gateway: the live one for a live payment, the test one otherwise. */
export const gatewayOf = (gateways: Gateways, livemode: boolean): PaymentGateway =>
  livemode ? gateways.live : gateways.test;
