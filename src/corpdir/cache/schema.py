"""The cache's SQLite schema, versioned with PRAGMA user_version and migrated on open.

Records are stored as the service returned them, with a few columns pulled out for
ordering and filtering, and the time each was fetched. Since v6 (so that a cache is
written at the pace of the service, at a fifth of the size):
- users and contacts keep their JSON compressed with a per-cache dictionary (``blobs``;
  Zstandard since v7, deflate in v6),
  and their search terms as one string (``terms``, see ``indexing``);
- ``user_terms`` / ``contact_terms`` are B-trees of (term, [score,] id) only: exact and
  prefix matches of any length, best sortScore first within a term;
- ``user_fts`` / ``contact_fts`` are contentless FTS5 trigram indexes without positions
  (detail=none: 125 bytes a record instead of 340), one document a record; a substring
  is asked as its trigrams and checked against the record's ``terms``;
- ``user_phones`` / ``contact_phones`` / ``division_phones`` map a number's match key to
  the record and field;
- ``reading`` orders "by name" in gojūon order (``reading``), divisions' siblings too (v8).
All index rows are written in bulk per page by the store, with no triggers.
"""

from __future__ import annotations

import sqlite3

SCHEMA_VERSION = 8

_V1 = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE users(
    id INTEGER PRIMARY KEY, data TEXT NOT NULL, fullname TEXT, kana TEXT, sort_score INTEGER,
    employee_num TEXT, user_type TEXT, fetched_at REAL NOT NULL, generation INTEGER NOT NULL DEFAULT 0);
CREATE TABLE user_divisions(division_id INTEGER, user_id INTEGER, PRIMARY KEY(division_id, user_id)) WITHOUT ROWID;
CREATE INDEX user_divisions_user ON user_divisions(user_id);
CREATE TABLE divisions(
    id INTEGER PRIMARY KEY, parent_id INTEGER, data TEXT NOT NULL, name TEXT, sort_score INTEGER,
    fetched_at REAL NOT NULL, generation INTEGER NOT NULL DEFAULT 0);
CREATE INDEX divisions_parent ON divisions(parent_id);
CREATE TABLE contacts(
    id INTEGER PRIMARY KEY, data TEXT NOT NULL, fullname TEXT, kana TEXT, company TEXT, directory TEXT,
    folder_num INTEGER, updated_at TEXT, fetched_at REAL NOT NULL, generation INTEGER NOT NULL DEFAULT 0);
CREATE INDEX contacts_folder ON contacts(directory, folder_num);
CREATE TABLE folders(
    directory TEXT, folder_num INTEGER, data TEXT NOT NULL, fetched_at REAL NOT NULL,
    PRIMARY KEY(directory, folder_num));
CREATE TABLE personal_folders(folder_num INTEGER PRIMARY KEY, data TEXT NOT NULL, fetched_at REAL NOT NULL);
CREATE TABLE profiles(user_id INTEGER PRIMARY KEY, data TEXT NOT NULL, fetched_at REAL NOT NULL);
CREATE TABLE calls(
    direction TEXT, id INTEGER, data TEXT NOT NULL, at TEXT, fetched_at REAL NOT NULL,
    PRIMARY KEY(direction, id));
CREATE TABLE search_terms(
    rowid INTEGER PRIMARY KEY, kind TEXT NOT NULL, id INTEGER NOT NULL, field TEXT NOT NULL,
    term TEXT NOT NULL, sort_score INTEGER NOT NULL DEFAULT 0);
CREATE INDEX search_terms_term ON search_terms(term);
CREATE INDEX search_terms_entity ON search_terms(kind, id);
CREATE VIRTUAL TABLE search_fts USING fts5(term, content='search_terms', content_rowid='rowid', tokenize='trigram');
CREATE TRIGGER search_terms_ai AFTER INSERT ON search_terms BEGIN
    INSERT INTO search_fts(rowid, term) VALUES (new.rowid, new.term);
END;
CREATE TRIGGER search_terms_ad AFTER DELETE ON search_terms BEGIN
    INSERT INTO search_fts(search_fts, rowid, term) VALUES ('delete', old.rowid, old.term);
END;
CREATE TABLE phones(key TEXT NOT NULL, kind TEXT NOT NULL, id INTEGER NOT NULL, field TEXT NOT NULL, number TEXT NOT NULL);
CREATE INDEX phones_key ON phones(key);
CREATE INDEX phones_entity ON phones(kind, id);
CREATE TABLE sync_state(
    resource TEXT PRIMARY KEY, generation INTEGER NOT NULL, next_page INTEGER NOT NULL DEFAULT 0,
    cursor TEXT, started_at REAL, completed_at REAL);
"""

# v2: a resumed pass must keep its page size, or page numbers mean other rows.
_V2 = "ALTER TABLE sync_state ADD COLUMN page_size INTEGER NOT NULL DEFAULT 100;"

# v3: name parts ('山田' of '山田 太郎') serve exact and prefix matches from the B-tree;
# the trigram index holds only whole values, whose substrings cover the parts anyway.
_V3 = """
ALTER TABLE search_terms ADD COLUMN fts INTEGER NOT NULL DEFAULT 1;
DROP TRIGGER search_terms_ai;
DROP TRIGGER search_terms_ad;
CREATE TRIGGER search_terms_ai AFTER INSERT ON search_terms WHEN new.fts = 1 BEGIN
    INSERT INTO search_fts(rowid, term) VALUES (new.rowid, new.term);
END;
CREATE TRIGGER search_terms_ad AFTER DELETE ON search_terms WHEN old.fts = 1 BEGIN
    INSERT INTO search_fts(search_fts, rowid, term) VALUES ('delete', old.rowid, old.term);
END;
"""

# v4: a common surname is an exact term of thousands of people: the exact tier reads
# its best-scored candidates in index order (term, then sortScore) and stops at the cap.
_V4 = """
CREATE INDEX search_terms_term_score ON search_terms(term, sort_score DESC);
DROP INDEX search_terms_term;
"""

# v5: the index leads with the kind. A search for people alone ranged over every term
# (contacts' too) until it had found enough people's: 'コ' took 40-110 ms on 100k.
_V5 = """
CREATE INDEX search_terms_kind_term ON search_terms(kind, term, sort_score DESC);
DROP INDEX search_terms_term_score;
"""

# v6: see the module's doc. The records move to the new tables through the store's bulk
# writer: v5's tables are renamed here and emptied by ``CacheStore`` on open, in one
# transaction (a cache killed half-way through is taken up again at the next open).
_V6 = """
DROP TRIGGER search_terms_ai;
DROP TRIGGER search_terms_ad;
DROP TABLE search_fts;
DROP TABLE search_terms;
DROP TABLE phones;
ALTER TABLE users RENAME TO users_v5;
ALTER TABLE contacts RENAME TO contacts_v5;
DROP INDEX contacts_folder;
CREATE TABLE zdicts(id INTEGER PRIMARY KEY, kind TEXT NOT NULL, data BLOB NOT NULL);
CREATE TABLE users(
    id INTEGER PRIMARY KEY, data BLOB NOT NULL, terms TEXT NOT NULL, reading TEXT NOT NULL, sort_score INTEGER NOT NULL,
    employee_num TEXT, fetched_at REAL NOT NULL, generation INTEGER NOT NULL DEFAULT 0);
CREATE INDEX users_reading ON users(reading);
CREATE TABLE contacts(
    id INTEGER PRIMARY KEY, data BLOB NOT NULL, terms TEXT NOT NULL, reading TEXT NOT NULL, directory TEXT,
    folder_num INTEGER, fetched_at REAL NOT NULL, generation INTEGER NOT NULL DEFAULT 0);
CREATE INDEX contacts_folder ON contacts(directory, folder_num);
CREATE INDEX contacts_reading ON contacts(reading);
CREATE TABLE user_terms(term TEXT NOT NULL, score INTEGER NOT NULL, id INTEGER NOT NULL, field INTEGER NOT NULL,
    PRIMARY KEY(term, score, id)) WITHOUT ROWID;
CREATE TABLE contact_terms(term TEXT NOT NULL, id INTEGER NOT NULL, field INTEGER NOT NULL,
    PRIMARY KEY(term, id)) WITHOUT ROWID;
CREATE VIRTUAL TABLE user_fts USING fts5(doc, content='', tokenize='trigram', detail=none);
CREATE VIRTUAL TABLE contact_fts USING fts5(doc, content='', tokenize='trigram', detail=none);
CREATE TABLE user_phones(key TEXT NOT NULL, id INTEGER NOT NULL, field INTEGER NOT NULL,
    PRIMARY KEY(key, id, field)) WITHOUT ROWID;
CREATE TABLE contact_phones(key TEXT NOT NULL, id INTEGER NOT NULL, field INTEGER NOT NULL,
    PRIMARY KEY(key, id, field)) WITHOUT ROWID;
CREATE TABLE division_phones(key TEXT NOT NULL, id INTEGER NOT NULL, field INTEGER NOT NULL,
    PRIMARY KEY(key, id, field)) WITHOUT ROWID;
CREATE VIEW search_terms(kind, id, field, term, sort_score) AS
    SELECT 'user', id, field, term, score FROM user_terms UNION ALL SELECT 'contact', id, field, term, 0 FROM contact_terms;
"""

# v7: records are compressed with Zstandard and a dictionary trained on the cache's
# records (see ``blobs``); deflate dictionaries and their blobs stay readable as they are.
_V7 = """
ALTER TABLE zdicts ADD COLUMN codec TEXT NOT NULL DEFAULT 'deflate';
ALTER TABLE zdicts ADD COLUMN samples INTEGER NOT NULL DEFAULT 0;
"""
# v8: a division's siblings are ordered by how its name is read (divisionNameKana), as
# people are, not by the code points of its kanji (名古屋支社 before 大阪支社). The store
# fills the column for the divisions a cache already holds when it opens.
_V8 = "ALTER TABLE divisions ADD COLUMN reading TEXT;"
LEFTOVERS = ("users_v5", "contacts_v5")  # tables whose records the store moves into v6's

MIGRATIONS: dict[int, str] = {1: _V1, 2: _V2, 3: _V3, 4: _V4, 5: _V5, 6: _V6, 7: _V7, 8: _V8}


def migrate(conn: sqlite3.Connection) -> None:
    """Bring the database to SCHEMA_VERSION, one migration per version, each in a transaction."""
    current = conn.execute("PRAGMA user_version").fetchone()[0]
    if current > SCHEMA_VERSION:
        raise RuntimeError(f"cache schema {current} is newer than this corpdir ({SCHEMA_VERSION}); delete the cache or upgrade")
    for version in range(current + 1, SCHEMA_VERSION + 1):
        with conn:
            conn.executescript("BEGIN;" + MIGRATIONS[version] + f"PRAGMA user_version = {version};COMMIT;")
