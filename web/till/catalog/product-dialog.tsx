import { useState } from "preact/hooks";
import { type Currency, currencies } from "../../../src/kernel/money.ts";
import { createProduct, type NewProduct } from "../../lib/api/products.ts";
import { ApiError } from "../../lib/api.ts";
import { Button, Dialog, Field, FormError, SelectField } from "../../ui/index.ts";
import { parseAmountCents } from "../money.ts";
import { lookupBarcode, remember } from "./catalog.ts";
import type { Product } from "./product.ts";

type DialogProps = {
  barcode: string | undefined;
  purpose: "sell" | "stock";
  onSaved: (product: Product) => void;
  onClose: () => void;
};

/**
 * A new product from an unknown barcode, the barcode filled in. Saved, it joins the browser's catalog
 * and goes where the scan was headed (the cart, or the stock form). The barcode is unique per merchant,
 * so a save retried after a dropped connection finds the product it made instead of a second one.
 * The form is mounted afresh for each barcode (the dialog renders its content only while open), so it
 * starts empty without an effect that could clear what was typed after the dialog appeared.
 */
export function ProductDialog(props: DialogProps) {
  return (
    <Dialog open={props.barcode !== undefined} title="New product" onClose={props.onClose}>
      {props.barcode === undefined ? null : <ProductForm key={props.barcode} {...props} barcode={props.barcode} />}
    </Dialog>
  );
}

/**
 * Creates the product. A save retried after a dropped connection is refused `barcode_taken`: the
 * product with that barcode is the one the first try made when its name is the same.
 */
async function createOrFind(body: NewProduct): Promise<Product> {
  try {
    const product = await createProduct(body, { world: "test" });
    remember([product]);
    return product;
  } catch (caught) {
    if (!(caught instanceof ApiError && caught.code === "barcode_taken" && body.barcode != null)) {
      throw caught;
    }
    const existing = await lookupBarcode(body.barcode).catch(() => undefined);
    if (existing !== undefined && existing.name === body.name) return existing;
    throw new Error("Another product already has this barcode.");
  }
}

/** Typed text as the API takes it: trimmed, and null when nothing is left. */
const textOrNull = (text: string) => text.trim() || null;

function ProductForm(props: DialogProps & { barcode: string }) {
  const [name, setName] = useState("");
  const [price, setPrice] = useState("");
  const [currency, setCurrency] = useState("USD");
  const [category, setCategory] = useState("");
  const [barcode, setBarcode] = useState(props.barcode);
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const save = async (event: Event) => {
    event.preventDefault();
    const priceCents = price.trim() === "" ? null : parseAmountCents(price);
    if (priceCents === undefined) {
      setError("The price is an amount such as 4.50, or empty for priced at sale time.");
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      props.onSaved(
        await createOrFind({
          name: name.trim(),
          price_cents: priceCents,
          currency: currency as Currency,
          barcode: textOrNull(barcode),
          category: textOrNull(category),
        }),
      );
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : "The product could not be saved.");
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <p class="muted">
        Barcode {props.barcode} is not in the catalog.{" "}
        {props.purpose === "sell" ? "Saved, it goes into the cart; the cart is kept." : "Saved, you can receive it."}
      </p>
      <form onSubmit={save}>
        <Field label="Name" required autoFocus value={name} onValue={setName} maxLength={200} />
        <Field
          label="Price"
          inputMode="decimal"
          value={price}
          onValue={setPrice}
          hint="Leave empty to ask for the price at each sale."
        />
        <SelectField
          label="Currency"
          value={currency}
          onValue={setCurrency}
          options={currencies.map((value) => ({ value, label: value }))}
        />
        <Field label="Category" value={category} onValue={setCategory} maxLength={100} />
        <Field label="Barcode" value={barcode} onValue={setBarcode} maxLength={100} />
        <FormError error={error} />
        <div class="dialog-actions">
          <Button onClick={props.onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy}>
            Save product
          </Button>
        </div>
      </form>
    </>
  );
}
