from __future__ import annotations

import orjson
import pytest
from memrepo.hooks.secrets import check

from memrepo.core.policy.secrets import (
    find_secrets,
    jsonl_secret_problems,
    secret_problems,
    verdicts_kept,
)
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
    # made up on the spot or AWS's documentation example; built by concatenation where a
    # scanner might take them for real keys
    "aws secret": "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "payment": "billing key " + "sk_" + "live_" + "EXAMPLE0not0a0real0key0000",
    "url": "postgres://crm:Tr0ub4dor3@db.example.com:5432/crm",
    "hasło": "hasło do banku: Kot123zielony",
    "heslo": "heslo: Pes456modry",
    "passwort": "Passwort: Geheim99",
    "pin": "card PIN: 4821",
    "pin stated": "my pin is 4821",
    "password stated": "and password is Zaq12wsx",
    "password stated with symbols": "the password to the server is Zaq1@wsx!",
    "hasło stated": "hasło do poczty to Kot123zielony",
    "heslo stated": "heslo je Pes456modry",
    "passwort stated": "Das Passwort ist Geheim99",
    "hex token": "API token 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b",
    "gitlab": "glpat" + "-" + "Ab12Cd34Ef56Gh78Ij90",
    "gcp": "client secret " + "GOCSPX" + "-" + "abcdefghijklmnopqrstuvwx12",
    "azure": "AccountKey" + "=" + "Ab1/" * 12 + "==",
}
PROSE = [
    "Always ask for the password before reading account details aloud.",
    "The password manager holds the bank login.",
    "password: see the team password manager",
    "Password: required for every login",
    "api_key: <your key>", "password: ********", "token: ${GITHUB_TOKEN}",
    "passwords rotate every 90 days", "Skoda sk-rated service plan",
    "Ask Jan; his PIN policy changes yearly",
    "always ask for the password before reading the statement",
    "the PIN is kept in the office safe",
    "fixed in commit 0d1b08c34858921bc7c662b228acb7ba708a8dd2",
    "Secret Santa list: Annabelle",
    "postgres://user:****@db.example.com/crm",
    "token economy notes: see the wiki",
    "the PIN is on the card", "The PIN is 4 digits long",
    "the password is in the team password manager", "the password is required",
    "the token is valid for 30 days", "password is valid until 2026-01-01",
    "the PIN was changed in 2024", "the secret to success is 10x work", "API key is v2",
    "hasło to podstawa", "heslo je v trezore",
]


@pytest.mark.parametrize("text", FAKE.values(), ids=FAKE.keys())
def test_a_finding_names_the_kind_never_the_text(text: str) -> None:
    (problem,) = secret_problems("memory/entities/x.md", text)
    secret_parts = [word for word in text.split() if any(c.isdigit() for c in word)]
    assert not [part for part in secret_parts if part in problem.render()]


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


def test_verdicts_kept_during_a_write_judge_a_repeated_text_alike() -> None:
    lines = [orjson.dumps({"scope": "michal", "quote": text}) for text in [*FAKE.values(),
                                                                          *PROSE]]
    log = b"\n".join(lines)
    expected = [p.line for p in jsonl_secret_problems("f.jsonl", log)]
    with verdicts_kept():
        first = [p.line for p in jsonl_secret_problems("f.jsonl", log)]
        again = [p.line for p in jsonl_secret_problems("f.jsonl", log, 3)]
        texts = [bool(find_secrets(text)) for text in [*FAKE.values(), *PROSE]]
    assert first == expected == list(range(1, len(FAKE) + 1))
    assert again == [line + 2 for line in expected]
    assert texts == [True] * len(FAKE) + [False] * len(PROSE)
