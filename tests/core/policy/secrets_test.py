"""A fact read whole (memrepo.core.policy.secrets.fact_finding): a key that names a
credential refuses any value; the value, the quote and the fact as one line are read like a
note's lines. Every secret here is made up."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from memrepo.core.policy.extraction import Candidate, screen
from memrepo.core.policy.secrets import (
    fact_finding,
    find_secrets,
    jsonl_secret_problems,
    whole_fact_secret,
)


def fact(subject: str, relation: str, value: str, quote: str | None = None) -> dict[str, Any]:
    return {"subject": subject, "relation": relation, "object": value,
            **({"quote": quote} if quote is not None else {})}


@pytest.mark.parametrize("key", [("wifi", "password"), ("bank", "pin"), ("router", "hasło"),
                                 ("me", "wifi_password"), ("karta", "kod_PIN"),
                                 ("chata", "heslo"), ("wlan", "Passwort")])
@pytest.mark.parametrize("value", ["Zaq12wsx!", "4821", "hunter", "correct horse battery",
                                   "see the manager"])
def test_a_key_naming_a_credential_refuses_any_value(key: tuple[str, str], value: str) -> None:
    found = fact_finding(fact(*key, value))
    assert found is not None and found.by_key


def test_forgetting_a_credential_key_is_no_secret() -> None:
    assert fact_finding({"op": "end", "subject": "wifi", "relation": "password",
                         "reason": "rotated"}) is None


QUOTES = [
    "my wifi password is Zaq12wsx!", "bank PIN 4821", "my bank pin 4821 please remember",
    "hasło do wifi to Zaq12wsx", "kod PIN do karty to 4821", "heslo k routeru je Pes456modry",
    "PIN karty je 4821", "Das WLAN-Passwort lautet Geheim99", "die Geheimzahl ist 4821",
    "the door code is 1984", "CVV: 123", "PUK: 12345678",
    "seed phrase: orbit lemon cattle gravity oyster canal fancy whale pencil ribbon "
    "acoustic verify", "backup codes: 8f3k-2m9d 7h2j-9k3l",
]
PROSE = [
    "Password manager: Bitwarden, shared vault 'Home'",
    "The PIN reset date is 2026-05-01", "PIN reset date: 2026-05-01",
    "she has a PIN 2 years old", "the token expiry is 2026-01-01",
    "Secret: patience", "The secret ingredient is 2 spoons of honey",
    "Heslo je v trezore", "hasło to podstawa", "we pinned 4821 photos",
    "Pinterest board 2026: kitchen", "tokenomics 101 lecture on 2026-03-04",
    "map pin 4821 is the meeting point", "API key is v2", "token count: 4096",
]


@pytest.mark.parametrize("quote", QUOTES)
def test_credentials_stated_in_a_quote_are_found(quote: str) -> None:
    assert fact_finding(fact("me", "note", "see the quote", quote)) is not None
    assert find_secrets(quote)


@pytest.mark.parametrize("text", PROSE)
def test_prose_near_credential_words_passes(text: str) -> None:
    assert find_secrets(text) == []
    assert fact_finding(fact("me", "note", text, text)) is None


def test_the_whole_fact_is_read_as_one_line() -> None:
    token = "9fXk2LmQ8rT4vW7yZ1aB3cD5eF6gH0jK"
    assert fact_finding(fact("me", "note", token)) is None  # alone it is just text
    assert whole_fact_secret(fact("server", "key", token)) == "a long token next to a key word"
    assert whole_fact_secret(fact("adafruit", "key", token)) == "an Adafruit key"
    assert whole_fact_secret(fact("wifi password", "for_guests", "Zaq12wsx!")) == "a password"
    assert fact_finding(fact("redis", "url", "redis://:pass@cache.example.com:6379/0")) is not None


def test_a_log_line_is_refused_for_its_key_with_a_fix_saying_where_to_keep_it() -> None:
    line = orjson.dumps({"op": "assert", "scope": "me", "subject": "wifi",
                         "relation": "password", "object": "hunter"})
    (problem,) = jsonl_secret_problems("memory/facts/me/2026-05.jsonl", line)
    assert "a password: the key names one" in problem.problem
    assert "password_location" in problem.fix and "hunter" not in problem.render()


def test_extraction_drops_a_credential_and_never_reports_its_value() -> None:
    conversation = "My wifi password is hunter, and my bank PIN 4821."
    candidates = [Candidate("wifi", "password", "hunter", "My wifi password is hunter"),
                  Candidate("bank", "note", "PIN 4821", "my bank PIN 4821")]
    result = screen(candidates, conversation)
    assert result.kept == []
    assert [d.reason.split(" (")[0] for d in result.dropped] == [
        "the relation names a credential", "the fact looks like a credential"]
    for dropped in result.dropped:
        assert "hunter" not in str(dropped.candidate) and "4821" not in str(dropped.candidate)
