import { formatMoney } from "../../../../src/kernel/money.ts";
import { getSale } from "../../../lib/api.ts";
import { formatDateTime } from "../../../lib/format.ts";
import { useResource } from "../../../lib/resource.ts";
import { Link, Table } from "../../../ui/index.ts";
import { BASE, paymentPath, shiftPath } from "../../paths.ts";
import { Status } from "../shared.tsx";
import { useActorNames, useTills } from "./actors.tsx";
import { cashierOf } from "./sales.tsx";

/** One sale: its lines, tender and who rang it up, and every return of it with what came back and the refund. */
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
      <dl class="facts">
        <dt>Status</dt>
        <dd>{value.status}</dd>
        <dt>Taken</dt>
        <dd>{formatDateTime(value.taken_at)}</dd>
        <dt>Tender</dt>
        <dd>
          {value.tender}
          {value.payment_id === null ? null : (
            <>
              {" "}
              (<Link href={paymentPath(value.payment_id)}>payment</Link>)
            </>
          )}
        </dd>
        <dt>Cashier</dt>
        <dd>{cashierOf(value, nameOf)}</dd>
        <dt>Till</dt>
        <dd>
          {tillName(value.till_id)}
          {value.shift_id === null ? null : (
            <>
              {" "}
              (<Link href={shiftPath(value.shift_id)}>its shift</Link>)
            </>
          )}
        </dd>
        {value.note === null ? null : (
          <>
            <dt>Note</dt>
            <dd>{value.note}</dd>
          </>
        )}
        <dt>Receipt</dt>
        <dd>{value.receipt_url === null ? "—" : <a href={value.receipt_url}>Open the receipt</a>}</dd>
        <dt>Sale</dt>
        <dd>
          <code>{value.id}</code>
        </dd>
      </dl>
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
      <section aria-labelledby="returns-title">
        <h2 id="returns-title">Returns</h2>
        {value.returns.length === 0 ? <p class="muted">Nothing came back.</p> : null}
        {value.returns.map((saleReturn, index) => (
          <div class="card" key={saleReturn.id}>
            <h3>
              Return {index + 1}: {formatMoney(saleReturn.currency, saleReturn.refund_cents)} refunded in cash
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
    </>
  );
}
