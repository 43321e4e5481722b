import { useState } from "preact/hooks";
import { eventTypes } from "../../../../../src/kernel/event-types.ts";
import { ApiError } from "../../../../lib/api/client.ts";
import { createWebhookEndpoint } from "../../../../lib/api/webhook-endpoints.ts";
import type { CreatedWebhookEndpoint, EventSubscription } from "../../../../lib/api/webhooks.ts";
import { Button, Field, FormError } from "../../../../ui/index.ts";

type FieldErrors = { url?: string; types?: string; form?: string };

/**
 * Adds an endpoint: its URL and the event types it hears, picked from the platform's list (or `*`
 * for all) rather than typed, so a typo cannot happen. A refusal is shown under the field it is
 * about; one about neither field under the form.
 */
export function CreateEndpointForm(props: { onCreated: (endpoint: CreatedWebhookEndpoint) => void }) {
  const { url, setUrl, every, setEvery, picked, toggle, errors, setErrors, busy, submit } = useEndpointForm(
    props.onCreated,
  );
  return (
    <section aria-labelledby="create-title">
      <h2 id="create-title">Add an endpoint</h2>
      <form
        class="card"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Field
          label="Endpoint URL"
          type="url"
          required
          value={url}
          onValue={(value) => {
            setUrl(value);
            setErrors({ ...errors, url: undefined, form: undefined });
          }}
          error={errors.url}
        />
        <EventTypePicker
          every={every}
          picked={picked}
          error={errors.types}
          onEvery={(on) => {
            setEvery(on);
            setErrors({ ...errors, types: undefined });
          }}
          onToggle={toggle}
        />
        <FormError error={errors.form} />
        <Button type="submit" variant="primary" busy={busy}>
          Add endpoint
        </Button>
      </form>
    </section>
  );
}

/** The form's draft (URL, every event or the types picked), its errors, and its submission. */
function useEndpointForm(onCreated: (endpoint: CreatedWebhookEndpoint) => void) {
  const [url, setUrl] = useState("");
  const [every, setEvery] = useState(true);
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const toggle = (type: string, on: boolean) => {
    const next = new Set(picked);
    if (on) next.add(type);
    else next.delete(type);
    setPicked(next);
    setErrors({ ...errors, types: undefined });
  };
  const submit = async () => {
    const chosen: EventSubscription[] = every ? ["*"] : eventTypes.filter((type) => picked.has(type));
    if (chosen.length === 0) {
      setErrors({ types: "Pick at least one event type, or every event." });
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      const created = await createWebhookEndpoint({ url, event_types: chosen });
      setUrl("");
      onCreated(created);
    } catch (caught) {
      setErrors(errorsOf(caught));
    } finally {
      setBusy(false);
    }
  };
  return { url, setUrl, every, setEvery, picked, toggle, errors, setErrors, busy, submit };
}

/** Every event (`*`), or the platform's event types picked one by one; the refusal about them below. */
function EventTypePicker(props: {
  every: boolean;
  picked: ReadonlySet<string>;
  error: string | undefined;
  onEvery: (on: boolean) => void;
  onToggle: (type: string, on: boolean) => void;
}) {
  return (
    <fieldset class="event-picker" aria-describedby={props.error === undefined ? undefined : "event-types-error"}>
      <legend>Event types</legend>
      <label class="check">
        <input type="checkbox" checked={props.every} onChange={(event) => props.onEvery(event.currentTarget.checked)} />
        Every event (*), including types added later
      </label>
      <div class="event-types">
        {eventTypes.map((type) => (
          <label key={type} class="check">
            <input
              type="checkbox"
              disabled={props.every}
              checked={props.every || props.picked.has(type)}
              onChange={(event) => props.onToggle(type, event.currentTarget.checked)}
            />
            <code>{type}</code>
          </label>
        ))}
      </div>
      {props.error === undefined ? null : (
        <p id="event-types-error" class="field-error">
          {props.error}
        </p>
      )}
    </fieldset>
  );
}

/** The API's refusal, under its field: its message names the field first ("url: …", "event_types: …"). */
function errorsOf(caught: unknown): FieldErrors {
  if (!(caught instanceof ApiError)) return { form: "The endpoint could not be added." };
  if (caught.code === "invalid_url" || caught.message.startsWith("url")) return { url: caught.message };
  if (caught.message.startsWith("event_types")) return { types: caught.message };
  return { form: caught.message };
}
