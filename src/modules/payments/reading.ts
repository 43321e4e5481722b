import type { World } from "../../kernel/world.ts";
import type { Queryable } from "../../platform/db/pool.ts";
import { notFound } from "../../platform/errors.ts";
import { newestFirstPage, type Page } from "../../platform/http/pagination.ts";
import * as queries from "./queries.ts";
import type { PaymentRow, PaymentStatus } from "./schemas.ts";

/** Reading payments as they stand: one (by its world, or by id alone), or a page of them. */

export async function getPayment(database: Queryable, world: World, paymentId: string): Promise<PaymentRow> {
  const payment = await queries.selectPayment(database, world, paymentId);
  if (payment === null) {
    throw notFound(`No such payment: ${paymentId}.`);
  }
  return payment;
}

/** By id alone, for the public checkout (the id is the capability). */
export async function getPaymentById(database: Queryable, paymentId: string): Promise<PaymentRow> {
  const payment = await queries.selectPaymentById(database, paymentId);
  if (payment === null) {
    throw notFound(`No such payment: ${paymentId}.`);
  }
  return payment;
}

export async function listPayments(
  database: Queryable,
  filter: World & {
    status: PaymentStatus | undefined;
    merchantRef: string | undefined;
    from: Date | undefined;
    to: Date | undefined;
    limit: number;
    cursor: string | undefined;
  },
): Promise<Page<PaymentRow>> {
  return newestFirstPage(filter, (keyset) => queries.selectPayments(database, { ...filter, ...keyset }));
}

/** Re-reads a payment whose transition someone else made first. */
export async function current(database: Queryable, payment: PaymentRow): Promise<PaymentRow> {
  return (await queries.selectPaymentById(database, payment.id)) ?? payment;
}
