-- Recovery codes: shown to the player once, kept as SHA-256 hashes; each sets a new password
-- once, for a player who lost theirs.
CREATE TABLE recovery_codes (
    user_id    BIGINT NOT NULL REFERENCES users (id),
    code_hash  TEXT NOT NULL,
    created_at BIGINT NOT NULL,          -- unix ms
    used_at    BIGINT,                   -- unix ms, once used
    PRIMARY KEY (user_id, code_hash)
);
