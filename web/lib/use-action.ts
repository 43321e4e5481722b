import { useRef, useState } from "preact/hooks";
import { actionKey } from "./action-key.ts";

/** What a form shows of its action: busy while it runs, and the message of its last failure. */
export type Action = {
  busy: boolean;
  error: string | undefined;
  /** Shows a message of the form's own (a value typed wrong) without sending anything; undefined clears. */
  fail: (message: string | undefined) => void;
  /**
   * Runs one attempt of the user's action: `send` gets the action's Idempotency-Key (web/lib/action-key.ts
   * says when it is kept for the retry and when renewed). True when it succeeded; a failure's message is
   * `error`, except those `passOn` claims, which are thrown to the caller (a step-up asks for the password).
   */
  run: (send: (idempotencyKey: string) => Promise<void>, passOn?: (error: unknown) => boolean) => Promise<boolean>;
};

/** The busy/error/Idempotency-Key state of one form, the same in every form of both apps. */
export function useAction(fallbackMessage = "That did not work."): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const key = useRef(actionKey()).current;
  const run: Action["run"] = async (send, passOn) => {
    setBusy(true);
    setError(undefined);
    try {
      await send(key.take());
      key.settle();
      return true;
    } catch (caught) {
      key.settle(caught);
      if (passOn?.(caught) === true) throw caught;
      setError(caught instanceof Error ? caught.message : fallbackMessage);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, fail: setError, run };
}
