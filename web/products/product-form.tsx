import { useState } from "preact/hooks";
import { type Currency, currencies } from "../../src/kernel/money.ts";
import type { ApiError } from "../lib/api/client.ts";
import { type ProductChanges, updateProduct } from "../lib/api/product-by-id.ts";
import { createProduct, type NewProduct, type Product } from "../lib/api/products.ts";
import { parameterOf } from "../lib/field-error.ts";
import { FormError, useFieldForm } from "../ui/field-form.tsx";
import { Button, Dialog, Field, SelectField } from "../ui/index.ts";

type Draft = {
  name: string;
  price: string;
  currency: Currency;
  barcode: string;
  sku: string;
  category: string;
  track_stock: string;
  stock_qty: string;
  low_stock_at: string;
  tax_rate: string;
  active: string;
};
type Errors = Partial<Record<keyof Draft, string>>;
/** What the form sends: a new product's fields (`stock_qty` only then), or a change (`active` only then). */
type ProductSave = NewProduct & ProductChanges;

const priceText = (cents: number | null) => (cents === null ? "" : (cents / 100).toFixed(2));

const draftOf = (product: Product | undefined): Draft => ({
  name: product?.name ?? "",
  price: priceText(product?.price_cents ?? null),
  currency: product?.currency ?? "USD",
  barcode: product?.barcode ?? "",
  sku: product?.sku ?? "",
  category: product?.category ?? "",
  track_stock: String(product?.track_stock ?? true),
  stock_qty: "",
  low_stock_at: String(product?.low_stock_at ?? 0),
  tax_rate:
    product?.tax_rate_bp === null || product?.tax_rate_bp === undefined ? "" : String(product.tax_rate_bp / 100),
  active: String(product?.active ?? true),
});

/** Major units typed by the owner to cents, exactly (the digits as text, no float rounding). */
function centsOf(text: string): number | null | undefined {
  const match = /^(\d{1,8})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (text.trim() === "") return null;
  return match === null ? undefined : Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

const WHOLE_NUMBER = /^\d{1,10}$/;

/** The draft as the API's fields, or each field's own error; `active` only from a form that shows it. */
function changesOf(
  draft: Draft,
  form: { creating: boolean; withActive: boolean },
): { changes: ProductSave } | { errors: Errors } {
  const { creating } = form;
  const errors: Errors = {};
  const price = centsOf(draft.price);
  if (draft.name.trim() === "") errors.name = "Enter the product's name.";
  if (price === undefined) errors.price = "A price like 12.50, or empty to price it at the sale.";
  if (!WHOLE_NUMBER.test(draft.low_stock_at)) errors.low_stock_at = "A whole number, 0 or more.";
  // A percentage with up to two decimals is the API's basis points, read as a price is.
  const taxRateBp = centsOf(draft.tax_rate);
  if (taxRateBp === undefined || (taxRateBp ?? 0) > 10_000) {
    errors.tax_rate = "A percentage like 15 or 15.5 (up to 100), or empty for the shop's rate.";
  }
  if (creating && draft.stock_qty !== "" && !WHOLE_NUMBER.test(draft.stock_qty)) {
    errors.stock_qty = "A whole number, 0 or more.";
  }
  if (Object.keys(errors).length > 0) return { errors };
  const text = (value: string) => (value.trim() === "" ? null : value.trim());
  const changes: ProductSave = {
    name: draft.name.trim(),
    price_cents: price ?? null,
    currency: draft.currency,
    barcode: text(draft.barcode),
    sku: text(draft.sku),
    category: text(draft.category),
    track_stock: draft.track_stock === "true",
    low_stock_at: Number(draft.low_stock_at),
    tax_rate_bp: taxRateBp ?? null,
  };
  if (creating && draft.stock_qty !== "" && draft.track_stock === "true") changes.stock_qty = Number(draft.stock_qty);
  if (form.withActive && !creating) changes.active = draft.active === "true";
  return { changes };
}

// The API's codes and field names, as the form's fields (the other refusals show under the form).
const FIELD_OF_CODE: Record<string, keyof Draft> = {
  barcode_taken: "barcode",
  invalid_amount: "price",
  invalid_currency: "currency",
  stock_not_tracked: "stock_qty",
};
const FIELD_OF_PARAMETER: Record<string, keyof Draft> = {
  price_cents: "price",
  low_stock_at: "low_stock_at",
  tax_rate_bp: "tax_rate",
};

function fieldOf(error: ApiError): keyof Draft | undefined {
  const parameter = parameterOf(error) ?? "";
  return (
    FIELD_OF_CODE[error.code] ??
    FIELD_OF_PARAMETER[parameter] ??
    (parameter in draftOf(undefined) ? (parameter as keyof Draft) : undefined)
  );
}

type FieldsProps = {
  draft: Draft;
  setDraft: (draft: Draft) => void;
  errors: Errors;
  creating: boolean;
  withActive: boolean;
};

/** The form's fields, each with its own error under it. */
function ProductFields({ draft, setDraft, errors, creating, withActive }: FieldsProps) {
  const field = (name: keyof Draft) => ({
    value: draft[name],
    onValue: (value: string) => setDraft({ ...draft, [name]: value }),
    error: errors[name],
  });
  return (
    <>
      <Field label="Name" maxLength={200} {...field("name")} />
      <div class="row">
        <Field label="Price" inputMode="decimal" hint="Empty: priced at the sale" {...field("price")} />
        <SelectField
          label="Currency"
          value={draft.currency}
          onValue={(currency) => setDraft({ ...draft, currency: currency as Currency })}
          options={currencies.map((currency) => ({ value: currency, label: currency }))}
        />
      </div>
      <div class="row">
        <Field label="Barcode" maxLength={100} {...field("barcode")} />
        <Field label="SKU" maxLength={100} {...field("sku")} />
        <Field label="Category" maxLength={100} {...field("category")} />
      </div>
      <div class="row">
        <SelectField
          label="Stock"
          value={draft.track_stock}
          onValue={(track_stock) => setDraft({ ...draft, track_stock })}
          options={[
            { value: "true", label: "Counted" },
            { value: "false", label: "Not counted (a service)" },
          ]}
        />
        {creating && draft.track_stock === "true" ? (
          <Field label="Opening stock" inputMode="numeric" {...field("stock_qty")} />
        ) : null}
        <Field label="Low-stock level" inputMode="numeric" {...field("low_stock_at")} />
        <Field
          label="Tax rate (%)"
          inputMode="decimal"
          hint="Empty: the shop's standard rate (Settings)."
          {...field("tax_rate")}
        />
        {withActive && !creating ? (
          <SelectField
            label="On sale"
            value={draft.active}
            onValue={(active) => setDraft({ ...draft, active })}
            options={[
              { value: "true", label: "Active (sold)" },
              { value: "false", label: "Archived (not sold)" },
            ]}
          />
        ) : null}
      </div>
    </>
  );
}

/**
 * Create (no `product`) or edit a product; each field's error is shown under it. The dashboard and
 * the till share it. `withActive`: the edit also archives or restores (the till's, which has no list
 * of archived products to restore from).
 */
export function ProductForm(props: {
  product: Product | undefined;
  onClose: () => void;
  onSaved: (product: Product) => void;
  withActive?: boolean;
}) {
  const withActive = props.withActive ?? false;
  const creating = props.product === undefined;
  const [draft, setDraft] = useState(() => draftOf(props.product));
  const { errors, formError, saving, submit } = useFieldForm(fieldOf);
  function save(event: Event) {
    event.preventDefault();
    const product = props.product;
    return submit(changesOf(draft, { creating, withActive }), async (changes) =>
      props.onSaved(await (product === undefined ? createProduct(changes) : updateProduct(product.id, changes))),
    );
  }
  return (
    <Dialog open title={creating ? "New product" : `Edit ${props.product?.name}`} onClose={props.onClose}>
      <form onSubmit={save} noValidate>
        <ProductFields draft={draft} setDraft={setDraft} errors={errors} creating={creating} withActive={withActive} />
        <FormError message={formError} />
        <div class="row">
          <Button type="submit" variant="primary" busy={saving}>
            {creating ? "Create product" : "Save changes"}
          </Button>
          <Button type="button" onClick={props.onClose}>
            Cancel
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
