import type { WalletGateways } from "../../../gateway/wallet-gateway.ts";
import type { PumpDefinition } from "../../../platform/queue/due-pump.ts";
import { DUE_BY_TIME_INTERVAL_MS } from "../../../platform/queue/due-rows.ts";
import { claimDuePayoutPasses } from "../processing.ts";
import { selectDueBacklog } from "../queries.ts";

/**
 * payout-processor: claims the payouts whose next pass is due (a request's first submission, a retry,
 * the pass that confirms) in batches, at most `DUE_BY_TIME_INTERVAL_MS` late, and makes each pass,
 * named and counted as the `process_payout` job it was: the processor's cost follows the passes
 * made, not a job per payout.
 */
export function processDuePayoutsPump(gateways: WalletGateways): PumpDefinition {
  return {
    name: "process_due_payouts",
    task: "process_payout",
    channel: null,
    intervalMs: DUE_BY_TIME_INTERVAL_MS,
    build: ({ config, database, logger }) => ({
      claim: (limit) => claimDuePayoutPasses({ config, database, logger, gateways }, limit),
      backlog: () => selectDueBacklog(database),
    }),
  };
}
