"""Text search over the FTS5 trigram tables.

A trigram index answers substrings of three or more characters (MATCH is fast and, unlike
LIKE on SQLite 3.40.1, correct for CJK text). Shorter words fall back to ``instr`` over
the indexed text, a scan but of one narrow table. Indexed text is lowercased in Python
(SQLite's lower() only folds ASCII), and so are the words searched for.
"""

from __future__ import annotations

from typing import Iterable

TRIGRAM = 3


def fold(text: str) -> str:
    return text.lower()


def _phrase(word: str) -> str:
    return '"' + word.replace('"', '""') + '"'


def fts_condition(table: str, terms: Iterable[tuple[str | None, str]], id_column: str) -> tuple[str, list[str]] | None:
    """A ``id IN (SELECT rowid FROM fts ...)`` clause requiring every term.

    Each term is (column, word): the word must occur in that column, or in any column
    (the catch-all ``words`` column) when column is None.
    """
    matches: list[str] = []
    scans: list[str] = []
    params: list[str] = []
    for column, word in terms:
        word = fold(word.strip())
        if not word:
            continue
        if len(word) >= TRIGRAM:
            matches.append(f"{column} : {_phrase(word)}" if column else _phrase(word))
        else:
            scans.append(f"instr({column or 'words'}, ?) > 0")
            params.append(word)
    if not matches and not scans:
        return None
    where: list[str] = []
    if matches:
        where.append(f"{table} MATCH ?")
        params.insert(0, " AND ".join(matches))
    where.extend(scans)
    return f"{id_column} IN (SELECT rowid FROM {table} WHERE {' AND '.join(where)})", params


def joined(*parts: object) -> str:
    """The searchable text of a record: its non-empty parts, lowercased, one per line."""
    return fold("\n".join(str(p) for p in parts if p))
