import { useState } from "preact/hooks";
import { formatMoney } from "../../../../src/kernel/money.ts";
import { chosen, listShifts, type Shift } from "../../../lib/api.ts";
import { formatDateTime } from "../../../lib/format.ts";
import { useResource } from "../../../lib/resource.ts";
import { overShort, overShortClass } from "../../../reports/index.ts";
import { Link, Pager, SelectField, Table, useCursorPages } from "../../../ui/index.ts";
import { shiftPath } from "../../paths.ts";
import { Status } from "../shared.tsx";
import { useActorNames, useTills } from "./actors.tsx";
import type { ShiftCash } from "./types.ts";

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
  const pages = useCursorPages();
  const [shifts] = useResource(
    () =>
      listShifts({
        till_id: chosen(filter.till),
        status: chosen<Shift["status"]>(filter.status),
        limit: 20,
        cursor: pages.cursor,
      }),
    [filter, pages.cursor],
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
            pages.restart();
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
            pages.restart();
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
            caption={`Shifts, page ${pages.number}`}
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
          <Pager {...pages.pagerOf(shifts.value)} />
        </>
      ) : (
        <Status resource={shifts} />
      )}
    </>
  );
}
