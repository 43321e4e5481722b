import { useState } from "preact/hooks";
import { formatMoney } from "../../../src/kernel/money.ts";
import { getSale, listSales, type Sale, type SalesReport, salesReport } from "../../lib/api.ts";
import { formatDateTime } from "../../lib/format.ts";
import { useResource } from "../../lib/resource.ts";
import { NetFiguresTable } from "../../reports/index.ts";
import { Button, Dialog, SelectField, Table } from "../../ui/index.ts";
import { cashiers } from "../cashier/cashiers.ts";
import { FindSale } from "../returns/find-sale.tsx";
import { ReturnDialog } from "../returns/return-dialog.tsx";
import { RateOfTheDay } from "./rate-of-the-day.tsx";

/**
 * Today: takings by tender and currency, net sales (refunds included, the same table as the dashboard's
 * Home) and the best sellers (GET /v1/sales/report, today in the merchant's time zone), and the recent
 * sales with their lines. Two requests when opened, one per sale opened; nothing refreshes by itself.
 * A sale not among the recent ones is found by its receipt (FindSale), to take goods back however long
 * ago they were sold.
 */
export function TodayScreen() {
  // "": every sale; a cashier's id: only the sales they recorded (the API's cashier_id filter).
  const [cashierId, setCashierId] = useState("");
  const filter = cashierId === "" ? undefined : cashierId;
  const [report] = useResource(() => salesReport({ cashier_id: filter }), [filter]);
  const [recent] = useResource(() => listSales({ limit: 20, cashier_id: filter }), [filter]);
  const [opened, setOpened] = useState<string | undefined>(undefined);
  const [returning, setReturning] = useState<Sale | undefined>(undefined);
  return (
    <div class="today">
      <h1>Today</h1>
      <CashierFilter cashierId={cashierId} onCashierId={setCashierId} />
      <RateOfTheDay />
      {report.state === "failed" ? (
        <p class="form-error" role="alert">
          {report.error.message}
        </p>
      ) : null}
      {report.state === "loaded" ? <TodaysTakings takings={report.value} /> : null}
      <h2>Returns</h2>
      <FindSale onFound={setOpened} />
      <h2>Recent sales</h2>
      {recent.state === "loaded" ? <RecentSales sales={recent.value.data} onOpen={setOpened} /> : null}
      <SaleDetail
        saleId={opened}
        onClose={() => setOpened(undefined)}
        onReturn={(sale) => {
          setOpened(undefined);
          setReturning(sale);
        }}
      />
      <ReturnDialog
        sale={returning}
        onReturned={() => {}}
        onClose={() => {
          // Back to the sale, which now lists what came back.
          setOpened(returning?.id);
          setReturning(undefined);
        }}
      />
    </div>
  );
}

/** Whose sales Today shows; none when the shop has no cashiers. */
function CashierFilter(props: { cashierId: string; onCashierId: (cashierId: string) => void }) {
  return (cashiers.value ?? []).length === 0 ? null : (
    <SelectField
      label="Cashier"
      value={props.cashierId}
      onValue={props.onCashierId}
      options={[
        { value: "", label: "All cashiers" },
        ...(cashiers.value ?? []).map((cashier) => ({ value: cashier.id, label: cashier.name })),
      ]}
    />
  );
}

/** The day's report: takings per currency, net sales, takings by tender, and the best sellers. */
function TodaysTakings(props: { takings: SalesReport }) {
  const { takings } = props;
  const tenderRows = takings.by_tender.flatMap((tender) =>
    tender.by_currency.map((amounts) => ({ tender: tender.tender, ...amounts })),
  );
  return (
    <>
      <div class="cards">
        {takings.totals.by_currency.map((amounts) => (
          <div class="card" key={amounts.currency}>
            <p class="muted">Takings {amounts.currency}</p>
            <p class="figure" data-testid={`takings-${amounts.currency}`}>
              {formatMoney(amounts.currency, amounts.total_cents)}
            </p>
            <p class="muted">
              {amounts.count} sale{amounts.count === 1 ? "" : "s"}
            </p>
          </div>
        ))}
      </div>
      <NetFiguresTable
        figures={takings.net.by_currency}
        caption="Net sales today: cash and wallet, less discounts and refunds paid today"
      />
      <Table
        caption="By tender"
        columns={[
          { header: "Tender", cell: (row) => row.tender },
          { header: "Currency", cell: (row) => row.currency },
          { header: "Sales", cell: (row) => row.count, numeric: true },
          { header: "Takings", cell: (row) => formatMoney(row.currency, row.total_cents), numeric: true },
        ]}
        rows={tenderRows}
        rowKey={(row) => `${row.tender}-${row.currency}`}
        empty="No sales yet today."
      />
      <h2>Top products</h2>
      <Table
        caption="Best sellers by revenue"
        columns={[
          { header: "Product", cell: (row) => row.name },
          { header: "Units", cell: (row) => row.units, numeric: true },
          { header: "Revenue", cell: (row) => formatMoney(row.currency, row.revenue_cents), numeric: true },
        ]}
        rows={takings.top_products}
        rowKey={(row) => `${row.product_id ?? row.name}-${row.currency}`}
        empty="No sales yet today."
      />
    </>
  );
}

/** The last sales, each with a button that opens its lines. */
function RecentSales(props: { sales: Sale[]; onOpen: (saleId: string) => void }) {
  return (
    <Table
      caption="The last 20 sales"
      columns={[
        { header: "Time", cell: (row) => formatDateTime(row.created_at) },
        { header: "Tender", cell: (row) => row.tender },
        { header: "Status", cell: (row) => row.status },
        { header: "Total", cell: (row) => formatMoney(row.currency, row.total_cents), numeric: true },
        {
          header: "Detail",
          cell: (row) => (
            <Button
              aria-label={`Lines of the sale at ${formatDateTime(row.created_at)}`}
              onClick={() => props.onOpen(row.id)}
            >
              Lines
            </Button>
          ),
        },
      ]}
      rows={props.sales}
      rowKey={(row) => row.id}
      empty="No sales yet."
    />
  );
}

function SaleDetail(props: { saleId: string | undefined; onClose: () => void; onReturn: (sale: Sale) => void }) {
  const [sale] = useResource(
    () => (props.saleId === undefined ? Promise.resolve(undefined) : getSale(props.saleId)),
    [props.saleId],
  );
  const value = sale.state === "loaded" ? sale.value : undefined;
  return (
    <Dialog open={props.saleId !== undefined} title="Sale" onClose={props.onClose}>
      {sale.state === "failed" ? (
        <p class="form-error" role="alert">
          {sale.error.message}
        </p>
      ) : value === undefined ? (
        <p class="muted">Loading…</p>
      ) : (
        <>
          <p>
            {value.tender} · {value.status} · {formatDateTime(value.completed_at ?? value.created_at)}
          </p>
          <Table
            caption="Lines"
            columns={[
              { header: "Item", cell: (row) => row.name },
              { header: "Qty", cell: (row) => row.qty, numeric: true },
              { header: "Unit", cell: (row) => formatMoney(value.currency, row.unit_cents), numeric: true },
              { header: "Total", cell: (row) => formatMoney(value.currency, row.line_total_cents), numeric: true },
            ]}
            rows={value.items}
            rowKey={(row) => `${row.product_id ?? ""}-${row.name}-${row.unit_cents}`}
            empty="No lines."
          />
          <p class="pay-total">
            Total <strong>{formatMoney(value.currency, value.total_cents)}</strong>
          </p>
          {value.returns.length === 0 ? null : (
            <Table
              caption="Returned"
              columns={[
                { header: "When", cell: (row) => formatDateTime(row.saleReturn.created_at) },
                { header: "Item", cell: (row) => row.item.name },
                { header: "Qty", cell: (row) => row.item.qty, numeric: true },
                {
                  header: "Refunded",
                  cell: (row) => formatMoney(value.currency, row.item.line_total_cents),
                  numeric: true,
                },
              ]}
              rows={value.returns.flatMap((saleReturn) => saleReturn.items.map((item) => ({ saleReturn, item })))}
              rowKey={(row) => `${row.saleReturn.id}-${row.item.line}`}
              empty="Nothing returned."
            />
          )}
        </>
      )}
      <div class="dialog-actions">
        <Button onClick={props.onClose}>Close</Button>
        {value?.status === "completed" ? (
          <Button variant="primary" onClick={() => props.onReturn(value)}>
            Return items
          </Button>
        ) : null}
      </div>
    </Dialog>
  );
}
