import { withFreshCodes } from "../../gateway/code-collisions.ts";
import type { WalletGateways } from "../../gateway/wallet-gateway.ts";
import type { Config } from "../../platform/config.ts";
import { type AnyRoute, defineRoute } from "../../platform/http/route.ts";
import { instantTransfer } from "../money-out/index.ts";
import * as accountLookup from "./account-lookup.ts";
import * as bankChanges from "./bank-changes.ts";
import {
  accountLookupQuery,
  accountLookupSchema,
  type BankChangeRow,
  bankChangeSchema,
  claimWithdrawalBody,
  createBankChangeBody,
  createWithdrawalBody,
  idParams,
  type WithdrawalRow,
  withdrawalSchema,
} from "./schemas.ts";
import * as withdrawals from "./withdrawals.ts";

export function presentWithdrawal(config: Config, withdrawal: WithdrawalRow) {
  return {
    id: withdrawal.id,
    object: "withdrawal_code" as const,
    livemode: withdrawal.livemode,
    status: withdrawal.status,
    amount_cents: withdrawal.amount_cents,
    currency: withdrawal.currency,
    code: withdrawal.code,
    qr_png_data_url: withdrawals.withdrawalQrPngDataUrlOf(config, withdrawal.code),
    deep_link: withdrawals.withdrawalDeepLinkOf(config, withdrawal.code),
    reference: withdrawal.reference,
    expires_at: withdrawal.expires_at.toISOString(),
    redeemed_at: withdrawal.redeemed_at?.toISOString() ?? null,
    customer_msisdn: withdrawal.customer_msisdn,
    created_at: withdrawal.created_at.toISOString(),
  };
}

export function presentBankChange(change: BankChangeRow) {
  return {
    id: change.id,
    object: "bank_change" as const,
    livemode: change.livemode,
    status: change.status,
    amount_cents: change.amount_cents,
    currency: change.currency,
    destination_msisdn: change.destination_msisdn,
    recipient_name: change.recipient_name,
    narration: change.narration,
    reference: change.reference,
    gateway_reference: change.gateway_reference,
    failure_reason: change.failure_reason,
    completed_at: change.completed_at?.toISOString() ?? null,
    created_at: change.created_at.toISOString(),
  };
}

/** A withdrawal code's answer is stored without its QR image, drawn again from the code on replay. */
const qrDrawnOnReplay: AnyRoute["derivedOnReplay"] = {
  field: "qr_png_data_url",
  derive: (code, config) => withdrawals.withdrawalQrPngDataUrlOf(config, String(code.code)),
};

/**
 * Withdrawal codes and change to wallet (the gateway moves the money).
 * Longer than 70 lines as a list of route declarations (a container, docs/conventions.md); each of its
 * handlers keeps to the rule.
 */
export function agentRoutes(gateways: WalletGateways): AnyRoute[] {
  return [
    defineRoute({
      method: "post",
      path: "/v1/agent/withdrawal_codes",
      operationId: "createWithdrawalCode",
      summary: "Issue a cash-out code and QR; the balance is credited when the customer claims it",
      tags: ["Agent"],
      auth: { keys: "both", owner: "session" },
      idempotent: true,
      derivedOnReplay: qrDrawnOnReplay,
      request: { body: createWithdrawalBody },
      responses: { 201: { description: "The pending withdrawal code.", schema: withdrawalSchema } },
      handler: async ({ body, tenant, config, database, logger, transaction }) => {
        // Each attempt issues its code outside the transaction; a code still pending elsewhere aborts
        // the attempt's transaction, and the next attempt asks the gateway again.
        return withFreshCodes(logger, async () => {
          const prepared = await withdrawals.prepareWithdrawal({ config, database, logger, gateways }, tenant, body);
          return transaction(async (tx) => ({
            status: 201,
            body: presentWithdrawal(config, await withdrawals.recordWithdrawal(tx, config, tenant, prepared)),
          }));
        });
      },
    }),
    defineRoute({
      method: "get",
      path: "/v1/agent/withdrawal_codes/:id",
      operationId: "getWithdrawalCode",
      summary: "A withdrawal code; while pending, refreshed from the gateway (throttled: poll freely)",
      tags: ["Agent"],
      auth: { keys: "both", owner: "session" },
      request: { params: idParams },
      responses: { 200: { description: "The withdrawal code.", schema: withdrawalSchema } },
      handler: async ({ params, tenant, config, database, logger }) => {
        const withdrawal = await withdrawals.getWithdrawal(database, tenant, params.id);
        return {
          body: presentWithdrawal(
            config,
            await withdrawals.refreshWithdrawal({ config, database, logger, gateways }, withdrawal),
          ),
        };
      },
    }),
    defineRoute({
      method: "post",
      path: "/v1/agent/withdrawal_codes/:id/claim",
      operationId: "claimTestWithdrawalCode",
      summary: "Test world only: the customer claims the code now (instant settle); 403 for live codes",
      tags: ["Agent"],
      auth: { keys: "test" },
      idempotent: true,
      derivedOnReplay: qrDrawnOnReplay,
      request: { params: idParams, body: claimWithdrawalBody },
      responses: { 200: { description: "The redeemed withdrawal code.", schema: withdrawalSchema } },
      handler: async ({ params, body, tenant, config, database, logger }) => ({
        body: presentWithdrawal(
          config,
          await withdrawals.claimTestWithdrawal(
            { config, database, logger, gateways },
            tenant,
            params.id,
            body?.customer_msisdn ?? null,
          ),
        ),
      }),
    }),
    defineRoute({
      method: "post",
      path: "/v1/agent/bank_changes",
      operationId: "createBankChange",
      summary: "Send change to a customer's wallet, at once, from the balance (at most USD 5.00)",
      tags: ["Agent"],
      auth: { keys: "both", owner: "step_up" },
      idempotent: true,
      request: { body: createBankChangeBody },
      responses: { 201: { description: "The completed change-to-wallet.", schema: bankChangeSchema } },
      handler: async ({ body, tenant, config, database, logger, idempotencyKey, transaction }) => {
        const dependencies = { config, database, logger, gateways };
        bankChanges.checkBankChangeLimit(config, body);
        const reserved = await bankChanges.reserveBankChange(
          dependencies,
          tenant,
          body,
          instantTransfer.requireIdempotencyKey(idempotencyKey),
        );
        return instantTransfer.replyToStep(await bankChanges.proceedBankChange(dependencies, reserved), {
          transaction,
          complete: bankChanges.completeBankChange,
          fail: (row, reason) => bankChanges.failBankChange(database, row, reason),
          reload: (row) => bankChanges.reloadBankChange(database, row),
          present: presentBankChange,
          failed: bankChanges.bankChangeFailedError,
        });
      },
    }),
    defineRoute({
      method: "get",
      path: "/v1/agent/bank_changes/:id",
      operationId: "getBankChange",
      summary: "A change-to-wallet",
      tags: ["Agent"],
      auth: { keys: "both", owner: "session" },
      request: { params: idParams },
      responses: { 200: { description: "The change-to-wallet.", schema: bankChangeSchema } },
      handler: async ({ params, tenant, database }) => ({
        body: presentBankChange(await bankChanges.getBankChange(database, tenant, params.id)),
      }),
    }),
    defineRoute({
      method: "get",
      path: "/v1/account/lookup",
      operationId: "lookupAccount",
      summary: "The holder of a wallet (263…) and its account numbers, from the wallet network",
      tags: ["Agent"],
      auth: { keys: "both", owner: "session" },
      request: { query: accountLookupQuery },
      responses: { 200: { description: "The wallet holder.", schema: accountLookupSchema } },
      handler: async ({ query, tenant }) => {
        const holder = await accountLookup.lookupAccount({ gateways }, tenant, query);
        return {
          body: {
            object: "account_lookup" as const,
            livemode: tenant.livemode,
            msisdn: holder.msisdn,
            currency: query.currency,
            name: holder.name,
            accounts: holder.accounts.map((account) => ({
              account_number: account.accountNumber,
              currency: account.currency,
              type: account.type,
            })),
          },
        };
      },
    }),
  ];
}
