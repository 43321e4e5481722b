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
import type { Actor, ShiftCash, TillDevice } from "./types.ts";

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
      <ShiftFilters
        filter={filter}
        onFilter={(next) => {
          pages.restart();
          setFilter(next);
        }}
        devices={devices}
      />
      {shifts.state === "loaded" ? (
        <>
          <ShiftTable
            shifts={shifts.value.data}
            caption={`Shifts, page ${pages.number}`}
            tillName={tillName}
            nameOf={nameOf}
          />
          <Pager {...pages.pagerOf(shifts.value)} />
        </>
      ) : (
        <Status resource={shifts} />
      )}
    </>
  );
}

/** The shifts shown: by till (an unpaired one says so) and by status. */
function ShiftFilters(props: {
  filter: { till: string; status: string };
  onFilter: (filter: { till: string; status: string }) => void;
  devices: readonly TillDevice[];
}) {
  return (
    <div class="row">
      <SelectField
        label="Till"
        value={props.filter.till}
        onValue={(till) => props.onFilter({ ...props.filter, till })}
        options={[
          { value: "", label: "All tills" },
          ...props.devices.map((device) => ({
            value: device.id,
            label: device.status === "paired" ? device.name : `${device.name} (unpaired)`,
          })),
        ]}
      />
      <SelectField
        label="Status"
        value={props.filter.status}
        onValue={(status) => props.onFilter({ ...props.filter, status })}
        options={[
          { value: "", label: "All" },
          { value: "open", label: "Open" },
          { value: "closed", label: "Closed" },
        ]}
      />
    </div>
  );
}

/** A page of shifts, each linked to its Z report, with who opened and closed it and its cash per currency. */
function ShiftTable({
  shifts,
  caption,
  tillName,
  nameOf,
}: { shifts: Shift[]; caption: string } & {
  tillName: (tillId: string | null) => string;
  nameOf: (actor: Actor | null) => string;
}) {
  return (
    <Table
      caption={caption}
      rows={shifts}
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
  );
}
