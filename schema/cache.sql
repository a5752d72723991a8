-- memrepo cache (SPEC §7): derived data, rebuilt from the files at any time.
-- Loaded by memrepo/cache/db.py. Everything before the "-- @indexes" marker is created
-- first; the indexes after it are created once a full build has loaded the rows.
-- Any change to this file changes the schema fingerprint and forces a rebuild.
-- Times are integer microseconds since the epoch (UTC); 4611686018427387904 (2^62) = open end.

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;

-- every file the cache indexed, as it was read from the work tree
CREATE TABLE files (
    path TEXT PRIMARY KEY,
    kind TEXT NOT NULL,          -- note | log | config
    blob TEXT NOT NULL,          -- git blob id of the content indexed
    size INTEGER NOT NULL        -- bytes indexed (a log that only grew is read from here)
) WITHOUT ROWID;

CREATE TABLE notes (
    rowid       INTEGER PRIMARY KEY,
    path        TEXT NOT NULL,
    name        TEXT NOT NULL,
    category    TEXT NOT NULL,
    description TEXT NOT NULL,
    aliases     TEXT NOT NULL,   -- JSON list
    body        TEXT NOT NULL,
    updated     TEXT             -- the header's `updated` when it is text (the context block)
);

CREATE TABLE aliases (
    folded TEXT NOT NULL,        -- memrepo.core.folding.fold(alias)
    alias  TEXT NOT NULL,
    name   TEXT NOT NULL,
    path   TEXT NOT NULL
);

-- links between notes; backlinks are the same rows read by target
CREATE TABLE links (
    source TEXT NOT NULL,        -- path of the linking note
    source_name TEXT NOT NULL,
    target TEXT NOT NULL,        -- name of the linked note
    line   INTEGER NOT NULL
);

-- every fact event; a retract carries the key of its target once that is known.
-- subject/relation as written; subject_key/relation_key folded (SPEC §4: memrepo.core.text
-- .key_slug), which is how keys are compared, grouped and looked up
CREATE TABLE events (
    rowid       INTEGER PRIMARY KEY,
    id          TEXT NOT NULL,
    op          TEXT NOT NULL,
    scope       TEXT NOT NULL,
    subject     TEXT,
    relation    TEXT,
    subject_key  TEXT,
    relation_key TEXT,
    object      TEXT,
    valid_from  INTEGER,
    valid_to    INTEGER,
    recorded_at INTEGER NOT NULL,
    target      TEXT,
    confidence  REAL NOT NULL,
    source      TEXT NOT NULL,
    session     TEXT NOT NULL,
    quote       TEXT,
    trust       TEXT NOT NULL,
    reason      TEXT,
    path        TEXT NOT NULL,
    line        INTEGER NOT NULL
);

-- per log: memrepo.cache.digests.rows_digest of its events rows, to notice edited rows
-- (a chain over the encoded rows in line order: extended from `state` and `tail`, not
-- recomputed, when a log grows)
CREATE TABLE log_digests (
    path   TEXT PRIMARY KEY,
    digest TEXT NOT NULL,
    state  BLOB NOT NULL,        -- the chain over the whole pieces
    tail   BLOB NOT NULL         -- the encoded rows after them
) WITHOUT ROWID;

-- log lines left out because the checks refuse them (committed with --no-verify: too
-- long, out of range, a repeated id…); `memrepo doctor` lists them
CREATE TABLE skipped (
    path   TEXT NOT NULL,
    line   INTEGER NOT NULL,
    reason TEXT NOT NULL,
    id     TEXT                  -- the repeated id, for a line skipped as a repeat
);

-- memrepo.core.fold.timeline materialised: `event_id` holds the key on valid time
-- [held_from, held_to) inside the continuous value [value_from, value_to), for every
-- system time in [known_from, known_to). recall(t, T) is one indexed lookup.
CREATE TABLE holdings (
    scope       TEXT NOT NULL,
    subject_key  TEXT NOT NULL,  -- folded: the key as looked up
    relation_key TEXT NOT NULL,
    subject     TEXT NOT NULL,   -- the key as shown (the form first recorded, see `keys`)
    relation    TEXT NOT NULL,
    object      TEXT NOT NULL,
    held_from   INTEGER NOT NULL,
    held_to     INTEGER NOT NULL,
    value_from  INTEGER NOT NULL,
    value_to    INTEGER NOT NULL,
    known_from  INTEGER NOT NULL,
    known_to    INTEGER NOT NULL,
    event_id    TEXT NOT NULL    -- provenance (quote, source, …) is read from `events`
);

-- one row per key (folded) of every scope, in the form first recorded: the subject and
-- relation of its assert or end with the smallest (recorded_at, id) — what the write path
-- writes new events with, what answers show, and the vocabulary of the write gate
CREATE TABLE keys (
    rowid        INTEGER PRIMARY KEY,
    scope        TEXT NOT NULL,
    subject_key  TEXT NOT NULL,
    relation_key TEXT NOT NULL,
    subject      TEXT NOT NULL,
    relation     TEXT NOT NULL,
    first_at     INTEGER NOT NULL,  -- recorded_at of that first event
    first_id     TEXT NOT NULL,
    numeric      INTEGER NOT NULL   -- 1 when a value of the key has a digit ("how much")
);

-- Full-text search (SPEC §7 "Retrieval from the question"). Each text is indexed twice:
-- folded (memrepo.core.text.fold) and, in the *_s column, the base forms of its words
-- other than the folded word (memrepo.core.question.stem_column). rowid = notes.rowid.
-- A note's `description` here is its description followed by its tags (`#` left out):
-- a note is found by a tag (memrepo.cache.rows.note_rows); notes.description is the text.
CREATE VIRTUAL TABLE notes_fts USING fts5(
    name, description, aliases, body, name_s, description_s, aliases_s, body_s,
    tokenize = 'unicode61 remove_diacritics 2'
);

-- passages of a long note (memrepo.core.text.passages), each with the note's name,
-- description and tags as its head: rowid = notes.rowid * 4096 + the passage's number
-- (memrepo.cache.rows.PASSAGE_SPAN), so a note's passages are one rowid range
CREATE VIRTUAL TABLE passages_fts USING fts5(
    head, text, head_s, text_s,
    tokenize = 'unicode61 remove_diacritics 2'
);

-- one search document per key: rowid = keys.rowid; object and quote hold every asserted
-- value and quote of the key, in any spelling of it
CREATE VIRTUAL TABLE keys_fts USING fts5(
    subject, relation, object, quote, subject_s, relation_s, object_s, quote_s,
    tokenize = 'unicode61 remove_diacritics 2'
);

CREATE VIRTUAL TABLE notes_vocab USING fts5vocab(notes_fts, row);
CREATE VIRTUAL TABLE keys_vocab USING fts5vocab(keys_fts, row);

-- Document frequency of every indexed token, read at query time (fts5vocab would walk
-- whole posting lists). The empty term counts the documents. Kept exact by sync.
CREATE TABLE notes_terms (
    term TEXT PRIMARY KEY,
    df   INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE keys_terms (
    term TEXT PRIMARY KEY,
    df   INTEGER NOT NULL
) WITHOUT ROWID;

-- @indexes
CREATE INDEX notes_path ON notes(path);
CREATE INDEX notes_name ON notes(name);
CREATE INDEX aliases_folded ON aliases(folded);
CREATE INDEX aliases_path ON aliases(path);
CREATE INDEX links_source ON links(source);
CREATE INDEX links_target ON links(target);
CREATE INDEX events_key ON events(scope, subject_key, relation_key);
CREATE INDEX events_id ON events(id);
CREATE INDEX events_path ON events(path);
CREATE INDEX events_target ON events(target) WHERE op = 'retract';
CREATE INDEX events_unresolved ON events(target) WHERE op = 'retract' AND subject_key IS NULL;
CREATE INDEX holdings_key ON holdings(scope, subject_key, relation_key, known_from);
CREATE UNIQUE INDEX keys_key ON keys(scope, subject_key, relation_key);
CREATE INDEX keys_numeric ON keys(scope) WHERE numeric = 1;
CREATE INDEX holdings_event ON holdings(event_id);
CREATE INDEX skipped_path ON skipped(path);
CREATE INDEX skipped_id ON skipped(id) WHERE id IS NOT NULL;
