SELECT count(*)
FROM graphile_worker._private_jobs AS jobs
JOIN graphile_worker._private_tasks AS tasks ON tasks.id = jobs.task_id
WHERE tasks.identifier = ANY('{%TASK_IDENTIFIERS%}'::text[])
  AND jobs.locked_at IS NULL
  AND jobs.run_at <= now()
  AND jobs.attempts < jobs.max_attempts
  AND (
    jobs.job_queue_id IS NULL
    OR NOT EXISTS (
      SELECT 1 FROM graphile_worker._private_job_queues AS queues
      WHERE queues.id = jobs.job_queue_id AND queues.locked_at IS NOT NULL
    )
  )
