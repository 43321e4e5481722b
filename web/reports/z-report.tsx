import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { formatMoney } from "../../src/kernel/money.ts";
import { type DrawerMove, getZReport, type ZReport } from "../lib/api.ts";
import { formatDateTime } from "../lib/format.ts";
import { useResource } from "../lib/resource.ts";
import { session } from "../lib/session.ts";
import { Button, SelectField, Table } from "../ui/index.ts";
import { CashFigures } from "./cash-figures.tsx";
import "./z-report.css";

type Paper = "roll" | "a4";

/** A drawer move's kind as a person reads it. */
export const MOVE_KINDS: Record<DrawerMove["kind"], string> = {
  float: "Opening float",
  sale: "Cash sale",
  return: "Refund",
  pay_in: "Pay-in",
  pay_out: "Pay-out",
};

/** The till as a person reads it: the name it was paired under; a till that is not paired by its own id. */
export const tillNameOf = (report: ZReport) => report.till.name ?? report.till.id;

/**
 * A shift's Z report, the one the till and the dashboard both show and print: the till by name, who
 * opened and closed it, the cash per currency with the counts, everyone who worked the drawer and the
 * drawer's moves other than cash sales. `nav` (a link back) and `children` (what only one app adds,
 * such as the dashboard's full journal) sit around it. The paper is a CSS named page chosen here
 * (z-report.css: an 80 mm roll or A4), so one page prints on either.
 */
export function ZReportView(props: { shiftId: string; nav: ComponentChildren; children?: ComponentChildren }) {
  const [paper, setPaper] = useState<Paper>("roll");
  const [report] = useResource(() => getZReport(props.shiftId), [props.shiftId]);
  return (
    <article class={`z-report paper-${paper}`}>
      <div class="no-print z-actions">
        {props.nav}
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
      {report.state === "loaded" ? (
        <>
          <ZReportSheet report={report.value} />
          {props.children}
        </>
      ) : (
        <>
          <h1>Z report</h1>
          {report.state === "loading" ? (
            <p class="muted">Loading…</p>
          ) : (
            <p class="form-error" role="alert">
              {report.error.message}
            </p>
          )}
        </>
      )}
    </article>
  );
}

function ZReportSheet(props: { report: ZReport }) {
  const { shift } = props.report;
  return (
    <div class="z-sheet">
      <h1>Z report: {tillNameOf(props.report)}</h1>
      <p>{session.value?.merchant.name}</p>
      {shift.livemode ? null : <p class="z-test">TEST shift: no real money</p>}
      <ZReportMeta report={props.report} />
      <CashFigures
        shift={shift}
        caption={shift.status === "open" ? "Cash so far (expected is live)" : "Cash per currency"}
      />
      <Table
        caption="Cashiers"
        rows={props.report.cashiers}
        rowKey={(cashier) => `${cashier.type}:${cashier.id}`}
        empty="Nobody has moved cash yet."
        columns={[
          { header: "Name", cell: (cashier) => cashier.name },
          { header: "Cash sales", numeric: true, cell: (cashier) => String(cashier.cash_sales_count) },
          { header: "Refunds", numeric: true, cell: (cashier) => String(cashier.refunds_count) },
        ]}
      />
      <Table
        caption="Drawer moves other than cash sales, oldest first"
        rows={props.report.cash_moves}
        rowKey={(move) => move.id}
        empty="No drawer moves."
        columns={[
          { header: "Time", cell: (move) => formatDateTime(move.created_at) },
          { header: "Move", cell: (move) => MOVE_KINDS[move.kind] },
          { header: "Amount", numeric: true, cell: (move) => formatMoney(move.currency, move.amount_cents) },
          { header: "Reason", cell: (move) => move.reason ?? "—" },
          { header: "By", cell: (move) => move.actor.name },
        ]}
      />
      <Table
        caption="Discounts and tax"
        rows={props.report.sales.flatMap((sales) => [
          {
            key: sales.currency,
            label: `Discounts (${sales.sales_count} sales)`,
            cents: sales.discount_cents,
            ...sales,
          },
          ...sales.taxes.map((tax) => ({
            ...sales,
            key: `${sales.currency}:${tax.rate_bp}`,
            label: `Tax ${tax.rate_bp / 100} % on ${formatMoney(sales.currency, tax.taxable_cents)}`,
            cents: tax.tax_cents,
          })),
        ])}
        rowKey={(row) => row.key}
        empty="No sales."
        columns={[
          { header: "", cell: (row) => row.label },
          { header: "Amount", numeric: true, cell: (row) => formatMoney(row.currency, row.cents) },
        ]}
      />
      {props.report.cash_moves_has_more ? (
        <p class="muted">More drawer moves than a Z report lists: the shift's full journal has them all.</p>
      ) : null}
    </div>
  );
}

/** Which till and shift, its status, and who opened and closed it when. */
function ZReportMeta(props: { report: ZReport }) {
  const { shift } = props.report;
  return (
    <dl class="z-meta">
      <dt>Till</dt>
      <dd data-testid="z-till">{props.report.till.name ?? "Not paired"}</dd>
      <dt>Till id</dt>
      <dd>
        <code>{shift.till_id}</code>
      </dd>
      <dt>Status</dt>
      <dd>{shift.status}</dd>
      <dt>Opened</dt>
      <dd>
        {formatDateTime(shift.opened_at)} by {props.report.opened_by.name}
      </dd>
      <dt>Closed</dt>
      <dd>
        {shift.closed_at === null
          ? "still open"
          : `${formatDateTime(shift.closed_at)} by ${props.report.closed_by?.name ?? "—"}`}
      </dd>
      {shift.close_note === null ? null : (
        <>
          <dt>Note</dt>
          <dd>{shift.close_note}</dd>
        </>
      )}
      <dt>Shift</dt>
      <dd>
        <code>{shift.id}</code>
      </dd>
    </dl>
  );
}
