import { parseArgs } from "node:util";
import {
  createMerchantBody,
  merchants,
  mintKeyBody,
  payoutDestinationBody,
  setStatusBody,
  setTimezoneBody,
} from "../../src/modules/merchants/index.ts";
import { payouts, reversePayoutBody } from "../../src/modules/payouts/index.ts";
import { resealTwoFactorSecrets } from "../../src/modules/sessions/index.ts";
import { webhooks } from "../../src/modules/webhooks/index.ts";
import { type Config, ConfigError, loadConfig, requireDatabaseUrl } from "../../src/platform/config.ts";
import { createConfiguredDatabase, type Database } from "../../src/platform/db/pool.ts";
import { ApiError } from "../../src/platform/errors.ts";
import { parseRequestPart } from "../../src/platform/http/validation.ts";
import { createLogger } from "../../src/platform/telemetry/logger.ts";

/**
 * The operator CLI: `npm run admin -- <command> [--option value …]`. It calls the same service
 * functions and validates with the same schemas as /admin/v1, and prints JSON.
 */
const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  create-merchant --name N --email E --password P [--type business|individual|agent]
                  [--status pending|active|suspended] [--fee-bps N] [--fee-fixed-cents N]
                  [--payout-msisdn 263…] [--payout-verified] [--timezone Africa/Harare]
  get-merchant --merchant mch_…
  set-status --merchant mch_… --status pending|active|suspended
  set-timezone --merchant mch_… --timezone Africa/Harare
  list-keys --merchant mch_…
  create-key --merchant mch_… --mode test|live
  revoke-key --merchant mch_… --key key_…
  set-payout-destination --merchant mch_… --msisdn 263… [--verified]
                           (in the test world, a wallet ending 0000 rejects payouts, 0096 fails once)
  get-payout --payout po_…
  reverse-payout --payout po_… [--reason text]
                           a confirmed payout's amount returns to the balance (payout.reversed)
  reseal-webhook-secrets   re-encrypt every webhook secret and two-factor (TOTP) secret under
                           WEBHOOK_SECRET_ENCRYPTION_KEY (run with the old key as
                           WEBHOOK_SECRET_ENCRYPTION_KEY_PREVIOUS)`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: "string" },
    email: { type: "string" },
    password: { type: "string" },
    type: { type: "string" },
    status: { type: "string" },
    "fee-bps": { type: "string" },
    "fee-fixed-cents": { type: "string" },
    "payout-msisdn": { type: "string" },
    "payout-verified": { type: "boolean" },
    timezone: { type: "string" },
    merchant: { type: "string" },
    mode: { type: "string" },
    key: { type: "string" },
    msisdn: { type: "string" },
    verified: { type: "boolean" },
    payout: { type: "string" },
    reason: { type: "string" },
    help: { type: "boolean" },
  },
});

const optionalNumber = (value: string | undefined) => (value === undefined ? undefined : Number(value));
const withoutUndefined = (object: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));

function requireMerchant(): string {
  if (values.merchant === undefined) {
    throw new ApiError({
      status: 400,
      type: "invalid_request",
      code: "parameter_missing",
      message: "--merchant is required",
    });
  }
  return values.merchant;
}

async function run(command: string | undefined, database: Database, config: Config): Promise<unknown> {
  switch (command) {
    case "create-merchant": {
      const input = parseRequestPart(
        createMerchantBody,
        withoutUndefined({
          name: values.name,
          email: values.email,
          password: values.password,
          type: values.type,
          status: values.status,
          fee_bps: optionalNumber(values["fee-bps"]),
          fee_fixed_cents: optionalNumber(values["fee-fixed-cents"]),
          payout_msisdn: values["payout-msisdn"],
          payout_verified: values["payout-verified"],
          timezone: values.timezone,
        }),
        "options",
      );
      const created = await merchants.createMerchant(database, input);
      return {
        id: created.merchant.id,
        name: created.merchant.name,
        status: created.merchant.status,
        timezone: created.merchant.timezone,
        email: created.email,
        test_secret_key: created.testKey.secretKey,
        live_secret_key: created.liveKey.secretKey,
      };
    }
    case "get-merchant":
      return merchants.getMerchant(database, requireMerchant());
    case "set-status": {
      const input = parseRequestPart(setStatusBody, { status: values.status }, "options");
      return merchants.setStatus(database, requireMerchant(), input.status);
    }
    case "set-timezone": {
      const input = parseRequestPart(setTimezoneBody, { timezone: values.timezone }, "options");
      return merchants.setTimezone(database, requireMerchant(), input.timezone);
    }
    case "list-keys":
      return merchants.listApiKeys(database, requireMerchant());
    case "create-key": {
      const input = parseRequestPart(mintKeyBody, { mode: values.mode }, "options");
      const minted = await merchants.createApiKey(database, requireMerchant(), input.mode === "live");
      return { id: minted.key.id, livemode: minted.key.livemode, secret_key: minted.secretKey };
    }
    case "revoke-key":
      return merchants.revokeApiKey(database, { merchantId: requireMerchant(), id: values.key ?? "", livemode: null });
    case "set-payout-destination": {
      const input = parseRequestPart(
        payoutDestinationBody,
        { msisdn: values.msisdn, verified: values.verified ?? false },
        "options",
      );
      return merchants.setPayoutDestination(database, requireMerchant(), input);
    }
    case "get-payout":
      return payouts.getPayoutById(database, values.payout ?? "");
    case "reverse-payout": {
      const input = parseRequestPart(reversePayoutBody, withoutUndefined({ reason: values.reason }), "options");
      return payouts.reversePayout(database, values.payout ?? "", { reason: input?.reason ?? null });
    }
    case "reseal-webhook-secrets": {
      // Both kinds of secret are sealed under the same key: a rotation re-encrypts them together.
      const endpoints = await webhooks.resealSecrets(database, config);
      const twoFactor = await resealTwoFactorSecrets(database, config);
      return { resealed: endpoints.resealed, resealed_two_factor: twoFactor.resealed };
    }
    default:
      process.stderr.write(`${USAGE}\n`);
      process.exit(command === undefined || values.help === true ? 0 : 2);
  }
}

try {
  const config = loadConfig();
  const database = await createConfiguredDatabase(config, {
    url: requireDatabaseUrl(config),
    logger: createLogger({ level: config.logLevel, service: "admin-cli" }),
    applicationName: "admin-cli",
  });
  try {
    process.stdout.write(`${JSON.stringify(await run(positionals[0], database, config), null, 2)}\n`);
  } finally {
    await database.end();
  }
} catch (error) {
  if (error instanceof ApiError) {
    process.stderr.write(`${JSON.stringify(error.toEnvelope())}\n`);
    process.exit(1);
  }
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
