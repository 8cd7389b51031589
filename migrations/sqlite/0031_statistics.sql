-- Statistics: each finished game's exchanges and whether the player lost it on time, beside its
-- other facts, and every player's totals per ruleset and dictionary, added to by the reaction to
-- each game's end (so a statistics page reads one row a line, however many games it sums).
ALTER TABLE game_results ADD COLUMN exchanges BIGINT NOT NULL DEFAULT 0;
ALTER TABLE game_results ADD COLUMN timed_out BIGINT NOT NULL DEFAULT 0;  -- 1 when lost on time
-- The engine's look at the player's turns, by a background worker after the end: how many turns
-- it looked at and the points they fell short of its best move (NULL until it has looked).
ALTER TABLE game_results ADD COLUMN analysed_turns BIGINT;
ALTER TABLE game_results ADD COLUMN missed BIGINT;
CREATE INDEX game_results_unanalysed ON game_results (ended_at) WHERE analysed_turns IS NULL;
CREATE TABLE player_statistics (
    user_id         BIGINT NOT NULL REFERENCES users (id),
    ruleset         TEXT NOT NULL,
    dictionary      TEXT NOT NULL,
    games           BIGINT NOT NULL,
    wins            BIGINT NOT NULL,
    draws           BIGINT NOT NULL,
    points          BIGINT NOT NULL,   -- final scores added up
    opponent_points BIGINT NOT NULL,   -- the opponents' final scores added up
    bingos          BIGINT NOT NULL,
    exchanges       BIGINT NOT NULL,
    timeouts        BIGINT NOT NULL,   -- games lost on time
    best_play       BIGINT NOT NULL,   -- the highest scoring play
    best_game       BIGINT NOT NULL,   -- the highest final score
    analysed_turns  BIGINT NOT NULL DEFAULT 0,  -- turns the engine has looked at
    missed          BIGINT NOT NULL DEFAULT 0,  -- their points short of its best moves
    PRIMARY KEY (user_id, ruleset, dictionary)
);
-- The games recorded before: their exchanges and time-outs were not kept, so they count none.
INSERT INTO player_statistics (user_id, ruleset, dictionary, games, wins, draws, points,
    opponent_points, bingos, exchanges, timeouts, best_play, best_game)
SELECT user_id, ruleset, dictionary, COUNT(*),
       SUM(CASE WHEN result = 'win' THEN 1 ELSE 0 END),
       SUM(CASE WHEN result = 'draw' THEN 1 ELSE 0 END),
       SUM(score), SUM(opponent_score), SUM(bingos), 0, 0,
       COALESCE(MAX(best_score), 0), MAX(score)
FROM game_results GROUP BY user_id, ruleset, dictionary;
