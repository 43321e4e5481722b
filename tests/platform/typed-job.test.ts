import { z } from "zod";
import { builtTaskOf, defineJob, taskOf } from "../../src/platform/queue/job.ts";
import type { TaskDependencies } from "../../src/platform/queue/task.ts";

/** A job kind's one schema types the producer (at compile time) and guards the worker (at run time). */
const kind = defineJob({
  task: "count_things",
  payload: z.object({ merchant_id: z.string(), count: z.number().int() }),
  attemptsMax: 3,
});
const dependencies = {} as TaskDependencies;
// graphile-worker's handler takes a helpers argument this test has no use for.
const helpers = {} as never;

test("the task is registered under the kind's identifier and receives the parsed payload", async () => {
  const seen: unknown[] = [];
  const task = taskOf(kind, async (_dependencies, payload) => {
    seen.push(payload);
  });
  expect(task.identifier).toBe("count_things");
  // A stored payload carries more than the schema (the enqueuing span's traceparent): it is dropped.
  await task.build(dependencies)({ merchant_id: "mer_1", count: 2, traceparent: "00-abc" }, helpers);
  expect(seen).toEqual([{ merchant_id: "mer_1", count: 2 }]);
});

test("a payload the schema refuses fails the job instead of reaching the handler", async () => {
  const seen: unknown[] = [];
  const task = taskOf(kind, async (_dependencies, payload) => {
    seen.push(payload);
  });
  await expect(task.build(dependencies)({ merchant_id: "mer_1", count: "2" }, helpers)).rejects.toThrow(z.ZodError);
  expect(seen).toEqual([]);
});

test("builtTaskOf builds once per pool and hands each job its parsed payload", async () => {
  let builds = 0;
  const seen: unknown[] = [];
  const task = builtTaskOf(kind, () => {
    builds += 1;
    return async (payload) => {
      seen.push(payload);
    };
  });
  expect(task.identifier).toBe("count_things");
  const handler = task.build(dependencies);
  await handler({ merchant_id: "mer_1", count: 1, traceparent: "00-abc" }, helpers);
  await handler({ merchant_id: "mer_2", count: 2 }, helpers);
  await expect(handler({ merchant_id: "mer_3" }, helpers)).rejects.toThrow(z.ZodError);
  expect(builds).toBe(1);
  expect(seen).toEqual([
    { merchant_id: "mer_1", count: 1 },
    { merchant_id: "mer_2", count: 2 },
  ]);
});
