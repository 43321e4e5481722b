import { parse } from "csv-parse/sync";
import { type Currency, currencies } from "../../kernel/money.ts";
import {
  cellText,
  PRODUCT_CSV_COLUMNS,
  type ProductCsvColumn,
  parseFlag,
  parsePriceCents,
  parseTaxRateBp,
} from "./csv-columns.ts";
import { STOCK_QTY_MAX } from "./schemas.ts";

/**
 * Reads an import file into rows of product fields, with every cell's error: nothing here reads the
 * database (`import-service.ts` matches the rows to products). Rows are numbered as a spreadsheet
 * shows them: the header is row 1, the first product row 2.
 */

/** The most product rows one import takes (a new shop's catalog is a few thousand). */
export const IMPORT_ROWS_MAX = 5000;

export type ImportError = { row: number; column: string | null; code: string; message: string };

/**
 * One row's values. A column the file does not have is absent (an update leaves the field alone, a
 * creation takes its default). An empty cell is null for sku, barcode, category and price (none;
 * price null: priced at sale time) and absent for the others.
 */
export type ImportFields = {
  name?: string;
  sku?: string | null;
  barcode?: string | null;
  category?: string | null;
  price_cents?: number | null;
  currency?: Currency;
  track_stock?: boolean;
  low_stock_at?: number;
  tax_rate_bp?: number | null;
  active?: boolean;
};
export type ImportRow = { row: number; fields: ImportFields; stockQty: number | undefined };

const TEXT_LENGTH_MAX: Partial<Record<ProductCsvColumn, number>> = { name: 200, sku: 100, barcode: 100, category: 100 };
const QUANTITY_PATTERN = /^\d{1,10}$/;

type CellResult = { value: unknown } | { code: string; message: string };

/** One cell's value by its column, or why it is refused; `undefined` values leave the field out. */
function readCell(column: ProductCsvColumn, text: string): CellResult {
  const empty = text === "";
  switch (column) {
    case "id":
      return { value: undefined };
    case "name":
    case "sku":
    case "barcode":
    case "category": {
      const max = TEXT_LENGTH_MAX[column] ?? 100;
      if (empty) {
        return column === "name" ? { code: "parameter_missing", message: "A product needs a name." } : { value: null };
      }
      return text.length > max ? { code: "parameter_invalid", message: `At most ${max} characters.` } : { value: text };
    }
    case "price": {
      const cents = empty ? null : parsePriceCents(text);
      return cents === undefined
        ? { code: "invalid_amount", message: "A price like 12.50 (0 to 10,000,000.00), or empty: priced at sale time." }
        : { value: cents };
    }
    case "currency": {
      const currency = text.toUpperCase();
      if (empty) return { value: undefined };
      return (currencies as readonly string[]).includes(currency)
        ? { value: currency }
        : { code: "invalid_currency", message: `One of ${currencies.join(", ")}.` };
    }
    case "track_stock":
    case "active": {
      const flag = empty ? undefined : parseFlag(text);
      return flag === undefined && !empty ? { code: "parameter_invalid", message: "true or false." } : { value: flag };
    }
    case "tax_rate": {
      const rateBp = empty ? null : parseTaxRateBp(text);
      return rateBp === undefined
        ? { code: "parameter_invalid", message: "A percentage like 15 or 15.5 (0 to 100), or empty: the shop's rate." }
        : { value: rateBp };
    }
    case "stock_qty":
    case "low_stock_at": {
      if (empty) return { value: undefined };
      const quantity = QUANTITY_PATTERN.test(text) ? Number(text) : Number.NaN;
      return quantity <= STOCK_QTY_MAX
        ? { value: quantity }
        : { code: "invalid_quantity", message: "A whole number from 0 to 1,000,000,000." };
    }
  }
}

const FIELD_OF: Record<Exclude<ProductCsvColumn, "id" | "stock_qty">, keyof ImportFields> = {
  name: "name",
  sku: "sku",
  barcode: "barcode",
  category: "category",
  price: "price_cents",
  currency: "currency",
  track_stock: "track_stock",
  low_stock_at: "low_stock_at",
  tax_rate: "tax_rate_bp",
  active: "active",
};

/** The header's columns, or the errors that make the file unreadable (row 1). */
function readHeader(header: readonly string[]): { columns: ProductCsvColumn[] } | { errors: ImportError[] } {
  const errors: ImportError[] = [];
  const columns: ProductCsvColumn[] = [];
  for (const raw of header) {
    const name = raw.trim().toLowerCase();
    if (!(PRODUCT_CSV_COLUMNS as readonly string[]).includes(name)) {
      errors.push({
        row: 1,
        column: raw,
        code: "parameter_unknown",
        message: `Unknown column; the columns are ${PRODUCT_CSV_COLUMNS.join(", ")}.`,
      });
    } else if (columns.includes(name as ProductCsvColumn)) {
      errors.push({ row: 1, column: raw, code: "parameter_invalid", message: "This column appears twice." });
    }
    columns.push(name as ProductCsvColumn);
  }
  if (!columns.includes("name")) {
    errors.push({ row: 1, column: "name", code: "parameter_missing", message: "The file needs a name column." });
  }
  return errors.length > 0 ? { errors } : { columns };
}

function readRow(columns: readonly ProductCsvColumn[], cells: readonly string[], row: number) {
  const errors: ImportError[] = [];
  if (cells.length !== columns.length) {
    const message = `This row has ${cells.length} cells; the header has ${columns.length}.`;
    return { errors: [{ row, column: null, code: "parameter_invalid", message }] };
  }
  const fields: Record<string, unknown> = {};
  let stockQty: number | undefined;
  columns.forEach((column, index) => {
    const result = readCell(column, cellText(cells[index] ?? ""));
    if ("code" in result) {
      errors.push({ row, column, code: result.code, message: result.message });
    } else if (column === "stock_qty") {
      stockQty = result.value as number | undefined;
    } else if (column !== "id" && result.value !== undefined) {
      fields[FIELD_OF[column]] = result.value;
    }
  });
  return { errors, parsed: { row, fields: fields as ImportFields, stockQty } };
}

/** Parses the file and reads each row; a file that is not CSV is one error naming the line. */
export function readImportFile(text: string): { rows: ImportRow[]; errors: ImportError[]; rowCount: number } {
  let records: string[][];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true });
  } catch (error) {
    const line = (error as { lines?: number }).lines ?? 1;
    const message = (error as Error).message;
    return { rows: [], errors: [{ row: line, column: null, code: "csv_invalid", message }], rowCount: 0 };
  }
  const [header, ...body] = records;
  if (header === undefined) {
    const message = "The file is empty.";
    return { rows: [], errors: [{ row: 1, column: null, code: "parameter_missing", message }], rowCount: 0 };
  }
  if (body.length > IMPORT_ROWS_MAX) {
    const message = `At most ${IMPORT_ROWS_MAX} products per file; this one has ${body.length}.`;
    const errors = [{ row: IMPORT_ROWS_MAX + 2, column: null, code: "too_many_rows", message }];
    return { rows: [], errors, rowCount: body.length };
  }
  const read = readHeader(header);
  if ("errors" in read) {
    return { rows: [], errors: read.errors, rowCount: body.length };
  }
  const rows: ImportRow[] = [];
  const errors: ImportError[] = [];
  body.forEach((cells, index) => {
    const result = readRow(read.columns, cells, index + 2);
    errors.push(...result.errors);
    if (result.errors.length === 0 && result.parsed !== undefined) {
      rows.push(result.parsed);
    }
  });
  return { rows, errors, rowCount: body.length };
}
