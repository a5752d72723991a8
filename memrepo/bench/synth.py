"""A synthetic, valid memory repository of any size, for benchmarks (issue 2, 3, 6).

`generate(root, notes, events, seed)` makes a memory repository with `memrepo init`, then
writes `notes` valid notes across the four categories (mostly entities; aliases with
diacritics; `[[name]]` cross-links to existing notes), their INDEX.md files, and `events`
fact events across many scopes, keys and months (asserts, ends, retracts, many-valued
relations, quotes), and makes ONE commit carrying `Imported-from: synth` and `Approved-by:`.

The commit is written with `git fast-import` (one pack) fed while the files are written,
then the index is read from the new tree. `--method add` (`git add -A` + `git commit
--no-verify`) was faster in wall time at 100k notes / 1M events on 2 cores (42 s vs 67 s)
but leaves ~110k loose objects, so the next commit starts `git gc --auto`, a repack that
runs for minutes in the background and ruins any measurement made meanwhile.

The same seed gives the same files (ids included); only the commit time differs.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ulid import ULID

from memrepo.core.config import CATEGORIES, CONFIG_PATH, TYPE_OF_CATEGORY
from memrepo.core.facts.log_lines import event_to_json
from memrepo.core.notes.index_file import render_index
from memrepo.core.text import fold, slug
from memrepo.git.command import start_git
from memrepo.git.porcelain import git
from memrepo.maintenance.init import config_text, create_memory_repo, with_many_valued

if TYPE_CHECKING:
    import subprocess

APPROVER = "Synth Approver <synth@example.com>"
MANY_VALUED = ("speaks", "member_of", "phone")
SINGLE_VALUED = ("employer", "city", "role", "email", "status", "monthly_fee", "account_manager")
COMMIT_METHODS = ("fast-import", "add")
FIRST_DAY = 1_672_531_200  # 2023-01-01T00:00:00Z
SPAN_SECONDS = 46 * 30 * 86_400  # ~46 months of recorded_at, ending before 2026-11
EVENTS_PER_SCOPE = 5_000
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


@dataclass
class SynthInfo:
    """What was generated: enough for benchmarks to pick realistic queries."""

    root: Path
    commit: str = ""
    commit_method: str = ""
    notes: dict[str, list[str]] = field(default_factory=dict)  # category → names
    display_names: list[str] = field(default_factory=list)  # entity names as people write
    body_words: list[str] = field(default_factory=list)  # rarer words that occur in bodies
    scopes: list[str] = field(default_factory=list)
    keys: list[tuple[str, str, str]] = field(default_factory=list)  # a sample of keys
    events: int = 0
    log_files: int = 0
    seconds: dict[str, float] = field(default_factory=dict)  # phase → wall time


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
    raw = (seconds * 1000).to_bytes(6, "big") + rng.getrandbits(80).to_bytes(10, "big")
    return str(ULID.from_bytes(raw))


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


# --- writing and committing ---------------------------------------------------------------

class Sink:
    """Writes files into the work tree and, for `fast-import`, the same bytes as blobs
    into a `git fast-import` process running alongside (it packs while we generate)."""

    def __init__(self, root: Path, method: str) -> None:
        if method not in COMMIT_METHODS:
            raise ValueError(f"unknown commit method {method!r}; use one of {COMMIT_METHODS}")
        self.root, self.method = root, method
        self.marks: list[str] = []  # path of blob mark i + 1
        self.dirs: set[Path] = set()
        self.process: subprocess.Popen[bytes] | None = None
        if method == "fast-import":
            self.process = start_git(root, "fast-import", "--quiet", "--done", feed=True,
                                     capture=False)

    @property
    def stream(self) -> IO[bytes]:
        assert self.process is not None and self.process.stdin is not None
        return self.process.stdin

    def put(self, path: str, data: bytes) -> None:
        target = self.root / path
        if target.parent not in self.dirs:
            target.parent.mkdir(parents=True, exist_ok=True)
            self.dirs.add(target.parent)
        target.write_bytes(data)
        if self.process is not None:
            self.marks.append(path)
            self.stream.write(b"blob\nmark :%d\ndata %d\n%b\n" % (len(self.marks), len(data),
                                                                  data))

    def commit(self, message: str) -> str:
        if self.process is None:
            git(self.root, "add", "-A")
            git(self.root, "commit", "-q", "--no-verify", "-F", "-", stdin=message)
        else:
            self._fast_import_commit(message)
            git(self.root, "reset", "-q")  # index from the new tree, stat data refreshed
        return git(self.root, "rev-parse", "HEAD").strip()

    def _fast_import_commit(self, message: str) -> None:
        assert self.process is not None
        ref = git(self.root, "symbolic-ref", "HEAD").strip()
        parent = git(self.root, "rev-parse", "HEAD").strip()
        ident = git(self.root, "var", "GIT_COMMITTER_IDENT").strip()
        body = message.encode("utf-8")
        head = b"commit %b\ncommitter %b\ndata %d\n%b\nfrom %b\n" % (
            ref.encode(), ident.encode("utf-8"), len(body), body, parent.encode())
        files = b"".join(b"M 100644 :%d %b\n" % (mark, path.encode("utf-8"))
                         for mark, path in enumerate(self.marks, start=1))
        self.stream.write(head + files + b"\ndone\n")
        self.stream.close()
        if self.process.wait() != 0:
            raise RuntimeError("git fast-import failed (see its output above)")


def _ensure_identity() -> None:
    """`memrepo init` and the commit need a git identity; give one when none is set."""
    for key, value in (("GIT_AUTHOR_NAME", "Synth"), ("GIT_COMMITTER_NAME", "Synth"),
                       ("GIT_AUTHOR_EMAIL", "synth@example.com"),
                       ("GIT_COMMITTER_EMAIL", "synth@example.com")):
        os.environ.setdefault(key, value)


def synth_config(notes: int) -> str:
    text = with_many_valued(config_text(APPROVER), MANY_VALUED)
    return text + f"limits:\n  entities: {max(notes, 1)}\n  references: {max(notes, 1)}\n"


def write_notes(rng: random.Random, sink: Sink, count: int, info: SynthInfo) -> None:
    writer = Writer(rng)
    descriptions: dict[str, dict[str, str]] = {c: {} for c in CATEGORIES}
    earlier: list[str] = []
    for spec in plan_notes(rng, count):
        updated = f"2026-{rng.randint(1, 10):02d}-{rng.randint(1, 28):02d}"
        text = note_text(rng, writer, spec, earlier, updated)
        sink.put(f"memory/{spec.category}/{spec.name}.md", text.encode("utf-8"))
        descriptions[spec.category][spec.name] = spec.description
        earlier.append(spec.name)
        if spec.category == "entities" and len(info.display_names) < 5_000:
            info.display_names.append(spec.title)
    for category in CATEGORIES:
        sink.put(f"memory/{category}/INDEX.md",
                 render_index(category, descriptions[category]).encode("utf-8"))
        info.notes[category] = sorted(descriptions[category])
    info.body_words = writer.vocabulary


def write_facts(rng: random.Random, sink: Sink, count: int, info: SynthInfo) -> None:
    pool = info.notes.get("entities") or ["electricity-bill", "car", "flat"]
    scopes = -(-count // EVENTS_PER_SCOPE) if count else 0
    for number in range(scopes):
        scope = f"{slug(rng.choice(FIRST_NAMES))}-{number:03d}"
        size = min(EVENTS_PER_SCOPE, count - number * EVENTS_PER_SCOPE)
        subjects = rng.sample(pool, min(len(pool), max(10, size // 20)))
        events = scope_events(rng, scope, size, subjects)
        for path, data in segments(scope, events).items():
            sink.put(path, data)
            info.log_files += 1
        info.scopes.append(scope)
        info.events += len(events)
        asserted = [e for e in events if e["op"] == "assert"]
        for event in rng.sample(asserted, min(len(asserted), 50)):
            info.keys.append((scope, event["subject"], event["relation"]))


def generate(root: Path, notes: int, events: int, seed: int = 0,
             method: str = "fast-import") -> SynthInfo:
    """A new memory repository at `root` (which must not exist or be empty)."""
    _ensure_identity()
    info = SynthInfo(root=root.resolve(), commit_method=method)
    started = time.perf_counter()
    create_memory_repo(root, APPROVER)
    info.seconds["init"] = time.perf_counter() - started
    rng = random.Random(seed)
    sink = Sink(info.root, method)
    sink.put(CONFIG_PATH, synth_config(notes).encode("utf-8"))
    _timed(info, "notes", lambda: write_notes(rng, sink, notes, info))
    _timed(info, "facts", lambda: write_facts(rng, sink, events, info))
    message = (f"Synthetic memory: {notes} notes, {info.events} fact events (seed {seed})\n\n"
               f"Imported-from: synth\nApproved-by: {APPROVER}\n")
    _timed(info, "commit", lambda: setattr(info, "commit", sink.commit(message)))
    info.seconds["total"] = time.perf_counter() - started
    return info


def _timed(info: SynthInfo, phase: str, action: Any) -> None:
    started = time.perf_counter()
    action()
    info.seconds[phase] = time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m memrepo.bench.synth",
                                     description="Generate a synthetic memory repository.")
    parser.add_argument("directory", type=Path)
    parser.add_argument("--notes", type=int, default=10_000)
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--method", choices=COMMIT_METHODS, default="fast-import")
    args = parser.parse_args(argv)
    info = generate(args.directory, args.notes, args.events, args.seed, args.method)
    phases = ", ".join(f"{k} {v:.1f}s" for k, v in info.seconds.items())
    print(f"{info.root}: {sum(map(len, info.notes.values()))} notes, {info.events} events "
          f"in {info.log_files} logs, commit {info.commit[:10]} ({info.commit_method}); "
          f"{phases}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
