import { UniqueIntegrityConstraintViolationError } from "slonik";
import type { Queryable, Transaction } from "../../platform/db/pool.ts";
import { conflict, invalidRequest } from "../../platform/errors.ts";
import { newId } from "../../platform/ids.ts";
import type { Actor } from "../../platform/tenant.ts";
import { type ImportError, readImportFile } from "./csv-import.ts";
import { type ImportPlan, planImport } from "./import-plan.ts";
import * as queries from "./import-queries.ts";
import { BARCODE_CONSTRAINT } from "./queries.ts";
import type { RecordOpenings } from "./service.ts";

/**
 * Bulk import of products from CSV (docs/shop.md, "Products"): a dry run that lists every row's errors
 * and writes nothing, and an apply that writes every row or none.
 */

export type ImportSummary = { rows: number; created: number; updated: number; unchanged: number };

const summaryOf = (plan: ImportPlan, rows: number): ImportSummary => ({
  rows,
  created: plan.creates.length,
  updated: plan.updates.length,
  unchanged: plan.unchanged,
});

async function planFile(
  database: Queryable,
  request: { merchantId: string; csv: string; lock: boolean },
): Promise<{ plan: ImportPlan; rows: number }> {
  const file = readImportFile(request.csv);
  const present = (values: (string | null | undefined)[]) =>
    values.filter((value): value is string => typeof value === "string");
  const products = await queries.selectProductsBySkuOrBarcode(database, {
    merchantId: request.merchantId,
    skus: present(file.rows.map((row) => row.fields.sku)),
    barcodes: present(file.rows.map((row) => row.fields.barcode)),
    lock: request.lock,
  });
  const plan = planImport(file.rows, products, () => newId("prod"));
  // Every error of the file, in row order (a cell's own before those that compare rows).
  plan.errors = [...file.errors, ...plan.errors].sort((left, right) => left.row - right.row);
  return { plan, rows: file.rowCount };
}

/** The dry run: what the file would do, and every error, row by row. Writes nothing. */
export async function previewImport(
  database: Queryable,
  request: { merchantId: string; csv: string },
): Promise<ImportSummary & { errors: ImportError[] }> {
  const { plan, rows } = await planFile(database, { ...request, lock: false });
  return { ...summaryOf(plan, rows), errors: plan.errors };
}

const describe = (error: ImportError) => `row ${error.row}${error.column === null ? "" : `, ${error.column}`}`;

/**
 * Applies the file in the caller's transaction (the idempotent route's, which stores the answer with
 * it): every row or, when any row has an error, none (400 `import_invalid`). The products the rows
 * name are locked first, so what was planned from them holds until the commit.
 */
export async function applyImport(
  transaction: Transaction,
  recordOpenings: RecordOpenings,
  request: { merchantId: string; actor: Actor; csv: string },
): Promise<ImportSummary> {
  const { plan, rows } = await planFile(transaction, { ...request, lock: true });
  const [first] = plan.errors;
  if (first !== undefined) {
    throw invalidRequest(
      "import_invalid",
      `Nothing was imported: the file has ${plan.errors.length} error(s), the first at ${describe(first)}: ` +
        `${first.message} The dry run (POST /v1/products/import/preview) lists them all.`,
    );
  }
  try {
    await queries.writeImportedProducts(transaction, request.merchantId, {
      created: plan.creates.map((create) => create.product),
      updated: plan.updates.map((update) => update.product),
    });
  } catch (error) {
    if (error instanceof UniqueIntegrityConstraintViolationError && error.constraint === BARCODE_CONSTRAINT) {
      // A product created or changed since the plan was made (its rows were not locked then).
      throw conflict("barcode_taken", "A barcode of the file was just given to another product: try again.");
    }
    throw error;
  }
  await recordOpenings(transaction, {
    merchantId: request.merchantId,
    actor: request.actor,
    openings: plan.creates
      .filter((create) => create.stockQty > 0)
      .map((create) => ({ productId: create.product.id, qty: create.stockQty })),
  });
  return summaryOf(plan, rows);
}
