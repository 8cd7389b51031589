-- Failed sign-ins, counted here so that every instance on one database sees the same ones (the
-- throttle in store/throttle.rs). Keys: 'name:<name>', 'pair:<address>|<name>', 'address:<address>'.
-- Rows quiet for an hour are deleted.
CREATE TABLE sign_in_failures (
    key TEXT PRIMARY KEY,
    failures INTEGER NOT NULL,
    -- Milliseconds since the Unix epoch.
    last_at BIGINT NOT NULL
);
CREATE INDEX sign_in_failures_last_at ON sign_in_failures (last_at);
