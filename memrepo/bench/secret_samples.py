"""Generated text for the secrets benchmark: a positive sample of every token format (random
text its pattern matches, as gitleaks' own tests make theirs — never a real secret), the
texts a credential key or word is stated in, and ordinary values that must pass (phone
numbers, IBANs, car plates, VINs, ids, git hashes, ULIDs, prices, URLs, postal codes …).
Everything is drawn from a seeded `random.Random`: the same seed, the same texts.
"""

from __future__ import annotations

import importlib
import random
import string
import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from memrepo.core.policy.token_format import Format, FormatSet

_PARSER: Any = importlib.import_module("re._parser")  # the stdlib's regex parser
_PRINTABLE = string.ascii_letters + string.digits + "_-.:/+="
_WORD = string.ascii_letters + string.digits + "_"
MAX_EXTRA_REPEATS = 8
ATTEMPTS = 200


def text_matching(pattern: str, rng: random.Random) -> str:
    """Random text that `pattern` (Python `re` syntax) may match; anchors and word
    boundaries are not enforced (`format_sample` checks the result)."""
    return "".join(_emit(_PARSER.parse(pattern), rng))


def _emit(items: Any, rng: random.Random) -> Iterator[str]:
    for op, argument in items:
        name = str(op)
        if name == "LITERAL":
            yield chr(argument)
        elif name == "NOT_LITERAL":
            yield rng.choice([c for c in _WORD if ord(c) != argument])
        elif name == "ANY":
            yield rng.choice(_WORD)
        elif name == "IN":
            yield rng.choice(_characters(argument))
        elif name == "BRANCH":
            yield from _emit(rng.choice(argument[1]), rng)
        elif name == "SUBPATTERN":
            yield from _emit(argument[3], rng)
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            low, high, item = argument
            high = low + MAX_EXTRA_REPEATS if high == _PARSER.MAXREPEAT else high
            for _ in range(rng.randint(low, min(high, low + MAX_EXTRA_REPEATS))):
                yield from _emit(item, rng)
        elif name != "AT":
            raise ValueError(f"cannot generate text for {name}")


def _characters(items: Any) -> str:
    """The characters of a class (printable ASCII only, which every sample needs)."""
    chosen: set[str] = set()
    negate = False
    for op, argument in items:
        name = str(op)
        if name == "NEGATE":
            negate = True
        elif name == "LITERAL":
            chosen.add(chr(argument))
        elif name == "RANGE":
            chosen.update(chr(c) for c in range(argument[0], argument[1] + 1))
        elif name == "CATEGORY":
            chosen.update(_category(str(argument)))
    pool = [c for c in _PRINTABLE if c not in chosen] if negate else sorted(
        c for c in chosen if (c.isprintable() and c.isascii()) or c == " ")
    return "".join(pool) or " "


def _category(name: str) -> str:
    return {"CATEGORY_DIGIT": string.digits, "CATEGORY_WORD": _WORD,
            "CATEGORY_SPACE": " ", "CATEGORY_NOT_SPACE": _WORD,
            "CATEGORY_NOT_DIGIT": string.ascii_letters,
            "CATEGORY_NOT_WORD": " "}.get(name, "")


def format_sample(f: Format, formats: FormatSet, seed: int = 0) -> str:
    """A text `f` finds: its token alone, or after its provider word as gitleaks writes
    its own samples (`<provider>_api_token = "<token>"`)."""
    rng = random.Random(f"{seed}:{f.rule}")
    for _ in range(ATTEMPTS):
        token = text_matching(f.secret or f.pattern, rng)
        text = (f'{text_matching(f.identifier, rng)}_api_token = "{token}"' if f.identifier
                else token)
        if formats.finds(f, text):
            return text
    raise ValueError(f"no sample of {f.rule} after {ATTEMPTS} attempts")


# --- ordinary values ------------------------------------------------------------------------

def _digits(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(string.digits) for _ in range(n))


def _upper(rng: random.Random, n: int, alphabet: str = string.ascii_uppercase) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _phone(rng: random.Random) -> str:
    return rng.choice([
        f"+48 {rng.choice('5678')}{_digits(rng, 2)} {_digits(rng, 3)} {_digits(rng, 3)}",
        f"{rng.choice('5678')}{_digits(rng, 2)}-{_digits(rng, 3)}-{_digits(rng, 3)}",
        f"+421 9{_digits(rng, 2)} {_digits(rng, 3)} {_digits(rng, 3)}",
        f"+420 {rng.choice('67')}{_digits(rng, 2)} {_digits(rng, 3)} {_digits(rng, 3)}",
        f"({_digits(rng, 3)}) {_digits(rng, 3)}-{_digits(rng, 4)}",
        f"+49 30 {_digits(rng, 7)}", f"+48{_digits(rng, 9)}"])


def _iban(rng: random.Random) -> str:
    country, length = rng.choice([("PL", 24), ("SK", 20), ("CZ", 20), ("DE", 18)])
    bban = _digits(rng, length)
    rearranged = bban + "".join(str(ord(c) - 55) for c in country) + "00"
    iban = f"{country}{98 - int(rearranged) % 97:02d}{bban}"
    return rng.choice([iban, " ".join(iban[i:i + 4] for i in range(0, len(iban), 4))])


def _plate(rng: random.Random) -> str:
    return rng.choice([
        f"{_upper(rng, 2)} {_digits(rng, 5)}",
        f"{_upper(rng, 3)} {_digits(rng, 4)}{_upper(rng, 1)}",
        f"{_upper(rng, 2)}-{_digits(rng, 3)}{_upper(rng, 2)}",
        f"{_digits(rng, 1)}{_upper(rng, 2)} {_digits(rng, 4)}",
        f"{_upper(rng, 1)}-{_upper(rng, 2)} {_digits(rng, 4)}"])


_VIN = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"


def _vin(rng: random.Random) -> str:
    return rng.choice(["WVW", "TMB", "VF1", "WBA", "ZFA", "1HG"]) + _upper(rng, 14, _VIN)


def _ulid(rng: random.Random) -> str:
    return "01" + _upper(rng, 24, "0123456789ABCDEFGHJKMNPQRSTVWXYZ")


def _document_id(rng: random.Random) -> str:
    year = rng.randint(2019, 2027)
    return rng.choice([
        f"ORD-{year}-{_digits(rng, 6)}",
        f"FV/{year}/{rng.randint(1, 12):02d}/{_digits(rng, 3)}",
        f"C-{_digits(rng, 5)}", f"#{_digits(rng, 4)}",
        f"1Z{_upper(rng, 6, _VIN)}{_digits(rng, 10)}",
        f"JJD{_digits(rng, 18)}", f"POL/{year}/{_digits(rng, 5)}", _digits(rng, 11),
        f"{_digits(rng, 3)}-{_digits(rng, 3)}-{_digits(rng, 2)}-{_digits(rng, 2)}",
        f"{_upper(rng, 3)}{_digits(rng, 6)}", f"{_upper(rng, 2)}{_digits(rng, 7)}",
        f"{_upper(rng, 6, _VIN)}", f"SM-{_upper(rng, 1)}{_digits(rng, 3)}{_upper(rng, 1)}",
        f"SN {_upper(rng, 3, _VIN)}{_digits(rng, 2)}{_upper(rng, 6, _VIN)}",
        f"LO {_digits(rng, 4)}", f"{rng.randint(1, 40)}{rng.choice('ABCDEF')}"])


def _git_hash(rng: random.Random) -> str:
    length = rng.choice([7, 8, 10, 12, 40, 40, 64])
    return "".join(rng.choice("0123456789abcdef") for _ in range(length))


def _price(rng: random.Random) -> str:
    amount = rng.randint(1, 200_000) / rng.choice([1, 100])
    return rng.choice([f"{amount:,.2f} zł".replace(",", " "), f"€{amount:.2f}",
                       f"${amount:,.2f}", f"{int(amount)} Kč", f"{amount:.2f} EUR",
                       f"{amount:.0f} PLN"])


def _url(rng: random.Random) -> str:
    word = "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(4, 10)))
    return rng.choice([
        f"https://www.{word}.pl/oferta/{_digits(rng, 5)}",
        f"https://{word}.com/?id={_digits(rng, 6)}",
        f"https://anna@{word}.example.com/login", f"http://{word}.cz:8080/status",
        f"https://maps.app.goo.gl/{_upper(rng, 17, _WORD[:-1])}",
        f"https://drive.google.com/file/d/1{_upper(rng, 32, _WORD + '-')}/view",
        f"https://youtu.be/{_upper(rng, 11, _WORD + '-')}",
        f"https://meet.google.com/{word[:3]}-{word[:4]}-{word[:3]}",
        f"ssh://git@{word}.example.com:2222/team/{word}.git",
        f"https://{word}.sk/path/{uuid.UUID(int=rng.getrandbits(128))}"])


def _postal_code(rng: random.Random) -> str:
    return rng.choice([f"{_digits(rng, 2)}-{_digits(rng, 3)}",
                       f"{_digits(rng, 3)} {_digits(rng, 2)}", _digits(rng, 5),
                       f"SW{rng.randint(1, 9)}A {rng.randint(1, 9)}AA"])


def _date(rng: random.Random) -> str:
    year, month, day = rng.randint(1950, 2030), rng.randint(1, 12), rng.randint(1, 28)
    return rng.choice([f"{year}-{month:02d}-{day:02d}", f"{day}.{month:02d}.{year}",
                       f"{month}/{day}/{year}", f"{day} May {year}", f"{year}-{month:02d}",
                       f"{year}-{month:02d}-{day:02d}T{rng.randint(0, 23):02d}:30:00Z"])


def _other(rng: random.Random) -> str:
    word = "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(3, 9)))
    return rng.choice([
        f"{word}@example.com", f"{rng.randint(0, 23):02d}:{rng.choice(['00', '15', '30', '45'])}",
        f"{rng.randint(1, 99)}%", f"{rng.randint(1, 12)} x {rng.choice([250, 500, 1000])} ml",
        str(uuid.UUID(int=rng.getrandbits(128))), f"UPC{_digits(rng, 7)}",
        f"Orange_Swiatlowod_{_upper(rng, 4, '0123456789ABCDEF')}",
        f"{word.capitalize()}_{_digits(rng, 4)}_5G",
        f"v{rng.randint(1, 9)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}"])


ORDINARY: tuple[tuple[str, Callable[[random.Random], str]], ...] = (
    ("phone", _phone), ("iban", _iban), ("license_plate", _plate), ("vin", _vin),
    ("ulid", _ulid), ("order_number", _document_id), ("commit", _git_hash),
    ("price", _price), ("website", _url), ("postal_code", _postal_code), ("date", _date),
    ("other", _other))
"""(relation, generator): the kinds of ordinary values, each generated alike often."""
SUBJECTS = ("anna", "car", "office", "michal", "electricity_bill", "skoda", "jan_novak",
            "wifi", "bank", "router")
RELATIONS = {"phone": ("phone", "mobile", "telefon"), "iban": ("iban", "account_number"),
             "license_plate": ("license_plate", "tablica"), "vin": ("vin",),
             "ulid": ("event_id", "id"), "order_number": ("order_number", "invoice", "policy",
                                                         "tracking_number", "passport_number",
                                                         "serial_number", "pesel", "nip"),
             "commit": ("commit", "checksum", "fixed_in"), "price": ("price", "amount"),
             "website": ("website", "url", "map_link"), "postal_code": ("postal_code", "zip"),
             "date": ("date", "birthday", "due_date"),
             "other": ("email", "opens_at", "discount", "dose", "network_name", "version")}


def ordinary_values(count: int, seed: int = 0) -> list[tuple[str, str, str]]:
    """`count` ordinary facts (subject, relation, value), every kind alike often."""
    rng = random.Random(seed)
    facts = []
    for n in range(count):
        kind, generate = ORDINARY[n % len(ORDINARY)]
        facts.append((rng.choice(SUBJECTS), rng.choice(RELATIONS[kind]), generate(rng)))
    return facts


def spelled(words: Sequence[str], rng: random.Random) -> str:
    """A key's words as an agent might join them: `wifi_password`, `wifi-password`,
    `wifiPassword`, `wifi password`."""
    style = rng.randrange(4)
    if style == 2:
        return words[0] + "".join(w.capitalize() for w in words[1:])
    return ("_", "-", "", " ")[style].join(words)
