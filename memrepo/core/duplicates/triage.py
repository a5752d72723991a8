"""Sleep-time maintenance rules (SPEC §9): plain records in, typed findings out.

Pure: the adapter (memrepo/maintenance/triage.py) reads notes, events, the config and the
clock; this module decides what a person should look at: near-duplicate notes,
contradictions, facts not re-confirmed for `stale_after_days`, dead links, orphans,
categories over their limits and quarantined facts awaiting review. It also plans the
merges `triage --apply` may perform.

Near-duplicates compare labels — a note's name, its title (first `# ` heading) and its
aliases — by the one rule of memrepo.core.duplicates.near_duplicates (the same rule the commit check
and the write gate use), over the whole memory by memrepo.core.duplicates.variant_pairs: "Site
Roadmap" = "site-roadmap", "jan-novak" / "jan-nowak" match; "anna" / "anne" (short words a
letter apart are other names) and "vat-return-q2-2026" / "vat-return-q3-2026" (other
numbers are other things) do not. Fact keys are compared alike (memrepo.core.duplicates.key_triage).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from memrepo.core.config import Config
from memrepo.core.duplicates.fact_triage import Facts, fact_findings, key_text, span
from memrepo.core.duplicates.findings import KINDS, Finding
from memrepo.core.duplicates.key_triage import KeyMerge, key_merges
from memrepo.core.duplicates.variant_pairs import Label, note_judge, variant_pairs
from memrepo.core.facts.times import Instant
from memrepo.core.text import fold as fold_text
from memrepo.core.text import key_slug

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
    facts: Facts  # events by folded key (each key's events plus their retracts), or a
    # source that answers the fact rules (memrepo.core.duplicates.fact_triage)
    config: Config
    now: Instant
    triggered: frozenset[str] = frozenset()  # note names listed in TRIGGERS.md
    archived: Mapping[str, str] = field(default_factory=dict)  # name → archived path
    distinct: frozenset[frozenset[str]] = frozenset()
    """Pairs someone said are different things (`Not-a-duplicate-of:` trailers): note
    names, or keys as `key_triage.distinct_label` writes them."""


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
    # First, while nothing else is held: the search for near-duplicate keys is the
    # largest passing use of memory, and what it frees the other rules then reuse.
    merges = key_merges(given.facts, given.config, given.distinct)
    duplicates = near_duplicates(given.notes, given.distinct)
    findings = [cluster_finding(c) for c in clusters(duplicates)]
    findings += fact_findings(given.facts, given.config, given.now)
    findings += key_findings(merges)
    findings += dead_links(given.notes, given.archived)
    findings += orphans(given.notes, given.triggered)
    findings += over_limits(given.notes, given.config)
    order = {kind: rank for rank, kind in enumerate(KINDS)}
    return sorted(findings, key=lambda f: order[f.kind])


def title_of(body: str) -> str | None:
    """The text of the first `# ` heading outside code blocks."""
    if "```" not in body and "~~~" not in body:  # no code block (most notes): one search
        at = 0 if body.startswith("# ") else body.find("\n# ") + 1
        if at == 0 and not body.startswith("# "):
            return None
        end = body.find("\n", at)
        return body[at + 2:end if end >= 0 else len(body)].strip() or None
    in_fence = False
    for line in body.split("\n"):
        if _FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence and line.startswith("# "):
            return line[2:].strip() or None
    return None


# --- near-duplicates ----------------------------------------------------------------------

def near_duplicates(notes: Sequence[NoteRecord], distinct: frozenset[frozenset[str]] = frozenset(),
                    ) -> list[Duplicate]:
    """Edges between different notes sharing a label up to folding, a label that is a
    variant of another's (`near_duplicates.label_variant`), or an identical description —
    except pairs of names in `distinct`. A group of k notes sharing a label gives k-1
    edges (a star), not k²; clusters are their connected components."""
    labels = [Label(i, text, "", words) for i, note in enumerate(notes)
              for text, words in _label_texts(note)]
    found = {(p.first, p.second): p.how for p in variant_pairs(labels, note_judge)}
    for i, j in _same_description_pairs(notes):
        found.setdefault((i, j) if i <= j else (j, i), "identical descriptions")
    return [Duplicate(notes[i], notes[j], how) for (i, j), how in sorted(found.items())
            if i != j and frozenset((notes[i].name, notes[j].name)) not in distinct]


def _label_texts(note: NoteRecord) -> list[tuple[str, tuple[str, ...]]]:
    """The note's labels, one of each folded spelling, each with its `label_words` (the
    words of its `key_slug`, which joins them by "_")."""
    texts = [note.name, *([note.title] if note.title else []), *note.aliases]
    unique: dict[str, tuple[str, tuple[str, ...]]] = {}
    for text in texts:
        slug = key_slug(text)
        unique.setdefault(slug.replace("_", ""), (text, tuple(slug.split("_"))))
    unique.pop("", None)
    return list(unique.values())


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

def key_findings(merges: Sequence[KeyMerge]) -> list[Finding]:
    """A near-duplicate-key finding per merge; a contradiction per conflict of its plan."""
    findings = []
    for merge in merges:
        kept, duplicate = merge.shown
        if merge.plan.conflicts:
            action = (f"they disagree (see Contradictions): retract what is wrong, then "
                      f"`memrepo triage --apply` merges {duplicate[1]}.{duplicate[2]} into "
                      f"{kept[1]}.{kept[2]}")
        else:
            action = (f"`memrepo triage --apply` ends it and re-asserts its values on "
                      f"{kept[1]}.{kept[2]} with their sources and quotes")
        findings.append(Finding("near-duplicate-key", key_text(duplicate), f"looks like the "
                                f"key {kept[1]}.{kept[2]} ({merge.how})", action,
                                related=(key_text(kept),)))
        findings += [Finding("contradiction", key_text(kept), f"the near-duplicate keys "
                             f"{kept[1]}.{kept[2]} and {duplicate[1]}.{duplicate[2]} hold "
                             f"different values {span(c.start, c.end)}: "
                             f"{', '.join(map(repr, c.kept))} and "
                             f"{', '.join(map(repr, c.duplicate))}", "find out which is right "
                             "and retract the other (`memrepo history` lists the ids)",
                             related=(key_text(duplicate),))
                     for c in merge.plan.conflicts]
    return findings
