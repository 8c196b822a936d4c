"""phonenumbers' number patterns matched without `re`, for `corpdir lookup`'s fast path.

A region's rules (:class:`corpdir.phone.RegionRules`) hold two of phonenumbers' regexes:
the national-number pattern and the national prefix. Importing `re` to match them costs
a `corpdir lookup` process ~26 M instructions (with ``enum``; its floor, `python -c
pass`, is ~37 M) and compiling them ~0.2 ms more, to match a dozen digits. Those
patterns use a small part of the regex language: digits, ``\\d``, classes of digits and
ranges, groups, alternation, greedy ``?``/``*``/``+``/``{n,m}`` and ``$``. This module
parses exactly that part and matches it as `re` does (backtracking, leftmost alternative
first, greedy repeats, the last iteration's capture); anything outside it is refused
(:func:`compile` returns None) and the caller compiles the pattern with `re`. A test
holds both to `re` over every region's patterns and generated digit strings.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: docs/performance.md, "`corpdir lookup`"
if TYPE_CHECKING:
    from typing import Any, Iterator

_SPECIAL = frozenset(".^$*+?{}[]\\|()")
_DIGIT = "\\d"  # a class member meaning what `re`'s \d means for str: a decimal digit (str.isdecimal)


class _Refused(ValueError):
    """Syntax this module does not match: the caller uses `re`."""


class _Parser:
    def __init__(self, source: str) -> None:
        self.s, self.i, self.groups = source, 0, 0

    def peek(self) -> str:
        return self.s[self.i] if self.i < len(self.s) else ""

    def take(self) -> str:
        ch = self.peek()
        if not ch:
            raise _Refused("unexpected end")
        self.i += 1
        return ch

    def alternation(self) -> tuple[Any, ...]:
        options = [self.sequence()]
        while self.peek() == "|":
            self.i += 1
            options.append(self.sequence())
        return ("alt", options) if len(options) > 1 else options[0]

    def sequence(self) -> tuple[Any, ...]:
        items = []
        while self.peek() not in ("", "|", ")"):
            items.append(self.repeat(self.atom()))
        return ("seq", items)

    def atom(self) -> tuple[Any, ...]:
        ch = self.take()
        if ch == "(":
            index = None
            if self.s.startswith("?:", self.i):
                self.i += 2
            elif self.peek() == "?":
                raise _Refused("group flags")
            else:
                self.groups += 1
                index = self.groups
            inner = self.alternation()
            if self.take() != ")":
                raise _Refused("unclosed group")
            return ("group", index, inner)
        if ch == "[":
            return ("set", self.members())
        if ch == "\\":
            if self.take() != "d":
                raise _Refused("escape")
            return ("set", frozenset((_DIGIT,)))
        if ch == "$":
            return ("end",)
        if ch in _SPECIAL:
            raise _Refused(ch)
        return ("set", frozenset(ch))

    def members(self) -> frozenset[str]:
        out: set[str] = set()
        if self.peek() in ("^", "]"):
            raise _Refused("negated or empty class")
        while (ch := self.take()) != "]":
            if ch == "\\":
                if self.take() != "d":
                    raise _Refused("escape in class")
                out.add(_DIGIT)
            elif ch in "[-" or not ch.isascii():
                raise _Refused("class syntax")
            elif self.peek() == "-" and self.s[self.i + 1:self.i + 2] not in ("]", ""):
                self.i += 1
                last = self.take()
                if last in "\\[]" or ord(last) < ord(ch):
                    raise _Refused("range")
                out.update(chr(c) for c in range(ord(ch), ord(last) + 1))
            else:
                out.add(ch)
        return frozenset(out)

    def repeat(self, node: tuple[Any, ...]) -> tuple[Any, ...]:
        ch = self.peek()
        if ch in ("?", "*", "+"):
            self.i += 1
            low, high = {"?": (0, 1), "*": (0, None), "+": (1, None)}[ch]
        elif ch == "{":
            end = self.s.find("}", self.i)
            low_text, comma, high_text = self.s[self.i + 1:end].partition(",") if end > 0 else ("", "", "")
            if not low_text.isdigit() or not (high_text.isdigit() or not high_text):
                raise _Refused("repeat syntax")
            self.i = end + 1
            low = int(low_text)
            high = int(high_text) if high_text else (None if comma else low)
            if high is not None and high < low:
                raise _Refused("repeat bounds")
        else:
            return node
        if self.peek() in ("?", "+", "*", "{") or node[0] in ("end", "rep") or _empty(node):
            raise _Refused("lazy, possessive, nested or empty repeat")
        return ("rep", node, low, high)


def _empty(node: tuple[Any, ...]) -> bool:
    """Whether ``node`` can match the empty string (such a repeat is left to `re`)."""
    kind = node[0]
    if kind == "set":
        return False
    if kind == "end":
        return True
    if kind == "seq":
        return all(_empty(item) for item in node[1])
    if kind == "alt":
        return any(_empty(item) for item in node[1])
    if kind == "group":
        return _empty(node[2])
    return node[2] == 0 or _empty(node[1])


def _member(ch: str, members: frozenset[str]) -> bool:
    return ch in members or (_DIGIT in members and ch.isdecimal())


def _run(node: tuple[Any, ...], s: str, pos: int, caps: tuple[Any, ...]) -> Iterator[tuple[int, tuple[Any, ...]]]:
    """Every way ``node`` matches ``s`` at ``pos``, as (end, captures), in `re`'s order."""
    kind = node[0]
    if kind == "set":
        if pos < len(s) and _member(s[pos], node[1]):
            yield pos + 1, caps
    elif kind == "seq":
        yield from _sequence(node[1], 0, s, pos, caps)
    elif kind == "alt":
        for option in node[1]:
            yield from _run(option, s, pos, caps)
    elif kind == "group":
        for end, inner in _run(node[2], s, pos, caps):
            yield end, inner if node[1] is None else inner[:node[1]] + ((pos, end),) + inner[node[1] + 1:]
    elif kind == "end":
        if pos == len(s) or (pos == len(s) - 1 and s[pos] == "\n"):
            yield pos, caps
    else:
        yield from _repeat(node, 0, s, pos, caps)


def _sequence(items: list[Any], i: int, s: str, pos: int, caps: tuple[Any, ...]) -> Iterator[tuple[int, tuple[Any, ...]]]:
    if i == len(items):
        yield pos, caps
        return
    for end, after in _run(items[i], s, pos, caps):
        yield from _sequence(items, i + 1, s, end, after)


def _repeat(node: tuple[Any, ...], count: int, s: str, pos: int, caps: tuple[Any, ...]) -> Iterator[tuple[int, tuple[Any, ...]]]:
    _, inner, low, high = node
    if high is None or count < high:
        for end, after in _run(inner, s, pos, caps):
            yield from _repeat(node, count + 1, s, end, after)
    if count >= low:
        yield pos, caps


class Pattern:
    """A compiled pattern with the two calls phone.py makes of `re`'s."""

    def __init__(self, tree: tuple[Any, ...], groups: int) -> None:
        self.tree, self.groups = tree, groups

    def fullmatch(self, s: str) -> Match | None:
        for end, caps in _run(self.tree, s, 0, (None,) * (self.groups + 1)):
            if end == len(s):
                return Match(s, end, caps)
        return None

    def match(self, s: str) -> Match | None:
        for end, caps in _run(self.tree, s, 0, (None,) * (self.groups + 1)):
            return Match(s, end, caps)
        return None


class Match:
    """What phone.py reads of a match: ``group(0)``, ``groups()``, ``end()``."""

    def __init__(self, s: str, end: int, caps: tuple[Any, ...]) -> None:
        self._s, self._end, self._caps = s, end, caps

    def end(self) -> int:
        return self._end

    def group(self, index: int = 0) -> str | None:
        if index == 0:
            return self._s[:self._end]
        span = self._caps[index]
        return None if span is None else self._s[span[0]:span[1]]

    def groups(self) -> tuple[str | None, ...]:
        return tuple(self.group(i) for i in range(1, len(self._caps)))


def compile(source: str) -> Pattern | None:  # noqa: A001 - named as `re`'s, whose place it takes
    """``source`` compiled, or None when it uses syntax outside this module's part."""
    parser = _Parser(source)
    try:
        tree = parser.alternation()
        if parser.i != len(source):
            raise _Refused("unbalanced parenthesis")
    except _Refused:
        return None
    return Pattern(tree, parser.groups)
