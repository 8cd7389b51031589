-- A bot game going on on a player's device, as the device last sent it to their account: so
-- it is not lost with the device, and can go on on another one of theirs. The record is the
-- game's ruleset, dictionary version, seed and actions (JSON), which the server replayed
-- before keeping it; a later send with fewer actions does not replace it. Gone once the game
-- ends (it is then a game like any other) or is discarded.
CREATE TABLE device_copies (
    user_id    BIGINT NOT NULL REFERENCES users (id),
    device_key TEXT NOT NULL,              -- the device's name for the game
    record     TEXT NOT NULL,
    actions    BIGINT NOT NULL,            -- how many actions the record holds
    updated_at BIGINT NOT NULL,            -- unix ms, when it was last sent
    PRIMARY KEY (user_id, device_key)
);
