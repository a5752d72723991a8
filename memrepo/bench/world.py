"""`memrepo bench world [WORLD ...]`: question worlds (memrepo/bench/worlds/*/world.yaml,
their format in FORMAT.md) asked as people ask them, through free-text recall and the
context block, and scored.

A world is built into a fresh memory repository: its notes as files, its events as
fact-log lines (ids made from their `recorded_at`), committed through the hooks with
`Imported-from:`. Each question is asked at the world's `now`.

Scoring (per question, for recall and for the context block apart):
- a fact question is right when every expected value is presented as an answer and no
  other value is — a value of another key than the expected ones is a *look-alike* (for
  a "not recorded" question: any value presented);
- a two-part question (`parts`): each part's values presented, nothing else;
- a note question: one of its notes among the first three (recall) or in the block.

The worlds are `plumbing-cz`, `bakery-sk`, `freelancer-pl`, `vet-clinic-pl`,
`guesthouse-cz`, `apiary-sk`, `driving-school-pl`, `hair-salon-cz`, `bookshop-pl`,
`expat-sk`, `brewery-cz`, `physio-sk`, `carpentry-pl`, `cleaning-uk`, `florist-sk`,
`photo-pl`, `music-teacher-pl`, `pottery-uk` and `carwash-pl` (dev: looked at while
building; each was written from SPEC or FORMAT.md by someone who never saw the code), and
`dental-pl`, `garage-ke`, `farm-sk`, `tailor-cz`, `bike-shop-sk` and `foodtruck-pl` (held
out: written the same way, frozen, scored only).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from memrepo.agent.api import Memory
from memrepo.agent.context import build_context
from memrepo.core.facts.times import parse_instant
from memrepo.core.problems import InputError, Problem
from memrepo.core.text import fold, key_slug
from memrepo.facts.ids import new_id
from memrepo.git.command import run_git
from memrepo.maintenance.indexes import regenerate_indexes
from memrepo.maintenance.init import create_memory_repo, with_many_valued

WORLDS = Path(__file__).resolve().parent / "worlds"
HELD_OUT = ("dental-pl", "garage-ke", "farm-sk", "tailor-cz", "bike-shop-sk", "foodtruck-pl",
            "locksmith-pl", "printshop-cz", "pharmacy-sk", "movers-cz", "accounting-cz",
            "wedding-catering-sk", "ski-rental-sk", "winery-sk", "taxi-cz", "butcher-cz",
            "tattoo-cz", "laundry-pl", "gym-sk", "renovation-sk")
APPROVER = "World Builder <world@example.com>"
IDENTITY = {"GIT_AUTHOR_NAME": "World Builder", "GIT_AUTHOR_EMAIL": "world@example.com",
            "GIT_COMMITTER_NAME": "World Builder", "GIT_COMMITTER_EMAIL": "world@example.com"}
DEFAULT_BUDGET = 1500
FACT_LINE = "- [fact] "
DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True, slots=True)
class WorldQuestion:
    qid: str
    scope: str
    kind: str
    text: str
    expect: tuple[str, ...]
    parts: tuple[tuple[str, ...], ...] = ()
    notes: tuple[str, ...] = ()
    budget: int | None = None

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(v for part in self.parts for v in part) if self.parts else self.expect


@dataclass(frozen=True, slots=True)
class World:
    name: str
    now: str
    data: dict[str, Any]
    questions: tuple[WorldQuestion, ...]

    def keys_holding(self, scope: str, value: str) -> set[str]:
        """The keys (folded `subject.relation`) that ever held `value` in `scope`."""
        return {_key(e["subject"], e["relation"]) for e in self._asserted(scope)
                if self.names(scope, str(e.get("object", "")), value)}

    def names(self, scope: str, given: str, expected: str) -> bool:
        """Whether a value as given names the expected one: equal, case and diacritics
        aside — or, where the world wrote a part of a value ("31 500 Kč" of "31 500 Kč
        měsíčně"), holding it as whole words."""
        text, wanted = fold(given).strip(), fold(expected).strip()
        if text == wanted:
            return True
        whole = {fold(str(e.get("object", ""))).strip() for e in self._asserted(scope)}
        return wanted not in whole and bool(wanted) and re.search(
            rf"(?<!\w){re.escape(wanted)}(?!\w)", text) is not None

    def _asserted(self, scope: str) -> list[dict[str, Any]]:
        return [e for e in self.data["events"]
                if e.get("op") == "assert" and e.get("scope") == scope]


@dataclass(slots=True)
class Verdict:
    right: bool
    lookalike: bool
    got: list[str] = field(default_factory=list)
    by_date: bool = False  # right only because a fact's own dates name an expected date


def load(name_or_path: str) -> World:
    path = Path(name_or_path)
    if not path.exists():
        path = WORLDS / name_or_path
    if path.is_dir():
        path = path / "world.yaml"
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise InputError(Problem(str(path), f"cannot read it ({err.strerror})",
                                 f"name a world of {WORLDS} or a folder holding world.yaml"),
                         ) from err
    except (yaml.YAMLError, UnicodeDecodeError) as err:
        line = getattr(getattr(err, "problem_mark", None), "line", None)
        raise InputError(Problem(str(path), "not valid YAML (UTF-8)",
                                 f"write it as {WORLDS}/FORMAT.md says",
                                 None if line is None else line + 1)) from err
    _check_world(path, data)
    questions = tuple(
        WorldQuestion(str(q["id"]), q["scope"], q["class"], q["text"],
                      tuple(map(str, q.get("expect") or ())),
                      tuple(tuple(map(str, part)) for part in q.get("parts") or ()),
                      tuple(q.get("notes") or ()), q.get("budget"))
        for q in data["questions"])
    return World(data["world"], data["now"], data, questions)


_REQUIRED = {
    "world": ("world", "now", "questions"),
    "assert": ("scope", "subject", "relation", "object", "valid_from", "recorded_at"),
    "end": ("scope", "subject", "relation", "valid_to", "recorded_at"),
    "retract": ("target", "recorded_at"),
    "question": ("id", "scope", "class", "text"),
    "note": ("category", "name", "description"),
}
"""The keys FORMAT.md requires of a world, of each kind of event and of a question."""


_CATEGORIES = ("rules", "entities", "references", "project")


def _check_world(path: Path, data: object) -> None:
    """A world file missing what FORMAT.md requires is one line naming the file, the
    entry and the key — never a KeyError from deep inside the build."""
    if not isinstance(data, dict):
        raise InputError(Problem(str(path), "not a world (a YAML mapping)",
                                 f"write it as {WORLDS}/FORMAT.md says"))
    _require(path, "the file", data, _REQUIRED["world"])
    for n, event in enumerate(data.get("events") or (), 1):
        op = event.get("op") if isinstance(event, dict) else None
        if op not in ("assert", "end", "retract"):
            raise InputError(Problem(str(path), f"event {n}: 'op' is not assert, end or retract",
                                     "give each event an op FORMAT.md names"))
        _require(path, f"event {n} ({op})", event, _REQUIRED[op])
    for n, note in enumerate(data.get("notes") or (), 1):
        _require(path, f"note {n}", note, _REQUIRED["note"])
        if note["category"] not in _CATEGORIES:
            raise InputError(Problem(str(path), f"note {n}: category {note['category']!r} is "
                                     "not rules, entities, references or project",
                                     "give it one of those four"))
    for n, question in enumerate(data["questions"], 1):
        _require(path, f"question {n}", question, _REQUIRED["question"])


def _require(path: Path, what: str, entry: object, keys: Sequence[str]) -> None:
    missing = [key for key in keys if not isinstance(entry, dict) or key not in entry]
    if missing:
        raise InputError(Problem(str(path), f"{what} lacks {', '.join(map(repr, missing))}",
                                 f"add it as {WORLDS}/FORMAT.md says"))


# --- building ---------------------------------------------------------------------------

def build(world: World, root: Path) -> None:
    """A fresh memory repository at `root` holding the world, committed through the hooks."""

    with _environment({**IDENTITY, "MEMREPO_NOW": world.now}):
        create_memory_repo(root, APPROVER)
        _write_config(world, root)
        for note in world.data.get("notes", ()):
            _write_note(root, note)
        regenerate_indexes(root, full=True)
        _write_events(world, root)
        run_git(root, "add", "-A")
        done = run_git(root, "commit", "-q", "-m", f"World {world.name}\n\nImported-from: "
                       f"memrepo bench world\nApproved-by: {APPROVER}")
        if done.returncode != 0:
            raise RuntimeError(f"the world {world.name} was refused: {done.stdout}{done.stderr}")


def _write_config(world: World, root: Path) -> None:
    config = root / "memory" / "config.yaml"

    text = with_many_valued(config.read_text(encoding="utf-8"),
                            list(world.data.get("many_valued") or ()))
    if world.data.get("self"):
        text += "\nself:\n" + "".join(f"  {scope}: {json.dumps(subject)}\n"
                                      for scope, subject in world.data["self"].items())
    config.write_text(text, encoding="utf-8")


def _write_note(root: Path, note: dict[str, Any]) -> None:
    header = {"name": note["name"], "description": note["description"],
              "type": {"rules": "rule", "entities": "entity", "references": "reference",
                       "project": "project"}[note["category"]]}
    for key in ("aliases", "origin", "updated"):
        if note.get(key):
            header[key] = note[key]
    lines = [f"{key}: {json.dumps(value, ensure_ascii=False)}" for key, value in header.items()]
    text = "---\n" + "\n".join(lines) + "\n---\n" + str(note.get("body", ""))
    path = root / "memory" / note["category"] / f"{note['name']}.md"
    path.write_text(text, encoding="utf-8")


def _write_events(world: World, root: Path) -> None:

    events = sorted(world.data.get("events", ()), key=lambda e: e["recorded_at"])
    ids = {e["id"]: new_id(parse_instant(e["recorded_at"])) for e in events if "id" in e}
    for event in events:
        line = _event_line(event, ids)
        path = (root / "memory" / "facts" / _scope_of(event, world)
                / f"{event['recorded_at'][:7]}.jsonl")
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(line, ensure_ascii=False) + "\n")


def _scope_of(event: dict[str, Any], world: World) -> str:
    if "scope" in event:
        return str(event["scope"])
    targets = {e.get("id"): e for e in world.data["events"]}
    return _scope_of(targets[event["target"]], world)


def _event_line(event: dict[str, Any], ids: dict[str, str]) -> dict[str, Any]:

    line: dict[str, Any] = {"id": ids.get(event.get("id", "")) or
                            new_id(parse_instant(event["recorded_at"])),
                            "op": event["op"], "recorded_at": event["recorded_at"]}
    if event["op"] == "retract":
        line["target"] = ids[event["target"]]
    else:
        line.update(scope=event["scope"], subject=event["subject"],
                    relation=event["relation"])
    if event["op"] == "assert":
        line.update(object=str(event["object"]), valid_from=str(event["valid_from"]),
                    confidence=float(event.get("confidence", 1.0)), trust="host")
        if event.get("valid_to"):
            line["valid_to"] = str(event["valid_to"])
    elif event["op"] == "end":
        line.update(valid_to=str(event["valid_to"]), reason=event.get("reason", "ended"))
        if event.get("object"):
            line["object"] = str(event["object"])
    else:
        line["reason"] = event.get("reason", "withdrawn")
    line.update(source=event.get("source", "conversation"),
                session=event.get("session", "world"))
    if event["op"] == "assert" and event.get("quote"):
        line["quote"] = event["quote"]
    return line


@contextmanager
def _environment(values: dict[str, str]) -> Iterator[None]:
    old = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in old.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


# --- asking and judging -----------------------------------------------------------------

def _key(subject: str, relation: str) -> str:

    return f"{key_slug(subject)}.{key_slug(relation)}"


def judge_values(world: World, q: WorldQuestion,
                 presented: list[tuple[str, str, tuple[str, ...]]]) -> Verdict:
    """`presented`: (folded key, value, the fact's dates) given as the answer. A fact names
    an expected value by its value, or — an expected date — by a date it shows (since when
    it held, until when: "od kiedy Juraj ma prawo jazdy" → `prawo_jazdy` since 2016-05-20)."""
    got = [f"{key}={value}" for key, value, _ in presented]
    expected_keys = {key for value in q.values for key in world.keys_holding(q.scope, value)}
    wanted = [v for v in q.values]

    def names(value: str, dates: tuple[str, ...], v: str, by_dates: bool) -> bool:
        return world.names(q.scope, value, v) or (by_dates and v in dates)

    def judged(by_dates: bool) -> tuple[bool, bool]:
        found = all(any(names(value, dates, v, by_dates) for _, value, dates in presented)
                    for v in wanted)
        stray = [key for key, value, dates in presented
                 if not any(names(value, dates, v, by_dates) for v in wanted)]
        lookalike = any(key not in expected_keys for key in stray)
        return found and not lookalike, lookalike

    right, lookalike = judged(True)
    return Verdict(right, lookalike, got, by_date=right and not judged(False)[0])


def ask_recall(world: World, root: Path, q: WorldQuestion) -> Verdict:

    with _environment({"MEMREPO_NOW": world.now}):
        result = Memory(root).recall(q.scope, q.text)
    if q.notes:
        names = [n.name for n in result.notes[:3]]
        return Verdict(any(n in q.notes for n in names), False, names)
    presented = [(_key(f.subject, f.relation), f.object, _dates(f.valid_from, f.valid_to))
                 for f in result.facts]
    return judge_values(world, q, presented)


def _dates(*times: str | None) -> tuple[str, ...]:
    """The days a fact shows (`YYYY-MM-DD`)."""
    return tuple(t[:10] for t in times if t)


def ask_context(world: World, root: Path, q: WorldQuestion) -> Verdict:

    try:
        with _environment({"MEMREPO_NOW": world.now}):
            block = build_context(root, q.scope, q.text, q.budget or DEFAULT_BUDGET).text
    except InputError as err:
        return Verdict(False, False, [f"refused: {err}"])
    if q.notes:
        return Verdict(any(f"[{name}]" in block or f"{name}" in block for name in q.notes),
                       False, [])
    presented = []
    for line in block.splitlines():
        if line.startswith(FACT_LINE):
            key, _, rest = line[len(FACT_LINE):].partition(" = ")
            value = json.loads(rest.rsplit(" (", 1)[0])
            subject, _, relation = key.partition(".")
            shown = rest.rsplit(" (", 1)[1] if " (" in rest else ""
            presented.append((_key(subject, relation), value,
                              tuple(DAY.findall(shown.split("; recorded")[0]))))
    return judge_values(world, q, presented)


# --- the run ----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Row:
    world: str
    question: WorldQuestion
    recall: Verdict
    context: Verdict


def run_world(world: World, workdir: Path) -> list[Row]:
    root = workdir / world.name
    build(world, root)
    return [Row(world.name, q, ask_recall(world, root, q), ask_context(world, root, q))
            for q in world.questions]


def render(rows: Sequence[Row], verbose: bool) -> str:
    out = []
    for name in dict.fromkeys(r.world for r in rows):
        mine = [r for r in rows if r.world == name]
        label = "held out" if name in HELD_OUT else "dev"
        out += [f"## {name} ({label}, {len(mine)} questions)", "",
                "| class | recall | context | both | look-alikes (recall/context) |",
                "|---|---|---|---|---|"]
        kinds = sorted({r.question.kind for r in mine})
        for kind in [*kinds, "all"]:
            some = [r for r in mine if kind in ("all", r.question.kind)]
            out.append(f"| {kind} | {_count(some, 'recall')} | {_count(some, 'context')} | "
                       f"{sum(r.recall.right and r.context.right for r in some)}/{len(some)} | "
                       f"{sum(r.recall.lookalike for r in some)}/"
                       f"{sum(r.context.lookalike for r in some)} |")
        dated = sum(r.recall.by_date for r in mine)
        if dated:
            out += ["", f"right by a fact's dates only (recall): {dated}"]
        if verbose:
            out += ["", *(_miss(r) for r in mine if not (r.recall.right and r.context.right))]
        out.append("")
    return "\n".join(out)


def _count(rows: Sequence[Row], which: str) -> str:
    return f"{sum(getattr(r, which).right for r in rows)}/{len(rows)}"


def _miss(row: Row) -> str:
    q = row.question
    wanted = " | ".join(", ".join(p) or "NR" for p in q.parts) if q.parts else (
        ", ".join(q.expect) or ("notes " + ", ".join(q.notes) if q.notes else "NR"))
    marks = "".join(("R" if not row.recall.right else "", "C" if not row.context.right else ""))
    if row.recall.lookalike or row.context.lookalike:
        marks += " LOOK-ALIKE"
    return (f"- {q.qid} [{q.kind}] miss {marks}: {q.text!r} → want {wanted}; recall got "
            f"{'; '.join(row.recall.got) or 'nothing'}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="memrepo bench world",
                                     description="Question worlds asked through recall and "
                                                 "the context block, scored.")
    parser.add_argument("worlds", nargs="*", metavar="WORLD",
                        help="world names (memrepo/bench/worlds/) or paths "
                             "(default: every world)")
    parser.add_argument("--verbose", action="store_true", help="list every miss")
    parser.add_argument("--dir", type=Path, help="build the repositories here (kept)")
    args = parser.parse_args(argv)
    names = args.worlds or sorted(p.name for p in WORLDS.iterdir()
                                  if (p / "world.yaml").is_file())
    with tempfile.TemporaryDirectory(prefix="memrepo-worlds-") as temporary:
        workdir = args.dir or Path(temporary)
        workdir.mkdir(parents=True, exist_ok=True)
        rows = [row for name in names for row in run_world(load(name), workdir)]
    print(render(rows, args.verbose))
    return 0
