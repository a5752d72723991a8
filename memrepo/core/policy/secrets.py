"""Credential-looking text (SPEC §6.6): the one detector, used by the commit-time checks
(notes, fact-log lines, the commit message), by the write path before anything is
appended, by extraction and by the session journal.

Found per line, by kind; a finding names the kind, never the text. A fact is read whole:
- its key: a key that names a credential (`wifi.password`, `bank.pin`, `router.hasło`;
  core.policy.credential_words) holds no value at all, whatever the value looks like —
  that is how an agent writes a password;
- each of its texts (value, quote, reason …), line by line, and the fact as one line,
  `subject relation: value` (`adafruit.key = <32 random characters>` reads as a provider
  word beside its token).
A line is refused for (the rules that read a credential word with its value are
core.policy.credential_values):
- a token format (core.policy.token_formats: provider keys adopted from gitleaks, URLs
  with a password, Basic authorization headers, private key blocks …);
- a credential word (`password`, `hasło`, `heslo`, `Passwort`, `PIN`, `api key`, …)
  followed by up to three words and `:`/`=`, when the value after it looks like a secret
  ("hasło do banku: Kot123zielony", "card PIN: 4821"); prose such as "always ask for the
  password" or "password: see the password manager" passes;
- the same words stated in a sentence — up to three words, then is/was/to/jest/je/ist/…
  and a value with a digit ("my pin is 4821", "password is Zaq12wsx", "hasło to Kot123",
  "heslo je Pes456"): a PIN of 3–8 digits, a password of 6+ digits, or 6+ characters
  mixing letters and digits; "the PIN is on the card" passes;
- the word right before its value ("bank PIN 4821", "wifi password Zaq12wsx!"): digits
  for a PIN-like word, else a password-like token (letters and digits, both cases or a
  symbol);
- a seed phrase word followed by 12 or more short lower-case words;
- a long random-looking string (32+ hex digits, or 32+ characters mixing letters and digits)
  shortly after a key/secret/token word ("API token 9f86d0…"); a commit hash in prose
  ("fixed in commit 0d1b08c…") has no such word and passes.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache, lru_cache
from itertools import accumulate
from typing import Any, TypeVar

import orjson
import re2

from memrepo.core.policy.credential_values import credential_value_kind
from memrepo.core.policy.credential_words import (
    LINE_WORDS,
    credential_key,
    key_words,
)
from memrepo.core.policy.token_formats import format_set, token_kind
from memrepo.core.problems import Problem
from memrepo.core.record_base import Record, init_field

T = TypeVar("T", str, bytes)


class SecretHit(Record):
    __slots__ = ("by_key", "kind", "line")
    line: int
    kind: str
    by_key: bool  # the fact's key names a credential (any value is refused)

    def __init__(self, line: int, kind: str, by_key: bool = False) -> None:
        init_field(self, "line", line)
        init_field(self, "kind", kind)
        init_field(self, "by_key", by_key)


class Finding(Record):
    __slots__ = ("by_key", "kind")
    kind: str
    by_key: bool

    def __init__(self, kind: str, by_key: bool = False) -> None:
        init_field(self, "kind", kind)
        init_field(self, "by_key", by_key)


_HAS_WORD = re2.compile(rf"(?i)(?:^|[^\pL\pN])(?:{LINE_WORDS})")
"""A credential word at the start of a word: the line rules that read one with its value
(core.policy.credential_values) run only then (RE2: one linear pass, where the rules' long
alternations in `re` cost ~0.1 ms a line)."""

NEAR_KEY_WORD = (r"(?i)(?<![a-z0-9])(?:token|api[ _-]?key|apikey|secret|key|credential|auth)"
                 r"[^\n]{0,30}?(?<![A-Za-z0-9_+/=-])(?P<value>[A-Za-z0-9_+/=-]{32,})")
"""A long random-looking value shortly after a key word ("API token 9f86d0…")."""


@cache
def _near_key_word() -> re.Pattern[str]:
    """NEAR_KEY_WORD compiled on first need: its case-blind classes cost every process that
    imports the detector ~10 ms to compile, and a line reaches it only when the RE2
    screen below finds such a word before a long token."""
    return re.compile(NEAR_KEY_WORD)


_NEAR_KEY_WORD_ROUGH = re2.compile(r"(?i)(?:token|api[ _-]?key|apikey|secret|key|credential"
                                   r"|auth)[^\n]{0,30}?[A-Za-z0-9_+/=-]{32}")
"""NEAR_KEY_WORD without its look-behinds, on RE2: it finds whatever that finds (and
more), in one linear pass over a whole note."""
_HEX = re.compile(r"[0-9a-fA-F]{32,}")


def find_secrets(text: str, first_line: int = 1) -> list[SecretHit]:
    """Credential-looking text per line (one hit per line), with file line numbers."""
    suspects = _suspect_lines(text)  # one pass over a whole note instead of one a line
    if not suspects:
        return []
    lines = text.split("\n")
    hits = []
    for offset in suspects:
        kind = line_secret(lines[offset])
        if kind:
            hits.append(SecretHit(first_line + offset, kind))
    return hits


def secret_kind(text: str) -> str | None:
    """The kind of the first credential-looking line of `text`, or None."""
    if "\n" not in text:
        return line_secret(text)
    return next((kind for line in text.split("\n") if (kind := line_secret(line))), None)


_VERDICTS: ContextVar[dict[str | bytes, Finding | None] | None] = ContextVar(
    "secret_verdicts", default=None)


@contextmanager
def verdicts_kept() -> Iterator[None]:
    """Within this block (one write, on this thread) each distinct text is judged once: the
    write path judges its new log lines, then the commit checks judge the appended bytes
    again, and a batch repeats its scope, session, source and times on every line. A
    verdict is kept for the exact text (a log line's exact bytes), so nothing escapes
    being judged, whoever wrote it: only a repeat of the very same text is not judged
    twice."""
    if _VERDICTS.get() is not None:
        yield
        return
    token = _VERDICTS.set({})
    try:
        yield
    finally:
        _VERDICTS.reset(token)


def _kept(text: T, judge: Callable[[T], Finding | None]) -> Finding | None:
    """`judge(text)`, judged once per distinct text inside `verdicts_kept`."""
    verdicts = _VERDICTS.get()
    if verdicts is None:
        return judge(text)
    if text not in verdicts:
        verdicts[text] = judge(text)
    return verdicts[text]


def line_secret(line: str) -> str | None:
    """The kind of credential one line looks like, or None."""
    found = _kept(line, _line_finding)
    return None if found is None else found.kind


def _line_finding(line: str) -> Finding | None:
    kind = _line_secret(line)
    return None if kind is None else Finding(kind)


def _line_secret(line: str) -> str | None:
    kind = token_kind(line) or (credential_value_kind(line) if _HAS_WORD.search(line)
                                 else None)
    if kind is not None:
        return kind
    near = _near_key_word().search(line) if _has_long_word(line) else None
    if near and _looks_random(near["value"]):
        return "a long token next to a key word"
    return None


def _looks_random(value: str) -> bool:
    """32+ hex digits, or letters of both cases mixed with digits (not a word or a path)."""
    if _HEX.fullmatch(value):
        return True
    return (any(c.isdigit() for c in value) and any(c.islower() for c in value)
            and any(c.isupper() for c in value))


# --- a fact, read whole --------------------------------------------------------------------

def key_credential(fields: Mapping[str, Any]) -> str | None:
    """The kind of credential a fact's key names when the fact holds a value under it
    (`wifi.password = anything`), or None."""
    subject, relation, value = fields.get("subject"), fields.get("relation"), fields.get("object")
    if not isinstance(relation, str) or not isinstance(value, str):
        return None
    return credential_key(subject if isinstance(subject, str) else "", relation)


def whole_fact_secret(fields: Mapping[str, Any]) -> str | None:
    """The kind of credential the fact read as one line, `subject relation: value`, looks
    like ("adafruit key: <32 random characters>"), or None."""
    line = _whole_fact_line(fields)
    return None if line is None else secret_kind(line)


def _whole_fact_line(fields: Mapping[str, Any]) -> str | None:
    subject, relation, value = fields.get("subject"), fields.get("relation"), fields.get("object")
    if not (isinstance(subject, str) and isinstance(relation, str) and isinstance(value, str)):
        return None
    return f"{_key_text(subject, relation)}: {value}"


@lru_cache(maxsize=1 << 16)
def _key_text(subject: str, relation: str) -> str:
    """A key's words as the fact read as one line starts (a build meets each key often)."""
    return " ".join(filter(None, (" ".join(key_words(subject)), _words_of(relation))))


@lru_cache(maxsize=1 << 12)
def _words_of(relation: str) -> str:
    """A relation's words (a memory repeats its relations under ever new subjects)."""
    return " ".join(key_words(relation))


def fact_finding(fields: Mapping[str, Any], screened: bool = False) -> Finding | None:
    """Why a fact (an event's fields, a candidate, a tool call's arguments) holds a
    credential: its key names one, one of its texts looks like one, or the whole does.
    `screened`: `screens_passing` said so of this fact's `screen_text` (with others'),
    so only its key is left to judge."""
    kind = key_credential(fields)
    if kind is not None:
        return Finding(kind, by_key=True)
    if screened:
        return None
    texts = _strings(fields)
    whole = _whole_fact_line(fields)
    screen = _Screen.of("\n".join([*texts, whole or ""]))
    if screen is None:
        return None
    kind = next((k for text in texts if (k := _text_kind(text, screen))), None)
    kind = kind or (None if whole is None else _text_kind(whole, screen))
    return None if kind is None else Finding(kind)


def screen_text(fields: Mapping[str, Any]) -> str:
    """What `fact_finding` screens of a fact (beyond its key): its texts and the fact read
    whole, joined by line breaks."""
    return "\n".join([*_strings(fields), _whole_fact_line(fields) or ""])


def screens_passing(texts: Sequence[str]) -> list[bool]:
    """For each of `texts`, whether `fact_finding` can find nothing but a key in a fact
    whose `screen_text` it is: one screen of them all, joined by line breaks
    (`_suspect_lines`), and a text passes when none of its lines is a suspect. One pass
    over many facts (a hand-appended log: 100k lines), where each fact's own screen costs
    as much as the rest of judging its line."""
    suspects = _suspect_lines("\n".join(texts))
    passing = [True] * len(texts)
    if not suspects:
        return passing
    ends = list(accumulate(text.count("\n") + 1 for text in texts))  # each text's end line
    for line in suspects:
        passing[bisect_right(ends, line)] = False
    return passing


def _suspect_lines(text: str) -> list[int]:
    """The indices, in order, of the lines of `text` (split at "\\n") in which
    `line_secret` may find something; it finds nothing in any other: no format's pattern,
    run over the whole text, reaches one (`FormatSet.lines_reached`), and it holds no
    credential word and no key word before a long token (the whole is searched for each
    first; none spans a line break)."""
    reached = format_set().lines_reached(text)
    word = _HAS_WORD.search(text) is not None
    near = _NEAR_KEY_WORD_ROUGH.search(text) is not None
    if not (word or near):
        return sorted(reached)
    return [index for index, line in enumerate(text.split("\n"))
            if index in reached or (word and _HAS_WORD.search(line))
            or (near and _NEAR_KEY_WORD_ROUGH.search(line))]


class _Screen(Record):
    """What a fact's texts, joined by line breaks, hold that `line_secret` needs one of (a
    format's keyword, a credential word, a key word before a long token) — so that each
    text is then screened by what the whole holds: a name ending in "-ski" holds the
    keyword "sk", and only the texts that hold it too are judged for it."""

    __slots__ = ("keywords", "near", "word")
    keywords: tuple[str, ...]  # the formats' keywords the joined texts hold
    word: bool
    near: bool

    def __init__(self, keywords: tuple[str, ...], word: bool, near: bool) -> None:
        init_field(self, "keywords", keywords)
        init_field(self, "word", word)
        init_field(self, "near", near)

    @staticmethod
    def of(joined: str) -> _Screen | None:
        """None: no line of `joined` can be found by `line_secret`."""
        keywords = format_set().keywords_in(joined)
        word = bool(_HAS_WORD.search(joined))
        near = _NEAR_KEY_WORD_ROUGH.search(joined) is not None
        return _Screen(keywords, word, near) if keywords or word or near else None

    def passes(self, text: str) -> bool:
        """`_may_hold_secret(text)` for one of the joined texts: a keyword it holds is one
        the whole holds (the lower-case of texts joined by line breaks is theirs joined),
        and a credential word or a key word before a long token it holds is found in the
        whole too (a line break before it is a word's start)."""
        if self.keywords:
            lowered = text.lower()
            if any(keyword in lowered for keyword in self.keywords):
                return True
        if self.word and _HAS_WORD.search(text):
            return True
        return self.near and _NEAR_KEY_WORD_ROUGH.search(text) is not None


_SHORT_TEXT = 256
"""A fact's texts up to this length (keys, names, sources, sessions: the texts a memory
repeats) have their verdict kept for the process (`_short_text_kind`)."""


def _text_kind(text: str, screen: _Screen) -> str | None:
    """`secret_kind(text)`, judged only when the text itself may hold a secret."""
    if not screen.passes(text):
        return None
    return _short_text_kind(text) if len(text) <= _SHORT_TEXT else secret_kind(text)


@lru_cache(maxsize=1 << 15)
def _short_text_kind(text: str) -> str | None:
    return secret_kind(text)


_LONG_WORD = 32
"""NEAR_KEY_WORD's value is 32+ characters of a class holding no whitespace."""


def _has_long_word(text: str) -> bool:
    """Whether `text` holds a run of 32 characters without whitespace: NEAR_KEY_WORD
    needs one, and a fact's text rarely has one (one split, not a regex tried at every
    position)."""
    return len(text) >= _LONG_WORD and max(map(len, text.split()), default=0) >= _LONG_WORD


def secret_problems(path: str, text: str, first_line: int = 1) -> list[Problem]:
    return [secret_problem(path, hit) for hit in find_secrets(text, first_line)]


def jsonl_secret_problems(path: str, data: bytes, first_line: int = 1) -> list[Problem]:
    """Secrets in appended log lines: each event read whole (`fact_finding`); every JSON
    string is scanned on its own, so a password inside a `quote` is found although JSON
    puts more text after it."""
    return [secret_problem(path, SecretHit(first_line + offset, found.kind, found.by_key))
            for offset, raw in enumerate(data.split(b"\n"))
            if (found := _kept(raw, _log_line_finding))]


def _log_line_finding(raw: bytes) -> Finding | None:
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return _line_finding(raw.decode("utf-8", "replace")) if raw.strip() else None
    if isinstance(value, dict):
        return fact_finding(value)
    kind = next((k for text in _strings(value) if (k := secret_kind(text))), None)
    return None if kind is None else Finding(kind)


def _strings(value: Any) -> list[str]:
    """Every string in `value` (nested mappings and lists included), in order."""
    if isinstance(value, str):
        return [value]
    items = value.values() if isinstance(value, Mapping) else \
        value if isinstance(value, list | tuple) else ()
    found = [item for item in items if type(item) is str]
    if all(type(item) in _FLAT for item in items):
        return found  # an event's fields: flat, a dozen strings on a build's path
    found = []
    for item in items:
        if type(item) is str:
            found.append(item)
        elif isinstance(item, str | Mapping | list | tuple):
            found.extend(_strings(item))
    return found


_FLAT = frozenset({str, float, int, bool, type(None)})
"""The kinds of a value that holds no string inside it."""


KEPT_ELSEWHERE = ("remove it and keep only where it lives (e.g. 'in the team password "
                  "manager under Bank'); if it was real, rotate it")


def secret_problem(path: str, hit: SecretHit) -> Problem:
    if hit.by_key:
        return Problem(path, f"looks like a credential ({hit.kind}: the key names one, so "
                       "no value is stored under it); secrets must never be stored in "
                       "memory (git keeps them forever)",
                       "record where it lives instead, under a relation such as "
                       "`password_location` ('in the team password manager under Home'); "
                       "if it was real, rotate it", hit.line)
    return Problem(path, f"looks like a credential ({hit.kind}); secrets must never be "
                   "stored in memory (git keeps them forever)", KEPT_ELSEWHERE, hit.line)
