import { useState } from "preact/hooks";
import { formatMoney } from "../../../src/kernel/money.ts";
import { getProduct } from "../../lib/api/product-by-id.ts";
import { changeStock, type StockChangePath, type StockReport, stockReport } from "../../lib/api/stock.ts";
import { type Resource, useResource } from "../../lib/resource.ts";
import { useAction } from "../../lib/use-action.ts";
import { Button, Field, Table, toast } from "../../ui/index.ts";
import { lookupBarcode, productByBarcode, remember } from "../catalog/catalog.ts";
import type { Product } from "../catalog/product.ts";
import { ProductDialog } from "../catalog/product-dialog.tsx";
import { useScanHandler } from "../scan/scan-target.ts";
import { ProductTiles } from "../sell/product-tiles.tsx";
import { postOnce } from "../sell/sale-api.ts";
import { activeWorld } from "../world.ts";

/**
 * Stock: scan (or pick) a product, then receive a delivery or record a stocktake count; an unknown
 * barcode opens the new-product form. Beside it, low-stock alerts and on-hand valuation from
 * GET /v1/stock/report. Every receipt and count carries an Idempotency-Key made once per save.
 */
export function StockScreen() {
  const [report, reloadReport] = useResource(() => stockReport(), []);
  const { selected, setSelected, unknown, setUnknown, select } = useStockPick();
  return (
    <div class="stock">
      <section aria-labelledby="stock-pick">
        <h1 id="stock-pick">Stock</h1>
        <p class="muted">Scan a product, or find it below, to receive a delivery or count it.</p>
        {activeWorld() === "test" ? (
          <p class="test-note">TEST: receipts and counts are journaled as practice and do not change on-hand.</p>
        ) : null}
        {selected === undefined ? null : (
          <StockForms
            key={selected.id}
            product={selected}
            onChanged={(product) => {
              remember([product]);
              setSelected(product);
              reloadReport();
            }}
          />
        )}
        <ProductTiles onPick={select} />
      </section>
      <section aria-labelledby="stock-report">
        <h2 id="stock-report">On hand</h2>
        <OnHandReport report={report} />
      </section>
      <ProductDialog
        barcode={unknown}
        purpose="stock"
        onSaved={(product) => {
          setUnknown(undefined);
          select(product);
        }}
        onClose={() => setUnknown(undefined)}
      />
    </div>
  );
}

/**
 * The product picked (by a scan or a tile) and the barcode a scan did not know, which opens the
 * new-product form.
 */
function useStockPick() {
  const [selected, setSelected] = useState<Product | undefined>(undefined);
  const [unknown, setUnknown] = useState<string | undefined>(undefined);
  const select = (product: Product) => {
    setSelected(product);
    // On-hand moves with every sale: read it fresh rather than from the cached catalog.
    getProduct(product.id, { world: "test" }).then(
      (fresh) => {
        remember([fresh]);
        setSelected((current) => (current?.id === fresh.id ? fresh : current));
      },
      () => {},
    );
  };
  useScanHandler((code) => {
    const cached = productByBarcode(code);
    if (cached !== undefined) {
      select(cached);
      return;
    }
    lookupBarcode(code).then(
      (product) => (product === undefined ? setUnknown(code) : select(product)),
      () => toast(`Could not look up ${code}. Check the connection.`, "error"),
    );
  });
  return { selected, setSelected, unknown, setUnknown, select };
}

/** GET /v1/stock/report: valuation per currency and the products at or below their low-stock level. */
function OnHandReport(props: { report: Resource<StockReport> }) {
  const { report } = props;
  if (report.state === "loaded") {
    return (
      <>
        <Table
          caption="Valuation at current prices"
          columns={[
            { header: "Currency", cell: (row) => row.currency },
            { header: "Products", cell: (row) => row.products, numeric: true },
            { header: "Units", cell: (row) => row.units, numeric: true },
            { header: "Value", cell: (row) => formatMoney(row.currency, row.value_cents), numeric: true },
          ]}
          rows={report.value.totals}
          rowKey={(row) => row.currency}
          empty="No stock."
        />
        <h2>Low stock ({report.value.low_stock_count})</h2>
        <Table
          caption="Products at or below their low-stock level"
          columns={[
            { header: "Product", cell: (row) => row.name },
            { header: "On hand", cell: (row) => row.stock_qty, numeric: true },
            { header: "Low at", cell: (row) => row.low_stock_at, numeric: true },
          ]}
          rows={report.value.low_stock}
          rowKey={(row) => row.product_id}
          empty="Nothing is low."
        />
      </>
    );
  }
  return report.state === "failed" ? (
    <p class="form-error" role="alert">
      {report.error.message}
    </p>
  ) : (
    <p class="muted">Loading…</p>
  );
}

function StockForms(props: { product: Product; onChanged: (product: Product) => void }) {
  const { product } = props;
  return (
    <div class="card stock-product" data-testid="stock-product">
      <h2>{product.name}</h2>
      <p>
        On hand: <strong data-testid="on-hand">{product.track_stock ? product.stock_qty : "not counted"}</strong>
      </p>
      {product.track_stock ? (
        <div class="stock-forms">
          <QuantityForm
            label="Units received"
            action="Receive"
            path="/v1/stock/receive"
            product={product}
            minimum={1}
            onChanged={props.onChanged}
          />
          <QuantityForm
            label="Counted on hand"
            action="Save count"
            path="/v1/stock/count"
            product={product}
            minimum={0}
            onChanged={props.onChanged}
          />
        </div>
      ) : (
        <p class="muted">This product is a service: its stock is not counted.</p>
      )}
    </div>
  );
}

function QuantityForm(props: {
  label: string;
  action: string;
  path: StockChangePath;
  product: Product;
  minimum: number;
  onChanged: (product: Product) => void;
}) {
  const [qty, setQty] = useState("");
  // One key per save, kept for that save's retries (useAction).
  const { busy, error, fail, run } = useAction("Not saved.");
  return (
    <form
      class="quantity-form"
      onSubmit={async (event) => {
        event.preventDefault();
        const value = Number(qty);
        if (!Number.isInteger(value) || value < props.minimum) {
          fail(`A whole number of at least ${props.minimum}.`);
          return;
        }
        await run(async (idempotencyKey) => {
          const result = await postOnce(() =>
            changeStock(props.path, { product_id: props.product.id, qty: value }, { idempotencyKey }),
          );
          setQty("");
          toast(savedMessage(props.action, props.product.name, value, result.product.stock_qty));
          props.onChanged(result.product);
        });
      }}
    >
      <Field label={props.label} inputMode="numeric" value={qty} onValue={setQty} error={error} />
      <Button type="submit" variant="primary" busy={busy}>
        {props.action}
      </Button>
    </form>
  );
}

/**
 * What a saved receipt or count did. In TEST it is journaled as practice and on-hand stays as it was:
 * "now 50 on hand" after counting 45 would read as a wrong count.
 */
function savedMessage(action: string, name: string, typed: number, onHand: number | null): string {
  if (activeWorld() === "test") {
    return `TEST: ${action.toLowerCase()} of ${typed} for ${name} journaled as practice; on hand stays ${onHand}.`;
  }
  return `${action}: ${name} now ${onHand} on hand.`;
}
