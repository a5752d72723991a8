"""Keys that name a credential (memrepo.core.policy.credential_words): read as folded words,
never as substrings, in English, Polish, Slovak, Czech and German; a key about a credential
(its manager, its reset date, where it lives) names none."""

from __future__ import annotations

from pathlib import Path

import pytest

from memrepo.core.policy import credential_tables
from memrepo.core.policy.credential_words import (
    LINE_WORDS,
    PIN,
    TERMS,
    credential_key,
    key_words,
    line_words,
    spellings,
    tables_source,
    terms,
)

CREDENTIAL_KEYS = {  # (subject, relation): kind
    ("wifi", "password"): "a password", ("bank", "pin"): PIN, ("router", "haslo"): "a password",
    ("router", "hasło"): "a password", ("me", "wifi_password"): "a password",
    ("me", "wifiPassword"): "a password", ("me", "WLAN-Passwort"): "a password",
    ("me", "WLANPasswort"): "a password", ("me", "Kennwort"): "a password",
    ("me", "password2"): "a password", ("me", "old_password"): "a password",
    ("me", "password_for_wifi"): "a password", ("me", "Passwort für WLAN"): "a password",
    ("me", "password_hash"): "a password", ("me", "master password"): "a password",
    ("me", "passcode"): "a password", ("me", "passphrase"): "a password",
    ("card", "PIN-Code"): PIN, ("card", "kod PIN"): PIN, ("me", "pin_karty"): PIN,
    ("me", "pin_code"): PIN, ("me", "PINCode"): PIN, ("karta", "Geheimzahl"): PIN,
    ("sim", "puk"): "a PUK", ("card", "cvv"): "a card security code",
    ("card", "CVC2"): "a card security code", ("card", "security_code"): "a card security code",
    ("me", "hasło_do_banku"): "a password", ("me", "haslo_wifi"): "a password",
    ("me", "heslo"): "a password", ("me", "heslo_k_routeru"): "a password",
    ("dom", "kod_dostępu"): "an access code", ("chata", "prístupový kód"): "an access code",
    ("garage", "door_code"): "an access code", ("github", "token"): "a token",
    ("github", "access_token"): "a token", ("openai", "api_key"): "an API key",
    ("openai", "apiKey"): "an API key", ("app", "client_secret"): "a secret",
    ("server", "private_key"): "a private key", ("server", "klucz_prywatny"): "a private key",
    ("google", "recovery_codes"): "a recovery or one-time code",
    ("google", "2fa_backup_codes"): "a recovery or one-time code",
    ("me", "otp_secret"): "a recovery or one-time code",
    ("wallet", "seed_phrase"): "a wallet seed phrase",
    ("ledger", "mnemonic"): "a wallet seed phrase",
    ("bank", "credentials"): "credentials", ("bank", "dane_logowania"): "credentials",
    ("wifi_password", "value"): "a password", ("bank pin", "current"): PIN,
}
NEIGHBOURS = [
    ("me", "pinterest"), ("me", "spinner"), ("me", "opinion"), ("me", "tokenomics"),
    ("me", "passenger"), ("me", "passport_number"), ("me", "password_manager"),
    ("me", "passwordManager"), ("me", "Passwortmanager"), ("me", "password_hint"),
    ("me", "password_policy"), ("me", "password_changed_on"), ("me", "password_location"),
    ("me", "hint_for_password"), ("me", "pin_reset_date"), ("me", "has_pin"),
    ("me", "map_pin"), ("me", "token_expiry"), ("me", "bus_token"), ("me", "api_key_id"),
    ("secret santa", "gift"), ("me", "secret_santa"), ("me", "secret_ingredient"),
    ("me", "zmiana_hasła"), ("me", "menedżer_haseł"), ("me", "data_zmiany_PIN"),
    ("me", "hasło_zmienione"), ("me", "heslo_zmenene"), ("me", "postal_code"),
    ("me", "keyboard"), ("me", "secretary"), ("pin", "phone"), ("wifi_password", "hint"),
]


@pytest.mark.parametrize(("key", "kind"), CREDENTIAL_KEYS.items(),
                         ids=[".".join(k) for k in CREDENTIAL_KEYS])
def test_a_key_that_names_a_credential_is_found_with_its_kind(key: tuple[str, str],
                                                               kind: str) -> None:
    assert credential_key(*key) == kind


@pytest.mark.parametrize("key", NEIGHBOURS, ids=[".".join(k) for k in NEIGHBOURS])
def test_a_neighbouring_key_names_no_credential(key: tuple[str, str]) -> None:
    assert credential_key(*key) is None


def test_every_word_of_the_vocabulary_names_its_kind_as_a_relation() -> None:
    for spelling, kind in spellings():
        assert credential_key("home", spelling) == kind, spelling
        assert credential_key("home", spelling.replace(" ", "_").upper()) == kind, spelling


def test_key_words_fold_case_diacritics_camel_case_and_digits() -> None:
    assert key_words("WLAN-Passwort") == ["wlan", "passwort"]
    assert key_words("routerHasło") == ["router", "haslo"]
    assert key_words("password2") == ["password", "2"]
    assert key_words("2FA_codes") == ["2", "fa", "codes"]
    assert key_words("bank.pin") == ["bank", "pin"]


def test_the_tables_kept_are_the_vocabulary_read() -> None:
    """core.policy.credential_tables is what the tables of credential_words give (kept as
    data: reading them when the detector is imported cost every process ≈1.5 ms). After a
    change to the vocabulary: python -c "from memrepo.core.policy.credential_words import
    tables_source; print(tables_source(), end='')" > memrepo/core/policy/credential_tables.py"""
    assert Path(credential_tables.__file__).read_text(encoding="utf-8") == tables_source()
    assert terms() == TERMS
    assert line_words() == LINE_WORDS
