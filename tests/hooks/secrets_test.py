from __future__ import annotations

import orjson
import pytest
from memrepo.hooks.secrets import check

from memrepo.core.secrets import find_secrets
from tests.support import change, note

FAKE = {
    "private key": "-----BEGIN OPENSSH PRIVATE KEY-----",
    "aws": "key AKIAIOSFODNN7EXAMPLE here",
    "github": "ghp_" + "a1B2" * 9,
    "github pat": "github_pat_11ABCDEFG0123456789_abcdefghij",
    "slack": "xoxb-1234567890-abcdefghij",
    "openai": "sk-proj-" + "Ab1" * 10,
    "anthropic": "sk-ant-api03-" + "Zz9" * 10,
    "google": "AIza" + "S" * 35,
    "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dozjgNryP4J3jVmNHl0w5N",
    "password": "password: hunter2",
    "quoted": 'api_key = "9f8e7d6c5b4a"',
    "bare word": "Password: swordfish",
    "bearer": "Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345",
}
PROSE = [
    "Always ask for the password before reading account details aloud.",
    "The password manager holds the bank login.",
    "password: see the team password manager",
    "Password: required for every login",
    "api_key: <your key>", "password: ********", "token: ${GITHUB_TOKEN}",
    "passwords rotate every 90 days", "Skoda sk-rated service plan",
    "Ask Jan; his PIN policy changes yearly",
]


@pytest.mark.parametrize("text", FAKE.values(), ids=FAKE.keys())
def test_credentials_are_found(text: str) -> None:
    assert find_secrets(f"line one\n{text}\n", first_line=5)[0].line == 6


@pytest.mark.parametrize("text", PROSE)
def test_prose_is_not_a_credential(text: str) -> None:
    assert find_secrets(text) == []


def test_hook_scans_notes_with_line_numbers() -> None:
    path = "memory/entities/bank.md"
    data = note("entities", "bank", "Bank: account manager, branch, opening hours",
                "Login below\npassword: hunter2\n")
    found = check(change({}, {path: data}))
    assert [(p.path, p.line) for p in found] == [(path, 7)]
    assert "rotate it" in found[0].fix


def test_hook_scans_the_lines_an_edit_adds_to_a_note() -> None:
    path = "memory/entities/bank.md"
    before = note("entities", "bank", "Bank: account manager, branch, opening hours",
                  "Login below\n")
    after = note("entities", "bank", "Bank: account manager, branch, opening hours",
                 "Login below\napi_key = sk-live-1234567890abcdef1234\n")
    found = check(change({path: before}, {path: after}))
    assert [(p.path, p.line) for p in found] == [(path, 7)]
    assert check(change({path: before}, {path: before + b"More prose.\n"})) == []


def test_hook_scans_only_the_appended_log_lines() -> None:
    path = "memory/facts/michal/2026-05.jsonl"
    leaked = orjson.dumps({"quote": "my password: hunter2 do not share"}) + b"\n"
    clean = orjson.dumps({"quote": "paid 250 zł"}) + b"\n"
    old = {path: leaked}
    assert check(change(old, {path: leaked + clean})) == []
    found = check(change({path: clean}, {path: clean + clean + leaked}))
    assert [p.line for p in found] == [3]
    rewritten = check(change({path: clean + clean}, {path: leaked}))
    assert [p.line for p in rewritten] == [1]
