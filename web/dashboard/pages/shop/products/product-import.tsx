import { useState } from "preact/hooks";
import { newIdempotencyKey } from "../../../../lib/api/client.ts";
import { applyImport, type ImportPreview, type ImportSummary, previewImport } from "../../../../lib/api/products.ts";
import { Button, Dialog, Table } from "../../../../ui/index.ts";

type Chosen = { name: string; csv: string; idempotencyKey: string };

const summaryText = (summary: ImportSummary | ImportPreview) =>
  `${summary.rows} rows: ${summary.created} new, ${summary.updated} changed, ${summary.unchanged} unchanged.`;

/** The dry run's answer: every row's error, or what the import would do. */
function DryRun(props: { fileName: string; preview: ImportPreview }) {
  const { preview } = props;
  if (preview.errors.length === 0) {
    return <p role="status">{summaryText(preview)}</p>;
  }
  return (
    <>
      <p role="status">
        {props.fileName}: {preview.errors.length} errors. Nothing is imported until the file has none.
      </p>
      <Table
        caption="Errors by row"
        rows={preview.errors}
        rowKey={(error) => `${error.row}:${error.column}:${error.code}`}
        empty=""
        columns={[
          { header: "Row", numeric: true, cell: (error) => error.row },
          { header: "Column", cell: (error) => error.column ?? "—" },
          { header: "Problem", cell: (error) => error.message },
        ]}
      />
    </>
  );
}

/**
 * Import a CSV: choose the file, read the dry run (every row's error, or what would change), then
 * apply it (all rows or none; one Idempotency-Key per chosen file, so a retried apply writes once).
 */
export function ProductImport(props: { onClose: () => void; onImported: (summary: ImportSummary) => void }) {
  const [chosen, setChosen] = useState<Chosen | undefined>();
  const [preview, setPreview] = useState<ImportPreview | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  async function run(action: () => Promise<void>) {
    setBusy(true);
    setProblem(undefined);
    try {
      await action();
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  }
  const choose = (file: File | undefined) =>
    file === undefined
      ? undefined
      : run(async () => {
          const csv = await file.text();
          setChosen({ name: file.name, csv, idempotencyKey: newIdempotencyKey() });
          setPreview(await previewImport(csv));
        });
  return (
    <Dialog open title="Import products from CSV" onClose={props.onClose}>
      <div class="field">
        <label for="product-import-file">CSV file</label>
        <input
          id="product-import-file"
          type="file"
          accept=".csv,text/csv"
          onChange={(event) => choose(event.currentTarget.files?.[0])}
        />
        <p class="field-hint">
          Columns: name, sku, barcode, category, price, currency, track_stock, stock_qty, low_stock_at, active.
        </p>
      </div>
      {preview === undefined ? null : <DryRun fileName={chosen?.name ?? ""} preview={preview} />}
      {problem === undefined ? null : (
        <p class="form-error" role="alert">
          {problem}
        </p>
      )}
      <div class="row">
        <Button
          variant="primary"
          busy={busy}
          disabled={chosen === undefined || preview === undefined || preview.errors.length > 0}
          onClick={() =>
            run(async () => {
              if (chosen !== undefined) props.onImported(await applyImport(chosen.csv, chosen.idempotencyKey));
            })
          }
        >
          Import
        </Button>
        <Button onClick={props.onClose}>Cancel</Button>
      </div>
    </Dialog>
  );
}
