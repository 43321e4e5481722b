import { useState } from "preact/hooks";
import {
  ApiError,
  type Cashier,
  type CashierRole,
  createCashier,
  disableCashier,
  listCashiers,
  unlockCashier,
  updateCashier,
} from "../../../lib/api.ts";
import { formatDateTime } from "../../../lib/format.ts";
import { useResource } from "../../../lib/resource.ts";
import { Button, Dialog, Field, SelectField, Table, toast } from "../../../ui/index.ts";
import { Status } from "../shared.tsx";

const ROLES: readonly { value: CashierRole; label: string }[] = [
  { value: "cashier", label: "Cashier" },
  { value: "manager", label: "Manager" },
];

/**
 * The people who work the till: each switches in on a paired till with a 4–6 digit PIN. The PIN is
 * typed here once, sent to the API (which keeps only its hash) and never shown again. Cashiers belong
 * to the shop, not to a world: TEST and LIVE list the same people.
 */
export function CashiersPage() {
  const [cashiers, reload] = useResource(() => listCashiers(), []);
  const [disabling, setDisabling] = useState<Cashier | undefined>(undefined);
  const [busyId, setBusyId] = useState<string | undefined>(undefined);

  const act = async (cashier: Cashier, action: "unlock" | "disable", done: string) => {
    setBusyId(cashier.id);
    try {
      await (action === "unlock" ? unlockCashier : disableCashier)(cashier.id);
      toast(done);
      reload();
    } catch (caught) {
      toast(caught instanceof Error ? caught.message : "That did not work.", "error");
    } finally {
      setBusyId(undefined);
    }
  };

  return (
    <>
      <h1>Cashiers</h1>
      <p>
        A cashier switches in on a paired till with their PIN; sales, returns and shifts then record who did them. Five
        wrong PINs in a row lock the cashier until you unlock them here. A manager's PIN at the till approves returns,
        cash pay-outs and closing a drawer that does not hold what it should.
      </p>
      <NewCashier onCreated={reload} />
      <section aria-labelledby="cashiers-title">
        <h2 id="cashiers-title">Your cashiers</h2>
        {cashiers.state === "loaded" ? (
          <CashierTable
            cashiers={cashiers.value.data}
            busyId={busyId}
            onUnlock={(cashier) => act(cashier, "unlock", `${cashier.name} is unlocked.`)}
            onDisable={setDisabling}
            onChanged={reload}
          />
        ) : (
          <Status resource={cashiers} />
        )}
      </section>
      <DisableCashierDialog
        cashier={disabling}
        busy={disabling !== undefined && busyId === disabling.id}
        onClose={() => setDisabling(undefined)}
        onDisable={async (cashier) => {
          await act(cashier, "disable", `${cashier.name} is disabled.`);
          setDisabling(undefined);
        }}
      />
    </>
  );
}

/** The cashiers, each with its role to change and, while not disabled, unlock (when locked) and disable. */
function CashierTable(props: {
  cashiers: Cashier[];
  busyId: string | undefined;
  onUnlock: (cashier: Cashier) => void;
  onDisable: (cashier: Cashier) => void;
  onChanged: () => void;
}) {
  return (
    <Table
      caption="Cashiers"
      rows={props.cashiers}
      rowKey={(cashier) => cashier.id}
      empty="No cashiers yet."
      columns={[
        { header: "Name", cell: (cashier) => cashier.name },
        {
          header: "Role",
          cell: (cashier) =>
            cashier.status === "disabled" ? (
              roleLabel(cashier.role)
            ) : (
              <RoleSelect cashier={cashier} onChanged={props.onChanged} />
            ),
        },
        {
          header: "Status",
          cell: (cashier) => <span class={`status status-${cashier.status}`}>{cashier.status}</span>,
        },
        { header: "Wrong PINs", numeric: true, cell: (cashier) => cashier.failed_pin_attempts },
        {
          header: "Since",
          cell: (cashier) => formatDateTime(cashier.disabled_at ?? cashier.locked_at ?? cashier.created_at),
        },
        {
          header: "Actions",
          cell: (cashier) =>
            cashier.status === "disabled" ? (
              "—"
            ) : (
              <div class="row">
                {cashier.status === "locked" ? (
                  <Button
                    busy={props.busyId === cashier.id}
                    aria-label={`Unlock ${cashier.name}`}
                    onClick={() => props.onUnlock(cashier)}
                  >
                    Unlock
                  </Button>
                ) : null}
                <Button
                  variant="danger"
                  aria-label={`Disable ${cashier.name}`}
                  onClick={() => props.onDisable(cashier)}
                >
                  Disable
                </Button>
              </div>
            ),
        },
      ]}
    />
  );
}

/** Asks before disabling a cashier, saying what it means for their till and their past sales. */
function DisableCashierDialog(props: {
  cashier: Cashier | undefined;
  busy: boolean;
  onClose: () => void;
  onDisable: (cashier: Cashier) => Promise<void>;
}) {
  return (
    <Dialog open={props.cashier !== undefined} title="Disable this cashier?" onClose={props.onClose}>
      <p>
        <strong>{props.cashier?.name}</strong> will no longer be able to switch in, and a till they are switched in on
        stops acting as them at once. Their past sales keep their name. This cannot be undone: create the cashier again
        if they come back.
      </p>
      <div class="dialog-actions">
        <Button onClick={props.onClose}>Cancel</Button>
        <Button
          variant="danger"
          busy={props.busy}
          onClick={async () => {
            const cashier = props.cashier;
            if (cashier === undefined) return;
            await props.onDisable(cashier);
          }}
        >
          Disable cashier
        </Button>
      </div>
    </Dialog>
  );
}

const roleLabel = (role: CashierRole) => ROLES.find((option) => option.value === role)?.label ?? role;

/** The role, changed as soon as another is chosen (the owner's session; the API answers the cashier). */
function RoleSelect(props: { cashier: Cashier; onChanged: () => void }) {
  const { cashier } = props;
  const [busy, setBusy] = useState(false);
  return (
    <select
      class="role-select"
      aria-label={`Role of ${cashier.name}`}
      value={cashier.role}
      disabled={busy}
      onChange={async (event) => {
        const role = event.currentTarget.value as CashierRole;
        setBusy(true);
        try {
          await updateCashier(cashier.id, { role });
          toast(`${cashier.name} is now a ${roleLabel(role).toLowerCase()}.`);
          props.onChanged();
        } catch (caught) {
          toast(caught instanceof Error ? caught.message : "The role was not changed.", "error");
        } finally {
          setBusy(false);
        }
      }}
    >
      {ROLES.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  );
}

const PIN_PATTERN = /^[0-9]{4,6}$/;

function NewCashier(props: { onCreated: () => void }) {
  const [name, setName] = useState("");
  const [pin, setPin] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [role, setRole] = useState<CashierRole>("cashier");
  const [errors, setErrors] = useState<{ name?: string; pin?: string; confirmation?: string }>({});
  const [busy, setBusy] = useState(false);
  return (
    <section aria-labelledby="new-cashier-title">
      <h2 id="new-cashier-title">Add a cashier</h2>
      <form
        class="card"
        onSubmit={async (event) => {
          event.preventDefault();
          const found = {
            pin: PIN_PATTERN.test(pin) ? undefined : "The PIN is 4 to 6 digits.",
            confirmation: pin === confirmation ? undefined : "The two PINs differ.",
          };
          setErrors(found);
          if (found.pin !== undefined || found.confirmation !== undefined) return;
          setBusy(true);
          try {
            const created = await createCashier({ name: name.trim(), pin, role });
            // The PIN leaves the page's state as soon as the API has it.
            setName("");
            setPin("");
            setConfirmation("");
            setRole("cashier");
            toast(`${created.name} can now switch in on your tills.`);
            props.onCreated();
          } catch (caught) {
            // A taken name is the Name field's problem: said under it, and gone once it is edited.
            if (caught instanceof ApiError && caught.code === "cashier_name_taken") {
              setErrors({ name: caught.message });
              return;
            }
            toast(caught instanceof Error ? caught.message : "The cashier was not created.", "error");
          } finally {
            setBusy(false);
          }
        }}
      >
        <div class="row">
          <CashierFields
            name={name}
            onName={(value) => {
              setName(value);
              setErrors({ ...errors, name: undefined });
            }}
            pin={pin}
            confirmation={confirmation}
            onPin={setPin}
            onConfirmation={setConfirmation}
            errors={errors}
          />
          <SelectField
            label="Role"
            value={role}
            onValue={(value) => setRole(value === "manager" ? "manager" : "cashier")}
            options={ROLES}
          />
        </div>
        <Button type="submit" variant="primary" busy={busy}>
          Add cashier
        </Button>
      </form>
    </section>
  );
}

/** The new cashier's name and PIN, the PIN typed twice; each field shows its own refusal. */
function CashierFields(props: {
  name: string;
  onName: (name: string) => void;
  pin: string;
  confirmation: string;
  onPin: (pin: string) => void;
  onConfirmation: (confirmation: string) => void;
  errors: { name?: string; pin?: string; confirmation?: string };
}) {
  return (
    <>
      <Field
        label="Name"
        required
        maxLength={100}
        autocomplete="off"
        value={props.name}
        onValue={props.onName}
        error={props.errors.name}
      />
      <Field
        label="PIN"
        type="password"
        inputMode="numeric"
        autocomplete="new-password"
        required
        minLength={4}
        maxLength={6}
        hint="4 to 6 digits; tell it to the cashier, it is not shown again"
        value={props.pin}
        onValue={props.onPin}
        error={props.errors.pin}
      />
      <Field
        label="PIN again"
        type="password"
        inputMode="numeric"
        autocomplete="new-password"
        required
        maxLength={6}
        value={props.confirmation}
        onValue={props.onConfirmation}
        error={props.errors.confirmation}
      />
    </>
  );
}
