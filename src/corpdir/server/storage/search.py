"""Text search: partial (substring) matches of words, answered from an index at any length.

Each searchable resource has a plain table of its lowercased search text (``users_text``,
``contacts_text``: one column per filterable field plus ``words``, the rest) and an FTS5
trigram index over it (``users_fts``, ``contacts_fts``, external content, case-sensitive:
the text is lowercased in Python, and so are the words searched for, so index and query
fold alike). A word matches a record when it is a substring of one of its columns.

- Three or more characters: ``MATCH`` of the word as a trigram phrase (SQLite 3.40.1's
  trigram ``LIKE`` misses CJK substrings such as 王伟; ``MATCH`` does not).
- One or two characters: every column's text is stored with two trailing newlines, so each
  1-2 character substring is the prefix of some indexed trigram. The records holding it
  are the documents of the trigrams in the range ``[word, word+1)``, read from the index
  through an ``fts5vocab`` table ('山崎' -> trigrams '山崎 ', '山崎太', ...).

Planning: each word's records are first gathered from the index, capped at ``DENSE``
records. Words under the cap give exact id sets, intersected in Python, so the page is
sorted from a few thousand rows at most. A word over the cap is common (more than
``DENSE`` records): it becomes a per-row ``instr`` check on the text table, and the query
walks the ordering's index, stopping at the page, which is soon with a common word.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from corpdir.sqlite import chunks

TRIGRAM = 3
PAD = "\n\n"
"""Appended to each non-empty column text: the last one or two characters then begin a trigram."""
DENSE = 2500
"""A word found in more records than this is checked row by row instead of gathered."""
WALK = 5000
"""Rows of the ordering checked row by row before common words are gathered in full."""


def fold(text: str) -> str:
    return text.lower()


def _phrase(word: str) -> str:
    return '"' + word.replace('"', '""') + '"'


def joined(*parts: object) -> str:
    """The searchable text of a field group: its non-empty parts, lowercased, one per line."""
    return "\n".join([p if type(p) is str else str(p) for p in parts if p]).lower()


def padded(text: str) -> str:
    return text + PAD if text else ""


def _tuples(conn: sqlite3.Connection) -> sqlite3.Cursor:
    """A cursor giving plain tuples (faster than the connection's sqlite3.Row)."""
    cur = conn.cursor()
    cur.row_factory = None
    return cur


def _upper_bound(word: str) -> str | None:
    """The smallest string above every string that starts with ``word`` (None: no bound)."""
    last = ord(word[-1]) + 1
    if 0xD800 <= last <= 0xDFFF:
        last = 0xE000
    if last > 0x10FFFF:
        return None
    return word[:-1] + chr(last)


@dataclass(frozen=True)
class TextIndex:
    """The search text of one resource: its text table, trigram index and vocabulary."""

    name: str  # 'users' -> users_text, users_fts, users_vocab
    columns: tuple[str, ...]  # the last one is 'words', the catch-all

    @property
    def text(self) -> str:
        return f"{self.name}_text"

    @property
    def fts(self) -> str:
        return f"{self.name}_fts"

    @property
    def vocab(self) -> str:
        return f"{self.name}_vocab"

    def ddl(self) -> str:
        cols = ", ".join(self.columns)
        text_cols = ", ".join(f"{c} TEXT NOT NULL DEFAULT ''" for c in self.columns)
        return (
            f"CREATE TABLE {self.text} (id INTEGER PRIMARY KEY, {text_cols});\n"
            f"CREATE VIRTUAL TABLE {self.fts} USING fts5({cols}, content='{self.text}', content_rowid='id',"
            f" tokenize='trigram case_sensitive 1');\n"
            f"CREATE VIRTUAL TABLE {self.vocab} USING fts5vocab({self.fts}, 'instance');\n"
        )

    # -- writing ------------------------------------------------------------------------
    def _insert_sql(self) -> tuple[str, str]:
        cols = ", ".join(self.columns)
        marks = ", ".join("?" * (len(self.columns) + 1))
        return (f"INSERT INTO {self.text} (id, {cols}) VALUES ({marks})",
                f"INSERT INTO {self.fts} (rowid, {cols}) VALUES ({marks})")

    @staticmethod
    def _padded(rows: Iterable[Sequence[Any]]) -> list[tuple]:
        return [(r[0], *[padded(t) for t in r[1:]]) for r in rows]

    def replace(self, conn: sqlite3.Connection, rows: Iterable[Sequence[Any]]) -> None:
        """Index ``rows`` ((id, text per column), unpadded), replacing what those ids had."""
        rows = self._padded(rows)
        self.delete(conn, [r[0] for r in rows])
        into_text, into_fts = self._insert_sql()
        conn.executemany(into_text, rows)
        conn.executemany(into_fts, rows)

    def delete(self, conn: sqlite3.Connection, ids: Sequence[int]) -> None:
        """Forget ``ids``: an external-content index is told the old text to remove."""
        cols = ", ".join(self.columns)
        for chunk in chunks(list(ids)):
            marks = ",".join("?" * len(chunk))
            old = conn.execute(f"SELECT id, {cols} FROM {self.text} WHERE id IN ({marks})", chunk).fetchall()
            if not old:
                continue
            conn.executemany(
                f"INSERT INTO {self.fts} ({self.fts}, rowid, {cols}) VALUES ('delete', {', '.join('?' * (len(self.columns) + 1))})",
                [tuple(r) for r in old],
            )
            conn.execute(f"DELETE FROM {self.text} WHERE id IN ({marks})", chunk)

    def load(self, conn: sqlite3.Connection, rows: Iterable[Sequence[Any]]) -> None:
        """Bulk load into an empty index: the text rows, then one rebuild with a big
        in-memory hash and no merging on the way, then one merge into a single segment
        (about 4x faster than indexing row by row). The settings are put back after."""
        conn.executemany(self._insert_sql()[0], self._padded(rows))
        config = f"INSERT INTO {self.fts} ({self.fts}, rank) VALUES (?, ?)"
        conn.execute(config, ("hashsize", 64 * 1024 * 1024))
        conn.execute(config, ("automerge", 0))
        self.rebuild(conn)
        conn.execute(f"INSERT INTO {self.fts} ({self.fts}) VALUES ('optimize')")
        conn.execute(config, ("automerge", 4))
        conn.execute(config, ("hashsize", 1024 * 1024))

    def rebuild(self, conn: sqlite3.Connection) -> None:
        conn.execute(f"INSERT INTO {self.fts} ({self.fts}) VALUES ('rebuild')")

    # -- searching ----------------------------------------------------------------------
    def filter(self, conn: sqlite3.Connection, terms: Iterable[tuple[str | None, str]]) -> TextFilter | None:
        """What the index says about ``terms``, or None without terms.

        Each term is (column, word): the word must occur in that column, or in any column
        when column is None. Words are stripped and lowercased; empty ones are ignored.
        """
        words = [(col, fold(w.strip())) for col, w in terms]
        words = [(col, w) for col, w in words if w]
        if not words:
            return None
        text = TextFilter(self)

        def narrow(found: list[int] | None, dense_terms: list[tuple[str | None, str]]) -> None:
            if found is None:
                text.checks.extend(dense_terms)
            else:
                text.exact = set(found) if text.exact is None else text.exact & set(found)

        long_terms = [(c, w) for c, w in words if len(w) >= TRIGRAM]
        if long_terms:
            narrow(self._capped(conn, f"SELECT rowid FROM {self.fts} WHERE {self.fts} MATCH ? LIMIT ?",
                                [self._match(long_terms)]), long_terms)
        for col, word in words:
            if len(word) < TRIGRAM and not text.nothing:
                narrow(self._short(conn, col, word), [(col, word)])
        return text

    @staticmethod
    def _match(terms: list[tuple[str | None, str]]) -> str:
        return " AND ".join(f"{c} : {_phrase(w)}" if c else _phrase(w) for c, w in terms)

    def _short_sql(self, column: str | None, word: str) -> tuple[str, list[Any]]:
        high = _upper_bound(word)
        sql = f"SELECT doc FROM {self.vocab} WHERE term >= ?"
        params: list[Any] = [word]
        if high is not None:
            sql += " AND term < ?"
            params.append(high)
        if column:
            sql += " AND col = ?"
            params.append(column)
        return sql, params

    def _short(self, conn: sqlite3.Connection, column: str | None, word: str) -> list[int] | None:
        """Records holding a one- or two-character word: the documents of the trigrams
        that start with it (None when more than DENSE). Read as instances, deduplicated
        here: SQLite's DISTINCT over the vocabulary table costs several times more."""
        sql, params = self._short_sql(column, word)
        limit = 2 * DENSE  # instances (a record may hold the word in several columns)
        found = [r[0] for r in _tuples(conn).execute(sql + " LIMIT ?", [*params, limit + 1])]
        ids = set(found)
        return None if len(found) > limit or len(ids) > DENSE else list(ids)

    @staticmethod
    def _capped(conn: sqlite3.Connection, sql: str, params: list[Any]) -> list[int] | None:
        """The ids the query finds, or None when there are more than DENSE of them."""
        ids = [r[0] for r in _tuples(conn).execute(sql, [*params, DENSE + 1])]
        return None if len(ids) > DENSE else ids


@dataclass
class TextFilter:
    """The records some words allow: an exact id set from the index (None: no limit from
    it) and the common words, which are checked row by row or gathered in full."""

    index: TextIndex
    exact: set[int] | None = None
    checks: list[tuple[str | None, str]] = field(default_factory=list)

    @property
    def nothing(self) -> bool:
        return self.exact == set()

    def clauses(self, id_column: str, *, gather: bool = False) -> tuple[list[str], list[Any]]:
        """WHERE clauses on ``id_column`` (qualified: 'users.id'). The common words are
        row-by-row ``instr`` checks, or with ``gather`` subqueries on the index."""
        where, params = self._exact(id_column)
        if self.checks:
            clause, more = self._gathered(id_column) if gather else self.check(id_column)
            where.append(clause)
            params += more
        return where, params

    def _exact(self, id_column: str) -> tuple[list[str], list[Any]]:
        if self.exact is None:
            return [], []
        return [f"{id_column} IN (SELECT value FROM json_each(?))"], [json.dumps(sorted(self.exact))]

    def check(self, id_column: str) -> tuple[str, list[Any]]:
        tests, params = [], []
        for col, word in self.checks:
            cols = [col] if col else list(self.index.columns)
            tests.append("(" + " OR ".join(f"instr(t.{c}, ?) > 0" for c in cols) + ")")
            params.extend([word] * len(cols))
        return f"EXISTS (SELECT 1 FROM {self.index.text} t WHERE t.id = {id_column} AND {' AND '.join(tests)})", params

    def _gathered(self, id_column: str) -> tuple[str, list[Any]]:
        index = self.index
        where, params = [], []
        long_terms = [(c, w) for c, w in self.checks if len(w) >= TRIGRAM]
        if long_terms:
            where.append(f"{id_column} IN (SELECT rowid FROM {index.fts} WHERE {index.fts} MATCH ?)")
            params.append(index._match(long_terms))
        for col, word in self.checks:
            if len(word) < TRIGRAM:
                sql, more = index._short_sql(col, word)
                where.append(f"{id_column} IN ({sql})")
                params += more
        return " AND ".join(where), params

    def page(self, conn: sqlite3.Connection, table: str, where: list[str], params: list[Any], order: str,
             direction: str, limit: int, offset: int) -> list[int]:
        """ids of one page of ``table`` ordered by (order, id) in ``direction``.

        With an exact id set (some word in few records): one query over those ids, looked up
        in ``{table}_order``, common words checked on them. With only common words: the
        first WALK rows of the order (other filters applied) are checked row by row; that
        answers when matches are spread over the order. Else (matches clustered late, e.g.
        '山' by fullname) the common words' records are gathered from the index in full and
        SQLite sorts them. Without words: one query.
        """
        exact, exact_params = self._exact(f"{table}.id")
        base, base_params = [*where, *exact], [*params, *exact_params]
        hint = ""
        if self.exact is not None:
            # at most DENSE ids: looked up in the narrow {table}_order index (id first, then
            # the ordering and visibility columns), common words checked on those rows only
            hint = f" INDEXED BY {table}_order"
            if self.checks:
                check, check_params = self.check(f"{table}.id")
                base, base_params = [*base, check], [*base_params, *check_params]
        elif self.checks:
            inner = f"SELECT {table}.id AS id, {order} AS k FROM {table}"
            if base:
                inner += " WHERE " + " AND ".join(base)
            inner += f" ORDER BY {order} {direction}, {table}.id {direction} LIMIT ?"
            check, check_params = self.check("w.id")
            sql = f"SELECT id FROM ({inner}) AS w WHERE {check} ORDER BY k {direction}, id {direction} LIMIT ? OFFSET ?"
            ids = [r[0] for r in _tuples(conn).execute(sql, [*base_params, WALK, *check_params, limit, offset])]
            if len(ids) == limit:
                return ids
            gathered, gathered_params = self._gathered(f"{table}.id")
            base, base_params = [*base, gathered], [*base_params, *gathered_params]
        sql = f"SELECT id FROM {table}{hint}"
        if base:
            sql += " WHERE " + " AND ".join(base)
        sql += f" ORDER BY {order} {direction}, id {direction} LIMIT ? OFFSET ?"
        return [r[0] for r in _tuples(conn).execute(sql, [*base_params, limit, offset])]


def page_ids(conn: sqlite3.Connection, text: TextFilter | None, table: str, where: list[str], params: list[Any],
             order: str, direction: str, limit: int, offset: int) -> list[int]:
    """One page of ids, with or without a text filter (see TextFilter.page)."""
    return (text or TextFilter(USERS)).page(conn, table, where, params, order, direction, limit, offset)


USERS = TextIndex("users", ("fullname", "fullname_kana", "words"))
CONTACTS = TextIndex("contacts", ("fullname", "fullname_kana", "company_name", "company_name_kana",
                                  "division_name", "division_name_kana", "words"))
