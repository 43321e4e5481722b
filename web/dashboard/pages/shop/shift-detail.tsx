import { useState } from "preact/hooks";
import { formatMoney } from "../../../../src/kernel/money.ts";
import type { Page } from "../../../lib/api.ts";
import { formatDateTime } from "../../../lib/format.ts";
import { useResource } from "../../../lib/resource.ts";
import { api, session } from "../../../lib/session.ts";
import { Button, Link, SelectField, Table, toast } from "../../../ui/index.ts";
import { BASE, salePath } from "../../paths.ts";
import { Status } from "../shared.tsx";
import { useActorNames, useTills } from "./actors.tsx";
import { overShort, overShortClass } from "./shifts.tsx";
import type { CashMove, Shift, ShiftCash } from "./types.ts";

const MOVE_KINDS: Record<CashMove["kind"], string> = {
  float: "Opening float",
  sale: "Cash sale",
  return: "Refund",
  pay_in: "Pay-in",
  pay_out: "Pay-out",
};

/** The drawer's figures, one row per line of the Z report and one column per currency. */
const FIGURES: readonly { label: string; value: (cash: ShiftCash) => string }[] = [
  { label: "Opening float", value: (cash) => formatMoney(cash.currency, cash.float_cents) },
  { label: "Cash sales", value: (cash) => formatMoney(cash.currency, cash.cash_sales_cents) },
  { label: "Number of cash sales", value: (cash) => String(cash.cash_sales_count) },
  { label: "Refunds", value: (cash) => formatMoney(cash.currency, -cash.refunds_cents) },
  { label: "Number of refunds", value: (cash) => String(cash.refunds_count) },
  { label: "Pay-ins", value: (cash) => formatMoney(cash.currency, cash.pay_ins_cents) },
  { label: "Pay-outs", value: (cash) => formatMoney(cash.currency, -cash.pay_outs_cents) },
  { label: "Expected in drawer", value: (cash) => formatMoney(cash.currency, cash.expected_cents) },
  {
    label: "Counted",
    value: (cash) => (cash.counted_cents === null ? "—" : formatMoney(cash.currency, cash.counted_cents)),
  },
  { label: "Over/short", value: overShort },
];

type Paper = "roll" | "a4";

/**
 * One shift: its cash per currency, every cash move, and its Z report printed by the browser. The page
 * is its own print layout (dashboard.css, @media print): the dashboard's chrome is hidden and the
 * chosen paper is a named @page, an 80 mm roll or A4.
 */
export function ShiftDetailPage(props: { shiftId: string }) {
  const path = `/v1/shifts/${encodeURIComponent(props.shiftId)}`;
  const [shift] = useResource(() => api.get<Shift>(path), [path]);
  const [firstMoves] = useResource(() => api.get<Page<CashMove>>(`${path}/cash_moves`), [path]);
  // Pages after the first, appended by "More cash moves" (a long shift has hundreds of sales).
  const [more, setMore] = useState<{ data: CashMove[]; next: string | null } | undefined>(undefined);
  const [loadingMore, setLoadingMore] = useState(false);
  const [paper, setPaper] = useState<Paper>("roll");
  const nameOf = useActorNames();
  const { tillName } = useTills();
  if (shift.state !== "loaded") {
    return (
      <>
        <h1>Shift</h1>
        <Status resource={shift} />
      </>
    );
  }
  const value = shift.value;
  return (
    <article class={`z-report paper-${paper}`}>
      <p class="no-print">
        <Link href={`${BASE}/shifts`}>All shifts</Link>
      </p>
      <h1>Z report: {tillName(value.till_id)}</h1>
      <p class="print-only">{session.value?.merchant.name}</p>
      {value.livemode ? null : <p class="z-test">TEST shift: no real money</p>}
      <dl class="facts">
        <dt>Till</dt>
        <dd>
          <code>{value.till_id}</code>
        </dd>
        <dt>Status</dt>
        <dd>{value.status}</dd>
        <dt>Opened</dt>
        <dd>
          {formatDateTime(value.opened_at)} by {nameOf(value.opened_by)}
        </dd>
        <dt>Closed</dt>
        <dd>
          {value.closed_at === null ? "still open" : `${formatDateTime(value.closed_at)} by ${nameOf(value.closed_by)}`}
        </dd>
        {value.close_note === null ? null : (
          <>
            <dt>Note</dt>
            <dd>{value.close_note}</dd>
          </>
        )}
        <dt>Shift</dt>
        <dd>
          <code>{value.id}</code>
        </dd>
      </dl>
      <Table
        caption={value.status === "open" ? "Cash so far (expected is live)" : "Cash per currency"}
        rows={FIGURES}
        rowKey={(figure) => figure.label}
        empty="—"
        columns={[
          { header: "Figure", cell: (figure) => figure.label },
          ...value.cash.map((cash) => ({
            header: cash.currency,
            numeric: true,
            cell: (figure: (typeof FIGURES)[number]) =>
              figure.label === "Over/short" ? (
                <span class={overShortClass(cash)}>{figure.value(cash)}</span>
              ) : (
                figure.value(cash)
              ),
          })),
        ]}
      />
      <section aria-labelledby="moves-title">
        <h2 id="moves-title">Cash moves</h2>
        {firstMoves.state === "loaded" ? (
          <>
            <Table
              caption="Cash moves, oldest first"
              rows={[...firstMoves.value.data, ...(more?.data ?? [])]}
              rowKey={(move) => move.id}
              empty="No cash moves."
              columns={[
                { header: "Time", cell: (move) => formatDateTime(move.created_at) },
                { header: "Move", cell: (move) => MOVE_KINDS[move.kind] },
                {
                  header: "Amount",
                  numeric: true,
                  cell: (move) => formatMoney(move.currency, move.amount_cents),
                },
                {
                  header: "Detail",
                  cell: (move) =>
                    move.sale_id === null ? (
                      (move.reason ?? "—")
                    ) : (
                      <Link href={salePath(move.sale_id)}>{move.return_id === null ? "Sale" : "Sale returned"}</Link>
                    ),
                },
                { header: "By", cell: (move) => nameOf(move.actor) },
              ]}
            />
            {(more === undefined ? firstMoves.value.next_cursor : more.next) === null ? null : (
              <div class="no-print pager">
                <Button
                  busy={loadingMore}
                  onClick={async () => {
                    setLoadingMore(true);
                    try {
                      const cursor = more === undefined ? firstMoves.value.next_cursor : more.next;
                      const page = await api.get<Page<CashMove>>(`${path}/cash_moves`, {
                        query: { cursor: cursor ?? undefined },
                      });
                      setMore({ data: [...(more?.data ?? []), ...page.data], next: page.next_cursor });
                    } catch (caught) {
                      toast(caught instanceof Error ? caught.message : "The cash moves did not load.", "error");
                    } finally {
                      setLoadingMore(false);
                    }
                  }}
                >
                  More cash moves
                </Button>
              </div>
            )}
          </>
        ) : (
          <Status resource={firstMoves} />
        )}
      </section>
      <section class="no-print card" aria-labelledby="print-title">
        <h2 id="print-title">Print</h2>
        <div class="row">
          <SelectField
            label="Paper"
            value={paper}
            onValue={(chosen) => setPaper(chosen === "a4" ? "a4" : "roll")}
            options={[
              { value: "roll", label: "80 mm receipt roll" },
              { value: "a4", label: "A4" },
            ]}
          />
          <Button variant="primary" onClick={() => print()}>
            Print Z report
          </Button>
        </div>
        <p class="muted">Prints the figures and the cash moves loaded above.</p>
      </section>
    </article>
  );
}
