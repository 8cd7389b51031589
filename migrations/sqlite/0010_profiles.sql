-- A game between people can be created unrated (the New Game form's checkbox); rated by default.
ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 1;

-- The player's rated games in the dictionary before this one: each player's games are rated one
-- after the other (their rank rows are locked), so these counts put every rated game in an order
-- that `recompute-ranks` can replay exactly.
ALTER TABLE rank_history ADD COLUMN games_before BIGINT NOT NULL DEFAULT 0;
UPDATE rank_history SET games_before = (
    SELECT COUNT(*) FROM rank_history earlier
    WHERE earlier.user_id = rank_history.user_id
      AND earlier.dictionary = rank_history.dictionary
      AND (earlier.at < rank_history.at
           OR (earlier.at = rank_history.at AND earlier.game_id < rank_history.game_id))
);

-- One row per person of each finished game (not pass-and-play), written in the transaction that
-- ends it: the public facts profiles are made of, so a profile never replays a game.
CREATE TABLE game_results (
    game_id        TEXT NOT NULL REFERENCES games (id),
    user_id        BIGINT NOT NULL REFERENCES users (id),
    seat           BIGINT NOT NULL,
    opponent_user  BIGINT REFERENCES users (id),   -- the other person, if any
    opponent_bot   TEXT,                           -- or the bot's level
    ruleset        TEXT NOT NULL,                  -- 'alfakraft', 'classic', 'feud', 'alfapet', 'longwords'
    dictionary     TEXT NOT NULL,
    result         TEXT NOT NULL,                  -- 'win', 'draw' or 'loss'
    score          BIGINT NOT NULL,                -- final, as the end card shows it
    opponent_score BIGINT NOT NULL,
    bingos         BIGINT NOT NULL,
    best_word      TEXT,                           -- the player's best play: its main word,
    best_score     BIGINT,                         -- its points,
    best_turn      BIGINT,                         -- and its index in the game's history
    ended_at       BIGINT NOT NULL,                -- unix ms
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX game_results_user ON game_results (user_id, ended_at);
CREATE INDEX game_results_pair ON game_results (user_id, opponent_user);
CREATE INDEX game_results_best ON game_results (user_id, best_score);
