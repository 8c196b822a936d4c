"""Whose number is this? One answer for every surface that asks.

`corpdir lookup`, the Lookup screen, the ring pop-up, the gateway's `/cid`, `/cid.kv`,
`/cid.json`, its LDAP entries and the number written into a call record all read a
number here and render the :class:`Identity` made here, and nothing else:

- the number is read once (:func:`corpdir.phone.number_forms`: `%2B81...`, `tel:`,
  `sip:...;user=phone`, full width, an outside-line prefix are one number); a caller who
  withheld it is ``withheld``, never "unknown";
- the cache answers first (:func:`corpdir.cache.numbers.read`, N1's order: a person's own
  number, a contact's, a division's own number, then a company's or a division's number
  written on contacts);
- a number the cache does not know goes to N1 (:class:`corpdir.service.numbers.Identification`); a person N1
  names is fetched (U3, and the divisions when the cache lacks them) and written to the
  cache, so the answer names their division by its path, as the cache would have;
- a shared number names its company or division, with how many hold it.

This module is on `corpdir lookup`'s start-up path: plain slotted classes, no dataclasses
or typing (docs/performance.md, "`corpdir lookup`").
"""

from __future__ import annotations

from corpdir.cache.numbers import MAX_HOLDERS, SHARED_FIELDS  # the answer's limits, for the front ends
from corpdir.division_path import SEPARATOR, cells, division_path
from corpdir.phone import DEFAULT_REGION, OUTSIDE_LINE_PREFIXES, caller_number, digits, fold_number, match_key, number_forms, sent_forms
from corpdir.text import printable

TYPE_CHECKING = False  # not typing's (~14 M instructions of a lookup): docs/performance.md, "`corpdir lookup`"
if TYPE_CHECKING:
    from typing import Any, Awaitable, Callable, Iterable

    Read = Callable[[list[str]], Any]
    """The cache reader for the spellings of one number (:func:`corpdir.cache.numbers.read`, bound)."""
    Resolve = Callable[[list[str]], Awaitable[list["Identity | None"]]]
    """The service's answers for up to five numbers (:meth:`corpdir.service.numbers.Identification.resolve`)."""

__all__ = ["MAX_HOLDERS", "SHARED_FIELDS", "Identifier", "Identity", "from_item", "matching", "read_number"]
KINDS = ("person", "contact", "division", "company", "withheld", "unknown")
N1_BATCH = 5
NOT_A_NUMBER = "not a phone number"
_DIALABLE = frozenset("0123456789*#,;+-")  # what a number asked of N1 keeps (str methods: no `re` on the lookup path)
FIELD_LABELS = {  # which of someone's numbers it was, as a person reads it
    "extensionNum": "extension", "phoneNum": "phone", "companyMobileNum": "company mobile",
    "personalMobileNum": "personal mobile", "mobileNum": "mobile", "faxNum": "fax",
    "companyDelegatedPhoneNum": "company phone", "divisionDelegatedPhoneNum": "division phone",
    "divisionPhoneNum": "division phone",
}
_N1_KINDS = {"person": "USER", "contact": "CONTACT", "division": "SHARED_NUMBER", "company": "SHARED_NUMBER"}


class Identity:
    """Who a number is. ``kind``: one of :data:`KINDS`; ``name``: the holder's own name
    (a division's own name for its number, the company for a company's line); ``field`` and
    ``stored``: which of their numbers matched, as the directory writes it; ``division``:
    the division path, top first (with ``division_alphabet``); ``paths``: every division
    of a person, each joined; ``count``: how many hold the number, ``first``: the first
    holders' names; ``source``: "cache", "service" or "none"."""

    __slots__ = ("query", "number", "kind", "name", "kana", "alphabet", "field", "stored", "division",
                 "division_alphabet", "paths", "company", "company_kana", "count", "first", "source",
                 "id", "record", "error")

    def __init__(self, query: str, kind: str = "unknown", *, number: str = "", name: str = "", kana: str = "",
                 alphabet: str = "", field: str = "", stored: str = "", division: tuple[str, ...] = (),
                 division_alphabet: tuple[str, ...] = (), paths: tuple[str, ...] = (), company: str = "",
                 company_kana: str = "", count: int = 0, first: tuple[str, ...] = (), source: str = "none",
                 id: int | None = None, record: dict[str, Any] | None = None, error: str | None = None) -> None:
        self.query, self.kind, self.number, self.name, self.kana, self.alphabet = query, kind, number, name, kana, alphabet
        self.field, self.stored, self.division, self.division_alphabet = field, stored, division, division_alphabet
        self.paths, self.company, self.company_kana, self.count, self.first = paths, company, company_kana, count, first
        self.source, self.id, self.record, self.error = source, id, record, error

    def __repr__(self) -> str:
        return f"Identity({self.query!r}, {self.kind}, who={self.who!r}, source={self.source!r}, error={self.error!r})"

    @property
    def found(self) -> bool:
        return self.kind not in ("withheld", "unknown")

    def asked_as(self, query: str) -> Identity:
        """The same answer for another spelling of the number (a remembered answer is shared)."""
        twin = Identity.__new__(Identity)
        for name in Identity.__slots__:
            setattr(twin, name, getattr(self, name))
        twin.query = query
        return twin

    @property
    def division_path(self) -> str:
        return division_path(self.division)

    @property
    def who(self) -> str:
        """The caller as every surface names it: a person or contact by name, a division's
        number by the division's path, a company's line by the company (and division)."""
        if self.kind == "division":
            return self.division_path or self.name
        if self.kind == "company":
            return " ".join(x for x in (self.company, *self.division) if x) or self.name
        if self.kind == "withheld":
            return "withheld"
        return self.name

    @property
    def ref(self) -> str:
        """'user:12', 'contact:34', 'division:5' ('' for no record)."""
        if self.id is None or self.kind not in ("person", "contact", "division"):
            return ""
        return f"{'user' if self.kind == 'person' else self.kind}:{self.id}"

    @property
    def shared(self) -> bool:
        return self.count > 1

    def organisation(self, width: int | None = None) -> str:
        """Where the holder belongs, as one text: a person's divisions by path ('本社 ›
        営業本部 › 1課'), a contact's company and division ('テスト商事 · 営業部'). Within
        ``width`` cells the first path is shortened from the top ('… › 営業本部 › 1課 (+1)')."""
        if self.kind == "person":
            company, paths = "", [p for p in self.paths if p]
        elif self.kind == "division":
            company, paths = "", [self.division_path] if self.division else []
        else:
            company, paths = self.company, [" · ".join(self.division)] if self.division else []
        text = " · ".join(p for p in (company, ", ".join(paths)) if p)
        if width is None or not paths or cells(printable(text)) <= width or self.kind not in ("person", "division"):
            return text
        more = f" (+{len(paths) - 1})" if len(paths) > 1 else ""
        return division_path(paths[0].split(SEPARATOR), width, marker=more) if width >= 4 else text

    def item(self) -> dict[str, Any]:
        """The answer in N1's shape (spec 2.9), for what reads identification items."""
        if not self.found:
            return {}
        divisions = list(self.paths) if self.kind == "person" else [self.division_path] if self.kind == "division" \
            else list(self.division[:1])
        return {"phoneNum": self.stored or self.number, "displayName": self.who, "companyName": self.company or None,
                "divisionNames": divisions, "phoneNumContactType": _N1_KINDS[self.kind],
                "userId": self.id if self.kind == "person" else None,
                "contactId": self.id if self.kind == "contact" else None}

    def as_dict(self) -> dict[str, Any]:
        """Every field, for JSON answers."""
        return {"query": self.query, "number": self.number, "found": self.found, "kind": self.kind, "who": self.who,
                "name": self.name, "kana": self.kana, "field": self.field, "stored": self.stored,
                "division": list(self.division), "divisionPath": self.division_path, "paths": list(self.paths),
                "company": self.company, "holders": self.count, "firstHolders": list(self.first), "ref": self.ref,
                "source": self.source, "error": self.error}


def read_number(query: str, read: Read | None, region: str = DEFAULT_REGION,
                strip_prefixes: Iterable[str] = OUTSIDE_LINE_PREFIXES) -> Identity:
    """The cache's answer for ``query`` (``read`` None: no cache, nobody yet)."""
    sent = caller_number(query)
    if sent is None:
        return Identity(query, "withheld")
    d = digits(sent)
    if not d:
        return Identity(query, error=NOT_A_NUMBER)
    if read is None:  # no cache: the number as sent (the region's rules are not even needed)
        return Identity(query, number=canonical([sent]))
    forms = sent_forms(sent, d, region, strip_prefixes)
    found = read(forms)
    return Identity(query, number=canonical(forms)) if found is None else from_holders(query, found)


def canonical(forms: list[str]) -> str:
    """The one spelling of a number a record keeps: its first form, as dialled (digits and a leading '+')."""
    form = forms[0]
    return ("+" if form.startswith("+") else "") + digits(form)


def from_holders(query: str, found: tuple[Any, ...], source: str = "cache") -> Identity:
    """The answer the cache reader's holders make (see :func:`corpdir.cache.numbers.read`)."""
    form, group, count, holders, paths = found
    kind, rid, field, record = holders[0]
    first = tuple(r.get("fullname") or r.get("divisionName") or "" for _, _, _, r in holders) if count > 1 else ()
    common = {"number": canonical([form]), "field": field,
              "stored": record.get(field) or form, "count": count, "first": first, "source": source,
              "record": record, "id": rid}
    if group == "user":
        pairs = []
        for ref in record.get("divisions") or ():
            if (rid_ := ref.get("divisionId")) is not None:
                pair = paths.get(rid_) or [(ref.get("divisionName") or "", "")]
                if pair[-1][0] or len(pair) > 1:
                    pairs.append(pair)
        names, alphabet = zip(*pairs[0]) if pairs else ((), ())
        return Identity(query, "person", name=record.get("fullname") or "", kana=record.get("fullnameKana") or "",
                        alphabet=record.get("fullnameAlphabet") or "", division=names, division_alphabet=alphabet,
                        paths=tuple(SEPARATOR.join(n for n, _ in p if n) for p in pairs), **common)
    if group == "division":
        top = paths.get(rid) or [(record.get("divisionName") or "", record.get("divisionNameAlphabet") or "")]
        return Identity(query, "division", name=record.get("divisionName") or "",
                        kana=record.get("divisionNameKana") or "", alphabet=record.get("divisionNameAlphabet") or "",
                        division=tuple(n for n, _ in top), division_alphabet=tuple(a for _, a in top), **common)
    company, division = record.get("companyName") or "", record.get("divisionName") or ""
    names = {"company": company, "company_kana": record.get("companyNameKana") or ""}
    if group == "shared":
        by_division = field == "divisionDelegatedPhoneNum" and division
        return Identity(query, "company", name=company, division=(division,) if by_division else (),
                        division_alphabet=("",) if by_division else (), **names, **common)
    return Identity(query, "contact", name=record.get("fullname") or "", kana=record.get("fullnameKana") or "",
                    alphabet=record.get("fullnameAlphabet") or "", division=(division,) if division else (),
                    division_alphabet=("",) if division else (), **names, **common)


def from_item(query: str, item: dict[str, Any]) -> Identity:
    """N1's item as the answer, where the cache could not be completed to give it (a
    contact not cached, U3 out of reach): what N1 says, less a person's company (the
    tenant's own name, which the cache never has: the surfaces would disagree)."""
    kind = {"USER": "person", "CONTACT": "contact"}.get(item.get("phoneNumContactType") or "", "company")
    names = tuple(n for n in item.get("divisionNames") or () if n)
    name, company = item.get("displayName") or "", item.get("companyName") or ""
    common = {"number": canonical([item.get("phoneNum") or ""]),
              "stored": item.get("phoneNum") or "", "count": 1, "first": (name,), "source": "service",
              "id": item.get("userId") if kind == "person" else item.get("contactId")}
    if kind == "person":
        return Identity(query, kind, name=name, division=names[:1], division_alphabet=("",) * len(names[:1]),
                        paths=names, **common)
    if kind == "contact":
        return Identity(query, kind, name=name, company=company, division=names[:1],
                        division_alphabet=("",) * len(names[:1]), **common)
    by_division = bool(names) and name == names[0] and name != company
    return Identity(query, kind, name=company or name, company=company or name,
                    division=names[:1] if by_division else (), division_alphabet=("",) if by_division else (), **common)


def dialable(text: str) -> str:
    """The number as the service accepts it (PHONE_CHARS): '03 (1234) 5678' and
    '０３（１２３４）５６７８' -> '0312345678'."""
    return "".join(filter(_DIALABLE.__contains__, fold_number(text)))


class Identifier:
    """The two steps of an answer: :meth:`cached` (synchronous: a PBX pipe answered from
    the cache never starts an event loop) and :meth:`ask_service` (the service, for what
    the cache could not answer, or everything when the cache is stale)."""

    def __init__(self, read: Read | None, *, fresh: bool, region: str = DEFAULT_REGION,
                 strip_prefixes: Iterable[str] = OUTSIDE_LINE_PREFIXES) -> None:
        self.read = read
        self.fresh = fresh
        self.region = region
        self.strip_prefixes = tuple(strip_prefixes)

    def cached(self, queries: Iterable[str]) -> list[Identity]:
        return [read_number(q, self.read, self.region, self.strip_prefixes) for q in queries]

    def to_ask(self, answers: Iterable[Identity]) -> list[Identity]:
        """What the service should answer: unknown to the cache, or all if the cache is stale."""
        return [a for a in answers if a.error is None and a.kind != "withheld" and (not a.found or not self.fresh)]

    async def ask_service(self, answers: list[Identity], resolve: Resolve) -> list[Identity]:
        """``answers`` with the service's answers in place (a failure is said per number).
        Each number is asked in every spelling worth trying (an outside-line prefix off,
        E.164), as many numbers to a request as fit in N1's five."""
        out = list(answers)
        batch: list[tuple[int, list[str]]] = []
        for i, answer in enumerate(answers):
            forms = spellings(answer.query, self.region, self.strip_prefixes)
            if batch and sum(len(f) for _, f in batch) + len(forms) > N1_BATCH:
                await self._ask(batch, out, resolve)
                batch = []
            batch.append((i, forms))
        if batch:
            await self._ask(batch, out, resolve)
        return out

    @staticmethod
    async def _ask(batch: list[tuple[int, list[str]]], out: list[Identity], resolve: Resolve) -> None:
        try:
            found = iter(await resolve([form for _, forms in batch for form in forms]))
        except Exception as exc:  # noqa: BLE001 - any failure of the service is reported per number
            for i, _ in batch:
                if not out[i].found:
                    out[i] = Identity(out[i].query, number=out[i].number, error=str(exc) or exc.__class__.__name__)
            return
        for i, forms in batch:
            identity = next((a for a in [next(found) for _ in forms] if a is not None), None)
            if identity is not None:
                out[i] = identity.asked_as(out[i].query)


def spellings(query: str, region: str = DEFAULT_REGION, strip_prefixes: Iterable[str] = OUTSIDE_LINE_PREFIXES) -> list[str]:
    """The spellings of a number to ask the service about (at most N1's five), most likely first."""
    return list(dict.fromkeys(dialable(f) for f in number_forms(query, region, tuple(strip_prefixes))))[:N1_BATCH]


def matching(items: list[dict[str, Any]], number: str, region: str) -> dict[str, Any] | None:
    """N1's item that names someone for ``number`` (an unknown number comes back with nothing but itself)."""
    key = match_key(number, region)
    return next((i for i in items if i.get("phoneNum") and (i.get("userId") or i.get("contactId") or i.get("displayName"))
                 and match_key(i["phoneNum"], region) == key), None)
