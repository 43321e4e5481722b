import { useState } from "preact/hooks";
import type { Page } from "../../lib/api.ts";
import { formatDateTime, formatMoney } from "../../lib/format.ts";
import { useResource } from "../../lib/resource.ts";
import { api } from "../../lib/session.ts";
import { Button, Field, SelectField, Table } from "../../ui/index.ts";
import { type Payment, PaymentStatus, Status } from "./shared.tsx";

const STATUSES = [
  { value: "", label: "Any status" },
  { value: "pending", label: "Pending" },
  { value: "paid", label: "Paid" },
  { value: "expired", label: "Expired" },
  { value: "failed", label: "Failed" },
];

/** Dates typed as yyyy-mm-dd are local days: `to` includes its whole day. */
const dayStart = (day: string) => (day === "" ? undefined : new Date(`${day}T00:00:00`).toISOString());
const dayEnd = (day: string) => {
  if (day === "") return undefined;
  const end = new Date(`${day}T00:00:00`);
  end.setDate(end.getDate() + 1);
  return end.toISOString();
};

/** The current world's payments, newest first, filtered by status and dates, page by page (cursor). */
export function PaymentsPage() {
  const [status, setStatus] = useState("");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors.at(-1);
  const [page] = useResource(
    () =>
      api.get<Page<Payment>>("/v1/payments", {
        query: { status, from: dayStart(from), to: dayEnd(to), limit: 20, cursor },
      }),
    [status, from, to, cursor],
  );
  const filter = (apply: () => void) => {
    apply();
    setCursors([undefined]);
  };
  return (
    <>
      <h1>Payments</h1>
      <form class="row" aria-label="Filters" onSubmit={(event) => event.preventDefault()}>
        <SelectField
          label="Status"
          value={status}
          onValue={(value) => filter(() => setStatus(value))}
          options={STATUSES}
        />
        <Field label="From" type="date" value={from} onValue={(value) => filter(() => setFrom(value))} />
        <Field label="To" type="date" value={to} onValue={(value) => filter(() => setTo(value))} />
      </form>
      {page.state === "loaded" ? (
        <>
          <Table
            caption={`Payments, page ${cursors.length}`}
            rows={page.value.data}
            rowKey={(payment) => payment.id}
            empty="No payments match."
            columns={[
              { header: "Created", cell: (payment) => formatDateTime(payment.created_at) },
              { header: "Status", cell: (payment) => <PaymentStatus status={payment.status} /> },
              {
                header: "Amount",
                numeric: true,
                cell: (payment) => formatMoney(payment.amount_cents, payment.currency),
              },
              { header: "Reference", cell: (payment) => payment.merchant_ref ?? "—" },
              { header: "ID", cell: (payment) => <code>{payment.id}</code> },
            ]}
          />
          <div class="pager">
            <Button disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
              Previous page
            </Button>
            <Button
              disabled={!page.value.has_more}
              onClick={() => setCursors([...cursors, page.value.next_cursor ?? undefined])}
            >
              Next page
            </Button>
          </div>
        </>
      ) : (
        <Status resource={page} />
      )}
    </>
  );
}
