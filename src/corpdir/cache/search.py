"""As-you-type search over cached users and contacts.

Every searchable field is a folded term in ``user_terms`` / ``contact_terms``. A query is
ranked in three tiers: exact term, term prefix (B-tree range, any length), term
substring (FTS5 trigram MATCH, 3+ characters, checked against the record's terms), then
by sortScore (higher first). Name parts are terms of their own and the substring tier
looks inside one part at a time: 'tanaka' finds 田中 (Tanaka), not 'Shota Nakajima'. 1-2 character queries match
the start of any name part, field or number, because trigrams need three characters.
The substring tier is skipped when the first two already fill the answer.

A query of several words ('たなか たろう', 'tanaka taro') finds the records in which every
word matches some term, in any order, ranked by the word that matched worst; the words
typed together ('たなかたろう') also meet the whole name. Each word is folded alone, so a
romaji word is tried as kana whatever script the other words are in, also with the long
vowels romaji leaves out ('otsuka' finds 大塚 オオツカ, 'shuhei' 修平 シュウヘイ).

:class:`Searcher` keeps the previous answer: when the query only grew and the previous
candidates were complete, it re-ranks those candidates instead of asking SQLite again.
"""

from __future__ import annotations

import heapq
import re
import unicodedata
from dataclasses import dataclass
from typing import Sequence

from corpdir.cache.fields import CODES, FIELDS
from corpdir.cache.folding import fold, long_vowel_variants, query_variants
from corpdir.cache.indexing import decode_terms
from corpdir.cache.store import CacheStore
from corpdir.phone import digits, fold_number
from corpdir.sqlite import chunks, marks

EXACT, PREFIX, SUBSTRING = 0, 1, 2
CANDIDATE_CAP = 400  # per tier; above it the hits are the first found, and narrowing re-queries
SUBSTRING_CAP = 200  # the last tier: a trigram common to thousands ('334', 'corpo-denki') is checked 200 at a time
NARROW_MAX = 150  # above this many previous hits a fresh indexed query is cheaper than re-ranking
_PHONE_LIKE = re.compile(r"[\d\s\-+()*#.]+")
_MAX_CODEPOINT = "\U0010ffff"


@dataclass(frozen=True, order=True)
class Hit:
    rank: int
    neg_sort_score: int
    kind: str
    id: int
    field: str = ""

    @property
    def sort_score(self) -> int:
        return -self.neg_sort_score


def _words(query: str) -> list[str]:
    """The words of a query of several (none for one word or a phone number, whose spaces
    only group digits)."""
    if _PHONE_LIKE.fullmatch(fold_number(query).strip() or "x"):
        return []
    words = unicodedata.normalize("NFKC", query).split()
    return words if len(words) > 1 else []


def _variants(query: str) -> list[str]:
    variants = query_variants(query)
    if _PHONE_LIKE.fullmatch(fold_number(query).strip() or "x") and (d := digits(query)) and d not in variants:
        variants.append(d)
    return variants


def _spellings(query: str) -> list[str]:
    """The variants and, for romaji, the kana with the long vowels put back: found by the
    exact and prefix tiers only (a substring query each would cost a keystroke ~1 ms)."""
    return _variants(query) + long_vowel_variants(query)


_TERMS = {  # kind -> (its B-tree of terms, its records, score in the B-tree, score in the records, best first)
    "user": ("user_terms", "users", "score", "sort_score", " ORDER BY score DESC"),
    "contact": ("contact_terms", "contacts", "0", "0", ""),
}


class _Candidates:
    """(kind, id) -> best (rank, -sortScore, kind, id, field code) tuple, plus whether any
    tier hit the cap. Plain tuples: thousands are compared per keystroke."""

    def __init__(self) -> None:
        self.best: dict[tuple[str, int], tuple[int, int, str, int, int]] = {}
        self.truncated = False

    def add(self, kind: str, rows: list[tuple[int, int, int]], rank: int, cap: int) -> None:
        best = self.best
        for rid, field, score in rows:
            candidate = (rank, -score, kind, rid, field)
            key = (kind, rid)
            current = best.get(key)
            if current is None or candidate < current:
                best[key] = candidate
        if len(rows) >= cap:
            self.truncated = True

    def top(self, limit: int | None = None) -> list[Hit]:
        values = self.best.values()
        chosen = heapq.nsmallest(limit, values) if limit is not None else sorted(values)
        return [Hit(rank, neg, kind, rid, FIELDS[field]) for rank, neg, kind, rid, field in chosen]


def _index_tiers(store: CacheStore, term: str, kinds: Sequence[str], found: _Candidates, limit: int) -> None:
    """Exact and prefix tiers. An exact term is one row a record, read best score first:
    its first ``limit`` rows are all the answer can use ('佐藤' is thousands of people)."""
    exact, prefix = max(1, limit), max(limit, CANDIDATE_CAP)
    for kind in kinds:  # a B-tree per kind: a search for people never walks contacts' terms
        table, _, score, _, best_first = _TERMS[kind]
        found.add(kind, store._rows(
            f"SELECT id, field, {score} FROM {table} WHERE term = ?{best_first} LIMIT {exact}", [term]), EXACT, exact)
        found.add(kind, store._rows(
            f"SELECT id, field, {score} FROM {table} WHERE term > ? AND term < ? LIMIT {prefix}",
            [term, term + _MAX_CODEPOINT]), PREFIX, prefix)


def _trigrams(term: str) -> str:
    """An FTS5 query for the records holding every trigram of ``term`` (without positions,
    the index cannot ask for them in a row: each hit is checked against its terms)."""
    starts = sorted({*range(0, len(term) - 2, 3), len(term) - 3})
    return " AND ".join('"' + term[i:i + 3].replace('"', '""') + '"' for i in starts)


def _substring_match(term: str, encoded: str) -> int | None:
    """The field code of the first trigram-indexed term of a record that holds ``term``."""
    if term not in encoded:
        return None
    for line, code, fts in decode_terms(encoded):
        if fts and term in line:
            return code
    return None


def _substring_tier(store: CacheStore, term: str, kinds: Sequence[str], found: _Candidates, limit: int) -> None:
    query, cap = _trigrams(term), max(limit, SUBSTRING_CAP)
    for kind in kinds:
        _, records, _, score, _ = _TERMS[kind]
        rows = store._rows(
            f"SELECT r.id, r.terms, {score} FROM {kind}_fts f JOIN {records} r ON r.id = f.rowid"
            f" WHERE {kind}_fts MATCH ? LIMIT {cap}", [query])
        hits = [(rid, code, sc) for rid, encoded, sc in rows if (code := _substring_match(term, encoded)) is not None]
        found.add(kind, hits, SUBSTRING, cap)
        if len(rows) >= cap:
            found.truncated = True


def search(store: CacheStore, query: str, *, kinds: Sequence[str] = ("user", "contact"), limit: int = 50) -> list[Hit]:
    """The best ``limit`` hits for ``query`` (folded; romaji also tried as kana)."""
    return _candidates(store, query, kinds, limit).top(limit)


def _candidates(store: CacheStore, query: str, kinds: Sequence[str], limit: int) -> _Candidates:
    """Candidates of every tier, and of every word of a query of several (:func:`_all_words`)."""
    found = _word_candidates(store, query, kinds, limit)
    words = _words(query)
    if words:
        _all_words(store, words, kinds, limit, found)
    return found


def _word_candidates(store: CacheStore, query: str, kinds: Sequence[str], limit: int) -> _Candidates:
    """Candidates of every tier; the substring tier only when the exact and prefix tiers
    found fewer than ``limit``: a substring hit ranks below them all, so it could not be
    shown (the answer is then marked incomplete, and is not narrowed later)."""
    found = _Candidates()
    variants = _variants(query)
    for term in _spellings(query):
        _index_tiers(store, term, kinds, found, limit)
    long_terms = [term for term in variants if len(term) >= 3]
    if long_terms and len(found.best) >= limit:
        found.truncated = True
    else:
        for term in long_terms:
            _substring_tier(store, term, kinds, found, limit)
    return found


def _all_words(store: CacheStore, words: list[str], kinds: Sequence[str], limit: int, found: _Candidates) -> None:
    """Add to ``found`` the records in which every word matches, checked in Python against
    candidates every such record is among: those of the word of 3+ characters that finds
    fewest (its tiers find it anywhere in a term), else, every word being 1-2 characters
    (found by the index only at a term's start), those of any word. Checked in Python, a
    short word matches anywhere in a term, as the service's search does ('ひろ' in ヤスヒロ)."""
    per_word = [(_word_candidates(store, word, kinds, limit), len(fold(word)) >= 3) for word in words]
    long_words = [c for c, long in per_word if long]
    pools = [min(long_words, key=lambda c: (c.truncated, len(c.best)))] if long_words else [c for c, _ in per_word]
    keys = list(dict.fromkeys(key for pool in pools for key in pool.best))
    for hit in _rerank(store, words, keys):
        key = (hit.kind, hit.id)
        current = found.best.get(key)
        candidate = (hit.rank, hit.neg_sort_score, hit.kind, hit.id, CODES[hit.field])
        if current is None or candidate < current:
            found.best[key] = candidate
    found.truncated = found.truncated or any(pool.truncated for pool in pools)


def _term_rank(encoded: str, variants: Sequence[str]) -> tuple[int, int] | None:
    """(rank, field code) of the best match of any of ``variants`` among a record's terms."""
    best: tuple[int, int] | None = None
    for term, code, fts in decode_terms(encoded):
        for v in variants:
            rank = EXACT if term == v else PREFIX if term.startswith(v) else SUBSTRING if fts and v in term else None
            if rank is not None and (best is None or (rank, code) < best):
                best = (rank, code)
    return best


def _rerank(store: CacheStore, words: Sequence[str], previous: Sequence[tuple[str, int]]) -> list[Hit]:
    """Rank the previous candidates ((kind, id)) against ``words`` (each must match; the
    worst match ranks the record), in Python, from their terms."""
    variants = [_spellings(word) for word in words]
    out: list[Hit] = []
    for kind in {k for k, _ in previous}:
        _, records, _, score, _ = _TERMS[kind]
        ids = [rid for k, rid in previous if k == kind]
        for chunk in chunks(ids):
            rows = store._rows(f"SELECT id, terms, {score} FROM {records} WHERE id IN ({marks(len(chunk))})", chunk)
            for rid, encoded, sc in rows:
                matches = [_term_rank(encoded, v) for v in variants]
                if all(m is not None for m in matches):
                    rank = max(m[0] for m in matches)  # type: ignore[index]
                    out.append(Hit(rank, -sc, kind, rid, FIELDS[matches[0][1]]))  # type: ignore[index]
    return sorted(out)


def _can_narrow(prev: str, query: str) -> bool:
    """True when every hit of ``query`` must be among the complete hits of ``prev``: one
    word each, each folded variant only grew, and ``prev`` was long enough to have run the
    substring tier."""
    if _words(prev) or _words(query):
        return False
    before, after = _spellings(prev), _spellings(query)
    return len(before) == len(after) and all(len(a) >= 3 and b.startswith(a) for a, b in zip(before, after))


class Searcher:
    """Search that narrows the previous answer while the query only grows.

    The previous candidates are kept only when the answer was complete (no tier capped)
    and small (<= NARROW_MAX): re-ranking many costs more than an indexed query."""

    def __init__(self, store: CacheStore, *, kinds: Sequence[str] = ("user", "contact")) -> None:
        self.store = store
        self.kinds = tuple(kinds)
        self._last_query: str | None = None
        self._narrowable: list[Hit] | None = None  # every candidate of the last query, when few

    def search(self, query: str, limit: int = 50) -> list[Hit]:
        q = query.strip()
        if not q:
            self._last_query, self._narrowable = None, None
            return []
        if self._narrowable is not None and self._last_query and _can_narrow(self._last_query, q):
            hits: list[Hit] | None = _rerank(self.store, [q], [(h.kind, h.id) for h in self._narrowable])
            top = hits[:limit]
        else:
            found = _candidates(self.store, q, self.kinds, limit)
            few = not found.truncated and len(found.best) <= NARROW_MAX
            hits = found.top(None) if few else None
            top = hits[:limit] if hits is not None else found.top(limit)
        self._last_query, self._narrowable = q, hits
        return top
