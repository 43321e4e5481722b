import { toApiGatewayError } from "../../gateway/api-errors.ts";
import { gatewayOf, type WalletGateway } from "../../gateway/wallet-gateway.ts";
import type { World } from "../../kernel/world.ts";
import { ApiError } from "../../platform/errors.ts";
import type { AgentDependencies } from "./dependencies.ts";

/**
 * The account lookup: who holds a wallet, as the wallet network names them.
 *
 * Error codes: `invalid_msisdn`, `invalid_currency` (400), `account_not_found` (404), `gateway_error` (502).
 */

/** The holder of a wallet and its account numbers, from the world's gateway; 404 `account_not_found`. */
export async function lookupAccount(
  dependencies: Pick<AgentDependencies, "gateways">,
  world: World,
  query: { msisdn: string; currency: "USD" | "ZWG" },
) {
  let holder: Awaited<ReturnType<WalletGateway["lookupAccount"]>>;
  try {
    holder = await gatewayOf(dependencies.gateways, world.livemode).lookupAccount(query);
  } catch (error) {
    throw toApiGatewayError(error);
  }
  if (holder === null) {
    throw new ApiError({
      status: 404,
      type: "invalid_request",
      code: "account_not_found",
      message: `No wallet is registered for ${query.msisdn}.`,
    });
  }
  return holder;
}
