"""Credential-looking text (SPEC §6.6): the one detector, used by the commit-time check, by
the write path before anything is appended, by extraction and by the session journal.

Found per line, by kind; a finding names the kind, never the text. Three families:
- token formats with a well-known shape (private key blocks, cloud, payment, code-hosting,
  chat and model-provider keys, JWTs, bearer tokens, URLs with a password);
- a password-like word (`password`, `hasło`, `heslo`, `passwort`, `PIN`, `api key`, …)
  followed by up to three words and `:`/`=`, when the value after it looks like a secret
  ("hasło do banku: Kot123zielony", "card PIN: 4821"); prose such as "always ask for the
  password" or "password: see the password manager" passes;
- the same words stated in a sentence — up to three words, then is/was/to/jest/je/ist/…
  and a value with a digit ("my pin is 4821", "password is Zaq12wsx", "hasło to Kot123",
  "heslo je Pes456"): a PIN of 4–8 digits, a password of 6+ digits, or 6+ characters
  mixing letters and digits; "the PIN is on the card" passes;
- a long random-looking string (32+ hex digits, or 32+ characters mixing letters and digits)
  shortly after a key/secret/token word ("API token 9f86d0…"); a commit hash in prose
  ("fixed in commit 0d1b08c…") has no such word and passes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeVar

import orjson

from memrepo.core.problems import Problem

T = TypeVar("T", str, bytes)


@dataclass(frozen=True, slots=True)
class SecretHit:
    line: int
    kind: str


_TOKENS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a private key block", re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")),
    ("an AWS access key id", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("an AWS secret access key", re.compile(
        r"(?i)(?:aws|secret)[^\n]{0,40}?(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])")),
    ("a Google Cloud credential", re.compile(
        r"\bGOCSPX-[A-Za-z0-9_-]{20,}|\bya29\.[0-9A-Za-z_-]{20,}|\"private_key_id\"\s*:\s*\"[0-9a-f]{40}\"")),
    ("an Azure key", re.compile(
        r"(?i)\b(?:AccountKey|SharedAccessKey)=[A-Za-z0-9+/]{30,}=*"
        r"|(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}8Q~[A-Za-z0-9_~.-]{31,34}")),
    ("a live payment key", re.compile(r"\b(?:sk|rk)_live_[0-9A-Za-z]{16,}")),
    ("a GitHub token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_\w{22,})")),
    ("a GitLab token", re.compile(
        r"\bgl(?:pat|ptt|dt|rt|cbt|imt|soat|ffct|oas|agent)-[A-Za-z0-9_-]{20,}")),
    ("a Slack token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}")),
    ("an OpenAI/Anthropic API key", re.compile(r"\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}")),
    ("a Google API key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}")),
    ("a JSON Web Token", re.compile(r"\beyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{8,}")),
    ("a bearer token", re.compile(r"\bBearer\s+[A-Za-z0-9._~+/-]{20,}=*")),
)
_URL_PASSWORD = re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s:/@]+:(?P<value>[^\s@/]+)@")
_PASSWORDS = re.compile(r"password|passwd|passphrase|pwd|hasło|haslo|heslo|passwort|kennwort")
_PASSWORD_WORDS = (rf"{_PASSWORDS.pattern}|pin|secret|client[_ -]?secret|api[_ -]?key"
                   r"|access[_ -]?key|secret[_ -]?key|access[_ -]?token|auth[_ -]?token|token")
_ASSIGNMENT = re.compile(
    rf"(?i)(?<![^\W_])(?P<key>{_PASSWORD_WORDS})(?P<gap>(?:[ \t]+[^\s:=]{{1,20}}){{0,3}}?)"
    r"[\"']?\s*(?:[:=]|=>)\s*(?P<value>\S+)(?P<rest>.*)$")
_STATEMENT = re.compile(  # "my pin is 4821": the value must hold a digit (prose seldom does)
    rf"(?i)(?<![^\W_])(?P<key>{_PASSWORD_WORDS})(?:[ \t]+[^\s:=]{{1,20}}){{0,3}}?[ \t]+"
    r"(?:is|was|are|to|jest|je|ist|lautet|brzmi|znie)[ \t]+[\"'`*]?(?P<value>(?=\S*\d)\S+)")
_NEAR_KEY_WORD = re.compile(
    r"(?i)(?<![a-z0-9])(?:token|api[ _-]?key|apikey|secret|key|credential|auth)"
    r"[^\n]{0,30}?(?<![A-Za-z0-9_+/=-])(?P<value>[A-Za-z0-9_+/=-]{32,})")
_HEX = re.compile(r"[0-9a-fA-F]{32,}")
_PIN_VALUE = re.compile(r"\d{4,8}")
_PLACEHOLDER = re.compile(r"^(?:<.*>|\$\{.*\}|\{\{.*\}\}|\$[A-Z_]+|[*x.•_-]+|\[.*\])$",
                          re.IGNORECASE)
_NOT_A_VALUE = frozenset({
    "none", "null", "nil", "n/a", "na", "required", "optional", "unknown", "redacted",
    "hidden", "removed", "needed", "see", "ask", "stored", "in", "the", "from", "is", "was",
    "set", "same", "changeme", "example", "true", "false", "yes", "no", "password",
    "secret", "pass", "user", "username",
})
MIN_SECRET_LENGTH = 6


def find_secrets(text: str, first_line: int = 1) -> list[SecretHit]:
    """Credential-looking text per line (one hit per line), with file line numbers."""
    hits = []
    for offset, line in enumerate(text.split("\n")):
        kind = line_secret(line)
        if kind:
            hits.append(SecretHit(first_line + offset, kind))
    return hits


def secret_kind(text: str) -> str | None:
    """The kind of the first credential-looking line of `text`, or None."""
    if "\n" not in text:
        return line_secret(text)
    return next((kind for line in text.split("\n") if (kind := line_secret(line))), None)


_VERDICTS: ContextVar[dict[str | bytes, str | None] | None] = ContextVar(
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


def _kept(text: T, judge: Callable[[T], str | None]) -> str | None:
    """`judge(text)`, judged once per distinct text inside `verdicts_kept`."""
    verdicts = _VERDICTS.get()
    if verdicts is None:
        return judge(text)
    if text not in verdicts:
        verdicts[text] = judge(text)
    return verdicts[text]


def line_secret(line: str) -> str | None:
    """The kind of credential one line looks like, or None."""
    return _kept(line, _line_secret)


def _line_secret(line: str) -> str | None:
    for kind, pattern in _TOKENS:
        if pattern.search(line):
            return kind
    url = _URL_PASSWORD.search(line)
    if url and not _is_placeholder(url["value"]):
        return "a URL with a password"
    match = _ASSIGNMENT.search(line)
    if match and _looks_secret(match["key"], match["gap"], match["value"], match["rest"]):
        return _assignment_kind(match["key"])
    for stated in _STATEMENT.finditer(line):
        if _stated_secret(stated["key"], stated["value"].strip("\"'`*,;.()")):
            return _assignment_kind(stated["key"])
    near = _NEAR_KEY_WORD.search(line)
    if near and _looks_random(near["value"]):
        return "a long token next to a key word"
    return None


def _assignment_kind(key: str) -> str:
    word = " ".join(key.lower().replace("_", " ").replace("-", " ").split())
    if word == "pin":
        return "a PIN"
    if _PASSWORDS.fullmatch(word):
        return "a password"
    return f"a {word} with a value"


def _is_placeholder(value: str) -> bool:
    return bool(_PLACEHOLDER.match(value)) or value.lower() in _NOT_A_VALUE


def _looks_secret(key: str, gap: str, raw_value: str, rest: str) -> bool:
    """A lone token stored right after `password:` is a secret, and so is one mixing
    letters and digits after `hasło do banku:`; a word or a sentence is prose."""
    value = raw_value.strip("\"'`*,;.()")
    if key.lower() == "pin" and _PIN_VALUE.fullmatch(value):
        return True
    if len(value) < MIN_SECRET_LENGTH or _is_placeholder(value):
        return False
    if not gap and not rest.strip(" \"'`*,;.)#"):
        return True
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def _stated_secret(key: str, value: str) -> bool:
    """The value of "<key> is <value>" (it holds a digit) is a PIN, an all-digit password
    or a token mixing letters and digits; "30 days", "2026-01-01" or "v2" are not."""
    if key.lower() == "pin" and _PIN_VALUE.fullmatch(value):
        return True
    if len(value) < MIN_SECRET_LENGTH:
        return False
    if value.isdigit():
        return bool(_PASSWORDS.fullmatch(key.lower()))
    return any(c.isalpha() for c in value)


def _looks_random(value: str) -> bool:
    """32+ hex digits, or letters of both cases mixed with digits (not a word or a path)."""
    if _HEX.fullmatch(value):
        return True
    return (any(c.isdigit() for c in value) and any(c.islower() for c in value)
            and any(c.isupper() for c in value))


def secret_problems(path: str, text: str, first_line: int = 1) -> list[Problem]:
    return [_problem(path, hit) for hit in find_secrets(text, first_line)]


def jsonl_secret_problems(path: str, data: bytes, first_line: int = 1) -> list[Problem]:
    """Secrets in appended log lines: every JSON string is scanned on its own, so a
    password inside a `quote` is found although JSON puts more text after it."""
    return [_problem(path, SecretHit(first_line + offset, kind))
            for offset, raw in enumerate(data.split(b"\n"))
            if (kind := _kept(raw, _log_line_secret))]


def _log_line_secret(raw: bytes) -> str | None:
    return next((kind for text in _strings_of_line(raw) if (kind := secret_kind(text))),
                None)


def _strings_of_line(raw: bytes) -> Iterator[str]:
    try:
        yield from _strings(orjson.loads(raw))
    except orjson.JSONDecodeError:
        yield raw.decode("utf-8", "replace")


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _problem(path: str, hit: SecretHit) -> Problem:
    return Problem(path, f"looks like a credential ({hit.kind}); secrets must never be "
                   "stored in memory (git keeps them forever)",
                   "remove it and keep only where it lives (e.g. 'in the team password "
                   "manager under Bank'); if it was real, rotate it", hit.line)
