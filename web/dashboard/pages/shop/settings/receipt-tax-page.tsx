import { useState } from "preact/hooks";
import {
  getShopProfile,
  type ShopProfile,
  type ShopProfileChanges,
  type TaxMode,
  updateShopProfile,
} from "../../../../lib/api/shop-profile.ts";
import type { ApiError } from "../../../../lib/api.ts";
import { parameterOf } from "../../../../lib/field-error.ts";
import { useResource } from "../../../../lib/resource.ts";
import { FormError, useFieldForm } from "../../../../ui/field-form.tsx";
import { Button, Field, SelectField, toast } from "../../../../ui/index.ts";
import { Status } from "../../shared.tsx";
import { basisPointsOf, percentOf } from "./tax-rate.ts";

type Draft = {
  display_name: string;
  address: string;
  tax_number: string;
  receipt_footer: string;
  tax_mode: TaxMode;
  default_tax_rate: string;
  discount_limit: string;
};
type Errors = Partial<Record<keyof Draft, string>>;

const draftOf = (profile: ShopProfile): Draft => ({
  display_name: profile.display_name,
  address: profile.address ?? "",
  tax_number: profile.tax_number ?? "",
  receipt_footer: profile.receipt_footer ?? "",
  tax_mode: profile.tax_mode,
  default_tax_rate: percentOf(profile.default_tax_rate_bp),
  discount_limit: percentOf(profile.discount_limit_bp),
});

const PERCENT_ERROR = "A percent from 0 to 100, like 15 or 15.5.";

/** The draft as the API's fields (an empty text clears one), or the percentages' own errors. */
function changesOf(draft: Draft): { changes: ShopProfileChanges } | { errors: Errors } {
  const rate = basisPointsOf(draft.default_tax_rate);
  const limit = basisPointsOf(draft.discount_limit);
  if (rate === undefined || limit === undefined) {
    return {
      errors: {
        ...(rate === undefined ? { default_tax_rate: PERCENT_ERROR } : {}),
        ...(limit === undefined ? { discount_limit: PERCENT_ERROR } : {}),
      },
    };
  }
  const { default_tax_rate: _rate, discount_limit: _limit, ...texts } = draft;
  return { changes: { ...texts, default_tax_rate_bp: rate, discount_limit_bp: limit } };
}

/** The API's field names as the form's (the percentages are typed as percents, kept as basis points). */
function fieldOf(error: ApiError): keyof Draft | undefined {
  const parameter = parameterOf(error);
  if (parameter === "default_tax_rate_bp") return "default_tax_rate";
  if (parameter === "discount_limit_bp") return "discount_limit";
  return parameter !== undefined && parameter in FIELD_LABELS ? (parameter as keyof Draft) : undefined;
}

const FIELD_LABELS: Record<Exclude<keyof Draft, "tax_mode">, { label: string; max: number; hint?: string }> = {
  display_name: { label: "Shop name on receipts", max: 100, hint: "Empty: your account's name" },
  address: { label: "Address", max: 300 },
  tax_number: { label: "Tax number (VAT)", max: 50 },
  receipt_footer: { label: "Receipt footer", max: 300, hint: "A closing line: returns policy, thanks" },
  default_tax_rate: { label: "Default tax rate (%)", max: 6, hint: "For products that name no rate, e.g. 15.5" },
  discount_limit: {
    label: "Discount limit (%)",
    max: 6,
    hint: "Of a sale's gross; above it a cashier needs a manager. 100: no limit",
  },
};

/**
 * Shop → Receipt & tax: what receipts print (name, address, tax number, footer), how tax is priced
 * (the default rate, prices with or without tax) and the discount a cashier gives without a manager.
 * One profile for the shop, the same in TEST and LIVE.
 */
export function ReceiptTaxPage() {
  const [profile, reload] = useResource(() => getShopProfile(), []);
  return (
    <>
      <h1>Receipt & tax</h1>
      <p>What your receipts print and how tax is worked out. The same in TEST and LIVE.</p>
      {profile.state === "loaded" ? (
        <ProfileForm profile={profile.value} onSaved={reload} />
      ) : (
        <Status resource={profile} />
      )}
    </>
  );
}

/** The receipt's top and bottom as the draft reads, before it is saved. */
function ReceiptPreview({ draft }: { draft: Draft }) {
  return (
    <aside class="card receipt-preview" aria-label="Receipt preview">
      <strong>{draft.display_name.trim() === "" ? "(your account's name)" : draft.display_name}</strong>
      {draft.address.trim() === "" ? null : <span>{draft.address}</span>}
      {draft.tax_number.trim() === "" ? null : <span>Tax number: {draft.tax_number}</span>}
      <span class="muted">… items, tax and totals …</span>
      {draft.receipt_footer.trim() === "" ? null : <span>{draft.receipt_footer}</span>}
    </aside>
  );
}

function ProfileForm(props: { profile: ShopProfile; onSaved: () => void }) {
  const [draft, setDraft] = useState(() => draftOf(props.profile));
  const { errors, formError, saving, submit } = useFieldForm(fieldOf);
  function save(event: Event) {
    event.preventDefault();
    return submit(changesOf(draft), async (changes) => {
      await updateShopProfile(changes);
      toast("Receipt and tax settings saved.");
      props.onSaved();
    });
  }
  const field = (name: keyof typeof FIELD_LABELS) => (
    <Field
      label={FIELD_LABELS[name].label}
      maxLength={FIELD_LABELS[name].max}
      {...(FIELD_LABELS[name].hint === undefined ? {} : { hint: FIELD_LABELS[name].hint })}
      value={draft[name]}
      onValue={(value) => setDraft({ ...draft, [name]: value })}
      error={errors[name]}
    />
  );
  return (
    <form onSubmit={save} noValidate>
      <h2>On the receipt</h2>
      {field("display_name")}
      {field("address")}
      {field("tax_number")}
      {field("receipt_footer")}
      <ReceiptPreview draft={draft} />
      <h2>Tax</h2>
      <div class="row">
        <SelectField
          label="Product prices"
          value={draft.tax_mode}
          onValue={(mode) => setDraft({ ...draft, tax_mode: mode as TaxMode })}
          options={[
            { value: "inclusive", label: "Include tax (shelf prices)" },
            { value: "exclusive", label: "Exclude tax (added at the till)" },
          ]}
        />
        {field("default_tax_rate")}
      </div>
      <h2>Discounts</h2>
      {field("discount_limit")}
      <FormError message={formError} />
      <Button type="submit" variant="primary" busy={saving}>
        Save
      </Button>
    </form>
  );
}
