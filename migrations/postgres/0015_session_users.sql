-- The signed-in user of a session, beside the record that names them, so that loading a session
-- reads its user's account in the same query (one round trip less on every request). NULL: no one
-- signed in, or a session last saved before this column (its user is then read on its own).
ALTER TABLE sessions ADD COLUMN user_id BIGINT;
