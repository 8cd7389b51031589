-- Leagues: Casual play in seasons. A league is a ruleset and a dictionary; each season takes
-- registrations until `starts_at`, then puts its players in divisions, where every pair plays
-- two games (one each to start). Standings are kept on the entries by the reaction to each
-- game's end; when the last game ends the top quarter of each division goes up, the bottom
-- quarter down, and the next season opens.
CREATE TABLE leagues (
    id         TEXT PRIMARY KEY NOT NULL,
    name       TEXT NOT NULL,
    variant    TEXT NOT NULL,              -- the ruleset (JSON)
    dictionary TEXT NOT NULL,              -- the dictionary's id (`en`)
    created_at BIGINT NOT NULL
);

CREATE TABLE league_seasons (
    id         TEXT PRIMARY KEY NOT NULL,
    league_id  TEXT NOT NULL REFERENCES leagues (id),
    number     BIGINT NOT NULL,            -- 1, 2, …
    status     TEXT NOT NULL,              -- registration, playing, over
    starts_at  BIGINT NOT NULL,            -- unix ms: registration closes and play begins
    divisions  BIGINT,                     -- how many, once play has begun
    ended_at   BIGINT,
    UNIQUE (league_id, number)
);
CREATE INDEX league_seasons_by_status ON league_seasons (status, starts_at);

CREATE TABLE league_entries (
    season_id  TEXT NOT NULL REFERENCES league_seasons (id),
    user_id    BIGINT NOT NULL REFERENCES users (id),
    tier       BIGINT,                     -- the division the last season sent them to; none when new
    division   BIGINT,                     -- 1 is the top; set when play begins
    played     BIGINT NOT NULL DEFAULT 0,
    wins       BIGINT NOT NULL DEFAULT 0,
    draws      BIGINT NOT NULL DEFAULT 0,
    losses     BIGINT NOT NULL DEFAULT 0,
    spread     BIGINT NOT NULL DEFAULT 0,
    bingos     BIGINT NOT NULL DEFAULT 0,
    high_game  BIGINT NOT NULL DEFAULT 0,
    time_outs  BIGINT NOT NULL DEFAULT 0,
    place      BIGINT,                     -- in the division, once the season is over
    movement   TEXT,                       -- up, down or stay, once the season is over
    PRIMARY KEY (season_id, user_id)
);

-- A division whose games are made: its row is claimed in the transaction that makes them, so
-- two instances never make them twice (a season's divisions are made one transaction each).
CREATE TABLE league_divisions (
    season_id  TEXT NOT NULL REFERENCES league_seasons (id),
    division   BIGINT NOT NULL,
    PRIMARY KEY (season_id, division)
);

CREATE TABLE league_games (
    game_id    TEXT PRIMARY KEY NOT NULL REFERENCES games (id),
    season_id  TEXT NOT NULL REFERENCES league_seasons (id),
    division   BIGINT NOT NULL
);
CREATE INDEX league_games_by_season ON league_games (season_id, division);
