import DataLoader from "dataloader";
import type { Database } from "./pool.ts";
import { statementRefused } from "./statement-errors.ts";

// Bounds one statement's arrays; far above one API process's concurrent writes.
const BATCH_SIZE_MAX = 200;

/**
 * Collects the rows written in one turn of the event loop (at most `BATCH_SIZE_MAX`) and hands them
 * to `write` together, so that one statement, one commit and one WAL flush serve all of them instead
 * of one each. `write` answers each row's outcome in the rows' order (an Error rejects that row's
 * write only); a rejection of `write` rejects every row of its batch.
 */
export function batchPerTurn<Row, Outcome>(
  write: (rows: readonly Row[]) => Promise<readonly (Outcome | Error)[]>,
): (row: Row) => Promise<Outcome> {
  const batches = new DataLoader<Row, Outcome>(write, {
    cache: false,
    maxBatchSize: BATCH_SIZE_MAX,
    batchScheduleFn: setImmediate,
  });
  return (row) => batches.load(row);
}

/**
 * `batchPerTurn` on each database: the process's one writer there, made at its first row, so that
 * every caller's rows of a turn share it.
 */
export function batchPerTurnOn<Row, Outcome>(
  write: (database: Database, rows: readonly Row[]) => Promise<readonly (Outcome | Error)[]>,
): (database: Database) => (row: Row) => Promise<Outcome> {
  return oncePerDatabase((database) => batchPerTurn((rows: readonly Row[]) => write(database, rows)));
}

/**
 * What `make` makes on a database, made at its first use there and the same thereafter: a process's
 * batching writers, built once in the wiring (which has no database yet: the request brings it).
 */
export function oncePerDatabase<Made>(make: (database: Database) => Made): (database: Database) => Made {
  const made = new WeakMap<Database, Made>();
  return (database) => {
    let existing = made.get(database);
    if (existing === undefined) {
      existing = make(database);
      made.set(database, existing);
    }
    return existing;
  };
}

/**
 * `write` over `rows` in the order of their keys (merchant, then id), so that statements running
 * side by side take the rows they share (balances, the rows themselves) in one order; its outcomes
 * answered in the rows' own order.
 */
export async function writeInKeyOrder<Row, Outcome>(
  rows: readonly Row[],
  keyOf: (row: Row) => { merchantId: string; id: string },
  write: (ordered: readonly Row[]) => Promise<readonly Outcome[]>,
): Promise<Outcome[]> {
  const keys = rows.map(keyOf);
  const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const order = rows
    .map((_, index) => index)
    .sort(
      (a, b) =>
        compare(keys[a]?.merchantId ?? "", keys[b]?.merchantId ?? "") || compare(keys[a]?.id ?? "", keys[b]?.id ?? ""),
    );
  const outcomes = await write(order.map((index) => rows[index] as Row));
  const outcomeOf = new Map(order.map((index, position) => [index, outcomes[position] as Outcome]));
  return rows.map((_, index) => outcomeOf.get(index) as Outcome);
}

/**
 * A batch statement's rows, each carrying the `position` (from 1) of its input, as one answer per
 * input in the inputs' order: its row, or null where none came back (nothing written for it).
 */
export function inInputOrder<Row extends { position: number }>(
  rows: readonly Row[],
  inputs: number,
): (Omit<Row, "position"> | null)[] {
  const byPosition = new Map(rows.map(({ position, ...row }) => [position, row]));
  return Array.from({ length: inputs }, (_, index) => byPosition.get(index + 1) ?? null);
}

/**
 * Writes `rows` together with `writeAll` (one statement, answering each row's outcome in order); when
 * the database refused that statement (`statementRefused`: a row at fault, such as a constraint, not a
 * lost connection, after which a commit may have happened unseen), writes each row again alone, so
 * that only the rows at fault fail, each with its own error. Otherwise every row fails with the
 * statement's error. For `batchPerTurn`'s `write`.
 */
export async function writeTogetherOrAlone<Row, Outcome>(
  rows: readonly Row[],
  writeAll: (rows: readonly Row[]) => Promise<readonly Outcome[]>,
): Promise<(Outcome | Error)[]> {
  try {
    return [...(await writeAll(rows))];
  } catch (error) {
    if (rows.length > 1 && statementRefused(error)) {
      return (await Promise.all(rows.map((row) => writeTogetherOrAlone([row], writeAll)))).flat();
    }
    const failure = error instanceof Error ? error : new Error(String(error));
    return rows.map(() => failure);
  }
}
