import type { SaleRow } from "./schemas.ts";
import { netAmountCentsOf } from "./tender-refunds.ts";
import type { SaleTenderRow } from "./tender-schemas.ts";

/**
 * A sale's tenders as the API shows them (`tenders`, `paid_cents`, `due_cents`, `change`), for every
 * sale: a split sale's rows, or one entry synthesized for a sale of one tender (cash: paid, with what
 * was handed over when the till said; wallet: as its sale stands, pending, paid or failed).
 */
export function presentTenders(sale: SaleRow, rows: readonly SaleTenderRow[]) {
  const tenders = sale.tender === "split" ? rows.map(presentRow) : [singleTenderOf(sale)];
  const paidCents = tenders.reduce((sum, tender) => sum + (tender.status === "paid" ? tender.contributed_cents : 0), 0);
  return {
    tenders,
    paid_cents: paidCents,
    due_cents: Math.max(sale.total_cents - paidCents, 0),
    change: changeOf(sale, rows),
  };
}

function presentRow(row: SaleTenderRow) {
  return {
    kind: row.kind,
    currency: row.currency,
    amount_cents: row.amount_cents,
    credit_cents: row.credit_cents,
    contributed_cents: row.contributed_cents,
    net_amount_cents: netAmountCentsOf(row),
    exchange_rate_id: row.exchange_rate_id,
    other_per_base_micros: row.other_per_base_micros,
    status: row.status,
    payment_id: row.payment_id,
  };
}

function singleTenderOf(sale: SaleRow): ReturnType<typeof presentRow> {
  const amountCents = sale.tendered_cents ?? sale.total_cents;
  return {
    kind: sale.tender === "wallet" ? "wallet" : "cash",
    currency: sale.currency,
    amount_cents: amountCents,
    credit_cents: amountCents,
    contributed_cents: sale.total_cents,
    net_amount_cents: sale.status === "completed" ? sale.total_cents : 0,
    exchange_rate_id: null,
    other_per_base_micros: null,
    status: sale.status === "completed" ? "paid" : sale.status === "pending" ? "pending" : "failed",
    payment_id: sale.payment_id,
  };
}

function changeOf(sale: SaleRow, rows: readonly SaleTenderRow[]) {
  if (sale.tender !== "split") {
    const changeCents = (sale.tendered_cents ?? sale.total_cents) - sale.total_cents;
    return changeCents > 0 ? { currency: sale.currency, amount_cents: changeCents } : null;
  }
  // A sale gives all its change in one currency (split-sale.ts): several tenders' change adds up.
  const giving = rows.filter((row) => row.change_currency !== null && row.change_cents !== null);
  const currency = giving[0]?.change_currency;
  return currency == null
    ? null
    : { currency, amount_cents: giving.reduce((sum, row) => sum + (row.change_cents ?? 0), 0) };
}
