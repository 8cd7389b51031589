-- A game is its config (ruleset, dictionary, secret seed) and an append-only list of actions;
-- its state is the fold of those actions. The primary key (game_id, seq) makes a second commit at
-- the same position fail instead of forking the game.
CREATE TABLE games (
    id         TEXT PRIMARY KEY NOT NULL,
    config     TEXT NOT NULL,             -- rules::GameConfig as JSON; holds the seed: server-only
    version    BIGINT NOT NULL DEFAULT 0, -- actions applied
    status     TEXT NOT NULL,             -- 'playing' or 'over'
    to_move    INTEGER NOT NULL,
    created_at BIGINT NOT NULL,           -- unix ms
    updated_at BIGINT NOT NULL            -- unix ms
);

CREATE TABLE game_actions (
    game_id    TEXT NOT NULL REFERENCES games (id),
    seq        BIGINT NOT NULL,
    action     TEXT NOT NULL,             -- rules::Action as JSON
    created_at BIGINT NOT NULL,           -- unix ms
    PRIMARY KEY (game_id, seq)
);
