"""Secrets never enter the history (SPEC §6.6): refused in fact values, quotes and notes,
through the command line and a real `git commit`, without echoing them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import cli, commit, git, memrepo, note, output, write

SECRETS = {  # kind: (text, the part that must never be stored or echoed); made-up values
    "AWS secret access key": ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                              "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
    "live payment key": ("billing key " + "sk_" + "live_" + "EXAMPLE0not0a0real0key0000",
                         "EXAMPLE0not0a0real0key0000"),
    "URL with a password": ("postgres://crm:Tr0ub4dor3@db.example.com:5432/crm",
                            "Tr0ub4dor3"),
    "hasło line": ("hasło do banku: Kot123zielony", "Kot123zielony"),
    "heslo line": ("heslo: Pes456modry", "Pes456modry"),
    "40-hex API token": ("API token 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b",
                         "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b"),
    "card PIN": ("card PIN: 4821", "PIN: 4821"),
    "stated in a sentence": ("my pin is 4821 and password is Zaq12wsx", "Zaq12wsx"),
}
NOT_SECRETS = (
    "always ask for the password before reading the statement",
    "the PIN is kept in the office safe",
    "the PIN is on the card",
    "fixed in commit 0d1b08c34858921bc7c662b228acb7ba708a8dd2",
)


@pytest.mark.parametrize("kind", SECRETS)
def test_secrets_are_refused_in_values_quotes_and_notes(memory_repo: Path,
                                                        git_env: dict[str, str],
                                                        kind: str) -> None:
    text, needle = SECRETS[kind]
    as_value = cli(memory_repo, "remember", "--scope", "michal", "vault", "login", text)
    as_quote = cli(memory_repo, "remember", "--scope", "michal", "vault", "login",
                   "see the quote", "--source", "chat", "--quote", text)
    write(memory_repo, "memory/entities/vault.md", note(
        "entities", "vault", "Access details for the internal accounting system",
        f"Login details: {text}\n"))
    assert memrepo(memory_repo, "index").returncode == 0
    git(memory_repo, "add", "-A")
    as_note = commit(memory_repo, "vault")
    for place, done in (("value", as_value), ("quote", as_quote), ("note", as_note)):
        assert done.returncode != 0, f"{kind} in a {place} was accepted"
        assert needle not in output(done), output(done)
        assert "looks like a credential" in output(done), output(done)
    git(memory_repo, "reset", "-q", "--hard", "HEAD")
    assert needle not in git(memory_repo, "log", "-p", "--all").stdout
    assert not list((memory_repo / "memory" / "facts").glob("*/*.jsonl"))


def test_prose_about_passwords_is_not_a_secret(memory_repo: Path,
                                               git_env: dict[str, str]) -> None:
    for number, prose in enumerate(NOT_SECRETS):
        fine = cli(memory_repo, "remember", "--scope", "michal", f"prose{number}", "v", prose)
        assert fine.returncode == 0, output(fine)


CREDENTIAL_KEYS = {  # (subject, relation, value): a made-up secret under a credential key
    "wifi password": ("wifi", "password", "Zaq12wsx!"),
    "bank pin": ("bank", "pin", "4821"),
    "router hasło": ("router", "hasło", "kotek"),
    "a PIN-Code": ("karte", "PIN-Code", "9876"),
    "redis url": ("redis", "url", "redis://:pass@cache.example.com:6379/0"),
}


@pytest.mark.parametrize("name", CREDENTIAL_KEYS)
def test_remember_refuses_a_credential_key_whatever_the_value(memory_repo: Path,
                                                              git_env: dict[str, str],
                                                              name: str) -> None:
    """`remember --scope me wifi password 'Zaq12wsx!'` stored the password and put it in
    the commit subject: now nothing is appended, committed or echoed."""
    subject, relation, value = CREDENTIAL_KEYS[name]
    done = cli(memory_repo, "remember", "--scope", "me", subject, relation, value)
    assert done.returncode == 1, output(done)
    assert "looks like a credential" in output(done) and value not in output(done)
    assert "Traceback" not in output(done)
    assert value not in git(memory_repo, "log", "--all", "--format=%B").stdout
    assert not list((memory_repo / "memory" / "facts").glob("*/*.jsonl"))


def test_remember_keeps_where_a_credential_lives_and_its_neighbours(
        memory_repo: Path, git_env: dict[str, str]) -> None:
    for subject, relation, value in (
            ("wifi", "password_location", "in the team password manager under Home"),
            ("anna", "password_manager", "Bitwarden"),
            ("visa_card", "pin_reset_date", "2026-05-01"),
            ("anna", "pinterest", "anna.designs"), ("me", "opinion", "Zaq12wsx is a bad idea"),
            ("skoda", "vin", "WVWZZZ1JZXW000001"),
            ("bank", "iban", "PL61 1090 1014 0000 0712 1981 2874")):
        done = cli(memory_repo, "remember", "--scope", "me", subject, relation, value)
        assert done.returncode == 0, output(done)


def test_a_commit_message_with_a_secret_is_refused(memory_repo: Path,
                                                   git_env: dict[str, str]) -> None:
    write(memory_repo, "memory/entities/vault.md", note(
        "entities", "vault", "Access details for the internal accounting system",
        "The wifi password lives in the team password manager under Home.\n"))
    assert memrepo(memory_repo, "index").returncode == 0
    git(memory_repo, "add", "-A")
    refused = commit(memory_repo, "vault note\n\nwifi password: Zaq12wsx!")
    assert refused.returncode != 0
    assert "commit message:3: looks like a credential (a password)" in output(refused)
    assert "Zaq12wsx" not in output(refused)
    assert commit(memory_repo, "vault note: where the wifi password lives").returncode == 0


def test_a_note_with_a_provider_token_is_refused_by_git_commit(memory_repo: Path,
                                                               git_env: dict[str, str]) -> None:
    token = "xoxb" + "-" + "1234567890" + "-" + "1234567890123" + "-" + "aB3dE5fG7hJ9kL2mN4pQ6rS8"
    write(memory_repo, "memory/entities/slack.md", note(
        "entities", "slack", "The team's Slack workspace: channels and the bot we run",
        f"Bot token: {token}\n"))
    assert memrepo(memory_repo, "index").returncode == 0
    git(memory_repo, "add", "-A")
    refused = commit(memory_repo, "slack note")
    assert refused.returncode != 0 and "a Slack token" in output(refused)
    assert token not in output(refused)
