import type { PumpItem } from "../../platform/queue/due-pump.ts";
import { claimDueRows } from "../../platform/queue/due-rows.ts";
import type { PaymentDependencies } from "./dependencies.ts";
import * as queries from "./queries.ts";
import { expireAfterInquiry, inquireClaimed } from "./refresh.ts";

/** The worker pools' claims of due payments (`queue/due-rows.ts`): the poller's and the code expiry's. */

/**
 * The gateway-poller's claim (`claimDueRows`): up to `limit` payments whose poll is due, each an
 * item that asks about it; a paid one settles.
 */
export async function claimDuePaymentPolls(
  dependencies: PaymentDependencies,
  limit: number,
): Promise<readonly PumpItem[]> {
  return claimDueRows(dependencies, queries.DUE_PAYMENTS, "poll", limit, (payment) =>
    inquireClaimed(dependencies, payment, {}),
  );
}

/**
 * The code-expiry pool's claim (`claimDueRows`): up to `limit` pending payments whose window has
 * closed, each an item that expires it after its last inquiry; one whose inquiry cannot decide is left
 * pending, claimed again after its backoff.
 */
export async function claimDuePaymentExpiries(
  dependencies: PaymentDependencies,
  limit: number,
): Promise<readonly PumpItem[]> {
  return claimDueRows(dependencies, queries.DUE_PAYMENTS, "expiry", limit, async (payment) =>
    expireAfterInquiry(dependencies, await inquireClaimed(dependencies, payment, { force: true })),
  );
}
