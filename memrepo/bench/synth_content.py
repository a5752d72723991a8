"""What a synthetic memory says (`memrepo.bench.synth`), from a seeded random generator:
names, body text, notes and fact histories. The same seed gives the same content.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from memrepo.core.config import TYPE_OF_CATEGORY
from memrepo.core.facts.log_lines import event_to_json
from memrepo.core.facts.ulids import ulid_text
from memrepo.core.text import fold, slug

MANY_VALUED = ("speaks", "member_of", "phone")
SINGLE_VALUED = ("employer", "city", "role", "email", "status", "monthly_fee", "account_manager")
FIRST_DAY = 1_672_531_200  # 2023-01-01T00:00:00Z
SPAN_SECONDS = 46 * 30 * 86_400  # ~46 months of recorded_at, ending before 2026-11
SHARE = {"rules": 0.01, "references": 0.09, "project": 0.10}  # the rest: entities

FIRST_NAMES = ("Michał", "Łukasz", "Paweł", "Zofia", "Agnieszka", "Jiří", "Šimon", "Dušan",
               "Jürgen", "Søren", "Đorđe", "Anna", "Jan", "Piotr", "Eva", "Tomáš", "Zuzana",
               "Ľubica", "Björn", "Marta", "Ewa", "Karel", "Hana", "Oskar", "Ines", "Lucía",
               "Bartłomiej", "Małgorzata", "Grzegorz", "Jakub", "Petra", "Nils", "Ágnes",
               "Zoltán", "Maja", "Ole", "Kasia", "Radek", "Dorota", "Ivan")
SURNAMES = ("Zieliński", "Wójcik", "Kowalczyk", "Dvořák", "Novák", "Nowak", "Kowalski",
            "Wiśniewski", "Lewandowska", "Dąbrowski", "Kozłowski", "Mazur", "Krawczyk",
            "Černý", "Procházka", "Kučera", "Horváth", "Šťastný", "Müller", "Schäfer",
            "Weiß", "Jørgensen", "Østergaard", "Åberg", "Nyström", "Petrović", "Đukić",
            "García", "Fernández", "Smith", "Brown", "Ionescu", "Popescu", "Szabó",
            "Németh", "Kaczmarek", "Grabowski", "Pawlak", "Michalski", "Król")
CITIES = ("Łódź", "Kraków", "Gdańsk", "Poznań", "Wrocław", "Warszawa", "Brno", "Košice",
          "Žilina", "Plzeň", "München", "Malmö", "Århus", "Zürich", "Praha", "Bratislava",
          "Szczecin", "Toruń", "Białystok", "Ostrava", "Göteborg", "Niš", "Kielce", "Opole")
INDUSTRIES = ("Packaging film", "Cardboard boxes", "Office furniture", "Accounting",
              "Car service", "Electricity", "Courier", "Printing", "Cleaning", "IT support",
              "Catering", "Legal advice", "Pallet transport", "Label printing", "Insurance")
ROLES = ("Accountant", "Sales manager", "Service advisor", "Warehouse lead", "Driver",
         "Tax advisor", "Office manager", "Buyer", "Project lead", "Technician")
COMPANY_WORDS = ("Acme", "Polam", "Kartex", "Vistula", "Baltic", "Karpaty", "Nordpak",
                 "Tatra", "Silesia", "Mazovia", "Orbis", "Fenix", "Granit", "Lumen", "Sokół")
COMPANY_SUFFIXES = ("Sp. z o.o.", "s.r.o.", "GmbH", "AB", "S.A.", "a.s.")
TOPICS = ("VAT cash method", "invoice reconciliation", "pallet stacking", "bill reading",
          "supplier onboarding", "expense reports", "warranty claims", "data backups",
          "meeting minutes", "price quotes", "delivery checks", "contract renewals")
LANGUAGES = ("Polish", "Czech", "Slovak", "German", "English", "Swedish", "Danish",
             "Hungarian", "Serbian", "Spanish")
COMMON_TEXT = (
    "the order was confirmed by phone and the invoice arrived two days later with a "
    "different price than quoted so we asked for a correction before paying the balance "
    "delivery pallets warehouse schedule contract renewal deadline payment terms net gross "
    "discount minimum quantity lead time packaging label courier inspection appointment "
    "reminder meeting budget estimate report quarter month week morning afternoon email "
    "call office customer supplier account manager agreement signed draft approved sent"
)
SYLLABLES = ("ka", "lo", "mi", "ran", "te", "vo", "sul", "bra", "ni", "pek", "zo", "dar",
             "fi", "gon", "hu", "jel", "ko", "lum", "mer", "nad", "ost", "pra", "qui", "res")


# --- text ---------------------------------------------------------------------------------

def make_vocabulary(rng: random.Random, size: int = 4_000) -> list[str]:
    """Invented words (so term frequencies are realistic and words are searchable)."""
    words: set[str] = set()
    while len(words) < size:
        words.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))))
    return sorted(words)


class Writer:
    """Body text: Zipf-weighted words from a common list and the invented vocabulary."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.vocabulary = make_vocabulary(rng)
        words = COMMON_TEXT.split() + self.vocabulary
        weights = [1.0 / (rank + 1) ** 0.9 for rank in range(len(words))]
        self.words = words
        self.cumulative = list(_accumulate(weights))

    def sentence(self) -> str:
        chosen = self.rng.choices(self.words, cum_weights=self.cumulative,
                                  k=self.rng.randint(6, 16))
        return " ".join(chosen).capitalize() + "."

    def paragraph(self) -> str:
        return " ".join(self.sentence() for _ in range(self.rng.randint(2, 5)))


def _accumulate(values: list[float]) -> Iterator[float]:
    total = 0.0
    for value in values:
        total += value
        yield total


# --- notes --------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class NoteSpec:
    category: str
    name: str
    title: str
    description: str
    extra: dict[str, Any]


def plan_notes(rng: random.Random, count: int) -> list[NoteSpec]:
    """Names, titles, descriptions and header extras of every note, names unique."""
    taken: set[str] = set()
    specs = []
    for category in ("rules", "references", "project"):
        specs += [_unique(taken, _spec(rng, category)) for _ in range(int(count * SHARE[category]))]
    specs += [_unique(taken, _spec(rng, "entities")) for _ in range(count - len(specs))]
    return specs


def _unique(taken: set[str], spec: NoteSpec) -> NoteSpec:
    name, number = spec.name, 1
    while name in taken:
        number += 1
        name = f"{spec.name}-{number}"
    taken.add(name)
    return NoteSpec(spec.category, name, spec.title, spec.description, spec.extra)


def _spec(rng: random.Random, category: str) -> NoteSpec:
    if category == "entities":
        return _entity(rng)
    if category == "rules":
        topic = rng.choice(TOPICS)
        title = f"Confirm {topic} in writing"
        origin = (f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}: a {topic} agreed "
                  "by phone was remembered differently by both sides")
        return NoteSpec(category, slug(title), title, f"{title}: before acting, get the "
                        f"{topic} confirmed by email and store the reply", {"origin": origin})
    if category == "references":
        title = f"{rng.choice(TOPICS).capitalize()} method in {rng.choice(CITIES)}"
        return NoteSpec(category, slug(title), title, f"{title}: steps, thresholds, "
                        "forms to use and common mistakes", {})
    title = f"{rng.choice(INDUSTRIES)} {rng.choice(TOPICS)} {rng.randint(2024, 2026)}"
    return NoteSpec(category, slug(title), title, f"{title}: status, open tasks, "
                    "deadlines and who owns each", {})


def _entity(rng: random.Random) -> NoteSpec:
    if rng.random() < 0.6:
        person = f"{rng.choice(FIRST_NAMES)} {rng.choice(SURNAMES)}"
        company = f"{rng.choice(COMPANY_WORDS)} {rng.choice(CITIES)}"
        description = (f"{rng.choice(ROLES)} at {company}: invoices, orders, prefers "
                       f"{rng.choice(('email', 'SMS', 'phone calls'))} in the morning")
        extra = {"aliases": [person]} if fold(person) != person.lower() else {}
        return NoteSpec("entities", slug(person), person, description, extra)
    company = f"{rng.choice(COMPANY_WORDS)} {rng.choice(CITIES)}"
    description = (f"{rng.choice(INDUSTRIES)} supplier in {company.split(' ', 1)[1]}: minimum "
                   f"orders, lead times of {rng.randint(2, 30)} days, payment terms")
    aliases = [f"{company} {rng.choice(COMPANY_SUFFIXES)}"]
    return NoteSpec("entities", slug(company), company, description, {"aliases": aliases})


def note_text(rng: random.Random, writer: Writer, spec: NoteSpec, earlier: list[str],
              updated: str) -> str:
    """The whole file: header, title, a few paragraphs, bullets and links to earlier notes."""
    header = [f"name: {spec.name}", f"description: {_quoted(spec.description)}",
              f"type: {TYPE_OF_CATEGORY[spec.category]}"]
    for key, value in spec.extra.items():
        rendered = ("[" + ", ".join(_quoted(v) for v in value) + "]"
                    if isinstance(value, list) else _quoted(value))
        header.append(f"{key}: {rendered}")
    header.append(f"updated: {updated}")
    parts = [f"# {spec.title}", writer.paragraph()]
    for _ in range(rng.choice((0, 0, 1, 1, 2, 4, 8))):
        parts.append(writer.paragraph())
    parts.append("\n".join(f"- {writer.sentence()}" for _ in range(rng.randint(1, 5))))
    if earlier and rng.random() < 0.5:
        links = {rng.choice(earlier) for _ in range(rng.randint(1, 3))}
        parts.append("See also " + ", ".join(f"[[{name}]]" for name in sorted(links)) + ".")
    return "---\n" + "\n".join(header) + "\n---\n" + "\n\n".join(parts) + "\n"


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


# --- facts --------------------------------------------------------------------------------

def event_id(rng: random.Random, seconds: int) -> str:
    """A ULID for that second with a seeded random part (so a seed gives the same ids)."""
    return ulid_text(seconds * 1000, rng.getrandbits(80))


def _stamp(seconds: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


def _date(seconds: int) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(seconds))


def _object(rng: random.Random, relation: str) -> str:
    choices: dict[str, Any] = {
        "employer": lambda: f"{rng.choice(COMPANY_WORDS)} {rng.choice(CITIES)}",
        "city": lambda: rng.choice(CITIES),
        "role": lambda: rng.choice(ROLES),
        "email": lambda: f"office{rng.randint(1, 999)}@{rng.choice(COMPANY_WORDS).lower()}.example",
        "status": lambda: rng.choice(("active", "paused", "closed", "pending review")),
        "monthly_fee": lambda: f"{rng.randint(50, 900)} zł",
        "account_manager": lambda: f"{rng.choice(FIRST_NAMES)} {rng.choice(SURNAMES)}",
        "speaks": lambda: rng.choice(LANGUAGES),
        "member_of": lambda: f"{rng.choice(COMPANY_WORDS)} {rng.choice(TOPICS)} group",
        "phone": lambda: f"+48 {rng.randint(500, 899)} {rng.randint(100, 999)} "
                         f"{rng.randint(100, 999)}",
    }
    return str(choices[relation]())


class FactMaker:
    """Histories of keys: asserts (some late, some with valid_to), ends, retracts."""

    def __init__(self, rng: random.Random, scope: str) -> None:
        self.rng, self.scope = rng, scope

    def history(self, subject: str, relation: str) -> list[dict[str, Any]]:
        rng = self.rng
        count = min(1 + int(rng.expovariate(0.4)), 12)
        out: list[dict[str, Any]] = []
        for offset in sorted(rng.randrange(SPAN_SECONDS) for _ in range(count)):
            at, roll = FIRST_DAY + offset, rng.random()
            targets = [e["id"] for e in out if e["op"] != "retract"]
            if targets and roll < 0.05:
                out.append(self._retract(at, rng.choice(targets)))
            elif any(e["op"] == "assert" for e in out) and roll < 0.15:
                out.append(self._end(at, subject, relation, out))
            else:
                out.append(self._assert(at, subject, relation))
        return out

    def _common(self, at: int, op: str) -> dict[str, Any]:
        return {"id": event_id(self.rng, at), "op": op, "recorded_at": _stamp(at)}

    def _assert(self, at: int, subject: str, relation: str) -> dict[str, Any]:
        rng = self.rng
        low, high = (60, 700) if rng.random() < 0.1 else (0, 60)  # some learned late
        start = at - rng.randrange(low * 86_400, high * 86_400)
        start -= start % 86_400
        obj = _object(rng, relation)
        event = {**self._common(at, "assert"), "scope": self.scope, "subject": subject,
                 "relation": relation, "object": obj, "valid_from": _date(start)}
        if rng.random() < 0.1:
            event["valid_to"] = _date(start + rng.randint(30, 365) * 86_400)
        event.update({"confidence": rng.choice((1.0, 1.0, 0.9, 0.8, 0.6)), "trust": "host",
                      "source": "conversation", "session": f"chat-{_date(at)}",
                      "quote": f"By the way, the {relation.replace('_', ' ')} of {subject} "
                               f"is {obj} now."})
        return event

    def _end(self, at: int, subject: str, relation: str,
             earlier: list[dict[str, Any]]) -> dict[str, Any]:
        event = {**self._common(at, "end"), "scope": self.scope, "subject": subject,
                 "relation": relation}
        if relation in MANY_VALUED:
            event["object"] = self.rng.choice([e["object"] for e in earlier
                                               if e["op"] == "assert"])
        event.update({"valid_to": _date(at - self.rng.randrange(30) * 86_400),
                      "reason": "no longer true", "source": "conversation",
                      "session": f"chat-{_date(at)}"})
        return event

    def _retract(self, at: int, target: str) -> dict[str, Any]:
        return {**self._common(at, "retract"), "target": target,
                "reason": "recorded by mistake", "source": "manual",
                "session": f"review-{_date(at)}"}


def scope_events(rng: random.Random, scope: str, count: int,
                 subjects: list[str]) -> list[dict[str, Any]]:
    """`count` events of one scope, in recorded order."""
    maker, used = FactMaker(rng, scope), set[tuple[str, str]]()
    events: list[dict[str, Any]] = []
    relations = SINGLE_VALUED + MANY_VALUED
    while len(events) < count:
        key = (rng.choice(subjects), rng.choice(relations))
        if key in used and len(used) < len(subjects) * len(relations):
            continue
        used.add(key)
        events.extend(maker.history(*key))
    del events[count:]  # only the tail of the last history goes: no retract loses its target
    events.sort(key=lambda e: (e["recorded_at"], e["id"]))
    return events


def segments(scope: str, events: list[dict[str, Any]]) -> dict[str, bytes]:
    """Log path → bytes, one segment per month of recorded_at."""
    out: dict[str, list[bytes]] = {}
    for event in events:
        path = f"memory/facts/{scope}/{event['recorded_at'][:7]}.jsonl"
        out.setdefault(path, []).append(event_to_json(event))
    return {path: b"".join(lines) for path, lines in out.items()}
