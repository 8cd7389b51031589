-- Players and admins. Names are unique, compared as written (the sign-up form lowers them).
CREATE TABLE users (
    id            BIGSERIAL PRIMARY KEY,
    name          TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,          -- argon2id PHC string: algorithm, parameters, salt, hash
    role          TEXT NOT NULL DEFAULT 'player', -- 'player' or 'admin'
    created_at    BIGINT NOT NULL         -- unix ms
);
