-- Tournaments: Blitz (or Casual, for small groups) played in rounds that begin together. A
-- tournament takes entries until `starts_at`; those who checked in are paired, Swiss (by score,
-- no repeats, a bye for an odd count) or round robin. A round's games are made in the
-- transaction that moves `round` on, so no two instances make them twice; the reaction to each
-- game's end adds it to the standings and, when it was the round's last, sets when the next
-- round begins.
CREATE TABLE tournaments (
    id            TEXT PRIMARY KEY NOT NULL,
    name          TEXT NOT NULL,
    variant       TEXT NOT NULL,           -- the ruleset (JSON)
    dictionary    TEXT NOT NULL,           -- the dictionary's id (`en`)
    format        TEXT NOT NULL,           -- blitz or casual
    pairing       TEXT NOT NULL,           -- swiss or round_robin
    rounds        BIGINT NOT NULL,         -- Swiss: as made; round robin: set at the start
    private       BIGINT NOT NULL,         -- 1: listed nowhere, entered by its link
    created_by    BIGINT NOT NULL REFERENCES users (id),
    status        TEXT NOT NULL,           -- entry, playing, over
    starts_at     BIGINT NOT NULL,         -- unix ms: check-in closes and round 1 begins
    round         BIGINT NOT NULL DEFAULT 0,  -- the round under way (or last played)
    next_round_at BIGINT,                  -- when the next round begins, once this one is over
    created_at    BIGINT NOT NULL
);
CREATE INDEX tournaments_by_status ON tournaments (status, starts_at);

CREATE TABLE tournament_players (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    user_id       BIGINT NOT NULL REFERENCES users (id),
    checked_in    BIGINT NOT NULL DEFAULT 0,
    withdrawn     BIGINT NOT NULL DEFAULT 0,
    number        BIGINT,                  -- round robin: the place in the schedule
    joined_round  BIGINT NOT NULL DEFAULT 1,  -- a late entry plays from this round
    played        BIGINT NOT NULL DEFAULT 0,
    wins          BIGINT NOT NULL DEFAULT 0,
    draws         BIGINT NOT NULL DEFAULT 0,
    losses        BIGINT NOT NULL DEFAULT 0,
    spread        BIGINT NOT NULL DEFAULT 0,
    byes          BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, user_id)
);

-- A round's pairings; `away` is none for a bye, `game_id` none for a bye.
CREATE TABLE tournament_pairings (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    round         BIGINT NOT NULL,
    home          BIGINT NOT NULL REFERENCES users (id),
    away          BIGINT REFERENCES users (id),
    game_id       TEXT UNIQUE REFERENCES games (id),
    PRIMARY KEY (tournament_id, round, home)
);
