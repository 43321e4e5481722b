import { useState } from "preact/hooks";
import { ApiError } from "../lib/api.ts";

type FieldErrors<Name extends string> = Partial<Record<Name, string>>;

/** A draft checked on the page: what to send, or each field's own error. */
export type Checked<Changes, Name extends string> = { changes: Changes } | { errors: FieldErrors<Name> };

/**
 * A form whose errors show under their fields: those the page finds before sending, and the API's
 * refusal under the field it names (`fieldOf`); a refusal about no field shows under the form.
 */
export function useFieldForm<Name extends string>(fieldOf: (error: ApiError) => Name | undefined) {
  const [errors, setErrors] = useState<FieldErrors<Name>>({});
  const [formError, setFormError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  async function submit<Changes>(checked: Checked<Changes, Name>, send: (changes: Changes) => Promise<unknown>) {
    setErrors("errors" in checked ? checked.errors : {});
    setFormError(undefined);
    if ("errors" in checked) return;
    setSaving(true);
    try {
      await send(checked.changes);
    } catch (error) {
      const field = error instanceof ApiError ? fieldOf(error) : undefined;
      if (field === undefined) setFormError(error instanceof Error ? error.message : String(error));
      else setErrors({ [field]: (error as ApiError).message } as FieldErrors<Name>);
    } finally {
      setSaving(false);
    }
  }
  return { errors, formError, saving, submit };
}

/** The refusal about no field in particular, under the form. */
export function FormError(props: { message: string | undefined }) {
  return props.message === undefined ? null : (
    <p class="field-error" role="alert">
      {props.message}
    </p>
  );
}
