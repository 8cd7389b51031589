-- Games played on a player's device against a bot and sent to their account once over: the
-- device's own name for the game, prefixed with the owner's id, so a game sent twice is stored
-- once. NULL for every game played on the server.
ALTER TABLE games ADD COLUMN device_key TEXT;
CREATE UNIQUE INDEX games_device_key ON games (device_key);
