"""The database schema, versioned with ``PRAGMA user_version``.

Records keep their spec fields as one JSON document (``data``) next to the columns that
filters, orderings and joins need. Search (``corpdir.server.storage.search``): per searchable
resource a table of lowercased text and an FTS5 trigram index over it, which answers
words of any length (version 2; version 1 scanned for one- and two-character words).
Phone numbers are indexed by ``corpdir.phone.match_key``.

A contact's ``data`` is its record as X1 and X3 show it but registeredUser and
contactDetailsUrl: its stored fields followed by the column fields (contactId, folderId,
registeredAt, updatedAt, ocr*), merged in by SQLite triggers on every insert and on every
update of those columns (version 4; a bulk load drops them and does their work in one
UPDATE), so an X1 page is the stored texts joined.

A migration may leave ``meta`` key ``reindex_search``: ``Storage`` then rebuilds the search
text of every user and contact from their records when it opens the database.
"""

from __future__ import annotations

from corpdir.server.storage.search import CONTACTS, USERS

SCHEMA_VERSION = 4

CONTACT_RECORD = (
    "json_patch(json_remove(data, '$.contactId', '$.folderId', '$.registeredAt', '$.updatedAt', '$.ocrStatus',"
    " '$.ocrType', '$.ocrResult'), json_object('contactId', id, 'folderId', json_object('directory', directory,"
    " 'folderNum', folder_num), 'registeredAt', registered_at, 'updatedAt', updated_at, 'ocrStatus', ocr_status,"
    " 'ocrType', ocr_type, 'ocrResult', ocr_result))"
)
"""A contact row's record as X1 shows it but registeredUser and contactDetailsUrl: the stored
fields (whatever column fields ``data`` held are dropped first, so they always come last,
in this order) patched with the columns' values; a NULL column leaves its field out, as
the stored fields keep no nulls."""

MIGRATIONS: dict[int, str] = {
    1: """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE custom_columns (id INTEGER PRIMARY KEY, title TEXT NOT NULL);
CREATE TABLE cucm_adapters (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE alpha_adapters (id INTEGER PRIMARY KEY, name TEXT NOT NULL);

CREATE TABLE divisions (
    id INTEGER PRIMARY KEY,
    parent_id INTEGER REFERENCES divisions(id) ON DELETE CASCADE,
    code TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    sort_score INTEGER NOT NULL DEFAULT 0,
    data TEXT NOT NULL
);
CREATE INDEX divisions_parent ON divisions(parent_id);
CREATE INDEX divisions_order ON divisions(sort_score DESC, id);

CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    login_id TEXT NOT NULL UNIQUE,
    user_type TEXT NOT NULL,
    fullname TEXT NOT NULL,
    fullname_kana TEXT NOT NULL DEFAULT '',
    employee_num TEXT NOT NULL DEFAULT '',
    email1 TEXT NOT NULL DEFAULT '',
    ble_id TEXT NOT NULL DEFAULT '',
    sort_score INTEGER NOT NULL DEFAULT 0,
    password_hash TEXT,
    data TEXT NOT NULL
);
CREATE INDEX users_fullname ON users(fullname, id);
CREATE INDEX users_sort ON users(sort_score, id);
CREATE INDEX users_employee ON users(employee_num, id);
CREATE INDEX users_email1 ON users(email1);
CREATE INDEX users_ble ON users(ble_id);
CREATE INDEX users_type ON users(user_type);
CREATE VIRTUAL TABLE users_fts USING fts5(fullname, fullname_kana, words, tokenize='trigram');

CREATE TABLE user_divisions (
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    division_id INTEGER NOT NULL REFERENCES divisions(id) ON DELETE CASCADE,
    pos INTEGER NOT NULL,
    PRIMARY KEY (user_id, division_id)
);
CREATE INDEX user_divisions_division ON user_divisions(division_id);

CREATE TABLE api_keys (
    key_hash TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    label TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT ''
);
CREATE TABLE photos (
    user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    full BLOB NOT NULL,
    thumbnail BLOB  -- NULL until first asked for, for bulk-loaded photos
);
CREATE TABLE profiles (
    user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    data TEXT NOT NULL,
    self_updated_at TEXT
);
CREATE TABLE destinations (
    user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    destination_id INTEGER NOT NULL,
    destination_name TEXT NOT NULL DEFAULT '',
    updated_at TEXT NOT NULL
);

CREATE TABLE shared_folders (folder_num INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE personal_folders (
    folder_num INTEGER PRIMARY KEY,
    owner_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    sort_score INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL
);
CREATE INDEX personal_folders_owner ON personal_folders(owner_id);

CREATE TABLE contacts (
    id INTEGER PRIMARY KEY,
    directory TEXT NOT NULL,
    folder_num INTEGER NOT NULL,
    owner_id INTEGER,
    fullname TEXT NOT NULL DEFAULT '',
    company_name TEXT NOT NULL DEFAULT '',
    email1 TEXT NOT NULL DEFAULT '',
    registered_user_id INTEGER,
    registered_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    ocr_status TEXT,
    ocr_type TEXT,
    ocr_result TEXT,
    data TEXT NOT NULL
);
CREATE INDEX contacts_updated ON contacts(updated_at, id);
CREATE INDEX contacts_fullname ON contacts(fullname, id);
CREATE INDEX contacts_folder ON contacts(directory, folder_num);
CREATE INDEX contacts_owner ON contacts(owner_id);
CREATE INDEX contacts_email ON contacts(email1);
CREATE VIRTUAL TABLE contacts_fts USING fts5(
    fullname, fullname_kana, company_name, company_name_kana, division_name, division_name_kana, words,
    tokenize='trigram'
);
CREATE TABLE cards (
    contact_id INTEGER PRIMARY KEY REFERENCES contacts(id) ON DELETE CASCADE,
    image BLOB NOT NULL
);
CREATE TABLE contact_groups (
    group_id INTEGER NOT NULL,
    contact_id INTEGER NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
    PRIMARY KEY (group_id, contact_id)
);
CREATE INDEX contact_groups_contact ON contact_groups(contact_id);

-- kind: USER, CONTACT or DIVISION; shared: a delegated number of a division or company
CREATE TABLE phone_keys (
    key TEXT NOT NULL,
    kind TEXT NOT NULL,
    ref_id INTEGER NOT NULL,
    shared INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX phone_keys_key ON phone_keys(key, kind, shared);
CREATE INDEX phone_keys_ref ON phone_keys(kind, ref_id);

CREATE TABLE incoming_calls (
    id INTEGER PRIMARY KEY,
    owner_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    answered INTEGER NOT NULL,
    called_at TEXT NOT NULL,
    data TEXT NOT NULL
);
CREATE INDEX incoming_owner ON incoming_calls(owner_id, called_at, id);
CREATE TABLE outgoing_calls (
    id INTEGER PRIMARY KEY,
    owner_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    answered INTEGER NOT NULL,
    calling_at TEXT NOT NULL,
    data TEXT NOT NULL
);
CREATE INDEX outgoing_owner ON outgoing_calls(owner_id, calling_at, id);

CREATE TABLE spots (
    ble_id TEXT NOT NULL,
    spot_id TEXT NOT NULL,
    accepted_at REAL NOT NULL
);
CREATE INDEX spots_accepted ON spots(accepted_at);
""",
    2: f"""
DROP TABLE users_fts;
DROP TABLE contacts_fts;
{USERS.ddl()}
{CONTACTS.ddl()}
INSERT OR REPLACE INTO meta (key, value) VALUES ('reindex_search', '1');
""",
    # a page of searched records is sorted from these narrow indexes (up to 2,500 ids
    # looked up), not from the wide rows that hold the JSON
    3: """
CREATE INDEX users_order ON users(id, fullname, sort_score, employee_num);
CREATE INDEX contacts_order ON contacts(id, updated_at, fullname, directory, owner_id);
""",
    # contacts' data holds the column fields too, kept by triggers: an X1 page of 500 is
    # read and joined, not merged record by record (json_patch) when it is asked for
    4: f"""
UPDATE contacts SET data = {CONTACT_RECORD};
CREATE TRIGGER contacts_record_insert AFTER INSERT ON contacts BEGIN
    UPDATE contacts SET data = {CONTACT_RECORD} WHERE id = NEW.id;
END;
CREATE TRIGGER contacts_record_update
AFTER UPDATE OF id, directory, folder_num, registered_at, updated_at, ocr_status, ocr_type, ocr_result, data ON contacts
BEGIN
    UPDATE contacts SET data = {CONTACT_RECORD} WHERE id = NEW.id;
END;
""",
}
