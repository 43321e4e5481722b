import type { Gateways, PaymentGateway, PayoutGateway } from "../../gateway/wallet-gateway.ts";
import type { Config } from "../../platform/config.ts";
import type { Database } from "../../platform/db/pool.ts";
import type { Logger } from "../../platform/telemetry/logger.ts";

/** What the payout-processor's passes need: the database, the timings, the worlds' gateways, a logger. */
export type PayoutDependencies = {
  database: Database;
  config: Config;
  gateways: Gateways<PaymentGateway & PayoutGateway>;
  logger: Logger;
};
