import { useEffect, useState } from "preact/hooks";
import { formatMoney } from "../../../src/kernel/money.ts";
import { Button, Dialog, Field } from "../../ui/index.ts";
import type { Product } from "../catalog/product.ts";
import { parseAmountCents } from "../money.ts";

/** A product priced at sale time: the cashier types this sale's unit price. */
export function PriceDialog(props: {
  product: Product | undefined;
  onPrice: (product: Product, unitCents: number) => void;
  onClose: () => void;
}) {
  const [text, setText] = useState("");
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    setText("");
    setError(undefined);
  }, [props.product?.id]);
  const product = props.product;
  return (
    <Dialog open={product !== undefined} title={`Price of ${product?.name ?? ""}`} onClose={props.onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const cents = parseAmountCents(text);
          if (product === undefined) return;
          if (cents === undefined) {
            setError("Type an amount such as 4.50.");
            return;
          }
          props.onPrice(product, cents);
        }}
      >
        <Field
          label={`Unit price (${product?.currency ?? ""})`}
          inputMode="decimal"
          autoFocus
          value={text}
          onValue={setText}
          error={error}
          hint={
            parseAmountCents(text) === undefined || product === undefined
              ? "This product is priced at sale time."
              : formatMoney(product.currency, parseAmountCents(text) ?? 0)
          }
        />
        <div class="dialog-actions">
          <Button onClick={props.onClose}>Cancel</Button>
          <Button type="submit" variant="primary">
            Add to cart
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
