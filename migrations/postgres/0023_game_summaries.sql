-- What a list of games shows of each (scores, whose turn, the last play, the winners), as JSON
-- (domain::GameSummary), written with every move so a list reads it instead of replaying each
-- game's log. NULL for a game from before this column: the server fills those in at start.
ALTER TABLE games ADD COLUMN summary TEXT;
