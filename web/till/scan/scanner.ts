/**
 * Tells a barcode scanner from a person at the keyboard. A USB or Bluetooth scanner is a keyboard that
 * types the whole code in a burst, a few milliseconds per key, and presses Enter (or Tab). People leave
 * far more than 30 ms between keys. So keystrokes are watched at document level, whatever has focus:
 * a burst of at least `SCAN_LENGTH_MIN` characters, each within `KEY_GAP_MS_MAX` of the previous one,
 * ended by Enter or Tab within the same gap, is a scan.
 *
 * The characters of a burst have already landed in whatever field had focus (the first keys cannot be
 * told from typing until the next ones come). When the burst turns out to be a scan, each field it
 * typed into gets back the value it had before, so a scan never ends up in a quantity field; the
 * Enter or Tab is swallowed, so it submits or moves nothing.
 *
 * Characters are read from the physical key (`event.code`) where it names a digit or a letter: a
 * scanner sends the key positions of a US keyboard, so the code reads right whatever layout the
 * computer is set to (on AZERTY, the key a scanner uses for "1" types "&").
 */

/** Longest gap between two keys of one scan (a person's fastest typing leaves 60 ms or more). */
export const KEY_GAP_MS_MAX = 30;
/** Shortest code taken for a scan. */
export const SCAN_LENGTH_MIN = 3;

type Edited = {
  element: HTMLInputElement | HTMLTextAreaElement;
  value: string;
  start: number | null;
  end: number | null;
};

/** The pure part: feed it key events with their time stamps; it says when a burst was a scan. */
export class ScanDetector {
  private characters: string[] = [];
  private lastKeyAt = Number.NEGATIVE_INFINITY;

  /** A character key; returns whether it starts a new burst (the caller notes the field's value then). */
  character(character: string, atMs: number): boolean {
    const gapMs = atMs - this.lastKeyAt;
    // A key stamped before the last one (clocks of different input sources) starts afresh too.
    const startsBurst = gapMs > KEY_GAP_MS_MAX || gapMs < 0;
    if (startsBurst) {
      this.characters = [];
    }
    this.characters.push(character);
    this.lastKeyAt = atMs;
    return startsBurst;
  }

  /** Enter or Tab: the code when the burst before it was a scan, otherwise undefined. */
  end(atMs: number): string | undefined {
    const gapMs = atMs - this.lastKeyAt;
    const isScan = this.characters.length >= SCAN_LENGTH_MIN && gapMs >= 0 && gapMs <= KEY_GAP_MS_MAX;
    const code = this.characters.join("");
    this.reset();
    return isScan ? code : undefined;
  }

  reset(): void {
    this.characters = [];
    this.lastKeyAt = Number.NEGATIVE_INFINITY;
  }
}

/** The character a key stands for: digits and letters from the key's position, the rest as typed. */
export function characterOf(event: Pick<KeyboardEvent, "key" | "code" | "shiftKey">): string | undefined {
  const digit = /^(?:Digit|Numpad)(\d)$/.exec(event.code);
  if (digit?.[1] !== undefined) {
    return digit[1];
  }
  const letter = /^Key([A-Z])$/.exec(event.code);
  if (letter?.[1] !== undefined) {
    return event.shiftKey ? letter[1] : letter[1].toLowerCase();
  }
  return event.key.length === 1 ? event.key : undefined;
}

const isTextField = (target: EventTarget | null): target is HTMLInputElement | HTMLTextAreaElement =>
  target instanceof HTMLTextAreaElement ||
  (target instanceof HTMLInputElement && !["checkbox", "radio", "button", "submit"].includes(target.type));

/** Restores a field to what it held before the burst, telling the app (an input event) as typing would. */
function restore(edited: Edited): void {
  const { element } = edited;
  if (element.value === edited.value) return;
  element.value = edited.value;
  try {
    if (edited.start !== null && edited.end !== null) element.setSelectionRange(edited.start, edited.end);
  } catch {
    // Some input types (number, email) have no selection.
  }
  element.dispatchEvent(new Event("input", { bubbles: true }));
}

/**
 * Listens on the document (capture phase, so before any field's own handlers) and calls `onScan` with
 * each scanned code. Returns the function that stops listening.
 */
export function listenForScans(onScan: (code: string) => void, target: Document = document): () => void {
  const detector = new ScanDetector();
  let edited: Edited[] = [];
  const noteField = (field: EventTarget | null) => {
    if (isTextField(field) && !edited.some((entry) => entry.element === field)) {
      edited.push({ element: field, value: field.value, start: field.selectionStart, end: field.selectionEnd });
    }
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) {
      detector.reset();
      return;
    }
    if (event.key === "Enter" || event.key === "Tab") {
      const code = detector.end(event.timeStamp);
      const fields = edited;
      edited = [];
      if (code !== undefined) {
        event.preventDefault();
        event.stopPropagation();
        fields.forEach(restore);
        onScan(code);
      }
      return;
    }
    const character = characterOf(event);
    if (character === undefined) {
      if (event.key !== "Shift") detector.reset();
      return;
    }
    if (detector.character(character, event.timeStamp)) {
      edited = [];
    }
    noteField(event.target);
  };
  target.addEventListener("keydown", onKeyDown, { capture: true });
  return () => target.removeEventListener("keydown", onKeyDown, { capture: true });
}
