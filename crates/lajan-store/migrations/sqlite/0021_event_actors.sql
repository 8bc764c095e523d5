-- Who made each change: an API key, a console user, or Lajan itself ("system"), with its id.
-- Events written before this was recorded say so rather than guess.
ALTER TABLE events ADD COLUMN actor_type TEXT NOT NULL DEFAULT 'system';
ALTER TABLE events ADD COLUMN actor_id TEXT NOT NULL DEFAULT 'unrecorded';
