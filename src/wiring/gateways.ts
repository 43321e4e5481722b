import { createHttpGateway } from "../gateway/http-client.ts";
import { createSandboxGateway } from "../gateway/sandbox.ts";
import { type Gateways, GatewayUnavailableError, type PaymentGateway } from "../gateway/wallet-gateway.ts";
import type { Config } from "../platform/config.ts";

/** Live payments when no gateway is configured: every call fails as an unavailable gateway (502). */
const unconfiguredGateway: PaymentGateway = {
  issuePaymentCode: async () => {
    throw new GatewayUnavailableError("no live wallet gateway is configured");
  },
  inquirePaymentCode: async () => {
    throw new GatewayUnavailableError("no live wallet gateway is configured");
  },
};

/** The gateway of each world: the sandbox answers test keys; the gateway at GATEWAY_URL, live keys. */
export function createGateways(config: Config): Gateways {
  return {
    test: createSandboxGateway({ autoSettleMs: config.sandboxAutoSettleMs }),
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
