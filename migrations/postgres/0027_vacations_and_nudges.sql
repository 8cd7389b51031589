-- A player's vacation: their clock is paused in every Casual game from its start to its end
-- (an early end moves the end back). Days a year are counted from these rows.
CREATE TABLE vacations (
    id         BIGSERIAL PRIMARY KEY,
    user_id    BIGINT NOT NULL REFERENCES users (id),
    starts_at  BIGINT NOT NULL,            -- unix ms
    ends_at    BIGINT NOT NULL             -- unix ms
);
CREATE INDEX vacations_by_user ON vacations (user_id, ends_at);

-- The deadline a vacation's pause gave the turn under way: a turn whose deadline is still this
-- one is paused already (a trade keeps the deadline and must not pause it twice).
ALTER TABLE games ADD COLUMN paused_deadline BIGINT;
-- When the player to move was last nudged in this game, unix ms: one nudge a day.
ALTER TABLE games ADD COLUMN nudged_at BIGINT;
