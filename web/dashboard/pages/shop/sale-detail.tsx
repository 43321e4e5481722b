import { formatMoney } from "../../../../src/kernel/money.ts";
import { perCurrencyText, tenderRow } from "../../../../src/kernel/tender-text.ts";
import { type Actor, getSale, type Sale } from "../../../lib/api.ts";
import { formatDateTime } from "../../../lib/format.ts";
import { useResource } from "../../../lib/resource.ts";
import { Link, Table } from "../../../ui/index.ts";
import { BASE, paymentPath, shiftPath } from "../../paths.ts";
import { Status } from "../shared.tsx";
import { useActorNames, useTills } from "./actors.tsx";
import { cashierOf } from "./sales.tsx";

/**
 * One sale: its lines, tender (a split sale's every tender, with its rate and state, and the change)
 * and who rang it up, and every return of it with what came back and the refund per currency.
 */
export function SaleDetailPage(props: { saleId: string }) {
  const [sale] = useResource(() => getSale(props.saleId), [props.saleId]);
  const nameOf = useActorNames();
  const { tillName } = useTills();
  if (sale.state !== "loaded") {
    return (
      <>
        <h1>Sale</h1>
        <Status resource={sale} />
      </>
    );
  }
  const value = sale.value;
  return (
    <>
      <p>
        <Link href={`${BASE}/sales`}>All sales</Link>
      </p>
      <h1>Sale of {formatMoney(value.currency, value.total_cents)}</h1>
      <SaleFacts sale={value} nameOf={nameOf} tillName={tillName} />
      <Table
        caption="Lines"
        rows={value.items.map((item, line) => ({ ...item, line }))}
        rowKey={(item) => String(item.line)}
        empty="—"
        columns={[
          { header: "Item", cell: (item) => item.name },
          { header: "Qty", numeric: true, cell: (item) => item.qty },
          { header: "Unit price", numeric: true, cell: (item) => formatMoney(value.currency, item.unit_cents) },
          { header: "Line total", numeric: true, cell: (item) => formatMoney(value.currency, item.line_total_cents) },
          {
            header: "Returned",
            numeric: true,
            cell: (item) =>
              value.returns
                .flatMap((saleReturn) => saleReturn.items)
                .filter((returned) => returned.line === item.line)
                .reduce((sum, returned) => sum + returned.qty, 0),
          },
        ]}
      />
      <SaleTenders sale={value} />
      <SaleReturns sale={value} nameOf={nameOf} tillName={tillName} />
    </>
  );
}

/** Who reads a sale's actors and tills by name (./actors.tsx). */
type Names = {
  nameOf: (actor: Actor | null) => string;
  tillName: (tillId: string | null) => string;
};

/** The sale's status, time, tender, cashier, till and shift, note, receipt and id. */
function SaleFacts({ sale, nameOf, tillName }: { sale: Sale } & Names) {
  return (
    <dl class="facts">
      <dt>Status</dt>
      <dd>{sale.status}</dd>
      <dt>Taken</dt>
      <dd>{formatDateTime(sale.taken_at)}</dd>
      <dt>Tender</dt>
      <dd>
        {sale.tender}
        {sale.payment_id === null ? null : (
          <>
            {" "}
            (<Link href={paymentPath(sale.payment_id)}>payment</Link>)
          </>
        )}
      </dd>
      <dt>Cashier</dt>
      <dd>{cashierOf(sale, nameOf)}</dd>
      <dt>Till</dt>
      <dd>
        {tillName(sale.till_id)}
        {sale.shift_id === null ? null : (
          <>
            {" "}
            (<Link href={shiftPath(sale.shift_id)}>its shift</Link>)
          </>
        )}
      </dd>
      {sale.note === null ? null : (
        <>
          <dt>Note</dt>
          <dd>{sale.note}</dd>
        </>
      )}
      <dt>Receipt</dt>
      <dd>{sale.receipt_url === null ? "—" : <a href={sale.receipt_url}>Open the receipt</a>}</dd>
      <dt>Sale</dt>
      <dd>
        <code>{sale.id}</code>
      </dd>
    </dl>
  );
}

/** A split sale's tenders, oldest first, and the change it gave, as its receipt prints them. */
function SaleTenders({ sale }: { sale: Sale }) {
  if (sale.tender !== "split") return null;
  const { change } = sale;
  return (
    <>
      <Table
        caption="Tenders"
        rows={sale.tenders.map((tender, index) => ({ ...tenderRow(sale.currency, tender), index }))}
        rowKey={(tender) => String(tender.index)}
        empty="—"
        columns={[
          { header: "Tender", cell: (tender) => tender.label },
          { header: "Amount", numeric: true, cell: (tender) => tender.amount },
        ]}
      />
      <p>
        Change: {change === null ? "none" : formatMoney(change.currency, change.amount_cents)}. Paid so far{" "}
        {formatMoney(sale.currency, sale.paid_cents)}, still due {formatMoney(sale.currency, sale.due_cents)}.
      </p>
    </>
  );
}

/** Every return of the sale: when, by whom, why, its receipt and the lines that came back. */
function SaleReturns({ sale, nameOf, tillName }: { sale: Sale } & Names) {
  return (
    <section aria-labelledby="returns-title">
      <h2 id="returns-title">Returns</h2>
      {sale.returns.length === 0 ? <p class="muted">Nothing came back.</p> : null}
      {sale.returns.map((saleReturn, index) => (
        <div class="card" key={saleReturn.id}>
          <h3>
            Return {index + 1}:{" "}
            {saleReturn.refunds.length === 0
              ? formatMoney(saleReturn.currency, saleReturn.refund_cents)
              : perCurrencyText(saleReturn.refunds)}{" "}
            refunded in cash
          </h3>
          <p>
            {formatDateTime(saleReturn.created_at)} by {nameOf(saleReturn.actor)}
            {saleReturn.till_id === null ? "" : ` at ${tillName(saleReturn.till_id)}`}
            {saleReturn.reason === null ? "" : `: ${saleReturn.reason}`}
            {saleReturn.receipt_url === null ? null : (
              <>
                {" "}
                (<a href={saleReturn.receipt_url}>return receipt</a>)
              </>
            )}
          </p>
          <Table
            caption={`Lines returned in return ${index + 1}`}
            rows={saleReturn.items}
            rowKey={(item) => String(item.line)}
            empty="—"
            columns={[
              { header: "Item", cell: (item) => item.name },
              { header: "Qty", numeric: true, cell: (item) => item.qty },
              {
                header: "Refund",
                numeric: true,
                cell: (item) => formatMoney(saleReturn.currency, item.line_total_cents),
              },
            ]}
          />
        </div>
      ))}
    </section>
  );
}
