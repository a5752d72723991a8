"""Words that name a credential (SPEC §6.6), in English, Polish, Slovak, Czech and German.

A fact key that names a credential (`wifi.password`, `bank.pin`, `router.hasło`,
`WLAN-Passwort`, `kod_PIN_karty`) is refused whatever its value: that is how an agent
writes a password. The key is read as folded words (case, diacritics, `_`/`.`/`-`,
camelCase), never as substrings: `pinterest`, `spinner`, `opinion`, `tokenomics` and
`passenger` name nothing.

A word that names a credential may be a modifier rather than the thing itself. Two word
orders decide it:
- English and German put the head last: `wifi_password` is a password, `password_manager`
  is not, and neither is `token_expiry`, `secret_santa` or `secret_ingredient`. After such a
  word only a qualifier (`password_2`, `pin_code`, `password_hash`, `password_old`) or a
  preposition and what it governs (`password_for_wifi`, `Passwort_für_WLAN`) keeps it a
  credential.
- Polish, Slovak, Czech (and the acronyms PIN, PUK, CVV) put the head first: `hasło_wifi`,
  `pin_karty`, `heslo_k_routeru` are credentials. Their inflected forms are not listed
  (`zmiana_hasła`, `menedżer_haseł`: the password's change, the passwords' manager).
Either way a word that makes the key *about* the credential (`pin_reset_date`,
`hasło_zmienione`, `password_location`, `has_pin`) lets any value through: that is where
memory keeps a credential's whereabouts.

The same vocabulary (`LINE_WORDS`) is what the line rules of core.policy.secrets look for
in notes, quotes and commit messages ("hasło do banku: Kot123zielony").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from memrepo.core.policy import credential_tables
from memrepo.core.record_base import Record, init_field
from memrepo.core.text import fold

PASSWORD = "a password"
PIN = "a PIN"
PUK = "a PUK"
CARD_CODE = "a card security code"
ACCESS_CODE = "an access code"
TOKEN = "a token"
API_KEY = "an API key"
SECRET = "a secret"
PRIVATE_KEY = "a private key"
RECOVERY = "a recovery or one-time code"
SEED = "a wallet seed phrase"
CREDENTIALS = "credentials"

DIGIT_KINDS = frozenset({PIN, PUK, CARD_CODE, ACCESS_CODE})
"""Kinds whose value is a few digits ("PIN: 4821", "CVV: 123", "door code: 1984")."""


class Term(Record):
    __slots__ = ("head_first", "kind", "words")
    words: tuple[str, ...]  # folded
    kind: str
    head_first: bool  # the words after it are its modifiers (pl/sk/cs; PIN, PUK, CVV)

    def __init__(self, words: tuple[str, ...], kind: str, head_first: bool) -> None:
        init_field(self, "words", words)
        init_field(self, "kind", kind)
        init_field(self, "head_first", head_first)


# (spellings, kind): English and German, the head last
_HEAD_LAST: tuple[tuple[str, str], ...] = (
    ("password|passwd|pwd|passcode|passphrase|pass phrase|master password|passwort|kennwort"
     "|login password|one time password", PASSWORD),
    ("security code|card security code|card verification code|card verification value"
     "|sicherheitscode|kartenprufnummer", CARD_CODE),
    ("door code|gate code|alarm code|access code|entry code|safe code|unlock code|lock code"
     "|keypad code|garage code|zugangscode|turcode", ACCESS_CODE),
    ("geheimzahl|persoenliche geheimzahl", PIN),
    ("token|access token|auth token|api token|bearer token|refresh token|bot token", TOKEN),
    ("api key|apikey|access key|secret key|secret access key|encryption key|signing key"
     "|master key|api schlussel", API_KEY),
    ("secret|client secret|app secret|shared secret|webhook secret", SECRET),
    ("private key|privater schlussel|geheimer schlussel", PRIVATE_KEY),
    ("recovery code|recovery codes|recovery key|backup code|backup codes|2fa code|2fa codes"
     "|2fa backup codes|otp|totp|otp secret|totp secret|mfa secret|2fa secret|mfa code"
     "|mfa codes|wiederherstellungscode", RECOVERY),
    ("seed phrase|seed words|recovery phrase|secret recovery phrase|mnemonic"
     "|mnemonic phrase|wallet seed", SEED),
    ("credentials|creds|login credentials|zugangsdaten", CREDENTIALS),
)
# Polish, Slovak, Czech and the acronyms: the head first
_HEAD_FIRST: tuple[tuple[str, str], ...] = (
    ("hasło|haslo|heslo", PASSWORD),
    ("pin|pincode|pin code|pin number|pin kod|kod pin|kód pin|pin kód|numer pin|pinkod"
     "|pin-code", PIN),
    ("puk|puk code|kod puk|puk kód|kód puk", PUK),
    ("cvv|cvv2|cvc|cvc2|cvn|kod cvv|kod cvc|kód cvv|kod zabezpieczający"
     "|bezpečnostný kód|bezpečnostní kód", CARD_CODE),
    ("kod dostępu|kod do drzwi|kod do bramy|kod alarmu|kod do alarmu|kod do sejfu"
     "|kod do domofonu|prístupový kód|přístupový kód|kód k dverám|kód od dveří"
     "|kód od alarmu|kód k alarmu", ACCESS_CODE),
    ("klucz api|klucz prywatny|api kľúč|api klíč|súkromný kľúč|soukromý klíč", PRIVATE_KEY),
    ("kody zapasowe|kody odzyskiwania|kod odzyskiwania|fraza odzyskiwania|obnovovací kód"
     "|obnovovacie kódy|obnovovací kódy|záložné kódy|záložní kódy", RECOVERY),
    ("dane logowania|dane dostępowe|prihlasovacie údaje|přihlašovací údaje", CREDENTIALS),
)


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


QUALIFIERS = _words(
    "value code number no nr num hash hashed plain plaintext text string raw current new "
    "old previous original default temporary temp main primary secondary backup admin "
    "root user personal private full actual real wartosc hodnota wert kod numer cislo neu "
    "alt")
"""Words after an English/German credential word that keep it the credential."""

PREPOSITIONS = _words(
    "for to of on at in into from with do dla na od ze z k ku ke pre pro zo u fur zu zum "
    "zur von vom bei an")

ABOUT = _words(
    "manager managers vault hint hints policy policies rule rules length expiry expires "
    "expiration expired expiring changed change changes reset resets rotation rotated "
    "rotate rotates last updated update updates created date dates age strength "
    "requirement requirements required reminder reminders location where stored storage "
    "kept holder format count attempts tries locked status owner recovery question "
    "questions type name id label provider generator complexity validity valid issued "
    "issuer scope scopes permissions usage used limit balance price amount supply enabled "
    "disabled set exists known saved lost forgotten zmiana zmieniono zmienione zmieniony "
    "zmienil data wygasa wygasniecie waznosc przypomnienie podpowiedz wskazowka polityka "
    "dlugosc menedzer gdzie lokalizacja miejsce zapisane zapomniane zmena zmenene zmeneno "
    "zmenil datum platnost expiracia expirace pripomienka napoveda spravca spravce kde "
    "umiestnenie umisteni ulozene ulozeno dlzka delka pravidla anderung geandert ablauf "
    "hinweis richtlinie lange ort verwaltung gespeichert")
"""Words that make a key about a credential, not the credential ("password_manager")."""

PREFIX_ABOUT = _words(
    "date data datum zmiana zmiany zmena zmeny anderung polityka politika policy dlugosc "
    "dlzka delka length expiry reset has have needs need requires uses use no without ma "
    "mam wymaga potrzebuje nema hat braucht")
"""Words before a credential word that make the key about it ("has_pin", "data_zmiany_PIN")."""

GENERIC_RELATIONS = _words(
    "value is current text string content contents actual wartosc hodnota wert")
"""A relation saying nothing of its own (`wifi_password.value`): the subject's words count."""

NOT_AFTER = {
    "pin": _words(
        "map maps location dropped drop lapel hair safety bowling push drawing rolling google "
        "gps address"),
    "token": _words(
        "bus subway metro tram game arcade casino poker love thank thanks souvenir"),
}
"""Words that make the next one mean something else: a map pin, a bus token."""

COMPOUND_HEADS = ("password", "passwort", "kennwort")
"""Closed compounds ending in these are that word: `wifipassword`, `WLANPasswort`."""

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_RUN = re.compile(r"[a-z]+|[0-9]+")
"""A key's word: a run of letters, or of digits (`password2` is two words)."""


def terms() -> dict[str, tuple[Term, ...]]:
    """Every term, by its first word, longest first: the tables above read (as kept in
    core.policy.credential_tables: `TERMS`)."""
    by_first: dict[str, list[Term]] = {}
    for table, head_first in ((_HEAD_LAST, False), (_HEAD_FIRST, True)):
        for spellings, kind in table:
            for spelling in spellings.split("|"):
                words = tuple(key_words(spelling))
                by_first.setdefault(words[0], []).append(Term(words, kind, head_first))
    return {first: tuple(sorted(terms, key=lambda t: -len(t.words)))
            for first, terms in by_first.items()}


def key_words(text: str) -> list[str]:
    """A key's folded words: camelCase split, letters apart from digits (`password2`,
    `2fa`), every run of anything but a-z/0-9 a break."""
    return _RUN.findall(fold(_CAMEL.sub(" ", text)))


TERMS: dict[str, tuple[Term, ...]] = {
    first: tuple(Term(words, kind, head_first) for words, kind, head_first in table)
    for first, table in credential_tables.TERMS.items()}
"""`terms()`, from the tables kept in core.policy.credential_tables (folding every spelling
when the module is imported cost every process that judges a line ≈1.5 ms)."""


def credential_kind(words: Sequence[str]) -> str | None:
    """The kind of credential a key's words name, or None."""
    for start, word in enumerate(words):
        for term in _terms_at(words, start, word):
            rest = words[start + len(term.words):]
            if _names_the_credential(words[:start], rest, term):
                return term.kind
    return None


def _terms_at(words: Sequence[str], start: int, word: str) -> Iterable[Term]:
    for term in TERMS.get(word, ()):
        if tuple(words[start:start + len(term.words)]) == term.words:
            yield term
    for head in COMPOUND_HEADS:
        if word.endswith(head) and word != head:
            yield Term((word,), PASSWORD, False)


def _names_the_credential(before: Sequence[str], after: Sequence[str], term: Term) -> bool:
    if any(w in PREFIX_ABOUT for w in before) or any(w in ABOUT for w in after):
        return False
    if before and before[-1] in NOT_AFTER.get(term.words[0], ()):
        return False
    if before and before[-1] in PREPOSITIONS and any(w in ABOUT for w in before):
        return False  # "hint_for_password"
    if not after or term.head_first or after[0] in PREPOSITIONS:
        return True
    return all(w in QUALIFIERS or w.isdigit() for w in after)


@lru_cache(maxsize=1 << 16)
def credential_key(subject: str, relation: str) -> str | None:
    """The kind of credential a fact key names (`wifi.password`, `bank.pin`,
    `router.hasło`; the subject too when the relation says nothing of its own:
    `wifi_password.value`), or None."""
    kind, generic, relation_words = _relation_reading(relation)
    if kind is not None:
        return kind
    if generic:
        return credential_kind([*key_words(subject), *relation_words])
    return None


@lru_cache(maxsize=1 << 12)
def _relation_reading(relation: str) -> tuple[str | None, bool, tuple[str, ...]]:
    """(the kind of credential a relation names, whether it says nothing of its own, its
    words): a memory repeats its relations under ever new subjects (a hand-appended log
    of 100k keys), so they are read once per process."""
    words = key_words(relation)
    return (credential_kind(words),
            all(w in GENERIC_RELATIONS or w in QUALIFIERS for w in words), tuple(words))


def spellings() -> list[tuple[str, str]]:
    """Every credential word or phrase as written in the table (`hasło`, `PIN-Code`,
    `kod dostępu`), with its kind."""
    return [(spelling, kind) for table in (_HEAD_LAST, _HEAD_FIRST)
            for group, kind in table for spelling in group.split("|")]


def line_words() -> str:
    """Every term as a regex for raw text: its spellings as written and folded, words
    joined by a space, `_`, `-` or `.` (or nothing), longest first (as kept in
    core.policy.credential_tables: `LINE_WORDS`)."""
    spellings: set[str] = set()
    for table in (_HEAD_LAST, _HEAD_FIRST):
        for group, _kind in table:
            for spelling in group.split("|"):
                spellings.update({spelling, fold(spelling)})
    ordered = sorted(spellings, key=lambda s: (-len(s), s))
    return "|".join(r"[ _.-]?".join(map(re.escape, re.split(r"[ -]", s))) for s in ordered)


LINE_WORDS = credential_tables.LINE_WORDS
"""The credential words as a regex alternation (match it case-insensitively): `line_words()`
as kept in core.policy.credential_tables."""


def tables_source() -> str:
    """The text of core.policy.credential_tables: `terms()` and `line_words()` written out
    (tests/core/policy/credential_words_test.py says when the tables above changed it)."""
    lines = [f'"""{_TABLES_DOC}"""', "", "TERMS: dict[str, tuple[tuple[tuple[str, ...], str, "
             "bool], ...]] = {"]
    for first, found in terms().items():
        lines.append(f"    {first!r}: (")
        lines.extend(f"        ({term.words!r}, {term.kind!r}, {term.head_first!r}),"
                     for term in found)
        lines.append("    ),")
    lines += ["}", "", "LINE_WORDS = ("]
    piece = ""
    for char in line_words():  # pieces whose literals fit a line
        if len(repr(piece + char)) > 90:
            lines.append(f"    {piece!r}")
            piece = ""
        piece += char
    lines.append(f"    {piece!r}")
    return "\n".join([*lines, ")", ""])


_TABLES_DOC = """The credential words of core.policy.credential_words, read: its terms by their
first folded word (`terms()`) and the regex of every spelling (`line_words()`). Written by
`credential_words.tables_source()`; do not edit (after a change to the tables there, write
this file again with it: tests/core/policy/credential_words_test.py checks it is current)."""


def line_word_kind(text: str) -> str | None:
    """The kind a credential word found in a line names ("hasło do banku" → a password)."""
    words = key_words(text)
    for start, word in enumerate(words):
        for term in _terms_at(words, start, word):
            return term.kind
    return None
