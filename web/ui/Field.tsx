import { useId } from "preact/hooks";

/** The input attributes the apps use; Preact's own type is a union per input type that spreads badly. */
type InputAttributes = {
  type?: "text" | "email" | "password" | "date" | "datetime-local" | "number" | "search" | "tel" | "url";
  autocomplete?: string;
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  placeholder?: string;
  inputMode?: "text" | "numeric" | "decimal" | "email" | "search" | "tel";
  name?: string;
  autoFocus?: boolean;
};

type FieldProps = InputAttributes & {
  label: string;
  value: string;
  onValue: (value: string) => void;
  hint?: string;
  error?: string | undefined;
};

/** A labelled input with its hint and error announced with it (aria-describedby). */
export function Field({ label, value, onValue, hint, error, ...rest }: FieldProps) {
  const id = useId();
  const described = [hint === undefined ? "" : `${id}-hint`, error === undefined ? "" : `${id}-error`]
    .filter(Boolean)
    .join(" ");
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        // Preact types an input per `type` (a union); these attributes are valid for every type used here.
        {...(rest as Record<string, unknown>)}
        id={id}
        value={value}
        onInput={(event) => onValue(event.currentTarget.value)}
        aria-invalid={error === undefined ? undefined : true}
        aria-describedby={described === "" ? undefined : described}
      />
      {hint === undefined ? null : (
        <p id={`${id}-hint`} class="field-hint">
          {hint}
        </p>
      )}
      {error === undefined ? null : (
        <p id={`${id}-error`} class="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

type SelectProps = {
  label: string;
  value: string;
  onValue: (value: string) => void;
  options: readonly { value: string; label: string }[];
};

export function SelectField({ label, value, onValue, options }: SelectProps) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onValue(event.currentTarget.value)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
