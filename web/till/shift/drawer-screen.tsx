import { useEffect, useState } from "preact/hooks";
import { type Currency, currencies } from "../../../src/kernel/money.ts";
import { formatDateTime } from "../../lib/format.ts";
import { useResource } from "../../lib/resource.ts";
import { navigate } from "../../lib/router.ts";
import { useAction } from "../../lib/use-action.ts";
import { CashFigures } from "../../reports/index.ts";
import { Button, Field, FormError, SelectField, Table, toast } from "../../ui/index.ts";
import { parseAmountCents } from "../money.ts";
import { Z_REPORT_PATH } from "./paths.ts";
import {
  type Amount,
  closeBlocked,
  closeDrawer,
  listShifts,
  loadOpenShift,
  moveCash,
  openDrawer,
  openShift,
  type Shift,
} from "./shift-api.ts";

type PerCurrency = Record<Currency, string>;
const EMPTY: PerCurrency = { USD: "", ZWG: "" };

/** Typed amounts per currency as the API's list; undefined when one is not an amount. Blank is 0. */
function amountsOf(typed: PerCurrency): Amount[] | undefined {
  const amounts: Amount[] = [];
  for (const currency of currencies) {
    const cents = typed[currency].trim() === "" ? 0 : parseAmountCents(typed[currency]);
    if (cents === undefined) return undefined;
    amounts.push({ currency, amount_cents: cents });
  }
  return amounts;
}

function errorText(caught: unknown): string {
  return caught instanceof Error ? caught.message : "The drawer could not be updated.";
}

/**
 * The cash drawer of this till: open a shift with the counted float (USD and ZWG side by side), pay
 * cash in or out with a reason, see what the drawer should hold, close it with the count, and print
 * the Z report of this or any past shift. Each form is one action with its own Idempotency-Key.
 */
export function DrawerScreen() {
  const [closed, setClosed] = useState<Shift | undefined>(undefined);
  const [past, reloadPast] = useResource(listShifts, []);
  useEffect(() => {
    loadOpenShift().catch((error: unknown) => toast(errorText(error), "error"));
  }, []);
  const shift = openShift.value;
  return (
    <div class="drawer">
      <h1>Drawer</h1>
      {shift === undefined ? <p class="muted">Loading…</p> : null}
      {closed === undefined ? null : (
        <section class="closed-shift" aria-label="Shift closed">
          <p role="status" class="sale-done">
            Drawer closed at {formatDateTime(closed.closed_at ?? closed.opened_at)}.
          </p>
          <CashFigures shift={closed} caption="Closed shift: expected, counted, over or short" />
          <Button variant="primary" onClick={() => navigate(`${Z_REPORT_PATH}${closed.id}`)}>
            Print Z report
          </Button>
        </section>
      )}
      {shift === null ? (
        <OpenForm
          onOpened={() => {
            setClosed(undefined);
            reloadPast();
          }}
        />
      ) : null}
      {shift ? (
        <>
          <p class="muted">
            Open since {formatDateTime(shift.opened_at)}. Cash sales and returns of this till go in it.
          </p>
          <CashFigures shift={shift} caption="Open shift: what the drawer should hold" />
          <Button onClick={() => loadOpenShift().catch((error: unknown) => toast(errorText(error), "error"))}>
            Refresh figures
          </Button>
          <MoveForm shift={shift} />
          <CloseForm
            shift={shift}
            onClosed={(result) => {
              setClosed(result);
              reloadPast();
            }}
          />
        </>
      ) : null}
      <h2>Past shifts</h2>
      {past.state === "loaded" ? <PastShifts shifts={past.value} /> : null}
    </div>
  );
}

/** This till's shifts, each closed one with a link to its Z report. */
function PastShifts(props: { shifts: Shift[] }) {
  return (
    <Table
      caption="Shifts of this till, newest first"
      columns={[
        { header: "Opened", cell: (row) => formatDateTime(row.opened_at) },
        { header: "Closed", cell: (row) => (row.closed_at === null ? "open" : formatDateTime(row.closed_at)) },
        {
          header: "Z report",
          cell: (row) =>
            row.status === "closed" ? (
              <a
                href={`${Z_REPORT_PATH}${row.id}`}
                aria-label={`Z report of the shift closed ${formatDateTime(row.closed_at ?? "")}`}
              >
                Z report
              </a>
            ) : (
              "—"
            ),
        },
      ]}
      rows={props.shifts}
      rowKey={(row) => row.id}
      empty="No shifts yet."
    />
  );
}

function CurrencyFields(props: { legend: string; values: PerCurrency; onValues: (values: PerCurrency) => void }) {
  return (
    <fieldset class="per-currency">
      <legend>{props.legend}</legend>
      {currencies.map((currency) => (
        <Field
          key={currency}
          label={currency}
          inputMode="decimal"
          value={props.values[currency]}
          onValue={(value) => props.onValues({ ...props.values, [currency]: value })}
        />
      ))}
    </fieldset>
  );
}

function OpenForm(props: { onOpened: () => void }) {
  const [float, setFloat] = useState<PerCurrency>(EMPTY);
  const { busy, error, fail, run } = useAction("The drawer could not be updated.");
  return (
    <form
      class="drawer-form"
      onSubmit={async (event) => {
        event.preventDefault();
        const amounts = amountsOf(float);
        if (amounts === undefined) {
          fail("Type each float as an amount, like 20 or 20.50.");
          return;
        }
        await run(async (key) => {
          await openDrawer(amounts, key);
          setFloat(EMPTY);
          props.onOpened();
        });
      }}
    >
      <h2>Open the drawer</h2>
      <p class="muted">Count the cash in the drawer before the first sale: the opening float, per currency.</p>
      <CurrencyFields legend="Opening float" values={float} onValues={setFloat} />
      <FormError error={error} />
      <Button type="submit" variant="primary" busy={busy}>
        Open drawer
      </Button>
    </form>
  );
}

function MoveForm(props: { shift: Shift }) {
  const [kind, setKind] = useState<"pay_in" | "pay_out">("pay_in");
  const [currency, setCurrency] = useState<Currency>("USD");
  const [amount, setAmount] = useState("");
  const [reason, setReason] = useState("");
  const { busy, error, fail, run } = useAction("The drawer could not be updated.");
  return (
    <form
      class="drawer-form"
      onSubmit={async (event) => {
        event.preventDefault();
        const cents = parseAmountCents(amount);
        if (cents === undefined || cents <= 0 || reason.trim() === "") {
          fail("Type an amount above zero and the reason.");
          return;
        }
        await run(async (key) => {
          await moveCash(props.shift, { kind, currency, amount_cents: cents, reason: reason.trim() }, key);
          setAmount("");
          setReason("");
          toast(kind === "pay_in" ? "Pay-in recorded." : "Pay-out recorded.");
        });
      }}
    >
      <h2>Pay in or out</h2>
      <div class="form-row">
        <SelectField
          label="Move"
          value={kind}
          onValue={(value) => setKind(value === "pay_out" ? "pay_out" : "pay_in")}
          options={[
            { value: "pay_in", label: "Pay in (cash put in)" },
            { value: "pay_out", label: "Pay out (cash taken out)" },
          ]}
        />
        <SelectField
          label="Currency"
          value={currency}
          onValue={(value) => setCurrency(value === "ZWG" ? "ZWG" : "USD")}
          options={currencies.map((value) => ({ value, label: value }))}
        />
        <Field label="Amount" inputMode="decimal" value={amount} onValue={setAmount} />
        <Field label="Reason" value={reason} maxLength={200} onValue={setReason} />
      </div>
      <FormError error={error} />
      <Button type="submit" busy={busy}>
        Record
      </Button>
    </form>
  );
}

function CloseForm(props: { shift: Shift; onClosed: (shift: Shift) => void }) {
  const [counted, setCounted] = useState<PerCurrency>(EMPTY);
  const [note, setNote] = useState("");
  const { busy, error, fail, run } = useAction("The drawer could not be updated.");
  const blocked = closeBlocked();
  return (
    <form
      class="drawer-form"
      onSubmit={async (event) => {
        event.preventDefault();
        const amounts = amountsOf(counted);
        if (amounts === undefined) {
          fail("Type each count as an amount, like 20 or 20.50.");
          return;
        }
        await run(async (key) => props.onClosed(await closeDrawer(props.shift, amounts, note, key)));
      }}
    >
      <h2>Close the drawer</h2>
      <p class="muted">Count the cash in the drawer, per currency (blank is none).</p>
      <CurrencyFields legend="Counted" values={counted} onValues={setCounted} />
      <Field label="Note (optional)" value={note} maxLength={500} onValue={setNote} />
      <FormError error={blocked} />
      <FormError error={error} />
      <Button type="submit" variant="primary" busy={busy} disabled={blocked !== undefined}>
        Close drawer
      </Button>
    </form>
  );
}
