"""A credential word with its value (SPEC §6.6), the line rules of core.policy.secrets:
- a credential word (`password`, `hasło`, `heslo`, `Passwort`, `PIN`, `api key`, …; the
  vocabulary of core.policy.credential_words) followed by up to three words and `:`/`=`,
  when the value after it looks like a secret ("hasło do banku: Kot123zielony", "card PIN:
  4821"); prose such as "always ask for the password" or "password: see the password
  manager" passes;
- the same words stated in a sentence ("my pin is 4821", "heslo je Pes456"), when the value
  holds a digit;
- the word right before its value ("bank PIN 4821", "wifi password Zaq12wsx!");
- a seed phrase word followed by 12 or more short lower-case words.
Each only where the words around it name the credential, as a key's words would ("card
PIN", not "PIN reset date"). secrets runs them only on a line RE2 found such a word in.
"""

from __future__ import annotations

import re
from functools import cache

from memrepo.core.policy.credential_words import (
    DIGIT_KINDS,
    LINE_WORDS,
    PASSWORD,
    SEED,
    credential_kind,
    key_words,
    line_word_kind,
)
from memrepo.core.policy.token_formats import placeholder
from memrepo.core.record_base import Record, init_field

_KEY = rf"(?<![^\W_])(?P<key>{LINE_WORDS})"


class _WordRules(Record):
    __slots__ = ("adjacent", "assignment", "seed_words", "statement")
    assignment: re.Pattern[str]  # "hasło do banku: Kot123zielony"
    statement: re.Pattern[str]  # "my pin is 4821": the value holds a digit
    adjacent: re.Pattern[str]  # "bank PIN 4821", "wifi password Zaq12wsx!"
    seed_words: re.Pattern[str]  # "seed phrase: orbit lemon cattle …" (BIP-39)

    def __init__(self, assignment: re.Pattern[str], statement: re.Pattern[str],
                 adjacent: re.Pattern[str], seed_words: re.Pattern[str]) -> None:
        init_field(self, "assignment", assignment)
        init_field(self, "statement", statement)
        init_field(self, "adjacent", adjacent)
        init_field(self, "seed_words", seed_words)


@cache
def _word_rules_compiled() -> _WordRules:
    """The rules that read a credential word with its value, compiled on first need:
    their alternations of ~300 spellings cost ~20 ms to compile, and most processes
    judge no line that holds such a word."""
    return _WordRules(
        re.compile(rf"(?i){_KEY}(?P<gap>(?:[ \t]+[^\s:=]{{1,20}}){{0,3}}?)"
                   r"[\"']?\s*(?:[:=]|=>)\s*(?P<value>\S+)(?P<rest>.*)$"),
        re.compile(rf"(?i){_KEY}(?P<gap>(?:[ \t]+[^\s:=]{{1,20}}){{0,3}}?)[ \t]+"
                   r"(?:is|was|are|to|jest|je|ist|lautet|brzmi|znie)[ \t]+[\"'`*]?"
                   r"(?P<value>(?=\S*\d)\S+)"),
        re.compile(rf"(?i){_KEY}[ \t]+(?:(?:no\.?|nr\.?|number|numer|#)[ \t]*)?[\"'`]?"
                   r"(?P<value>[^\s\"'`]+)"),
        re.compile(rf"(?i){_KEY}[^:=\n]{{0,30}}?(?:[:=]|\b(?:is|was|to|jest|je|ist|lautet)\b)"
                   r"[ \t\"'`]*(?:[a-z]{3,8}[ ,]+){11,}[a-z]{3,8}"))


_DIGITS = re.compile(r"\d{3,8}")
_SYMBOLS = frozenset("!@#$%^&*?+=~<>|\\{}[]()")
_NOT_A_VALUE = frozenset({
    "none", "null", "nil", "n/a", "na", "required", "optional", "unknown", "redacted",
    "hidden", "removed", "needed", "see", "ask", "stored", "in", "the", "from", "is", "was",
    "set", "same", "changeme", "example", "true", "false", "yes", "no", "password",
    "secret", "pass", "user", "username",
})
MIN_SECRET_LENGTH = 6
_QUOTES = "\"'`*,;.()"


def credential_value_kind(line: str) -> str | None:
    """A credential word with its value: `key: value`, `key is value`, `key value`."""
    rules = _word_rules_compiled()
    match = rules.assignment.search(line)
    if (match and _names_credential(line, match)
            and _looks_secret(match["key"], match["gap"], match["value"], match["rest"])):
        return _word_kind(match["key"])
    for stated in rules.statement.finditer(line):
        if (_names_credential(line, stated)
                and _stated_secret(stated["key"], stated["value"].strip(_QUOTES))):
            return _word_kind(stated["key"])
    for adjacent in rules.adjacent.finditer(line):
        if (_names_credential(line, adjacent)
                and _adjacent_secret(adjacent["key"], adjacent["value"].strip(_QUOTES))):
            return _word_kind(adjacent["key"])
    seed = rules.seed_words.search(line)
    if seed and _word_kind(seed["key"]) == SEED:
        return SEED
    return None


def _names_credential(line: str, match: re.Match[str]) -> bool:
    """Do the words around a credential word name the credential, as a key's words would
    ("card PIN", "hasło do banku") — not something about it ("PIN reset date", "has a
    PIN", "password manager")? Two words before it count, and those up to the value."""
    before = key_words(line[:match.start("key")])[-2:]
    gap = match.groupdict().get("gap") or ""
    return credential_kind([*before, *key_words(match["key"]), *key_words(gap)]) is not None


def _word_kind(key: str) -> str:
    return line_word_kind(key) or PASSWORD


def _is_placeholder(value: str) -> bool:
    return bool(placeholder().match(value)) or value.lower() in _NOT_A_VALUE


def _digits_kind(key: str, value: str) -> bool:
    return _word_kind(key) in DIGIT_KINDS and bool(_DIGITS.fullmatch(value))


def _looks_secret(key: str, gap: str, raw_value: str, rest: str) -> bool:
    """A lone token stored right after `password:` is a secret, and so is one mixing
    letters and digits after `hasło do banku:`; a word or a sentence is prose (only a
    password may be a lone word: "secret: patience" is prose)."""
    value = raw_value.strip(_QUOTES)
    if _digits_kind(key, value):
        return True
    if len(value) < MIN_SECRET_LENGTH or _is_placeholder(value):
        return False
    lone = not gap and not rest.strip(" \"'`*,;.)#")
    if lone and (_word_kind(key) == PASSWORD or not value.isalpha()):
        return True
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def _stated_secret(key: str, value: str) -> bool:
    """The value of "<key> is <value>" (it holds a digit) is a PIN, an all-digit password
    or a token mixing letters and digits; "30 days", "2026-01-01" or "v2" are not."""
    if _digits_kind(key, value):
        return True
    if len(value) < MIN_SECRET_LENGTH:
        return False
    if value.isdigit():
        return _word_kind(key) == PASSWORD
    return any(c.isalpha() for c in value)


def _adjacent_secret(key: str, value: str) -> bool:
    """The value right after the word: digits for a PIN-like word; for any other a token
    of 6+ characters with letters and digits, both cases or a symbol ("Zaq12wsx!"), never
    a word, a version ("v2.0.1") or a date."""
    if _digits_kind(key, value):
        return True
    if _word_kind(key) in DIGIT_KINDS or len(value) < MIN_SECRET_LENGTH:
        return False
    letters_and_digits = any(c.isdigit() for c in value) and any(c.isalpha() for c in value)
    cases = any(c.isupper() for c in value) and any(c.islower() for c in value)
    return letters_and_digits and (cases or any(c in _SYMBOLS for c in value))
