import { useState } from "preact/hooks";
import { type Currency, currencies, formatMoney } from "../../../../../src/kernel/money.ts";
import {
  type BreakdownDimension,
  downloadSalesBreakdown,
  type SalesBreakdown,
  salesBreakdown,
} from "../../../../lib/api/sales-reports.ts";
import { saveFile } from "../../../../lib/download.ts";
import { useResource } from "../../../../lib/resource.ts";
import type { NetFigures } from "../../../../reports/index.ts";
import { Button, type Column, Field, Table, toast } from "../../../../ui/index.ts";
import { Status } from "../../shared.tsx";
import { NetChart } from "./net-chart.tsx";
import { type Period, periodQuery, presetPeriod } from "./period.ts";

const DIMENSIONS = [
  { dimension: "day", label: "By day", keyHeader: "Day" },
  { dimension: "item", label: "By item", keyHeader: "Item" },
  { dimension: "category", label: "By category", keyHeader: "Category" },
  { dimension: "cashier", label: "By cashier", keyHeader: "Cashier" },
  { dimension: "till", label: "By till", keyHeader: "Till" },
  { dimension: "tender", label: "By tender", keyHeader: "Tender" },
] as const satisfies readonly { dimension: BreakdownDimension; label: string; keyHeader: string }[];
type Dimension = BreakdownDimension;
type Row = SalesBreakdown["rows"][number];

const PRESETS = [
  { preset: "today", label: "Today" },
  { preset: "week", label: "This week" },
  { preset: "month", label: "This month" },
] as const;

/**
 * Shop → Reports: the sales of a period (today by default) by day, item, category, cashier, till or
 * tender (GET /v1/sales/reports/:dimension), each as a table, a chart of net sales per currency, and a
 * CSV download of the same rows. Its own chunk (web/build.ts), loaded when opened.
 */
export function ReportsPage() {
  const [period, setPeriod] = useState<Period>(presetPeriod("today"));
  const [dimension, setDimension] = useState<Dimension>("day");
  const [breakdown] = useResource(
    () => salesBreakdown(dimension, periodQuery(period)),
    [dimension, period.from, period.to],
  );
  const chosen = DIMENSIONS.find((entry) => entry.dimension === dimension) ?? DIMENSIONS[0];
  return (
    <>
      <h1>Reports</h1>
      <form class="row card" aria-label="Period" onSubmit={(event) => event.preventDefault()}>
        <Field
          label="From"
          type="date"
          required
          value={period.from}
          onValue={(from) => setPeriod({ ...period, from })}
        />
        <Field
          label="To (inclusive)"
          type="date"
          required
          value={period.to}
          onValue={(to) => setPeriod({ ...period, to })}
        />
        {PRESETS.map((entry) => (
          <Button key={entry.preset} onClick={() => setPeriod(presetPeriod(entry.preset))}>
            {entry.label}
          </Button>
        ))}
      </form>
      <fieldset class="row report-tabs">
        <legend class="visually-hidden">Group sales</legend>
        {DIMENSIONS.map((entry) => (
          <Button
            key={entry.dimension}
            variant={entry.dimension === dimension ? "primary" : "secondary"}
            aria-pressed={entry.dimension === dimension}
            onClick={() => setDimension(entry.dimension)}
          >
            {entry.label}
          </Button>
        ))}
      </fieldset>
      {breakdown.state === "loaded" ? (
        <BreakdownView
          breakdown={breakdown.value}
          title={chosen.label}
          keyHeader={chosen.keyHeader}
          period={period}
          dimension={dimension}
        />
      ) : (
        <Status resource={breakdown} />
      )}
    </>
  );
}

const money = (pick: (row: NetFigures) => number) => (row: NetFigures) => formatMoney(row.currency, pick(row));

/** The figures' columns, the same in the rows' table and the totals'. */
const figureColumns = (dimension: Dimension): Column<NetFigures>[] => [
  { header: "Currency", cell: (row: NetFigures) => row.currency },
  {
    header: dimension === "item" || dimension === "category" ? "Units" : "Sales",
    numeric: true,
    cell: (row: NetFigures) => row.count,
  },
  { header: "Gross", numeric: true, cell: money((row) => row.gross_cents) },
  { header: "Discounts", numeric: true, cell: money((row) => row.discount_cents) },
  { header: "Refunds", numeric: true, cell: money((row) => row.refund_cents) },
  { header: "Net", numeric: true, cell: money((row) => row.net_cents) },
  { header: "Tax", numeric: true, cell: money((row) => row.tax_cents) },
];

function BreakdownView(props: {
  breakdown: SalesBreakdown;
  title: string;
  keyHeader: string;
  period: Period;
  dimension: Dimension;
}) {
  const [busy, setBusy] = useState(false);
  const columns = figureColumns(props.dimension);
  const download = async () => {
    setBusy(true);
    try {
      const file = await downloadSalesBreakdown(props.dimension, periodQuery(props.period));
      saveFile({
        blob: file.blob,
        filename: `sales-${props.dimension}-${props.period.from}-to-${props.period.to}.csv`,
      });
    } catch (caught) {
      toast(caught instanceof Error ? caught.message : "The report could not be downloaded.", "error");
    } finally {
      setBusy(false);
    }
  };
  const shown: Currency[] = currencies.filter((currency) =>
    props.breakdown.rows.some((row) => row.currency === currency),
  );
  return (
    <section aria-labelledby="breakdown-title">
      <h2 id="breakdown-title">{props.title}</h2>
      <p class="muted">
        Net is gross less discounts and refunds; tax is included in both. Refunds count on the day they were paid.
      </p>
      <Table
        caption={`Sales ${props.title.toLowerCase()}, ${props.period.from} to ${props.period.to}`}
        columns={[{ header: props.keyHeader, cell: (row: Row) => row.label }, ...columns]}
        rows={props.breakdown.rows}
        rowKey={(row) => `${row.key ?? ""}-${row.label}-${row.currency}`}
        empty="No sales in this period."
      />
      <Table
        caption="Totals per currency"
        columns={columns}
        rows={props.breakdown.totals}
        rowKey={(row) => row.currency}
        empty="—"
      />
      <p>
        <Button variant="primary" busy={busy} onClick={download}>
          Download CSV
        </Button>
      </p>
      {shown.map((currency) => (
        <NetChart
          key={currency}
          currency={currency}
          rows={props.breakdown.rows.filter((row) => row.currency === currency)}
        />
      ))}
    </section>
  );
}
