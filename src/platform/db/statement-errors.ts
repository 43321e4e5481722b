/**
 * True when the database answered a statement with an error (a SQLSTATE, on the error or its causes),
 * so that the statement failed whole and wrote nothing: a constraint, a deadlock, a trigger's refusal.
 * False when no answer came (a lost connection, the server shutting down: classes 08 and 57P), where a
 * commit may have happened unseen, and for errors that are not the database's.
 */
export function statementRefused(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth += 1) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) {
      return !code.startsWith("08") && !code.startsWith("57P");
    }
  }
  return false;
}
