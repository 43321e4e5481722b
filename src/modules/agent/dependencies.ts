import type { Gateways, WalletGateway } from "../../gateway/wallet-gateway.ts";
import type { Config } from "../../platform/config.ts";
import type { Database } from "../../platform/db/pool.ts";
import type { Logger } from "../../platform/telemetry/logger.ts";

/** What the agent's services use: withdrawal codes, change-to-wallet and the account lookup. */
export type AgentDependencies = {
  database: Database;
  config: Config;
  gateways: Gateways<WalletGateway>;
  logger: Logger;
};
