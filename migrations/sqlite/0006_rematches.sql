-- A rematch offer after a finished game between two players: one per finished game, so a
-- declined offer is final. Accepting makes the new game, with the seats swapped.
CREATE TABLE rematches (
    game_id     TEXT PRIMARY KEY NOT NULL REFERENCES games (id),
    offered_by  BIGINT NOT NULL REFERENCES users (id),
    state       TEXT NOT NULL DEFAULT 'open', -- 'open', 'accepted', 'declined' or 'cancelled'
    new_game_id TEXT REFERENCES games (id),
    expires_at  BIGINT NOT NULL               -- unix ms
);
