-- The Daily Challenge (docs/rules.md §2): one puzzle per dictionary per UTC day. The puzzle is pinned
-- to the dictionary version active when its first attempt started, so everyone that day plays the
-- same one; the Expert bot's total is computed once per puzzle, by whichever instance gets to it.
CREATE TABLE daily_puzzles (
    day        BIGINT NOT NULL,               -- days since 1970-01-01, UTC
    dictionary TEXT NOT NULL,                 -- 'en', 'sv', …
    version    TEXT NOT NULL,                 -- the version reference, e.g. 'en@3'
    bot_score  BIGINT,                        -- the Expert bot's total, once computed
    PRIMARY KEY (day, dictionary)
);

-- One attempt per player per puzzle (the key), an ordinary one-seat game with opponent 'daily'.
CREATE TABLE daily_attempts (
    day         BIGINT NOT NULL,
    dictionary  TEXT NOT NULL,
    user_id     BIGINT NOT NULL REFERENCES users (id),
    game_id     TEXT NOT NULL UNIQUE REFERENCES games (id),
    started_at  BIGINT NOT NULL,              -- unix ms
    score       BIGINT,                       -- the final score, once finished
    finished_at BIGINT,                       -- unix ms
    review      TEXT,                         -- JSON: the engine's best play on each turn, once computed
    PRIMARY KEY (day, dictionary, user_id)
);
CREATE INDEX daily_board ON daily_attempts (day, dictionary, score, finished_at);
CREATE INDEX daily_user ON daily_attempts (user_id, day);
