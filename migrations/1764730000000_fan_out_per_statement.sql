-- An event's webhook deliveries are made once per statement that inserts events, not once per event:
-- a statement that writes many events (the cash sales of an event-loop turn, one statement) fans them
-- out with one INSERT … SELECT over its new rows (a transition table) instead of one call of the
-- trigger function per event. The deliveries are those the row trigger made: one per active endpoint of
-- the event's merchant and world that subscribes to its type, none for `webhook.test` (the test-event
-- route makes its own), in the events' order, announced once if any was made.
CREATE FUNCTION fan_out_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_created integer;
BEGIN
  INSERT INTO webhook_deliveries (merchant_id, id, livemode, endpoint_id, event_id, event_type, status, next_attempt_at)
    SELECT e.merchant_id, 'whd_' || replace(gen_random_uuid()::text, '-', ''), n.livemode, e.id, n.id, n.type,
      'pending', now()
    FROM new_events n
      JOIN webhook_endpoints e ON e.merchant_id = n.merchant_id AND e.livemode = n.livemode
    WHERE n.type <> 'webhook.test' AND e.active
      AND (e.event_types @> ARRAY['*'] OR e.event_types @> ARRAY[n.type])
    ORDER BY n.seq, e.id;
  GET DIAGNOSTICS v_created = ROW_COUNT;
  IF v_created > 0 THEN
    PERFORM pg_notify('webhook_deliveries_due', '');
  END IF;
  RETURN NULL;
END;
$$;

DROP TRIGGER events_fan_out ON events;
CREATE TRIGGER events_fan_out AFTER INSERT ON events REFERENCING NEW TABLE AS new_events
  FOR EACH STATEMENT EXECUTE FUNCTION fan_out_events();
DROP FUNCTION fan_out_event();
