import { useState } from "preact/hooks";
import { formatMoney } from "../../../../src/kernel/money.ts";
import { chosen, listSales, type Sale } from "../../../lib/api.ts";
import { formatDateTime } from "../../../lib/format.ts";
import { useResource } from "../../../lib/resource.ts";
import { Link, Pager, SelectField, Table, useCursorPages } from "../../../ui/index.ts";
import { salePath } from "../../paths.ts";
import { Status } from "../shared.tsx";
import { useCashiers, useTills } from "./actors.tsx";
import type { Actor, Cashier } from "./types.ts";

/** Who rang a sale up: the cashier switched in (by name), else the free-text cashier a till sent, else the actor. */
export function cashierOf(sale: { cashier: string | null; actor: Actor }, nameOf: (actor: Actor) => string): string {
  if (sale.actor.id.startsWith("csh_") || sale.cashier === null) return nameOf(sale.actor);
  return sale.cashier;
}

/** The world's sales from the tills and integrations, newest first, with who rang each up and what came back. */
export function SalesPage() {
  const [filter, setFilter] = useState({ status: "", cashier: "" });
  const pages = useCursorPages();
  const [sales] = useResource(
    () =>
      listSales({
        status: chosen<Sale["status"]>(filter.status),
        cashier_id: chosen(filter.cashier),
        limit: 20,
        cursor: pages.cursor,
      }),
    [filter, pages.cursor],
  );
  const { cashiers, nameOf } = useCashiers();
  const { tillName } = useTills();
  return (
    <>
      <h1>Sales</h1>
      <SaleFilters
        filter={filter}
        onFilter={(next) => {
          pages.restart();
          setFilter(next);
        }}
        cashiers={cashiers}
      />
      {sales.state === "loaded" ? (
        <>
          <SaleTable
            sales={sales.value.data}
            caption={`Sales, page ${pages.number}`}
            tillName={tillName}
            nameOf={nameOf}
          />
          <Pager {...pages.pagerOf(sales.value)} />
        </>
      ) : (
        <Status resource={sales} />
      )}
    </>
  );
}

/** The sales shown: by status and by cashier. */
function SaleFilters(props: {
  filter: { status: string; cashier: string };
  onFilter: (filter: { status: string; cashier: string }) => void;
  cashiers: readonly Cashier[];
}) {
  return (
    <div class="row">
      <SelectField
        label="Status"
        value={props.filter.status}
        onValue={(status) => props.onFilter({ ...props.filter, status })}
        options={[
          { value: "", label: "All" },
          { value: "completed", label: "Completed" },
          { value: "pending", label: "Pending" },
          { value: "cancelled", label: "Cancelled" },
        ]}
      />
      <SelectField
        label="Cashier"
        value={props.filter.cashier}
        onValue={(cashier) => props.onFilter({ ...props.filter, cashier })}
        options={[
          { value: "", label: "Anyone" },
          ...props.cashiers.map((cashier) => ({ value: cashier.id, label: cashier.name })),
        ]}
      />
    </div>
  );
}

/** A page of sales, each linked to its detail, with its refunds, till and cashier. */
function SaleTable({
  sales,
  caption,
  tillName,
  nameOf,
}: { sales: Sale[]; caption: string } & {
  tillName: (tillId: string | null) => string;
  nameOf: (actor: Actor) => string;
}) {
  return (
    <Table
      caption={caption}
      rows={sales}
      rowKey={(sale) => sale.id}
      empty="No sales match."
      columns={[
        {
          header: "Taken",
          cell: (sale) => <Link href={salePath(sale.id)}>{formatDateTime(sale.taken_at)}</Link>,
        },
        { header: "Status", cell: (sale) => <span class={`status status-${sale.status}`}>{sale.status}</span> },
        { header: "Tender", cell: (sale) => sale.tender },
        { header: "Total", numeric: true, cell: (sale) => formatMoney(sale.currency, sale.total_cents) },
        {
          header: "Refunded",
          numeric: true,
          cell: (sale) =>
            sale.returns.length === 0
              ? "—"
              : formatMoney(
                  sale.currency,
                  sale.returns.reduce((sum, saleReturn) => sum + saleReturn.refund_cents, 0),
                ),
        },
        { header: "Till", cell: (sale) => tillName(sale.till_id) },
        { header: "Cashier", cell: (sale) => cashierOf(sale, nameOf) },
      ]}
    />
  );
}
