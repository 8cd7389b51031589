-- A league player's time bank: days a season that keep a Casual turn whose deadline has passed
-- going, one day at a time, before it is lost on the clock (shared by all their games in it).
ALTER TABLE league_entries ADD COLUMN bank_days BIGINT NOT NULL DEFAULT 3;
