"""A token format (a provider's key, a URL with a password …) and the matcher of many.

Patterns run on RE2 (google-re2): time linear in the line whatever the pattern, and the
syntax gitleaks publishes its rules in. A line is first checked for each format's
keywords (lower-case literals, as gitleaks does: one RE2 set of literals, one pass), so a
line runs only the few patterns whose keywords it holds. Each pattern is compiled when a
line first holds one of its keywords (a process that judges a few values compiles a few).
A match counts when its token (the first group that took part, else the whole match)
reaches the format's Shannon entropy — "sk_test_aaaaaaaaaa" is not a key — and passes the
format's own test when it has one.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, cast

import re2

from memrepo.core.record_base import Record, init_field

RE2_MAX_MEM = 64 << 20
"""Bytes RE2 may use for one format's automaton (the largest counted repeats need more
than the 8 MiB default to stay on the fast path)."""


class Format(Record):
    __slots__ = ("accepts", "entropy", "identifier", "keywords", "kind", "pattern", "rule",
                 "secret")
    rule: str  # gitleaks' rule id, or memrepo's own ("memrepo-…")
    kind: str  # what a refusal names: "a Slack webhook URL" (never the text)
    pattern: str  # RE2 syntax that Python's `re` reads too (samples are generated with it)
    keywords: tuple[str, ...]  # lower-case literals one of which a matching line holds
    entropy: float  # bits per character the token must reach
    secret: str  # the token alone, as a pattern: what a sample is generated from
    identifier: str  # a provider word placed before a sample of a keyed format
    accepts: Callable[[str], bool] | None  # the format's own test of a token

    def __init__(self, rule: str, kind: str, pattern: str, keywords: tuple[str, ...],
                 entropy: float = 0.0, secret: str = "", identifier: str = "",
                 accepts: Callable[[str], bool] | None = None) -> None:
        init_field(self, "rule", rule)
        init_field(self, "kind", kind)
        init_field(self, "pattern", pattern)
        init_field(self, "keywords", keywords)
        init_field(self, "entropy", entropy)
        init_field(self, "secret", secret)
        init_field(self, "identifier", identifier)
        init_field(self, "accepts", accepts)


def entropy(text: str) -> float:
    """Shannon entropy of `text`, in bits per character."""
    if not text:
        return 0.0
    counts = Counter(text)
    return -sum(n / len(text) * math.log2(n / len(text)) for n in counts.values())


class FormatSet:
    """Many formats, matched line by line: the keyword filter, then RE2."""

    def __init__(self, formats: Sequence[Format]) -> None:
        self.formats = tuple(formats)
        self._compiled: dict[str, Any] = {}  # compiled when a line holds a keyword
        self._by_lines: dict[str, Any] = {}  # the same, `^` and `$` at each line's ends
        keywords = sorted({k for f in self.formats for k in f.keywords})
        self._keyword_list = keywords
        self._keywords = re2.Set.SearchSet(re2.Options())
        for keyword in keywords:
            self._keywords.Add(re2.escape(keyword))
        self._keywords.Compile()
        order = {f.rule: n for n, f in enumerate(self.formats)}
        self._by_keyword = [sorted((f for f in self.formats if k in f.keywords),
                                   key=lambda f: order[f.rule]) for k in keywords]
        self._order = order

    def has_keyword(self, text: str) -> bool:
        """Does `text` hold any format's keyword? (No format finds a token without one.)"""
        return bool(self._keywords.Match(text.lower().encode("utf-8", "surrogatepass")))

    def keywords_in(self, text: str) -> tuple[str, ...]:
        """The formats' keywords `text` holds (lower-cased, as `has_keyword` reads it)."""
        held = cast("list[int] | None",
                    self._keywords.Match(text.lower().encode("utf-8", "surrogatepass")))
        return tuple(self._keyword_list[index] for index in held) if held else ()

    def lines_reached(self, text: str) -> set[int]:
        """The indices of the lines of `text` (split at "\\n") that some match reaches of a
        format whose keyword `text` holds, each such pattern run once over the whole text
        with `^` and `$` at every line's ends. A line in which `finds` finds a token on its
        own is among them: its match exists in the whole text too (each line's context
        there is its own: `\\b` and the anchors see a line break as a line's end, and no
        pattern's `.` crosses one), and the leftmost match that covers or precedes its
        start reaches it or ends before it, so the scan goes on. A match is counted
        whether or not its token passes the format's entropy and own test: the line is
        then judged alone."""
        held = cast("list[int] | None",
                    self._keywords.Match(text.lower().encode("utf-8", "surrogatepass")))
        if not held:
            return set()
        reached: set[int] = set()
        for f in {f.rule: f for index in held for f in self._by_keyword[index]}.values():
            compiled = self._by_lines.get(f.rule)
            if compiled is None:
                compiled = self._by_lines[f.rule] = compile_format(f, by_lines=True)
            position = line = 0
            for found in compiled.finditer(text):
                start, end = found.span()
                line += text.count("\n", position, start)
                position = start
                reached.update(range(line, line + text.count("\n", start, end) + 1))
        return reached

    def kind(self, line: str) -> str | None:
        """The kind of the first format found in `line`, or None."""
        found = self.match(line)
        return None if found is None else found.kind

    def match(self, line: str) -> Format | None:
        """The first format (in their order) that finds a token in `line`, or None."""
        held = cast("list[int] | None",  # the stubs say bool; RE2::Set gives the indices
                    self._keywords.Match(line.lower().encode("utf-8", "surrogatepass")))
        if not held:
            return None
        candidates = {f.rule: f for index in held for f in self._by_keyword[index]}
        for f in sorted(candidates.values(), key=lambda f: self._order[f.rule]):
            if self.finds(f, line):
                return f
        return None

    def finds(self, f: Format, line: str) -> bool:
        """Does `f` find a token in `line` (its pattern, entropy and own test)?"""
        compiled = self._compiled.get(f.rule)
        if compiled is None:
            compiled = self._compiled[f.rule] = compile_format(f)
        return any(self._accepted(f, _token(m)) for m in compiled.finditer(line))

    @staticmethod
    def _accepted(f: Format, token: str) -> bool:
        if f.entropy and entropy(token) < f.entropy:
            return False
        return f.accepts is None or f.accepts(token)


def compile_format(f: Format, *, by_lines: bool = False) -> Any:
    """`f`'s pattern on RE2; `by_lines`: `^` and `$` match at every line's ends too."""
    options = re2.Options()
    options.max_mem = RE2_MAX_MEM
    return re2.compile(f"(?m){f.pattern}" if by_lines else f.pattern, options)


def _token(match: Any) -> str:
    groups = [g for g in match.groups() if g is not None]
    return str(groups[0] if groups else match.group(0))
