-- E-mail, when the operator configured a server: a player's verified address, the mail they
-- chose, link tokens (kept as SHA-256) and the outbox the server's mail task sends from.
ALTER TABLE users ADD COLUMN email TEXT;                   -- verified, lower case
ALTER TABLE users ADD COLUMN email_pending TEXT;           -- waiting for its link
ALTER TABLE users ADD COLUMN mail_digest BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN mail_deadlines BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN digest_day BIGINT NOT NULL DEFAULT 0;  -- days since the epoch
CREATE UNIQUE INDEX users_email ON users (email);

-- A link sent by mail: to verify an address (48 hours) or reset a password (30 minutes), once.
CREATE TABLE mail_tokens (
    token_hash TEXT PRIMARY KEY,
    user_id    BIGINT NOT NULL REFERENCES users (id),
    purpose    TEXT NOT NULL,              -- 'verify' or 'reset'
    address    TEXT,                       -- verify: the address it proves
    created_at BIGINT NOT NULL,            -- unix ms
    expires_at BIGINT NOT NULL,
    used_at    BIGINT
);
CREATE INDEX mail_tokens_user ON mail_tokens (user_id, purpose, created_at);

-- The last version of a game its player to move was warned of a near deadline at.
ALTER TABLE game_seats ADD COLUMN warned_version BIGINT NOT NULL DEFAULT -1;

-- Mail waiting to go out; deleted once sent (a body may hold a link).
CREATE TABLE outbox (
    id         BIGSERIAL PRIMARY KEY,
    recipient  TEXT NOT NULL,
    subject    TEXT NOT NULL,
    body       TEXT NOT NULL,
    attempts   BIGINT NOT NULL DEFAULT 0,
    next_at    BIGINT NOT NULL,            -- unix ms: due, or leased until
    created_at BIGINT NOT NULL
);
CREATE INDEX outbox_next ON outbox (next_at);
