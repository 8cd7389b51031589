-- Who sits where, guests, invites and the open lobby.

-- A guest plays bots before signing up; signing up names the same row, so the games stay theirs.
ALTER TABLE users ADD COLUMN guest BIGINT NOT NULL DEFAULT 0;

-- How the seats were filled: 'bot', 'invite', 'lobby' or 'local' (pass-and-play on one device).
ALTER TABLE games ADD COLUMN opponent TEXT NOT NULL DEFAULT 'local';

-- One row per seat: a user (several seats of one user in pass-and-play), a bot level, or nobody
-- yet (an invite or lobby game waiting for its second player).
CREATE TABLE game_seats (
    game_id TEXT NOT NULL REFERENCES games (id),
    seat    BIGINT NOT NULL,
    user_id BIGINT REFERENCES users (id),
    bot     TEXT,                      -- engine level name, e.g. 'expert'
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_seats_user ON game_seats (user_id);

-- An invite link: 128 random bits, valid until expires_at, answered once.
CREATE TABLE invites (
    token      TEXT PRIMARY KEY NOT NULL,
    game_id    TEXT NOT NULL REFERENCES games (id),
    expires_at BIGINT NOT NULL,        -- unix ms
    state      TEXT NOT NULL DEFAULT 'open' -- 'open', 'accepted' or 'declined'
);
CREATE INDEX invites_game ON invites (game_id);

CREATE INDEX games_status ON games (status, opponent);
