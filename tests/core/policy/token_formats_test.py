"""Token formats (memrepo.core.policy.token_formats): gitleaks' published rules and memrepo's
own, on RE2. Every sample here is made up (built by concatenation where a scanner might
take it for a real key)."""

from __future__ import annotations

import base64
import re

import pytest
import re2

from memrepo.bench.secret_samples import format_sample
from memrepo.core.policy.secrets import fact_finding, find_secrets
from memrepo.core.policy.token_format import Format, FormatSet, entropy
from memrepo.core.policy.token_formats import FORMATS, format_set, token_kind

HEX = "0123456789abcdef"
B62 = "aB3dE5fG7hJ9kL2mN4pQ6rS8tU1vW0xYz"
PROVIDERS = {  # kind: a made-up token of the provider's shape, as a fact's value alone
    "a Slack webhook URL": "https://hooks.slack.com/services/" + "T0ABCD1EF/B0ABCD2GH/"
                           + "aB3dE5fG7hJ9kL2mN4pQ6rS8",
    "a SendGrid key": "SG" + "." + B62[:22] + "." + (B62 + B62)[:43],
    "an npm token": "npm" + "_" + (B62 + B62)[:36],
    "a PyPI token": "pypi-AgEIcHlwaS5vcmc" + (B62 + B62)[:60],
    "a Hugging Face token": "hf" + "_" + "aBcDeFgHiJkLmNoPqRsTuVwXyZaBcDeFgH",
    "a Telegram bot token": "123456789" + ":" + "AAH" + B62[:32],
    "a HashiCorp Vault token": "hvs" + "." + (B62 * 3)[:95],
    "a Mailgun key": "key" + "-" + (HEX * 2)[::-1],
    "a Shopify token": "shpat" + "_" + (HEX * 2)[3:] + "abc",
    "a DigitalOcean token": "dop_v1" + "_" + (HEX * 4)[::-1],
    "a Basic authorization header": "Authorization: Basic "
                                    + base64.b64encode(b"anna:Zaq12wsx!").decode(),
    "an age secret key": "AGE-SECRET-KEY-1" + ("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L" * 2)[:58],
    "a URL with a password": "redis://:pass@cache.example.com:6379/0",
    "a Stripe key": "sk" + "_test_" + B62[:24],
    "a GitHub token": "ghp" + "_" + (B62 + B62)[:36],
    "a Discord webhook URL": "https://discord.com/api/webhooks/" + "123456789012345678/"
                             + (B62 * 2)[:68],
    "a Mailchimp key": (HEX * 2)[::-1] + "-us21",
    "a Twilio key": "SK" + (HEX * 2)[5:] + "01234",
}
NOT_TOKENS = [
    "Basic Training starts on Monday", "basic income experiment, 2026",
    "postgres://user:****@db.example.com/crm", "https://user:${DB_PASSWORD}@db.example.com",
    "https://user:password@example.com (the form of a URL with a password)",
    "ssh://git@github.com:22/team/repo.git", "https://example.com:8080/path@v2",
    "fixed in commit 0d1b08c34858921bc7c662b228acb7ba708a8dd2",
    "clm12345:AgencyIdentificationCodeContentType", "sk_test_aaaaaaaaaaaa",
    "A" * 5_000, "ticket #4821 at 12345:Apartment",
]


def test_at_least_sixty_formats_each_read_by_re2_and_python() -> None:
    assert len(FORMATS) >= 60
    assert len({f.rule for f in FORMATS}) == len(FORMATS)
    for f in FORMATS:
        re2.compile(f.pattern)
        re.compile(f.pattern)  # the sample generator parses it
        assert f.keywords and all(k == k.lower() for k in f.keywords), f.rule


@pytest.mark.parametrize("f", FORMATS, ids=[f.rule for f in FORMATS])
def test_every_format_finds_a_generated_sample_as_a_value_alone(f: Format) -> None:
    sample = format_sample(f, format_set())
    found = fact_finding({"subject": "server", "relation": "details", "object": sample})
    assert found is not None and not found.by_key


@pytest.mark.parametrize("kind", PROVIDERS, ids=list(PROVIDERS))
def test_provider_tokens_are_found_standing_alone_and_named(kind: str) -> None:
    token = PROVIDERS[kind]
    assert token_kind(token) is not None
    assert token_kind(f"the value is {token} — keep it safe") is not None
    found = fact_finding({"subject": "server", "relation": "details", "object": token})
    assert found is not None, kind
    assert token not in found.kind


@pytest.mark.parametrize("text", NOT_TOKENS)
def test_look_alikes_are_no_token(text: str) -> None:
    assert token_kind(text) is None


def test_a_token_at_the_end_of_a_long_line_is_found() -> None:
    """The keyword filter is one RE2 set of literals: it reads a 64 KiB line whole."""
    line = "lorem ipsum dolor sit amet " * 2_400 + PROVIDERS["a Shopify token"]
    assert token_kind(line) == "a Shopify token"


def test_entropy_in_bits_per_character() -> None:
    assert entropy("") == 0.0
    assert entropy("aaaa") == 0.0
    assert entropy("abcd") == 2.0


def test_a_basic_header_with_a_letter_base64_lacks_is_judged_not_raised() -> None:
    # "ſ" (long s) is no base64 letter: judged like any other text, never a ValueError
    assert isinstance(find_secrets("Authorization: Basic dXNlcjpwYXNzſecret"), list)


def test_lines_reached_reads_each_line_as_if_alone() -> None:
    """A pattern anchored at a line's ends finds its line inside a longer text, and a match
    that runs on past a line break reaches every line it touches."""
    formats = FormatSet((Format("whole-line", "a whole-line token", r"^tok[0-9]{4}$",
                                ("tok",)),
                         Format("spans", "a token after a label", r"label:\s+[0-9]{4}",
                                ("label",))))
    assert formats.lines_reached("tok1234 x\na\ntok1234\nb") == {2}
    assert formats.lines_reached("x\nlabel:\n\n1234 y") == {1, 2, 3}
    assert formats.lines_reached("nothing here") == set()
