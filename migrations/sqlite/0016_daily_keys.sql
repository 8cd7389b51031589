-- Each day's puzzle is drawn from a key that nobody can compute from the date: an HMAC of the day
-- and the dictionary version under a secret of this installation (app_meta 'daily_secret', made
-- at first start). The key is kept with the puzzle, so every attempt that day plays the same one;
-- its SHA-256 is shown while the day runs and the key itself once it is over, so players can check
-- that the puzzle was fixed in advance. NULL: a puzzle of a day before keys (its seed is the
-- date's, as it was then).
ALTER TABLE daily_puzzles ADD COLUMN day_key TEXT;
