import type { ComponentChildren } from "preact";
import { useId, useLayoutEffect, useRef } from "preact/hooks";

/**
 * A modal dialog on the native <dialog>: the browser traps focus, closes on Escape and returns focus
 * to where it was. `open` drives it; `onClose` hears every way it closes.
 */
export function Dialog(props: { open: boolean; title: string; onClose: () => void; children: ComponentChildren }) {
  const reference = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // In the commit itself, not after the next paint (useEffect): a dialog closed and opened again
  // within one frame must end up as the last render says.
  useLayoutEffect(() => {
    const dialog = reference.current;
    if (dialog === null) return;
    if (props.open && !dialog.open) {
      dialog.showModal();
    } else if (!props.open && dialog.open) {
      dialog.close();
    }
  }, [props.open]);
  return (
    <dialog ref={reference} aria-labelledby={titleId} onClose={props.onClose} class="dialog">
      {props.open ? (
        <>
          <h2 id={titleId}>{props.title}</h2>
          {props.children}
        </>
      ) : null}
    </dialog>
  );
}
