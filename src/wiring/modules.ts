import type { WalletGateways } from "../gateway/wallet-gateway.ts";
import { agentModule } from "../modules/agent/index.ts";
import { auditModule } from "../modules/audit/index.ts";
import { cashiersModule } from "../modules/cashiers/index.ts";
import { catalogModule } from "../modules/catalog/index.ts";
import { checkoutModule } from "../modules/checkout/index.ts";
import { eventsModule } from "../modules/events/index.ts";
import { exchangeRatesModule } from "../modules/exchange-rates/index.ts";
import { ledgerModule } from "../modules/ledger/index.ts";
import { merchantsModule } from "../modules/merchants/index.ts";
import type { PaymentHooks, PaymentWriter } from "../modules/payments/index.ts";
import { paymentsModule, paymentWriterPerDatabase } from "../modules/payments/index.ts";
import { type PayoutWriter, payoutsModule, payoutWriterPerDatabase } from "../modules/payouts/index.ts";
import { type SaleWiring, salePaymentHook, salesModule, saleWritersPerDatabase } from "../modules/sales/index.ts";
import { sessionsModule } from "../modules/sessions/index.ts";
import { shiftsModule } from "../modules/shifts/index.ts";
import { shopProfileModule } from "../modules/shop-profile/index.ts";
import { recordOpenings, stockModule } from "../modules/stock/index.ts";
import { utilitiesModule } from "../modules/utilities/index.ts";
import { webAppsModule } from "../modules/web-apps/index.ts";
import { webhooksModule } from "../modules/webhooks/index.ts";
import type { Database } from "../platform/db/pool.ts";
import type { ModuleFace } from "../platform/module.ts";

/** What the composition hands the modules; each module's face takes the part it needs. */
export type ModuleDependencies = {
  gateways: WalletGateways;
  /** The stock module's opening moves, for the catalog (stock depends on the catalog, not the reverse). */
  recordOpenings: typeof recordOpenings;
  /** What a payment's end does in the modules built on payments, for every module that ends payments. */
  paymentHooks: PaymentHooks;
  /**
   * The hot paths' batching writers (a payment's creation, a sale's ring-up, a payout's request), built once here so that
   * every request of the process shares them; per database, which comes with the request.
   */
  paymentWriter: (database: Database) => PaymentWriter;
  saleWriters: SaleWiring["saleWriters"];
  payoutWriter: (database: Database) => PayoutWriter;
};

/**
 * The modules built on payments, attached to a payment's end (`modules/payments/hooks.ts`): a wallet
 * sale completes in its payment's settlement transaction and is cancelled in the transaction that
 * ends it unpaid. Every process that can end a payment gets them through `moduleDependencies`: the
 * API's routes (GET refresh, mockpay, a sale's GET) and the pools' tasks (poller, expiry job).
 */
export const paymentHooks: PaymentHooks = [salePaymentHook];

export function moduleDependencies(gateways: WalletGateways): ModuleDependencies {
  return {
    gateways,
    recordOpenings,
    paymentHooks,
    paymentWriter: paymentWriterPerDatabase(),
    saleWriters: saleWritersPerDatabase(),
    payoutWriter: payoutWriterPerDatabase(),
  };
}

/**
 * Every module with routes or tasks, in the order their routes are matched and documented (the
 * OpenAPI document follows it; admin routes come after all of them). money-out has neither: agent
 * and utilities use it.
 */
export const modules: readonly ModuleFace<ModuleDependencies>[] = [
  merchantsModule,
  shopProfileModule,
  sessionsModule,
  cashiersModule,
  auditModule,
  paymentsModule,
  catalogModule,
  stockModule,
  salesModule,
  shiftsModule,
  exchangeRatesModule,
  payoutsModule,
  agentModule,
  utilitiesModule,
  ledgerModule,
  eventsModule,
  webhooksModule,
  checkoutModule,
  webAppsModule,
];
