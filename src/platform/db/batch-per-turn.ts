import DataLoader from "dataloader";

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
