import { useState } from "preact/hooks";
import { Button } from "./Button.tsx";

/** What a cursor page says about the next one (every list of the API answers it). */
export type PageLinks = { has_more: boolean; next_cursor: string | null };

/** What `<Pager>` needs: whether each way is open, and how to go. */
export type PagerProps = { hasPrevious: boolean; hasNext: boolean; onPrevious: () => void; onNext: () => void };

/**
 * A list's cursor pages, walked forward and back: `cursor` is the one to load (undefined: the first
 * page), `number` counts from 1, `restart()` goes back to the first (a filter changed), and
 * `pagerOf(page)` gives `<Pager>` its props for the loaded page.
 */
export function useCursorPages(): {
  cursor: string | undefined;
  number: number;
  restart: () => void;
  pagerOf: (page: PageLinks) => PagerProps;
} {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  return {
    cursor: cursors.at(-1),
    number: cursors.length,
    restart: () => setCursors([undefined]),
    pagerOf: (page) => ({
      hasPrevious: cursors.length > 1,
      hasNext: page.has_more,
      onPrevious: () => setCursors(cursors.slice(0, -1)),
      onNext: () => setCursors([...cursors, page.next_cursor ?? undefined]),
    }),
  };
}

/** Previous and next page of a cursor-paged list (`useCursorPages` keeps the cursors). */
export function Pager(props: PagerProps) {
  return (
    <div class="pager">
      <Button disabled={!props.hasPrevious} onClick={props.onPrevious}>
        Previous page
      </Button>
      <Button disabled={!props.hasNext} onClick={props.onNext}>
        Next page
      </Button>
    </div>
  );
}
