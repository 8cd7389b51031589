-- Clocks: when the player to move runs out of time (unix ms). NULL when no clock runs: the game
-- is not under way, or is played on one device. A background task applies the time-out once.
ALTER TABLE games ADD COLUMN deadline_at BIGINT;
CREATE INDEX games_deadline ON games (deadline_at);

-- Presence: one row per open live connection, refreshed while it stays open, so every instance
-- can tell whether a player is online (a Blitz time-out while away is a strike).
CREATE TABLE presence (
    conn    TEXT PRIMARY KEY NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users (id),
    seen_at BIGINT NOT NULL           -- unix ms
);
CREATE INDEX presence_user ON presence (user_id, seen_at);

-- A friend Blitz match waits in a Ready lobby: it starts 3 s after both seats are ready.
ALTER TABLE game_seats ADD COLUMN ready BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN starts_at BIGINT;
