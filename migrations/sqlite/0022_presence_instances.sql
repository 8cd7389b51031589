-- Presence is kept fresh by each instance for all its connections at once (one statement per
-- heartbeat), not by every connection: the instance that holds each row.
ALTER TABLE presence ADD COLUMN instance TEXT NOT NULL DEFAULT '';
CREATE INDEX presence_instance ON presence (instance);
