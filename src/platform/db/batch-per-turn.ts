import DataLoader from "dataloader";
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
