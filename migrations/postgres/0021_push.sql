-- Web Push: each device a player turned notifications on for, the kinds they want (one bit
-- each, all on at first) and their quiet hours, and the notices waiting to be sent. The VAPID
-- key lives in app_meta ('vapid_private').
CREATE TABLE push_subscriptions (
    id              BIGSERIAL PRIMARY KEY,
    user_id    BIGINT NOT NULL REFERENCES users (id),
    endpoint   TEXT NOT NULL UNIQUE,       -- the push service's address for the device
    p256dh     TEXT NOT NULL,              -- the device's public key, base64url
    auth       TEXT NOT NULL,              -- its auth secret, base64url
    created_at BIGINT NOT NULL             -- unix ms
);
CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id);

ALTER TABLE users ADD COLUMN push_kinds BIGINT NOT NULL DEFAULT 31;
ALTER TABLE users ADD COLUMN quiet_start BIGINT;   -- minute of the UTC day
ALTER TABLE users ADD COLUMN quiet_end BIGINT;

-- The last version of a game its player to move was notified of a near deadline at.
ALTER TABLE game_seats ADD COLUMN push_warned_version BIGINT NOT NULL DEFAULT -1;

-- A notice for one device, worded and encrypted when it is sent; deleted once sent.
CREATE TABLE push_outbox (
    id              BIGSERIAL PRIMARY KEY,
    subscription_id BIGINT NOT NULL REFERENCES push_subscriptions (id),
    notice          TEXT NOT NULL,         -- JSON: domain::Notice
    attempts        BIGINT NOT NULL DEFAULT 0,
    next_at         BIGINT NOT NULL,       -- unix ms: due, or leased until
    created_at      BIGINT NOT NULL
);
CREATE INDEX push_outbox_next ON push_outbox (next_at);
CREATE INDEX push_outbox_subscription ON push_outbox (subscription_id);
