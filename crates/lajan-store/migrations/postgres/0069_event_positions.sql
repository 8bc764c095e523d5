-- The event feed in commit order. An event's created_at is when its writer read the clock, which
-- can come before a lock it then waited for; a writer that waited commits after a later-stamped
-- one, and a poller that already read past the later one would never see it. So each event takes
-- a position when its transaction commits: the deferred trigger below runs at COMMIT, takes the
-- tenant's feed lock (held until the commit is visible, since PostgreSQL releases a transaction's
-- locks only after it is marked committed) and draws from a sequence. A tenant's positions thus
-- follow the order its commits become visible: a reader that sees a position sees every smaller
-- one of that tenant, and nothing in flight can later appear below it. The lock is taken last,
-- with nothing waited for while holding it, so it cannot join a deadlock with a row lock.
-- Lists, cursors and webhook claims order events by position; created_at stays the clock's.
CREATE SEQUENCE event_positions;
ALTER TABLE events ADD COLUMN position BIGINT;
UPDATE events SET position = ordered.n
FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY created_at, id) AS n FROM events) AS ordered
WHERE events.id = ordered.id;
SELECT setval('event_positions', COALESCE(MAX(position), 0) + 1, false) FROM events;

DROP INDEX events_list;
DROP INDEX events_by_type;
DROP INDEX events_by_object;
CREATE UNIQUE INDEX events_list ON events (org_id, env, position DESC);
CREATE INDEX events_by_type ON events (org_id, env, type, position DESC);
CREATE INDEX events_by_object ON events (org_id, env, object_id, position DESC);

CREATE FUNCTION events_position() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- 20260069 names the feed's lock space; the tenant picks the lock within it.
    PERFORM pg_advisory_xact_lock(20260069, hashtext(NEW.org_id || ':' || NEW.env));
    UPDATE events SET position = nextval('event_positions') WHERE id = NEW.id;
    RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER events_position AFTER INSERT ON events
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION events_position();

-- A delivery carries its event's position, so the dispatcher claims an endpoint's deliveries in
-- the feed's order through one index. Deferred triggers fire in the order their rows were
-- written, and an event is written before its deliveries: its position is set by then.
ALTER TABLE webhook_deliveries ADD COLUMN event_position BIGINT;
UPDATE webhook_deliveries SET event_position = events.position FROM events WHERE events.id = webhook_deliveries.event_id;
CREATE INDEX webhook_deliveries_in_order ON webhook_deliveries (endpoint_id, event_position) WHERE status = 'pending';

CREATE FUNCTION deliveries_event_position() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE webhook_deliveries SET event_position = (SELECT position FROM events WHERE id = NEW.event_id)
    WHERE id = NEW.id;
    RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER deliveries_event_position AFTER INSERT ON webhook_deliveries
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION deliveries_event_position();
