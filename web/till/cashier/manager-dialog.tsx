import { useState } from "preact/hooks";
import { useAction } from "../../lib/use-action.ts";
import { Button, Dialog, Field } from "../../ui/index.ts";
import { cashiers, loadCashiers } from "./cashiers.ts";
import { actionLabels, approve, changeOwnPin, managerRequest } from "./manager-approval.ts";

const digits = (value: string) => value.replace(/\D/g, "").slice(0, 6);
/** What every PIN field here is: hidden digits, a numeric keyboard, nothing remembered by the browser. */
const PIN_INPUT = { type: "password", inputMode: "numeric", autocomplete: "off", maxLength: 6 } as const;

/**
 * A manager approves one restricted request at the till: choose a manager, type their PIN. The
 * refused request then goes again with the approval (sale-api's `postOnce`); Cancel leaves it refused.
 */
export function ManagerDialog() {
  const request = managerRequest.value;
  return (
    <Dialog open={request !== undefined} title="A manager must approve this" onClose={() => request?.cancel()}>
      {request === undefined ? null : <ManagerForm key={request.action} />}
    </Dialog>
  );
}

function ManagerForm() {
  const request = managerRequest.value;
  const managers = (cashiers.value ?? []).filter(
    (cashier) => cashier.role === "manager" && cashier.status !== "disabled",
  );
  const [chosen, setChosen] = useState<string | undefined>(managers.length === 1 ? managers[0]?.id : undefined);
  const [pin, setPin] = useState("");
  const { busy, error, run } = useAction("The PIN was not accepted.");
  if (request === undefined) return null;
  const submit = async () => {
    if (chosen === undefined || pin.length < 4) return;
    const approved = await run(async () => request.resolve(await approve(chosen, pin, request.action)));
    if (!approved) {
      setPin("");
      // A wrong PIN may have locked the manager: show it.
      await loadCashiers().catch(() => {});
    }
  };
  return (
    <form
      class="manager-form"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <p>{`A manager's PIN is needed for ${actionLabels[request.action]}.`}</p>
      {managers.length === 0 ? (
        <p class="form-error" role="alert">
          This shop has no manager: the owner makes a cashier a manager in the dashboard (Shop → Cashiers).
        </p>
      ) : (
        <fieldset class="manager-list">
          <legend>Manager</legend>
          {managers.map((manager) => (
            <Button
              key={manager.id}
              variant={chosen === manager.id ? "primary" : "secondary"}
              aria-pressed={chosen === manager.id}
              disabled={manager.status !== "active"}
              onClick={() => setChosen(manager.id)}
            >
              {manager.status === "active" ? manager.name : `${manager.name} (locked)`}
            </Button>
          ))}
        </fieldset>
      )}
      <Field
        label="Manager's PIN"
        {...PIN_INPUT}
        value={pin}
        onValue={(value) => setPin(digits(value))}
        error={error}
      />
      <div class="dialog-actions">
        <Button onClick={() => request.cancel()}>Cancel</Button>
        <Button type="submit" variant="primary" busy={busy} disabled={chosen === undefined || pin.length < 4}>
          Approve
        </Button>
      </div>
    </form>
  );
}

/** The cashier switched in changes their own PIN: the current one, then the new one twice. */
export function ChangePinDialog(props: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={props.open} title="Change my PIN" onClose={props.onClose}>
      {props.open ? <ChangePinForm onClose={props.onClose} /> : null}
    </Dialog>
  );
}

function ChangePinForm(props: { onClose: () => void }) {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [again, setAgain] = useState("");
  const [done, setDone] = useState(false);
  const { busy, error, run } = useAction("The PIN was not accepted.");
  const mismatch = again !== "" && again !== next ? "The new PINs differ." : undefined;
  const submit = async () => {
    if (current.length < 4 || next.length < 4 || next !== again) return;
    if (await run(() => changeOwnPin(current, next))) setDone(true);
    else setCurrent("");
  };
  if (done) {
    return (
      <div>
        <p role="status">Your PIN is changed: use the new one from now on.</p>
        <div class="dialog-actions">
          <Button variant="primary" onClick={props.onClose}>
            Done
          </Button>
        </div>
      </div>
    );
  }
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Field
        label="Current PIN"
        {...PIN_INPUT}
        value={current}
        onValue={(value) => setCurrent(digits(value))}
        error={error}
      />
      <Field label="New PIN (4 to 6 digits)" {...PIN_INPUT} value={next} onValue={(value) => setNext(digits(value))} />
      <Field
        label="New PIN again"
        {...PIN_INPUT}
        value={again}
        onValue={(value) => setAgain(digits(value))}
        error={mismatch}
      />
      <div class="dialog-actions">
        <Button onClick={props.onClose}>Cancel</Button>
        <Button
          type="submit"
          variant="primary"
          busy={busy}
          disabled={current.length < 4 || next.length < 4 || next !== again}
        >
          Change PIN
        </Button>
      </div>
    </form>
  );
}
