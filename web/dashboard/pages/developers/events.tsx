import { useState } from "preact/hooks";
import { ApiError, chosen, type Event, getEvent, listEvents, type Page } from "../../../lib/api.ts";
import { formatDateTime } from "../../../lib/format.ts";
import { useResource } from "../../../lib/resource.ts";
import { Button, Field, Pager, SelectField, Table, useCursorPages } from "../../../ui/index.ts";
import { Status } from "../shared.tsx";

/** What to show: one event by its id, or the feed (oldest first) of a type or family, page by page. */
type Search = { id: string } | { type: string };

/**
 * The event log of the current world: searchable by type (`payment.paid`, or a family `payment.*`)
 * and by id. Newest first unless the person switches to oldest first (the order a webhook consumer
 * processes them in); a page's cursor is the id of its last event.
 */
export function EventsPage() {
  const [search, setSearch] = useState<Search>({ type: "" });
  const pages = useCursorPages();
  const [order, setOrder] = useState("newest_first");
  const found = useFoundEvents(search, pages.cursor, order);
  const show = (next: Search) => {
    setSearch(next);
    pages.restart();
  };
  return (
    <>
      <h1>Events</h1>
      <EventFilters
        order={order}
        onOrder={(value) => {
          setOrder(value);
          pages.restart();
        }}
        onShow={show}
      />
      {found.state === "loaded" ? (
        <>
          <EventTable events={found.value.data} search={search} order={order} />
          <Pager {...pages.pagerOf(found.value)} />
        </>
      ) : (
        <Status resource={found} />
      )}
    </>
  );
}

/** The events a search finds: the one event of an id (none when the id is unknown), or a page of the feed. */
function useFoundEvents(search: Search, since: string | undefined, order: string) {
  const [found] = useResource(async (): Promise<Page<Event>> => {
    if ("id" in search) {
      try {
        const event = await getEvent(search.id);
        return { data: [event], has_more: false, next_cursor: null };
      } catch (caught) {
        if (caught instanceof ApiError && caught.status === 404) {
          return { data: [], has_more: false, next_cursor: null };
        }
        throw caught;
      }
    }
    return listEvents({ type: search.type, since, order: chosen<"oldest_first" | "newest_first">(order), limit: 20 });
  }, [JSON.stringify(search), since, order]);
  return found;
}

/** Search by type, find by id, and the order of the feed. */
function EventFilters(props: { order: string; onOrder: (order: string) => void; onShow: (search: Search) => void }) {
  const [typeText, setTypeText] = useState("");
  const [idText, setIdText] = useState("");
  return (
    <div class="row">
      <form
        class="row card"
        aria-label="Search by type"
        onSubmit={(event) => {
          event.preventDefault();
          props.onShow({ type: typeText.trim() });
        }}
      >
        <Field
          label="Event type"
          value={typeText}
          onValue={setTypeText}
          hint="payment.paid, or payment.* for a family"
        />
        <Button type="submit">Search type</Button>
      </form>
      <form
        class="row card"
        aria-label="Find by id"
        onSubmit={(event) => {
          event.preventDefault();
          props.onShow(idText.trim() === "" ? { type: "" } : { id: idText.trim() });
        }}
      >
        <Field label="Event id" value={idText} onValue={setIdText} placeholder="evt_…" />
        <Button type="submit">Find event</Button>
      </form>
      <SelectField
        label="Order"
        value={props.order}
        onValue={props.onOrder}
        options={[
          { value: "newest_first", label: "Newest first" },
          { value: "oldest_first", label: "Oldest first" },
        ]}
      />
    </div>
  );
}

/** The events found, each with its data folded away. */
function EventTable({ events, search, order }: { events: Event[]; search: Search; order: string }) {
  return (
    <Table
      caption={
        "id" in search
          ? `Event ${search.id}`
          : `Events${search.type === "" ? "" : ` of ${search.type}`}, ${order === "newest_first" ? "newest" : "oldest"} first`
      }
      rows={events}
      rowKey={(event) => event.id}
      empty={"id" in search ? "No event has this id in this world." : "No events."}
      columns={[
        { header: "Created", cell: (event) => formatDateTime(event.created_at) },
        { header: "Type", cell: (event) => event.type },
        { header: "ID", cell: (event) => <code>{event.id}</code> },
        {
          header: "Data",
          cell: (event) => (
            <details>
              <summary>Data</summary>
              <pre class="excerpt">{JSON.stringify(event.data, null, 2)}</pre>
            </details>
          ),
        },
      ]}
    />
  );
}
