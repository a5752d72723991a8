"""Sleep-time maintenance rules (SPEC §9): plain records in, typed findings out.

Pure: the adapter (memrepo/maintenance/triage.py) reads notes, events, the config and the
clock; this module decides what a person should look at: near-duplicate notes,
contradictions, facts not re-confirmed for `stale_after_days`, dead links, orphans,
categories over their limits and quarantined facts awaiting review. It also plans the
merges `triage --apply` may perform.

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
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from rapidfuzz import fuzz
from rapidfuzz.distance import OSA

from memrepo.core.bitemporal import FOREVER, Holding, fold, live_events
from memrepo.core.config import QUARANTINE_PREFIX, Config
from memrepo.core.events import Event, Key, first_recorded
from memrepo.core.text import fold as fold_text
from memrepo.core.times import Instant, format_instant, format_valid_time

FindingKind = Literal["near-duplicate", "contradiction", "stale-fact", "dead-link", "orphan",
                      "over-limit", "quarantine"]
KINDS: tuple[FindingKind, ...] = ("near-duplicate", "contradiction", "stale-fact",
                                  "dead-link", "orphan", "over-limit", "quarantine")
PROMOTED_SOURCE = "promoted:"  # memrepo.agent.promote writes source "promoted:<quarantined id>"
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
    facts: Mapping[Key, Sequence[Event]]  # by folded key: its events plus their retracts
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
    findings = [cluster_finding(c) for c in clusters(near_duplicates(given.notes))]
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
    """Edges between different notes sharing a label up to folding, a one-edit spelling
    variant of a label, or an identical description. A group of k notes sharing a key
    gives k-1 edges (a star), not k²; clusters are their connected components."""
    labels = [(i, text, compact_key(text)) for i, note in enumerate(notes)
              for text in _label_texts(note)]
    by_key: dict[str, list[Label]] = {}
    for label in labels:
        by_key.setdefault(label[2], []).append(label)
    found: dict[tuple[int, int], str] = {}
    for group in by_key.values():
        for a, b in _star(group):
            found.setdefault(_pair(a[0], b[0]), f"{a[1]!r} and {b[1]!r} are the same "
                             "after folding case, accents and separators")
    for a, b in _candidate_pairs([group[0] for group in by_key.values()]):
        if _pair(a[0], b[0]) not in found and is_spelling_variant(a[2], b[2]):
            found[_pair(a[0], b[0])] = (f"{a[1]!r} and {b[1]!r} differ by one letter "
                                        f"(similarity {fuzz.ratio(a[2], b[2]):.0f}%)")
    for i, j in _same_description_pairs(notes):
        found.setdefault(_pair(i, j), "identical descriptions")
    return [Duplicate(notes[i], notes[j], how) for (i, j), how in sorted(found.items())
            if i != j]


def _label_texts(note: NoteRecord) -> list[str]:
    texts = [note.name, *([note.title] if note.title else []), *note.aliases]
    unique: dict[str, str] = {}
    for text in texts:
        unique.setdefault(compact_key(text), text)
    unique.pop("", None)
    return list(unique.values())


Label = tuple[int, str, str]  # note index, text as written, compact key


def _pair(i: int, j: int) -> tuple[int, int]:
    return (i, j) if i <= j else (j, i)


def _star(group: Sequence[Label]) -> Iterator[tuple[Label, Label]]:
    """The first label of another note paired with every later one of other notes."""
    for label in group[1:]:
        if label[0] != group[0][0]:
            yield group[0], label


def _candidate_pairs(labels: Sequence[Label]) -> Iterator[tuple[Label, Label]]:
    """Labels (one per distinct key) that may be one edit apart: keys of one length that
    share a one-letter deletion (a substitution or an adjacent swap), and keys that are a
    one-letter deletion of a key one letter longer (an insertion). One length class at a
    time, so memory follows the largest class, not the whole memory."""
    by_length: dict[int, list[Label]] = {}
    for label in labels:
        if len(label[2]) >= MIN_FUZZY_LENGTH:
            by_length.setdefault(len(label[2]), []).append(label)
    for length, longer in sorted(by_length.items()):
        buckets: dict[str, list[Label]] = {}
        for label in by_length.get(length - 1, []):
            buckets.setdefault(label[2], []).append(label)
        for label in longer:
            key = label[2]
            for variant in {key[:i] + key[i + 1:] for i in range(len(key))}:
                buckets.setdefault(variant, []).append(label)
        for bucket in (b for b in buckets.values() if len(b) > 1):
            for x, a in enumerate(bucket):
                yield from ((a, b) for b in bucket[x + 1:] if a[0] != b[0])


def _same_description_pairs(notes: Sequence[NoteRecord]) -> Iterator[tuple[int, int]]:
    first: dict[str, int] = {}
    for i, note in enumerate(notes):
        if note.description.strip():
            key = " ".join(fold_text(note.description).split())
            if first.setdefault(key, i) != i:
                yield first[key], i


def clusters(duplicates: Sequence[Duplicate]) -> list[list[Duplicate]]:
    """The edges of each connected group of near-duplicates, groups in path order."""
    parent: dict[str, str] = {}

    def root(path: str) -> str:
        while parent.get(path, path) != path:
            grandparent = parent.get(parent[path], parent[path])
            parent[path] = grandparent  # path halving keeps the trees flat
            path = grandparent
        return path

    for duplicate in duplicates:
        a, b = root(duplicate.first.path), root(duplicate.second.path)
        if a != b:
            parent[max(a, b)] = min(a, b)
    groups: dict[str, list[Duplicate]] = {}
    for duplicate in duplicates:
        groups.setdefault(root(duplicate.first.path), []).append(duplicate)
    return [groups[key] for key in sorted(groups)]


def cluster_finding(edges: Sequence[Duplicate], shown: int = 5) -> Finding:
    """One finding for a group of near-duplicates: its first note, the others, why."""
    notes = {n.path: n for e in edges for n in (e.first, e.second)}
    first, *others = sorted(notes)
    listed = ", ".join(others[:shown]) + (f" and {len(others) - shown} more"
                                          if len(others) > shown else "")
    categories = {n.category for n in notes.values()}
    if "rules" in categories:
        action = ("merge by hand: a rule change needs a person's Approved-by: trailer, so "
                  "triage --apply leaves rules alone")
    elif len(categories) > 1:
        action = ("decide which category the note belongs to and archive the others "
                  "(git mv to memory/archive/<category>/, `memrepo index`, commit); "
                  "`memrepo triage --apply` merges only notes of one category")
    else:
        action = "`memrepo triage --apply` keeps the strongest note and merges the others"
    return Finding("near-duplicate", first, f"looks like the same note as {listed}: "
                   f"{edges[0].how}", action, related=tuple(others))


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
    mergeable = [d for d in duplicates
                 if d.first.category == d.second.category != "rules"]
    merges: list[Merge] = []
    for edges in clusters(mergeable):
        members = {n.path: n for e in edges for n in (e.first, e.second)}
        how = {n: e.how for e in reversed(edges) for n in (e.first.path, e.second.path)}
        kept = max(members.values(), key=lambda n: _strength(n, backlinks))
        merges += [Merge(n, kept, how[path]) for path, n in sorted(members.items())
                   if n is not kept]
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
    """`facts`: events by folded key (SPEC §4), each key shown in the form first recorded."""
    promoted = {e.source[len(PROMOTED_SOURCE):] for events in facts.values()
                for e in events if e.source.startswith(PROMOTED_SOURCE)}
    findings: list[Finding] = []
    for folded, events in sorted(facts.items()):
        first = first_recorded(events)
        key = folded if first is None else first.key  # shown in the form first recorded
        many = config.is_many(key[2])
        if key[0].startswith(QUARANTINE_PREFIX):
            host = (key[0][len(QUARANTINE_PREFIX):], folded[1], folded[2])
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
