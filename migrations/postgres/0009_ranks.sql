-- Rank: Elo per dictionary (docs/rules.md §2), for standard two-player games between people (friend
-- or lobby). A player has a row per dictionary once they finish a rated game in it.
CREATE TABLE ranks (
    user_id    BIGINT NOT NULL REFERENCES users (id),
    dictionary TEXT NOT NULL,              -- 'en', 'sv', 'sv-strict', 'da' or 'nb'
    rank       BIGINT NOT NULL,
    games      BIGINT NOT NULL,            -- rated games finished
    updated_at BIGINT NOT NULL,            -- unix ms
    PRIMARY KEY (user_id, dictionary)
);
CREATE INDEX ranks_board ON ranks (dictionary, rank);

-- One row per player of each rated game, written in the transaction that ends the game: the
-- primary key makes the rating happen once, and a rank can be rebuilt from these facts.
CREATE TABLE rank_history (
    game_id    TEXT NOT NULL REFERENCES games (id),
    user_id    BIGINT NOT NULL REFERENCES users (id),
    dictionary TEXT NOT NULL,
    opponent   BIGINT NOT NULL REFERENCES users (id),
    result     TEXT NOT NULL,              -- 'win', 'draw' or 'loss'
    rank_before BIGINT NOT NULL,
    rank_after  BIGINT NOT NULL,
    at         BIGINT NOT NULL,            -- unix ms
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX rank_history_user ON rank_history (user_id, dictionary, at);
