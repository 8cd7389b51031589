-- A closed account keeps only its row's id, so the games it played stay whole for the other
-- players (who see "deleted player"); its name becomes a placeholder no one can type.
ALTER TABLE users ADD COLUMN closed_at BIGINT;            -- unix ms

-- Two-factor sign-in: the TOTP secret (base32), NULL when off; a secret being set up waits in
-- totp_pending until the player confirms it with a code. totp_step is the last time step a
-- code was accepted for, so a code works once.
ALTER TABLE users ADD COLUMN totp_secret TEXT;
ALTER TABLE users ADD COLUMN totp_pending TEXT;
ALTER TABLE users ADD COLUMN totp_step BIGINT NOT NULL DEFAULT 0;
