-- The event feed in commit order (see the PostgreSQL migration of the same number). SQLite has
-- one writer at a time, so the order events are inserted is the order they commit: each takes
-- the next position as it is written.
ALTER TABLE events ADD COLUMN position BIGINT;
UPDATE events SET position = ordered.n
FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY created_at, id) AS n FROM events) AS ordered
WHERE events.id = ordered.id;

DROP INDEX events_list;
DROP INDEX events_by_type;
DROP INDEX events_by_object;
CREATE UNIQUE INDEX events_in_order ON events (position);
CREATE UNIQUE INDEX events_list ON events (org_id, env, position DESC);
CREATE INDEX events_by_type ON events (org_id, env, type, position DESC);
CREATE INDEX events_by_object ON events (org_id, env, object_id, position DESC);

CREATE TRIGGER events_position AFTER INSERT ON events
BEGIN
    UPDATE events SET position = (SELECT COALESCE(MAX(position), 0) + 1 FROM events) WHERE id = NEW.id;
END;

-- A delivery carries its event's position, so the dispatcher claims an endpoint's deliveries in
-- the feed's order through one index.
ALTER TABLE webhook_deliveries ADD COLUMN event_position BIGINT;
UPDATE webhook_deliveries SET event_position = (SELECT position FROM events WHERE events.id = webhook_deliveries.event_id);
CREATE INDEX webhook_deliveries_in_order ON webhook_deliveries (endpoint_id, event_position) WHERE status = 'pending';

CREATE TRIGGER deliveries_event_position AFTER INSERT ON webhook_deliveries
BEGIN
    UPDATE webhook_deliveries SET event_position = (SELECT position FROM events WHERE id = NEW.event_id)
    WHERE id = NEW.id;
END;
