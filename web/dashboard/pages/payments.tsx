import { chosen, listPayments } from "../../lib/api.ts";
import { localDayEnd, localDayStart } from "../../lib/format.ts";
import { useResource } from "../../lib/resource.ts";
import { currentQuery, replaceQuery } from "../../lib/url-query.ts";
import { Field, Pager, SelectField } from "../../ui/index.ts";
import { PaymentTable } from "../components/payment-table.tsx";
import { type Payment, Status } from "./shared.tsx";

const STATUSES = [
  { value: "", label: "Any status" },
  { value: "pending", label: "Pending" },
  { value: "paid", label: "Paid" },
  { value: "expired", label: "Expired" },
  { value: "failed", label: "Failed" },
];

/** The list's filters and page, as the URL holds them: `after` is the trail of cursors to this page. */
type Filters = { status: string; from: string; to: string; after: string[] };

function filtersOf(query: URLSearchParams): Filters {
  const after = query.get("after");
  return {
    status: query.get("status") ?? "",
    from: query.get("from") ?? "",
    to: query.get("to") ?? "",
    after: after === null || after === "" ? [] : after.split(","),
  };
}

const writeFilters = (filters: Filters) => replaceQuery({ ...filters, after: filters.after.join(",") });

/**
 * The current world's payments, newest first, filtered by status and dates, page by page (cursor).
 * Filters and page live in the URL, so Back from a payment shows the same list; a From day after the
 * To day says so and asks for nothing.
 */
export function PaymentsPage() {
  const filters = filtersOf(currentQuery.value);
  const { status, from, to, after } = filters;
  const backwards = from !== "" && to !== "" && from > to;
  const cursor = after.at(-1);
  const [page] = useResource(
    () =>
      backwards
        ? Promise.resolve(undefined)
        : listPayments({
            status: chosen<Payment["status"]>(status),
            from: localDayStart(from),
            to: localDayEnd(to),
            limit: 20,
            cursor,
          }),
    [status, from, to, cursor],
  );
  // A filter change starts again at the first page.
  const filter = (change: Partial<Filters>) => writeFilters({ ...filters, ...change, after: [] });
  return (
    <>
      <h1>Payments</h1>
      <form class="row" aria-label="Filters" onSubmit={(event) => event.preventDefault()}>
        <SelectField label="Status" value={status} onValue={(value) => filter({ status: value })} options={STATUSES} />
        <Field label="From" type="date" value={from} onValue={(value) => filter({ from: value })} />
        <Field
          label="To"
          type="date"
          value={to}
          onValue={(value) => filter({ to: value })}
          error={backwards ? "To is before From: choose a To day on or after the From day." : undefined}
        />
      </form>
      {backwards ? null : page.state === "loaded" && page.value !== undefined ? (
        <>
          <PaymentTable
            caption={`Payments, page ${after.length + 1}`}
            payments={page.value.data}
            empty="No payments match."
          />
          <Pager
            hasPrevious={after.length > 0}
            hasNext={page.value.has_more}
            onPrevious={() => writeFilters({ ...filters, after: after.slice(0, -1) })}
            onNext={() => writeFilters({ ...filters, after: [...after, page.value?.next_cursor ?? ""] })}
          />
        </>
      ) : page.state === "loaded" ? null : (
        <Status resource={page} />
      )}
    </>
  );
}
