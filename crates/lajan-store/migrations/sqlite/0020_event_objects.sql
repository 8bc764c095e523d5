-- Which resource an event is about (its object's id), so a resource's timeline is one index
-- range: the console shows every invoice's, payout's and disbursement's events.
ALTER TABLE events ADD COLUMN object_id TEXT;
UPDATE events SET object_id = json_extract(data, '$.object.id');
CREATE INDEX events_by_object ON events (org_id, env, object_id, created_at DESC, id DESC);
