import { useState } from "preact/hooks";
import { formatMoney } from "../../../../src/kernel/money.ts";
import { chosen, listSales, type Sale } from "../../../lib/api.ts";
import { formatDateTime } from "../../../lib/format.ts";
import { useResource } from "../../../lib/resource.ts";
import { Link, Pager, SelectField, Table, useCursorPages } from "../../../ui/index.ts";
import { salePath } from "../../paths.ts";
import { Status } from "../shared.tsx";
import { useCashiers, useTills } from "./actors.tsx";
import type { Actor } from "./types.ts";

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
      <div class="row">
        <SelectField
          label="Status"
          value={filter.status}
          onValue={(status) => {
            pages.restart();
            setFilter({ ...filter, status });
          }}
          options={[
            { value: "", label: "All" },
            { value: "completed", label: "Completed" },
            { value: "pending", label: "Pending" },
            { value: "cancelled", label: "Cancelled" },
          ]}
        />
        <SelectField
          label="Cashier"
          value={filter.cashier}
          onValue={(cashier) => {
            pages.restart();
            setFilter({ ...filter, cashier });
          }}
          options={[
            { value: "", label: "Anyone" },
            ...cashiers.map((cashier) => ({ value: cashier.id, label: cashier.name })),
          ]}
        />
      </div>
      {sales.state === "loaded" ? (
        <>
          <Table
            caption={`Sales, page ${pages.number}`}
            rows={sales.value.data}
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
          <Pager {...pages.pagerOf(sales.value)} />
        </>
      ) : (
        <Status resource={sales} />
      )}
    </>
  );
}
