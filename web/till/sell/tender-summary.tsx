import { useEffect, useState } from "preact/hooks";
import { type Currency, formatMoney } from "../../../src/kernel/money.ts";
import { currentExchangeRates, type ExchangeRate, rateFor } from "../../lib/api/exchange-rates.ts";
import type { SaleTender } from "../../lib/api.ts";
import { Button } from "../../ui/index.ts";
import { setter, timeOf } from "../today/rate-of-the-day.tsx";
import type { Tally, TenderInput } from "./tender-plan.ts";

/** The last rates read, for a Pay step opened offline (a cash sale is priced with the rate the till had). */
const RATES_KEY = "till.rates";

/**
 * The rate of the day from `base` to the other currency: read when the Pay step opens, the last one
 * read when the network is down; undefined while reading or when none is set.
 */
export function useDayRate(base: Currency, other: Currency): { rate: ExchangeRate | undefined; reading: boolean } {
  const [state, setState] = useState<{ rate: ExchangeRate | undefined; reading: boolean }>({
    rate: undefined,
    reading: true,
  });
  useEffect(() => {
    const pick = (rates: readonly ExchangeRate[]) =>
      setState({ rate: rateFor(rates, { base, other }), reading: false });
    currentExchangeRates().then(
      (answer) => {
        pick(answer.data);
        try {
          localStorage.setItem(RATES_KEY, JSON.stringify(answer.data));
        } catch {
          // Storage refused: offline the Pay step takes the basket's currency only.
        }
      },
      () => {
        try {
          pick(JSON.parse(localStorage.getItem(RATES_KEY) ?? "[]") as ExchangeRate[]);
        } catch {
          pick([]);
        }
      },
    );
  }, [base, other]);
  return state;
}

/** "USD 1 = ZWG 26.7843 · set 08:12 by Ben", as Today shows it, or why there is none. */
export function RateLine(props: { base: Currency; other: Currency; rate: ExchangeRate | undefined; reading: boolean }) {
  const { rate } = props;
  return (
    <p class="tender-rate" data-testid="tender-rate">
      {rate !== undefined
        ? `Rate of the day: ${rate.base} 1 = ${rate.other} ${rate.rate} · set ${timeOf(rate.created_at)} by ${setter(rate)}`
        : props.reading
          ? "Reading the rate of the day…"
          : `No rate of the day for ${props.base} → ${props.other}: only ${props.base} can be taken (a manager sets the rate on Today).`}
    </p>
  );
}

/** The total, what the tenders pay and what is still due, in the basket's currency and the other one. */
export function TenderFigures(props: { base: Currency; other: Currency; totalCents: number; tally: Tally }) {
  const { base, other, tally } = props;
  const dueOther = tally.dueOtherCents === null ? "" : ` · ${formatMoney(other, tally.dueOtherCents)}`;
  return (
    <dl class="cart-figures tender-figures" aria-live="polite">
      <dt>Total</dt>
      <dd>{formatMoney(base, props.totalCents)}</dd>
      <dt>Paid so far</dt>
      <dd data-testid="tender-paid">{formatMoney(base, tally.paidCents)}</dd>
      <dt>Still due</dt>
      <dd data-testid="tender-due">
        {formatMoney(base, tally.dueCents)}
        {dueOther}
      </dd>
    </dl>
  );
}

const KIND = { cash: "Cash", wallet: "Wallet" } as const;
const STATUS = { paid: "paid", pending: "waiting for the customer", failed: "failed: paid nothing" } as const;

/** What a tender in another currency counts for, beside it. */
const creditNote = (base: Currency, currency: Currency, creditCents: number) =>
  currency === base ? "" : ` (counts ${formatMoney(base, creditCents)})`;

/** The tenders a pending split sale has (from the server), each with its state. */
export function SentTenders(props: { base: Currency; tenders: readonly SaleTender[] }) {
  return (
    <ul class="tender-list" aria-label="Tenders taken">
      {props.tenders.map((tender, index) => (
        <li key={`${index}-${tender.kind}`} data-status={tender.status}>
          {KIND[tender.kind]} {formatMoney(tender.currency, tender.amount_cents)}
          {creditNote(props.base, tender.currency, tender.credit_cents)} · {STATUS[tender.status]}
        </li>
      ))}
    </ul>
  );
}

/** The tenders taken here and not sent yet, each removable. */
export function NewTenders(props: {
  base: Currency;
  tenders: readonly (TenderInput & { creditCents: number })[];
  onRemove: (index: number) => void;
}) {
  if (props.tenders.length === 0) return null;
  return (
    <ul class="tender-list" aria-label="Tenders to send">
      {props.tenders.map((tender, index) => {
        const text = `${KIND[tender.kind]} ${formatMoney(tender.currency, tender.amountCents)}`;
        return (
          <li key={`${index}-${text}`}>
            {text}
            {creditNote(props.base, tender.currency, tender.creditCents)}
            <Button variant="danger" aria-label={`Remove ${text}`} onClick={() => props.onRemove(index)}>
              ×
            </Button>
          </li>
        );
      })}
    </ul>
  );
}
