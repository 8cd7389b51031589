-- The social layer: follows, blocks, challenges, in-game chat, and the moderation of players.

-- Who follows whom (one way, as on Lichess): the follower's Friends page lists the followed.
CREATE TABLE follows (
    follower   BIGINT NOT NULL REFERENCES users (id),
    followed   BIGINT NOT NULL REFERENCES users (id),
    created_at BIGINT NOT NULL,                -- unix ms
    PRIMARY KEY (follower, followed)
);
CREATE INDEX follows_followed ON follows (followed);

-- A block: the blocked player cannot reach the blocker (challenge, invite, lobby, follow, chat).
-- Checked both ways wherever two players would meet; the blocked player is not told.
CREATE TABLE blocks (
    blocker    BIGINT NOT NULL REFERENCES users (id),
    blocked    BIGINT NOT NULL REFERENCES users (id),
    created_at BIGINT NOT NULL,                -- unix ms
    PRIMARY KEY (blocker, blocked)
);
CREATE INDEX blocks_blocked ON blocks (blocked);

-- A challenge is an invite addressed to one player, who answers it from their games list.
ALTER TABLE invites ADD COLUMN invitee BIGINT REFERENCES users (id);
CREATE INDEX invites_invitee ON invites (invitee, state);

-- Chat in a game between people: part of the game's record, for its players only.
CREATE TABLE chat_messages (
    id      INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL REFERENCES games (id),
    author  BIGINT NOT NULL REFERENCES users (id),
    body    TEXT NOT NULL,                     -- at most 300 characters, as written
    sent_at BIGINT NOT NULL                    -- unix ms
);
CREATE INDEX chat_messages_game ON chat_messages (game_id, id);
CREATE INDEX chat_messages_author ON chat_messages (author, sent_at);

-- The last message each seat has seen, for the unread mark in the games list.
ALTER TABLE game_seats ADD COLUMN chat_seen BIGINT NOT NULL DEFAULT 0;

-- A player who turned chat off: no one writes to them and they see no chat.
ALTER TABLE users ADD COLUMN chat_off BIGINT NOT NULL DEFAULT 0;

-- Reports of a player, or of one of their messages, for the admins' moderation queue.
CREATE TABLE player_reports (
    id         INTEGER PRIMARY KEY,
    reporter   BIGINT NOT NULL REFERENCES users (id),
    reported   BIGINT NOT NULL REFERENCES users (id),
    message_id BIGINT REFERENCES chat_messages (id),
    reason     TEXT NOT NULL,
    status     TEXT NOT NULL DEFAULT 'open',   -- 'open', 'dismissed' or 'actioned'
    created_at BIGINT NOT NULL,                -- unix ms
    decided_by BIGINT REFERENCES users (id),
    decided_at BIGINT
);
CREATE INDEX player_reports_open ON player_reports (status, created_at);
CREATE INDEX player_reports_reported ON player_reports (reported);

-- A mute (no chat) or a suspension (no new games, no joining, no chat), until a moment or for
-- good (until NULL), until an admin lifts it.
CREATE TABLE sanctions (
    id         INTEGER PRIMARY KEY,
    user_id    BIGINT NOT NULL REFERENCES users (id),
    kind       TEXT NOT NULL,                  -- 'mute' or 'suspend'
    reason     TEXT NOT NULL,
    until      BIGINT,                         -- unix ms; NULL for good
    created_by BIGINT NOT NULL REFERENCES users (id),
    created_at BIGINT NOT NULL,
    lifted_by  BIGINT REFERENCES users (id),
    lifted_at  BIGINT
);
CREATE INDEX sanctions_user ON sanctions (user_id);

-- Everything the admins did to players: dismissed reports, mutes, suspensions and lifts.
CREATE TABLE moderation_log (
    id        INTEGER PRIMARY KEY,
    admin_id  BIGINT NOT NULL REFERENCES users (id),
    user_id   BIGINT NOT NULL REFERENCES users (id),
    action    TEXT NOT NULL,                   -- 'dismiss', 'mute', 'suspend' or 'lift'
    reason    TEXT NOT NULL,
    until     BIGINT,
    report_id BIGINT REFERENCES player_reports (id),
    at        BIGINT NOT NULL                  -- unix ms
);
CREATE INDEX moderation_log_user ON moderation_log (user_id, at);
