-- Up Migration

-- Each live graphile-worker pool (one per runner in a pool process) beats here; a pool whose beat is
-- stale belonged to a process that died (SIGKILL, OOM, a lost node). Any live pool then frees the jobs
-- the dead one had fetched or was running, which graphile-worker itself would leave locked for four
-- hours (src/platform/queue/heartbeat.ts).
CREATE TABLE worker_pool_heartbeats (
  worker_pool_id text PRIMARY KEY,
  pool text NOT NULL,
  beat_at timestamptz NOT NULL DEFAULT now()
);

-- Down Migration

DROP TABLE worker_pool_heartbeats;
