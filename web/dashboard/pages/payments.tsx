import { useState } from "preact/hooks";
import type { Page } from "../../lib/api.ts";
import { localDayEnd, localDayStart } from "../../lib/format.ts";
import { useResource } from "../../lib/resource.ts";
import { api } from "../../lib/session.ts";
import { Button, Field, SelectField } from "../../ui/index.ts";
import { PaymentTable } from "../components/payment-table.tsx";
import { type Payment, Status } from "./shared.tsx";

const STATUSES = [
  { value: "", label: "Any status" },
  { value: "pending", label: "Pending" },
  { value: "paid", label: "Paid" },
  { value: "expired", label: "Expired" },
  { value: "failed", label: "Failed" },
];

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
        query: { status, from: localDayStart(from), to: localDayEnd(to), limit: 20, cursor },
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
          <PaymentTable
            caption={`Payments, page ${cursors.length}`}
            payments={page.value.data}
            empty="No payments match."
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
