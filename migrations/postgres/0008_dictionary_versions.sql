-- Dictionaries are data: every version of every word list, its FST (the word list itself, as a
-- compressed automaton: the words can be read back from it) and what the admin was told when it
-- was made. A version never changes once written; an edit makes a new draft. Games name the
-- version they started with in their config (`en@3`), so publishing never changes their word check.
CREATE TABLE dictionary_versions (
    dictionary  TEXT NOT NULL,            -- 'en', 'sv', 'sv-strict', 'da', 'nb'
    version     BIGINT NOT NULL,          -- 1 is the shipped list, imported on first start
    fst         BYTEA NOT NULL,
    sha256      TEXT NOT NULL,            -- of the FST bytes, hex; its first 16 digits are in the URL
    word_count  BIGINT NOT NULL,
    origin      TEXT NOT NULL,            -- 'shipped', 'upload' or 'edit'
    based_on    BIGINT,                   -- the version an edit or upload was compared with
    report      TEXT NOT NULL,            -- dictionaries::versions::Report as JSON
    note        TEXT NOT NULL,            -- the admin's reason
    created_by  BIGINT REFERENCES users (id),
    created_at  BIGINT NOT NULL,          -- unix ms
    published_by BIGINT REFERENCES users (id),
    published_at BIGINT,                  -- first time it became active; NULL while a draft
    PRIMARY KEY (dictionary, version)
);
CREATE INDEX dictionary_versions_hash ON dictionary_versions (dictionary, sha256);

-- The version new games get, one row per dictionary.
CREATE TABLE dictionary_active (
    dictionary TEXT PRIMARY KEY NOT NULL,
    version    BIGINT NOT NULL,
    changed_at BIGINT NOT NULL
);

-- Everything done to a dictionary: uploads, edits, publishes, rollbacks, decided reports.
CREATE TABLE dictionary_audit (
    id         BIGSERIAL PRIMARY KEY,
    dictionary TEXT NOT NULL,
    version    BIGINT NOT NULL,
    action     TEXT NOT NULL,             -- 'import', 'upload', 'edit', 'publish', 'rollback'
    user_id    BIGINT REFERENCES users (id),
    reason     TEXT NOT NULL,
    added      BIGINT NOT NULL,
    removed    BIGINT NOT NULL,
    words      BIGINT NOT NULL,
    at         BIGINT NOT NULL            -- unix ms
);
CREATE INDEX dictionary_audit_at ON dictionary_audit (at);

-- Players' word reports: 'missing' (refused, but a word) or 'wrong' (accepted, but no word).
-- One per player, dictionary, word and kind; admins accept (into a draft) or dismiss them.
CREATE TABLE word_reports (
    id          BIGSERIAL PRIMARY KEY,
    dictionary  TEXT NOT NULL,
    word        TEXT NOT NULL,
    kind        TEXT NOT NULL,
    user_id     BIGINT NOT NULL REFERENCES users (id),
    game_id     TEXT,
    status      TEXT NOT NULL DEFAULT 'open', -- 'open', 'accepted', 'dismissed'
    created_at  BIGINT NOT NULL,
    decided_by  BIGINT REFERENCES users (id),
    decided_at  BIGINT,
    UNIQUE (user_id, dictionary, word, kind)
);
CREATE INDEX word_reports_open ON word_reports (status, dictionary, word);
