"""`memrepo bench secrets`: the secret detector (SPEC §6.6) measured for misses and for
false alarms, through the functions the write path, the commit checks and the journal use.

Misses: a generated positive sample of every token format (core.policy.token_formats;
random text its pattern matches, never a real secret) as a fact's value, inside a quote
and in a note line; every credential word of the vocabulary (core.policy.credential_words)
as a fact's relation (any value refused), stated in a quote and written in a note; and
neighbouring keys that must pass (`password_manager`, `pinterest`, `token_expiry` …).

False alarms: the demo memory (notes and fact logs), the question worlds' notes, values and
quotes (memrepo/bench/worlds), LoCoMo's conversations (`--locomo DIR`, its `locomo10.json`:
every turn, image caption, observation and summary) and `--values N` generated ordinary
values (phone numbers, IBANs, plates, VINs, ids, hashes, ULIDs, prices, URLs, postal codes,
dates …) as facts.

Exit status 1 when a target is missed: every format and every credential word found in
all three places, no neighbour refused, no false alarm on the demo memory, the worlds and
LoCoMo, at most 1 in 10,000 ordinary values.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import yaml

from memrepo.bench.secret_samples import format_sample, ordinary_values, spelled
from memrepo.bench.world import WORLDS
from memrepo.core.policy.credential_words import DIGIT_KINDS, SEED, key_words, spellings
from memrepo.core.policy.gitleaks_formats import KEYED, UNIQUE
from memrepo.core.policy.secrets import (
    fact_finding,
    find_secrets,
    jsonl_secret_problems,
    secret_problems,
)
from memrepo.core.policy.token_format import Format
from memrepo.core.policy.token_formats import FORMATS, OWN, format_set
from memrepo.resources import data_dir

T = TypeVar("T")
DEFAULT_LOCOMO = Path("../shared/eval-data/locomo")
ORDINARY_TARGET = 1 / 10_000
NEIGHBOURS = (
    "password_manager", "password_hint", "password_policy", "password_changed_on",
    "password_location", "password_length", "passwordManager", "Passwort-Manager",
    "pin_reset_date", "pin_attempts_left", "has_pin", "map_pin", "token_expiry", "token_count",
    "bus_token", "api_key_id", "secret_santa", "secret_ingredient", "secretRecipe",
    "pinterest", "spinner", "opinion", "tokenomics", "passenger", "passport_number",
    "pinball_score", "spin_class", "zmiana_hasła", "menedżer_haseł", "data_zmiany_hasła",
    "hasło_zmienione", "heslo_zmenene", "správca_hesiel", "postal_code", "door_colour",
    "keyboard", "key_location", "recovery_time", "secretary", "tokens_spent",
)
SEED_PHRASE = ("orbit lemon cattle gravity oyster canal fancy whale pencil ribbon acoustic "
               "verify")
VALUES = {"digits": "4821", "password": "Zaq12wsx!", "seed": SEED_PHRASE}


@dataclass(slots=True)
class Tally:
    tried: int = 0
    found: int = 0
    misses: list[str] = field(default_factory=list)

    def add(self, found: bool, label: str) -> None:
        self.tried += 1
        self.found += found
        if not found:
            self.misses.append(label)


def _as_value(text: str) -> bool:
    return fact_finding({"subject": "server", "relation": "details", "object": text}) is not None


def _in_quote(text: str) -> bool:
    return fact_finding({"subject": "server", "relation": "details", "object": "see the quote",
                         "quote": f"Sure, here it is: {text} (keep it safe)"}) is not None


def _in_note(text: str) -> bool:
    return bool(find_secrets(f"# Server\n\nAccess for the team:\n- {text}\n"))


def measure_formats(group: Sequence[Format], seed: int) -> dict[str, Tally]:
    formats = format_set()
    places = {"value": Tally(), "quote": Tally(), "note": Tally()}
    for f in group:
        sample = format_sample(f, formats, seed)
        for place, found in (("value", _as_value), ("quote", _in_quote), ("note", _in_note)):
            places[place].add(found(sample), f.rule)
    return places


def _value_for(kind: str) -> str:
    if kind == SEED:
        return VALUES["seed"]
    return VALUES["digits"] if kind in DIGIT_KINDS else VALUES["password"]


def measure_credential_words(seed: int) -> dict[str, Tally]:
    """Each credential word as a relation (as written, and joined to another word in an
    agent's style), stated in a quote and written in a note line."""
    rng = random.Random(seed)
    places = {"value": Tally(), "quote": Tally(), "note": Tally()}
    for spelling, kind in spellings():
        value = _value_for(kind)
        words = key_words(spelling)
        for relation in (spelling.replace(" ", "_"), spelled(["home", *words], rng)):
            refused = fact_finding({"subject": "router", "relation": relation,
                                    "object": "anything at all"})
            places["value"].add(refused is not None and refused.by_key, relation)
        quote = {"subject": "router", "relation": "details", "object": "see the quote",
                 "quote": f"OK, my {spelling} is {value}"}
        places["quote"].add(fact_finding(quote) is not None, spelling)
        places["note"].add(bool(find_secrets(f"- {spelling.capitalize()}: {value}")), spelling)
    return places


def measure_neighbours() -> Tally:
    """Keys next to a credential word that name no credential: `found` counts refusals."""
    tally = Tally()
    for relation in NEIGHBOURS:
        refused = fact_finding({"subject": "anna", "relation": relation, "object": "Bitwarden"})
        tally.tried += 1
        if refused is not None:
            tally.found += 1
            tally.misses.append(relation)
    return tally


# --- false alarms -----------------------------------------------------------------------------

def demo_memory_alarms(root: Path) -> Tally:
    """Every line of the demo memory's notes and every event of its fact logs."""
    tally = Tally()
    for path in sorted(root.rglob("*")):
        if path.suffix == ".jsonl":
            data = path.read_bytes()
            scanned = sum(1 for line in data.split(b"\n") if line.strip())
            problems = jsonl_secret_problems(str(path), data)
        elif path.suffix in (".md", ".yaml"):
            text = path.read_text(encoding="utf-8")
            scanned = text.count("\n") + 1
            problems = secret_problems(str(path), text)
        else:
            continue
        tally.tried += scanned
        tally.found += len(problems)
        tally.misses += [f"{p.path}:{p.line}" for p in problems]
    return tally


def world_alarms(worlds: Path) -> Tally:
    """The worlds' notes (description and body, line by line) and events (read whole)."""
    tally = Tally()
    for path in sorted(worlds.glob("*/world.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for note in data.get("notes", ()):
            text = f"{note.get('description', '')}\n{note.get('body', '')}"
            _count(tally, text.split("\n"), lambda line: bool(find_secrets(line)),
                   f"{path.parent.name}/{note.get('name')}")
        events: list[dict[str, Any]] = data.get("events", [])
        _count(tally, events, lambda e: fact_finding(e) is not None, f"{path.parent.name} event")
    return tally


def _count(tally: Tally, items: Iterable[T], alarm: Callable[[T], bool], label: str) -> None:
    for item in items:
        tally.tried += 1
        if alarm(item):
            tally.found += 1
            tally.misses.append(f"{label}: {str(item)[:120]}")


def locomo_texts(data: Path) -> list[str]:
    path = data / "locomo10.json" if data.is_dir() else data
    texts: list[str] = []
    for sample in json.loads(path.read_text(encoding="utf-8")):
        for key, turns in sample["conversation"].items():
            if key.startswith("session_") and isinstance(turns, list):
                texts += [turn["text"] for turn in turns]
                texts += [turn["blip_caption"] for turn in turns if turn.get("blip_caption")]
        for summary in ("observation", "session_summary", "event_summary"):
            texts += list(_strings(sample.get(summary)))
    return texts


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def locomo_alarms(data: Path) -> Tally:
    tally = Tally()
    _count(tally, locomo_texts(data), lambda text: bool(find_secrets(text)), "LoCoMo")
    return tally


def ordinary_alarms(count: int, seed: int) -> Tally:
    tally = Tally()
    for subject, relation, value in ordinary_values(count, seed):
        tally.tried += 1
        fact = {"subject": subject, "relation": relation, "object": value,
                "quote": f"The {relation.replace('_', ' ')} is {value}."}
        if fact_finding(fact) is not None or find_secrets(f"- {relation}: {value}"):
            tally.found += 1
            tally.misses.append(f"{subject}.{relation} = {value}")
    return tally


# --- the run ----------------------------------------------------------------------------------

def _line(label: str, tally: Tally, what: str) -> str:
    return f"  {label:<30} {tally.found:>6} of {tally.tried:<6} {what}"


def render(found: dict[str, dict[str, Tally]], neighbours: Tally, alarms: dict[str, Tally],
           verbose: bool) -> str:
    lines = ["memrepo bench secrets",
             f"{len(FORMATS)} token formats (memrepo's own; gitleaks' tokens with a prefix of "
             "their own, found standing alone; gitleaks' keyed ones, found after their "
             "provider word, as gitleaks writes its samples)",
             "misses (found of tried):"]
    for name, places in found.items():
        for place, tally in places.items():
            lines.append(_line(f"{name}, {place}", tally, "found"))
            if verbose and tally.misses:
                lines.append(f"      missed: {', '.join(tally.misses)}")
    lines.append(_line("neighbour keys", neighbours, "refused (target 0)"))
    if neighbours.misses:
        lines.append(f"      refused: {', '.join(neighbours.misses)}")
    lines.append("false alarms (refused of scanned):")
    for name, tally in alarms.items():
        rate = f"{tally.found / tally.tried * 10_000:.2f} per 10,000" if tally.tried else "-"
        lines.append(_line(name, tally, f"lines/texts ({rate})"))
        if verbose or tally.found <= 5:
            lines += [f"      alarm: {miss}" for miss in tally.misses[:20]]
    return "\n".join(lines)


def targets_met(found: dict[str, dict[str, Tally]], neighbours: Tally,
                alarms: dict[str, Tally]) -> bool:
    complete = all(t.found == t.tried for places in found.values() for t in places.values())
    ordinary = alarms.get("ordinary values")
    rare = ordinary is None or ordinary.found <= ordinary.tried * ORDINARY_TARGET
    none = all(t.found == 0 for name, t in alarms.items() if name != "ordinary values")
    return (complete and neighbours.found == 0 and rare and none
            and len(FORMATS) >= 60)


def main(argv: Sequence[str] | None = None) -> int:

    parser = argparse.ArgumentParser(prog="memrepo bench secrets", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--locomo", type=Path, default=DEFAULT_LOCOMO,
                        help="LoCoMo's folder (locomo10.json); left out when missing")
    parser.add_argument("--values", type=int, default=10_000,
                        help="ordinary values to generate (default 10000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--verbose", action="store_true", help="list every miss and alarm")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    found = {f"{len(OWN)} memrepo formats": measure_formats(OWN, args.seed),
             f"{len(UNIQUE)} gitleaks tokens": measure_formats(UNIQUE, args.seed),
             f"{len(KEYED)} gitleaks keyed": measure_formats(KEYED, args.seed),
             f"{len(spellings())} credential words": measure_credential_words(args.seed)}
    alarms = {"demo memory": demo_memory_alarms(data_dir("demo_memory")),
              "question worlds": world_alarms(WORLDS)}
    if (args.locomo / "locomo10.json").is_file() or args.locomo.is_file():
        alarms["LoCoMo"] = locomo_alarms(args.locomo)
    else:
        print(f"memrepo bench secrets: no LoCoMo at {args.locomo} (--locomo DIR): left out")
    alarms["ordinary values"] = ordinary_alarms(args.values, args.seed)
    neighbours = measure_neighbours()
    print(render(found, neighbours, alarms, args.verbose))
    print(f"({time.perf_counter() - started:.1f} s)")
    return 0 if targets_met(found, neighbours, alarms) else 1
