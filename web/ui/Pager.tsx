import type { PagerProps } from "../lib/use-cursor-pages.ts";
import { Button } from "./Button.tsx";

/** Previous and next page of a cursor-paged list (web/lib/use-cursor-pages.ts keeps the cursors). */
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
