-- Sessions (tower-sessions records as JSON), so a restart or another instance keeps them.
CREATE TABLE sessions (
    id         TEXT PRIMARY KEY NOT NULL,
    data       TEXT NOT NULL,      -- the whole record as JSON
    expires_at BIGINT NOT NULL     -- unix seconds
);

CREATE INDEX sessions_expires_at ON sessions (expires_at);
