import { useState } from "preact/hooks";
import { formatMoney } from "../../../../src/kernel/money.ts";
import type { Page } from "../../../lib/api.ts";
import { formatDateTime } from "../../../lib/format.ts";
import { useResource } from "../../../lib/resource.ts";
import { api } from "../../../lib/session.ts";
import { overShort, overShortClass } from "../../../reports/index.ts";
import { Button, Link, SelectField, Table } from "../../../ui/index.ts";
import { shiftPath } from "../../paths.ts";
import { Status } from "../shared.tsx";
import { useActorNames, useTills } from "./actors.tsx";
import type { Shift, ShiftCash } from "./types.ts";

/** One line per currency of a drawer figure ("USD 72.50", "ZWG 225.00"); "—" where it is not known yet. */
export function PerCurrency(props: { cash: readonly ShiftCash[]; cents: (cash: ShiftCash) => number | null }) {
  return (
    <>
      {props.cash.map((cash) => {
        const cents = props.cents(cash);
        return (
          <div key={cash.currency}>{cents === null ? `${cash.currency} —` : formatMoney(cash.currency, cents)}</div>
        );
      })}
    </>
  );
}

/** The world's drawer shifts (Z reports), newest first, by till and status, with their cash per currency. */
export function ShiftsPage() {
  const [filter, setFilter] = useState({ till: "", status: "" });
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors.at(-1);
  const [shifts] = useResource(
    () =>
      api.get<Page<Shift>>("/v1/shifts", {
        query: { till_id: filter.till, status: filter.status, limit: 20, cursor },
      }),
    [filter, cursor],
  );
  const nameOf = useActorNames();
  const { devices, tillName } = useTills();
  return (
    <>
      <h1>Shifts</h1>
      <p>
        A shift runs from opening a till's cash drawer with its float to closing it with the cash counted. Each closed
        shift is a Z report: open it to see its cash moves and print it.
      </p>
      <div class="row">
        <SelectField
          label="Till"
          value={filter.till}
          onValue={(till) => {
            setCursors([undefined]);
            setFilter({ ...filter, till });
          }}
          options={[
            { value: "", label: "All tills" },
            ...devices.map((device) => ({
              value: device.id,
              label: device.status === "paired" ? device.name : `${device.name} (unpaired)`,
            })),
          ]}
        />
        <SelectField
          label="Status"
          value={filter.status}
          onValue={(status) => {
            setCursors([undefined]);
            setFilter({ ...filter, status });
          }}
          options={[
            { value: "", label: "All" },
            { value: "open", label: "Open" },
            { value: "closed", label: "Closed" },
          ]}
        />
      </div>
      {shifts.state === "loaded" ? (
        <>
          <Table
            caption={`Shifts, page ${cursors.length}`}
            rows={shifts.value.data}
            rowKey={(shift) => shift.id}
            empty="No shifts match."
            columns={[
              {
                header: "Opened",
                cell: (shift) => (
                  <>
                    <Link href={shiftPath(shift.id)}>{formatDateTime(shift.opened_at)}</Link>
                    <div class="muted">by {nameOf(shift.opened_by)}</div>
                  </>
                ),
              },
              { header: "Till", cell: (shift) => tillName(shift.till_id) },
              {
                header: "Status",
                cell: (shift) => <span class={`status status-${shift.status}`}>{shift.status}</span>,
              },
              {
                header: "Closed",
                cell: (shift) =>
                  shift.closed_at === null ? (
                    "—"
                  ) : (
                    <>
                      {formatDateTime(shift.closed_at)}
                      <div class="muted">by {nameOf(shift.closed_by)}</div>
                    </>
                  ),
              },
              {
                header: "Expected",
                numeric: true,
                cell: (shift) => <PerCurrency cash={shift.cash} cents={(cash) => cash.expected_cents} />,
              },
              {
                header: "Counted",
                numeric: true,
                cell: (shift) => <PerCurrency cash={shift.cash} cents={(cash) => cash.counted_cents} />,
              },
              {
                header: "Over/short",
                numeric: true,
                cell: (shift) =>
                  shift.cash.map((cash) => (
                    <div key={cash.currency} class={overShortClass(cash)}>
                      {overShort(cash)}
                    </div>
                  )),
              },
            ]}
          />
          <div class="pager">
            <Button disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
              Previous page
            </Button>
            <Button
              disabled={!shifts.value.has_more}
              onClick={() => setCursors([...cursors, shifts.value.next_cursor ?? undefined])}
            >
              Next page
            </Button>
          </div>
        </>
      ) : (
        <Status resource={shifts} />
      )}
    </>
  );
}
