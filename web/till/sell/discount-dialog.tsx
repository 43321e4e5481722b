import { useState } from "preact/hooks";
import { Button, Dialog, Field, SelectField } from "../../ui/index.ts";
import { parseAmountCents } from "../money.ts";
import type { DiscountGiven } from "./cart.ts";

/**
 * A discount on a line or on the cart: a percentage or an amount, and a reason. Above the shop's
 * limit the sale asks for a manager's PIN when it is sent (the server decides, as for returns).
 * Mounted afresh at each opening, so the form starts from the discount already given.
 */
export function DiscountDialog(props: {
  /** What the discount is on ("the cart", a product's name); undefined: closed. */
  target: string | undefined;
  given: DiscountGiven | undefined;
  currency: string;
  onApply: (discount: DiscountGiven | undefined) => void;
  onClose: () => void;
}) {
  return (
    <Dialog open={props.target !== undefined} title={`Discount on ${props.target ?? ""}`} onClose={props.onClose}>
      {props.target === undefined ? null : <DiscountForm {...props} />}
    </Dialog>
  );
}

function DiscountForm(props: Parameters<typeof DiscountDialog>[0]) {
  const given = props.given?.discount;
  const [kind, setKind] = useState<"percent" | "amount">(given?.kind ?? "percent");
  // A percentage is typed as people say it (12.5); with two decimals it is the API's basis points.
  const [text, setText] = useState(
    given === undefined ? "" : String((given.kind === "percent" ? given.basisPoints : given.cents) / 100),
  );
  const [reason, setReason] = useState(props.given?.reason ?? "");
  const [error, setError] = useState<string | undefined>(undefined);
  const value = parseAmountCents(text);
  const apply = () => {
    if (value === undefined || value < 1 || (kind === "percent" && value > 10_000)) {
      setError(kind === "percent" ? "Type a percentage from 0.01 to 100." : "Type an amount such as 1.50.");
      return;
    }
    props.onApply({
      discount: kind === "percent" ? { kind, basisPoints: value } : { kind, cents: value },
      reason: reason.trim(),
    });
  };
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        apply();
      }}
    >
      <SelectField
        label="Kind"
        value={kind}
        onValue={(next) => setKind(next === "amount" ? "amount" : "percent")}
        options={[
          { value: "percent", label: "Percentage (%)" },
          { value: "amount", label: `Amount (${props.currency})` },
        ]}
      />
      <Field
        label={kind === "percent" ? "Percentage" : "Amount"}
        inputMode="decimal"
        autoFocus
        value={text}
        onValue={setText}
        error={error}
      />
      <Field label="Reason" value={reason} onValue={setReason} maxLength={200} />
      <div class="dialog-actions">
        {props.given === undefined ? null : <Button onClick={() => props.onApply(undefined)}>Remove discount</Button>}
        <Button onClick={props.onClose}>Cancel</Button>
        <Button type="submit" variant="primary">
          Apply
        </Button>
      </div>
    </form>
  );
}
