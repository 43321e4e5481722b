import { createHttpGateway } from "../gateway/http-client.ts";
import { createSandboxGateway } from "../gateway/sandbox.ts";
import { GatewayUnavailableError, type WalletGateway, type WalletGateways } from "../gateway/wallet-gateway.ts";
import type { Config } from "../platform/config.ts";

const unconfigured = async (): Promise<never> => {
  throw new GatewayUnavailableError("no live wallet gateway is configured");
};

/** The live world when no gateway is configured: every call fails as an unavailable gateway (502). */
const unconfiguredGateway: WalletGateway = {
  issuePaymentCode: unconfigured,
  inquirePaymentCode: unconfigured,
  voidPaymentCode: unconfigured,
  submitPayout: unconfigured,
  inquirePayout: unconfigured,
  lookupAccount: unconfigured,
  issueWithdrawalCode: unconfigured,
  inquireWithdrawalCode: unconfigured,
  sendChangeToWallet: unconfigured,
  inquireChangeToWallet: unconfigured,
  payUtility: unconfigured,
  inquireUtilityPayment: unconfigured,
};

/** The gateway of each world: the sandbox answers test keys; the gateway at GATEWAY_URL, live keys. */
export function createGateways(config: Config): WalletGateways {
  return {
    test: createSandboxGateway({ autoSettleMs: config.sandboxAutoSettleMs, payoutSettleMs: config.payoutSettleMs }),
    live:
      config.gateway.url === undefined
        ? unconfiguredGateway
        : createHttpGateway({
            baseUrl: config.gateway.url,
            apiKey: config.gateway.apiKey ?? "",
            timeoutMs: config.gateway.timeoutMs,
            retries: config.gateway.retries,
          }),
  };
}
