/**
 * A form's failure: the API error envelope's message (or the form's own), announced as an alert. The
 * envelope names no field, so a message about one field is passed to that Field's `error` instead.
 */
export function FormError(props: { error: string | undefined }) {
  return props.error === undefined ? null : (
    <p class="form-error" role="alert">
      {props.error}
    </p>
  );
}
