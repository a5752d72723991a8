"""Credential-looking text (SPEC §6.6): found with line numbers, without crying wolf.

Token formats are matched by their well-known shapes. `password: …` style assignments
count only when the value looks like a secret, so prose such as "always ask for the
password" or "password: see the password manager" passes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import orjson

from memrepo.core.problems import Problem


@dataclass(frozen=True, slots=True)
class SecretHit:
    line: int
    kind: str


_TOKENS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a private key block", re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")),
    ("an AWS access key id", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("a GitHub token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_\w{22,})")),
    ("a Slack token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}")),
    ("an OpenAI/Anthropic API key", re.compile(r"\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}")),
    ("a Google API key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}")),
    ("a JSON Web Token", re.compile(r"\beyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{8,}")),
    ("a bearer token", re.compile(r"\bBearer\s+[A-Za-z0-9._~+/-]{20,}=*")),
)
_ASSIGNMENT = re.compile(
    r"(?i)(?<![\w-])(?P<key>password|passwd|passphrase|pwd|pin|secret|client[_ -]?secret"
    r"|api[_ -]?key|access[_ -]?key|secret[_ -]?key|access[_ -]?token|auth[_ -]?token"
    r"|token)[\"']?\s*(?:[:=]|=>)\s*(?P<value>\S+)(?P<rest>.*)$")
_PLACEHOLDER = re.compile(r"^(?:<.*>|\$\{.*\}|\{\{.*\}\}|\$[A-Z_]+|[*x.•_-]+|\[.*\])$",
                          re.IGNORECASE)
_NOT_A_VALUE = frozenset({
    "none", "null", "nil", "n/a", "na", "required", "optional", "unknown", "redacted",
    "hidden", "removed", "needed", "see", "ask", "stored", "in", "the", "from", "is", "was",
    "set", "same", "changeme", "example", "true", "false", "yes", "no",
})
MIN_SECRET_LENGTH = 6


def find_secrets(text: str, first_line: int = 1) -> list[SecretHit]:
    """Credential-looking text per line (one hit per line), with file line numbers."""
    hits = []
    for offset, line in enumerate(text.split("\n")):
        kind = _line_secret(line)
        if kind:
            hits.append(SecretHit(first_line + offset, kind))
    return hits


def _line_secret(line: str) -> str | None:
    for kind, pattern in _TOKENS:
        if pattern.search(line):
            return kind
    match = _ASSIGNMENT.search(line)
    if match and _looks_secret(match["value"], match["rest"]):
        return f"a {match['key'].lower()} with a value"
    return None


def _looks_secret(raw_value: str, rest: str) -> bool:
    """A lone token stored after `password:` is a secret; a sentence is prose."""
    value = raw_value.strip("\"'`*,;.()")
    if len(value) < MIN_SECRET_LENGTH or value.lower() in _NOT_A_VALUE:
        return False
    if _PLACEHOLDER.match(value):
        return False
    if not rest.strip(" \"'`*,;.)#"):
        return True
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def secret_problems(path: str, text: str, first_line: int = 1) -> list[Problem]:
    return [_problem(path, hit) for hit in find_secrets(text, first_line)]


def jsonl_secret_problems(path: str, data: bytes, first_line: int = 1) -> list[Problem]:
    """Secrets in appended log lines: every JSON string is scanned on its own, so a
    password inside a `quote` is found although JSON puts more text after it."""
    problems = []
    for offset, raw in enumerate(data.split(b"\n")):
        for text in _strings_of_line(raw):
            hits = find_secrets(text)
            if hits:
                problems.append(_problem(path, SecretHit(first_line + offset, hits[0].kind)))
                break
    return problems


def _strings_of_line(raw: bytes) -> Iterator[str]:
    try:
        yield from _strings(orjson.loads(raw))
    except orjson.JSONDecodeError:
        yield raw.decode("utf-8", "replace")


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield from value.split("\n")
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
