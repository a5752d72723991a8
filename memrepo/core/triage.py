"""Sleep-time maintenance rules (SPEC §9): plain records in, typed findings out.

Pure: the adapter (memrepo/triage.py) reads notes, events, the config and the clock; this
module decides what a person should look at: near-duplicate notes, contradictions, facts not
re-confirmed for `stale_after_days`, dead links, orphans, categories over their limits and
quarantined facts awaiting review. It also plans the merges `triage --apply` may perform.

Near-duplicates compare labels — a note's name, its title (first `# ` heading) and its
aliases — as *compact keys*: folded (case, accents, ł/đ/ø/ß) with everything but letters
and digits removed, so "Site Roadmap" = "site-roadmap" and "Michał Novák" = "michal-novak".
A spelling variant is one edit apart (substitution, insertion, deletion or an adjacent
swap) on keys of at least MIN_FUZZY_LENGTH characters with the same digits: "jan-novak" /
"jan-nowak" match; "anna" / "anne" (too short to tell a typo from another name) and
"vat-q2-2026" / "vat-q3-2026" (different numbers are different things) do not.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from rapidfuzz import fuzz
from rapidfuzz.distance import OSA

from memrepo.core.config import Config
from memrepo.core.events import Event, Key
from memrepo.core.fold import FOREVER, Holding, fold, live_events
from memrepo.core.folding import fold as fold_text
from memrepo.core.times import Instant, format_instant, format_valid_time

FindingKind = Literal["near-duplicate", "contradiction", "stale-fact", "dead-link", "orphan",
                      "over-limit", "quarantine"]
KINDS: tuple[FindingKind, ...] = ("near-duplicate", "contradiction", "stale-fact",
                                  "dead-link", "orphan", "over-limit", "quarantine")
QUARANTINE_PREFIX = "quarantine-"  # = memrepo.store.QUARANTINE_PREFIX (store does I/O)
PROMOTED_SOURCE = "promoted:"  # memrepo.promote writes source "promoted:<quarantined id>"
MIN_FUZZY_LENGTH = 6
DAY: Instant = 86_400 * 1_000_000
_NOT_KEY = re.compile(r"[^a-z0-9]+")
_DIGITS = re.compile(r"\d+")
_FENCE = re.compile(r"^\s*(```|~~~)")


@dataclass(frozen=True, slots=True)
class LinkRecord:
    target: str  # the linked note's name
    line: int


@dataclass(frozen=True, slots=True)
class NoteRecord:
    path: str
    category: str
    name: str
    title: str | None
    description: str
    aliases: tuple[str, ...] = ()
    links: tuple[LinkRecord, ...] = ()
    updated: str | None = None
    size: int = 0  # body length, a tie-breaker when choosing which duplicate to keep


@dataclass(frozen=True)
class TriageInput:
    notes: Sequence[NoteRecord]
    facts: Mapping[Key, Sequence[Event]]  # each key's events plus the retracts of them
    config: Config
    now: Instant
    triggered: frozenset[str] = frozenset()  # note names listed in TRIGGERS.md
    archived: Mapping[str, str] = field(default_factory=dict)  # name → archived path


@dataclass(frozen=True, slots=True)
class Finding:
    kind: FindingKind
    subject: str  # a note path, a category, or a fact key "scope: subject.relation"
    problem: str
    action: str
    line: int | None = None
    related: tuple[str, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "subject": self.subject, "line": self.line,
                "problem": self.problem, "action": self.action,
                "related": list(self.related)}


@dataclass(frozen=True, slots=True)
class Duplicate:
    first: NoteRecord
    second: NoteRecord
    how: str  # why they look like one note, for a person


@dataclass(frozen=True, slots=True)
class Merge:
    old: NoteRecord  # archived
    kept: NoteRecord
    how: str


def triage(given: TriageInput) -> list[Finding]:
    """Every finding, grouped by kind in KINDS order."""
    findings = [duplicate_finding(d) for d in near_duplicates(given.notes)]
    findings += fact_findings(given.facts, given.config, given.now)
    findings += dead_links(given.notes, given.archived)
    findings += orphans(given.notes, given.triggered)
    findings += over_limits(given.notes, given.config)
    order = {kind: rank for rank, kind in enumerate(KINDS)}
    return sorted(findings, key=lambda f: order[f.kind])


def title_of(body: str) -> str | None:
    """The text of the first `# ` heading outside code blocks."""
    in_fence = False
    for line in body.split("\n"):
        if _FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence and line.startswith("# "):
            return line[2:].strip() or None
    return None


# --- near-duplicates ----------------------------------------------------------------------

def compact_key(text: str) -> str:
    return _NOT_KEY.sub("", fold_text(text))


def is_spelling_variant(a: str, b: str) -> bool:
    """Compact keys one edit apart, long enough to be a typo, with the same numbers."""
    if a == b or min(len(a), len(b)) < MIN_FUZZY_LENGTH:
        return False
    if _DIGITS.findall(a) != _DIGITS.findall(b):
        return False
    return OSA.distance(a, b, score_cutoff=1) <= 1


def near_duplicates(notes: Sequence[NoteRecord]) -> list[Duplicate]:
    """Pairs of different notes sharing a label up to folding, a one-edit spelling
    variant of a label, or an identical description. O(labels) plus candidate pairs."""
    labels = [(i, text, compact_key(text)) for i, note in enumerate(notes)
              for text in _label_texts(note)]
    found: dict[tuple[int, int], str] = {}
    for (i, a_text, _), (j, b_text, _) in _same_key_pairs(labels):
        found.setdefault((i, j), f"{a_text!r} and {b_text!r} are the same after folding "
                         "case, accents and separators")
    for (i, a_text, a), (j, b_text, b) in _candidate_pairs(labels):
        if (i, j) not in found and is_spelling_variant(a, b):
            found[(i, j)] = (f"{a_text!r} and {b_text!r} differ by one letter (similarity "
                             f"{fuzz.ratio(a, b):.0f}%)")
    for i, j in _same_description_pairs(notes):
        found.setdefault((i, j), "identical descriptions")
    return [Duplicate(notes[i], notes[j], how) for (i, j), how in sorted(found.items())]


def _label_texts(note: NoteRecord) -> list[str]:
    texts = [note.name, *([note.title] if note.title else []), *note.aliases]
    unique = {compact_key(t): t for t in reversed(texts) if compact_key(t)}
    return list(reversed(unique.values()))


Label = tuple[int, str, str]  # note index, text as written, compact key


def _pairs_of_groups(groups: Iterable[list[Label]]) -> Iterator[tuple[Label, Label]]:
    seen: set[tuple[Label, Label]] = set()
    for group in groups:
        for x, a in enumerate(group):
            for b in group[x + 1:]:
                pair = (a, b) if a[0] < b[0] else (b, a)
                if a[0] != b[0] and pair not in seen:
                    seen.add(pair)
                    yield pair


def _same_key_pairs(labels: Sequence[Label]) -> Iterator[tuple[Label, Label]]:
    groups: dict[str, list[Label]] = {}
    for label in labels:
        groups.setdefault(label[2], []).append(label)
    return _pairs_of_groups(g for g in groups.values() if len(g) > 1)


def _candidate_pairs(labels: Sequence[Label]) -> Iterator[tuple[Label, Label]]:
    """Labels that may be one edit apart. For keys whose shorter one has length m, an edit
    leaves either the first or the last k(m) = (m-2)//2 characters untouched, so blocking
    on those (for m = own length and own length - 1) misses no pair."""
    blocks: dict[tuple[str, int, str], list[Label]] = {}
    for label in labels:
        key = label[2]
        for m in (len(key) - 1, len(key)):
            if m >= MIN_FUZZY_LENGTH:
                k = (m - 2) // 2
                blocks.setdefault(("<", m, key[:k]), []).append(label)
                blocks.setdefault((">", m, key[-k:]), []).append(label)
    return _pairs_of_groups(g for g in blocks.values() if len(g) > 1)


def _same_description_pairs(notes: Sequence[NoteRecord]) -> Iterator[tuple[int, int]]:
    groups: dict[str, list[int]] = {}
    for i, note in enumerate(notes):
        if note.description.strip():
            groups.setdefault(" ".join(fold_text(note.description).split()), []).append(i)
    for group in groups.values():
        yield from ((a, b) for x, a in enumerate(group) for b in group[x + 1:])


def duplicate_finding(duplicate: Duplicate) -> Finding:
    first, second = duplicate.first, duplicate.second
    if "rules" in (first.category, second.category):
        action = ("merge by hand: a rule change needs a person's Approved-by: trailer, so "
                  "triage --apply leaves rules alone")
    elif first.category != second.category:
        action = ("decide which category the note belongs to and archive the other "
                  "(git mv it to memory/archive/<category>/, `memrepo index`, commit)")
    else:
        action = "`memrepo triage --apply` archives the weaker note and merges it into the other"
    return Finding("near-duplicate", first.path, f"looks like the same note as "
                   f"{second.path}: {duplicate.how}", action, related=(second.path,))


def backlink_counts(notes: Sequence[NoteRecord]) -> dict[str, int]:
    """Note name → number of other notes linking to it."""
    counts: dict[str, int] = {}
    for note in notes:
        for target in {link.target for link in note.links if link.target != note.name}:
            counts[target] = counts.get(target, 0) + 1
    return counts


def plan_merges(duplicates: Sequence[Duplicate], notes: Sequence[NoteRecord],
                ) -> list[Merge]:
    """Merges --apply may perform: within one category, never rules. Each cluster of
    near-duplicates keeps its strongest note (most backlinks, newest `updated`, longest
    body) and merges every other note into it."""
    backlinks = backlink_counts(notes)
    parent: dict[str, str] = {}

    def root(path: str) -> str:
        while parent.get(path, path) != path:
            path = parent[path]
        return path

    by_path: dict[str, NoteRecord] = {}
    how_of: dict[str, str] = {}
    for duplicate in duplicates:
        a, b = duplicate.first, duplicate.second
        if a.category != b.category or a.category == "rules":
            continue
        by_path.update({a.path: a, b.path: b})
        how_of.setdefault(a.path, duplicate.how)
        how_of.setdefault(b.path, duplicate.how)
        parent[root(a.path)] = root(b.path)
    clusters: dict[str, list[NoteRecord]] = {}
    for path, note in sorted(by_path.items()):
        clusters.setdefault(root(path), []).append(note)
    merges: list[Merge] = []
    for members in clusters.values():
        kept = max(members, key=lambda n: _strength(n, backlinks))
        merges += [Merge(n, kept, how_of[n.path]) for n in members if n is not kept]
    return merges


def _strength(note: NoteRecord, backlinks: Mapping[str, int]) -> tuple[int, str, int, str]:
    inverted_name = "".join(chr(0x10FFFF - ord(c)) for c in note.name)  # a-z wins ties
    return (backlinks.get(note.name, 0), note.updated or "", note.size, inverted_name)


# --- notes: dead links, orphans, limits -----------------------------------------------------

def dead_links(notes: Sequence[NoteRecord], archived: Mapping[str, str]) -> list[Finding]:
    names = {note.name for note in notes}
    findings = []
    for note in notes:
        for link in note.links:
            if link.target not in names:
                findings.append(_dead_link(note, link, archived.get(link.target)))
    return findings


def _dead_link(note: NoteRecord, link: LinkRecord, archived: str | None) -> Finding:
    if archived:
        return Finding("dead-link", note.path, f"links to {link.target}, which is archived "
                       f"({archived})", "link the note that replaced it (`git log -- "
                       f"{archived}` tells which) or drop the link", link.line)
    return Finding("dead-link", note.path, f"links to {link.target}, but no note has that "
                   "name", "correct the name or drop the link (`memrepo check --all` lists "
                   "every link problem)", link.line)


def orphans(notes: Sequence[NoteRecord], triggered: frozenset[str]) -> list[Finding]:
    linked = backlink_counts(notes)
    return [Finding("orphan", note.path, "no other note links to it and no trigger in "
                    "memory/TRIGGERS.md loads it", "link it from a related note or add a "
                    "trigger; if it is no longer useful, archive it (git mv to "
                    f"memory/archive/{note.category}/, `memrepo index`, commit)")
            for note in notes if note.name not in linked and note.name not in triggered]


def over_limits(notes: Sequence[NoteRecord], config: Config) -> list[Finding]:
    counts: dict[str, int] = {}
    for note in notes:
        counts[note.category] = counts.get(note.category, 0) + 1
    return [Finding("over-limit", f"memory/{category}/", f"{count} notes, over the "
                    f"limit of {config.limits[category]}", "archive notes that are no "
                    "longer useful (orphans and near-duplicates above are candidates) or "
                    "raise the limit in memory/config.yaml (needs Approved-by:)")
            for category, count in sorted(counts.items())
            if category in config.limits and count > config.limits[category]]


# --- facts -------------------------------------------------------------------------------

def fact_findings(facts: Mapping[Key, Sequence[Event]], config: Config,
                  now: Instant) -> list[Finding]:
    promoted = {e.source[len(PROMOTED_SOURCE):] for events in facts.values()
                for e in events if e.source.startswith(PROMOTED_SOURCE)}
    findings: list[Finding] = []
    for key, events in sorted(facts.items()):
        many = config.is_many(key[2])
        if key[0].startswith(QUARANTINE_PREFIX):
            host = (key[0][len(QUARANTINE_PREFIX):], key[1], key[2])
            findings += _quarantine(key, events, facts.get(host, ()), promoted, many, now)
            continue
        findings += [] if many else _same_time_asserts(key, events, now)
        findings += _stale(key, events, many, now, config.stale_after_days)
    kinds = {kind: rank for rank, kind in enumerate(KINDS)}
    return sorted(findings, key=lambda f: kinds[f.kind])


def key_text(key: Key) -> str:
    return f"{key[0]}: {key[1]}.{key[2]}"


def _live_asserts(events: Sequence[Event], now: Instant) -> list[Event]:
    return [e for e in live_events(events, now) if e.op == "assert"]


def _same_time_asserts(key: Key, events: Sequence[Event], now: Instant) -> list[Finding]:
    by_time: dict[Instant, list[Event]] = {}
    for event in _live_asserts(events, now):
        by_time.setdefault(event.valid_from or 0, []).append(event)
    findings = []
    for valid_from, group in sorted(by_time.items()):
        if len({e.object for e in group}) > 1 and len({e.source for e in group}) > 1:
            findings.append(_conflict(key, valid_from, group))
    return findings


def _conflict(key: Key, valid_from: Instant, group: Sequence[Event]) -> Finding:
    ordered = sorted(group, key=lambda e: (e.recorded_at, e.id))
    values = "; ".join(f"{e.object!r} from {e.source} ({e.id})" for e in ordered)
    wrong = " ".join(shlex.quote(x) for x in ("--scope", key[0]))
    return Finding("contradiction", key_text(key), f"different values from different "
                   f"sources for {format_valid_time(valid_from)}: {values}; the later-recorded "
                   f"{ordered[-1].object!r} wins", f"find out which is right and withdraw "
                   f"the other: `memrepo retract {wrong} <id> --reason '...'`",
                   related=tuple(e.id for e in ordered))


def _stale(key: Key, events: Sequence[Event], many: bool, now: Instant,
           days: int) -> list[Finding]:
    confirmed: dict[str | None, Instant] = {}
    for event in _live_asserts(events, now):
        confirmed[event.object] = max(confirmed.get(event.object, 0), event.recorded_at)
    findings = []
    for holding in fold(events, now, many):
        last = confirmed.get(holding.event.object, holding.event.recorded_at)
        if holding.holds_at(now) and now - last > days * DAY:
            findings.append(_stale_finding(key, holding, last, many))
    return findings


def _stale_finding(key: Key, holding: Holding, last: Instant, many: bool) -> Finding:
    args = ["memrepo", "forget", "--scope", key[0], key[1], key[2], "--reason", "..."]
    if many:
        args += ["--object", holding.object]
    return Finding("stale-fact", key_text(key), f"{holding.object!r} was last confirmed "
                   f"{format_instant(last)[:10]} and never re-asserted since",
                   f"ask whether it still holds; if not: `{shlex.join(args)}`",
                   related=(holding.event.id,))


def _quarantine(key: Key, events: Sequence[Event], host_events: Sequence[Event],
                promoted: set[str], many: bool, now: Instant) -> list[Finding]:
    host_scope = key[0][len(QUARANTINE_PREFIX):]
    host = [] if many else fold(host_events, now, many)
    findings = []
    for event in _live_asserts(events, now):
        if event.id in promoted:
            continue
        promote = (f"`memrepo promote --scope {shlex.quote(host_scope)} {event.id} --by "
                   f"'Name <email>' --reason '...'` if it is right, else `memrepo retract "
                   f"--scope {shlex.quote(key[0])} {event.id} --reason '...'`")
        findings.append(Finding("quarantine", key_text(key), f"{event.object!r} from "
                                f"{event.source} (session {event.session}) awaits review",
                                promote, related=(event.id,)))
        findings += [Finding("contradiction", key_text(key), f"quarantined {event.object!r}"
                             f" ({event.id}) contradicts {h.object!r} in {host_scope} "
                             f"({h.event.id}); the host fact stands", promote,
                             related=(event.id, h.event.id))
                     for h in _overlapping(event, host) if h.object != event.object]
    return findings


def _overlapping(event: Event, holdings: Sequence[Holding]) -> list[Holding]:
    start = event.valid_from or 0
    end = FOREVER if event.valid_to is None else event.valid_to
    return [h for h in holdings if h.start < end and start < h.end]
