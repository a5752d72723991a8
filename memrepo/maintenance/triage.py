"""`memrepo triage` adapter (SPEC §9): read the memory, run the rules of
memrepo.core.duplicates.triage, render the report for a person.

Notes, links and events come from the cache (fast at 100k notes; `open_fresh` syncs it with
the work tree first), the config, TRIGGERS.md and the archive listing from the work tree.
"""

from __future__ import annotations

import gc
import os
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from memrepo.cache import open_fresh
from memrepo.cache.listing import CachedFacts, read_notes
from memrepo.clock import now
from memrepo.config import worktree_config
from memrepo.core.config import CATEGORIES
from memrepo.core.display import shown
from memrepo.core.duplicates.fact_triage import DAY
from memrepo.core.duplicates.findings import KINDS, Finding, FindingKind
from memrepo.core.duplicates.triage import TriageInput
from memrepo.core.facts.times import format_instant
from memrepo.core.notes.headers import archive_path, classify, stem
from memrepo.core.notes.triggers import TRIGGERS_PATH, parse_triggers
from memrepo.core.problems import InputError, Problem
from memrepo.core.text import key_slug
from memrepo.files import read_bytes, write_atomically
from memrepo.git.command import run_git

TITLES: dict[FindingKind, str] = {
    "near-duplicate": "Near-duplicate notes", "near-duplicate-key": "Near-duplicate fact keys",
    "contradiction": "Contradictions",
    "stale-fact": "Facts not re-confirmed", "dead-link": "Dead links",
    "orphan": "Orphan notes", "over-limit": "Categories over their limit",
    "quarantine": "Quarantined facts awaiting review",
}


@dataclass(frozen=True, slots=True)
class ActionResult:
    """One --apply action: `committed` (detail: the commit id), `refused` (detail: what
    the checks said; nothing was left behind) or `skipped` (detail: why)."""

    status: str
    summary: str
    detail: str

    def to_json(self) -> dict[str, str]:
        return {"status": self.status, "summary": self.summary, "detail": self.detail}


@contextmanager
def triage_input(root: Path) -> Iterator[TriageInput]:
    """Everything the triage rules look at, as of now (MEMREPO_NOW pins the clock): the
    notes read, the facts answered by the cache while this is open (only what the rules
    ask for: memrepo.cache.listing.CachedFacts)."""

    config = worktree_config(root)
    conn = open_fresh(root)
    facts: CachedFacts | None = None
    try:
        with collection_paused():
            at = now()  # the facts are read on a second thread while the notes are read
            facts = CachedFacts(conn, at, at - config.stale_after_days * DAY)
            notes = read_notes(conn)
            yield TriageInput(notes, facts, config, at, triggered_names(root),
                              archived_notes(root), said_distinct(root))
    finally:
        if facts is not None:
            facts.close()
        conn.close()


@contextmanager
def collection_paused() -> Iterator[None]:
    """No cyclic garbage collection inside (nested: the outermost one turns it back on):
    triage makes a few hundred thousand objects — labels, findings, the report's
    dictionaries — and frees them by reference counting; a collection walking them every
    few thousand made the rules a tenth slower, and the JSON report twice as slow."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def said_distinct(root: Path) -> frozenset[frozenset[str]]:
    """Pairs the history says are different things: each commit with a
    `Not-a-duplicate-of:` trailer pairs the notes it added (or its `New-key:` keys) with
    the names (keys) the trailer gives. Found by one `git log --grep`."""
    done = run_git(root, "log", "--grep=^Not-a-duplicate-of:", "--name-status",
                   "--no-renames", "--format=%x00%(trailers:key=Not-a-duplicate-of,valueonly,"
                   "separator=%x1f)%x1e%(trailers:key=New-key,valueonly,separator=%x1f)%x1e")
    if done.returncode != 0:
        return frozenset()  # no commits yet, or not a git repository: nothing was said
    return distinct_pairs(done.stdout)


def distinct_pairs(log: str) -> frozenset[frozenset[str]]:
    """The pairs of `said_distinct`'s git log output."""
    pairs: set[frozenset[str]] = set()
    for record in log.split("\0")[1:]:
        others, new_keys, files = [*record.split("\x1e"), "", ""][:3]
        said = [v.strip() for v in others.split("\x1f") if v.strip()]
        added = [stem(path) for status, _, path in (line.partition("\t") for line in
                                                    files.splitlines())
                 if status == "A" and classify(path)[0] == "note"]
        keys = [_folded_label(v) for v in new_keys.split("\x1f") if v.strip()]
        pairs.update(frozenset((new, _folded_label(old) if ": " in old else old))
                     for new in [*added, *keys] for old in said)
    return frozenset(pairs)


def _folded_label(value: str) -> str:
    scope, _, key = value.strip().partition(": ")
    return f"{scope}: {key_slug(key)}"


def triggered_names(root: Path) -> frozenset[str]:
    data = read_bytes(root, TRIGGERS_PATH)
    if data is None:
        return frozenset()
    triggers, _ = parse_triggers(data.decode("utf-8", errors="replace"))
    return frozenset(name for trigger in triggers for name in trigger.notes)


def archived_notes(root: Path) -> dict[str, str]:
    """Archived note name → its path (the archive is listed, not read)."""
    archived: dict[str, str] = {}
    for category in CATEGORIES:
        folder = root / "memory" / "archive" / category
        names = sorted(p.name for p in folder.glob("*.md")) if folder.is_dir() else []
        for name in names:
            archived.setdefault(name[:-3], archive_path(category, name[:-3]))
    return archived


# --- the report -----------------------------------------------------------------------------

def render_report(findings: Sequence[Finding], day: str,
                  actions: Sequence[ActionResult] = ()) -> str:
    """The markdown report: title, summary table, one section per kind with findings."""
    lines = [f"# Memory triage, {day}", ""]
    lines += _summary(findings)
    if actions:
        lines += ["", "## Applied (`--apply`)", ""]
        lines += [f"- **{a.status}**: {a.summary} — {a.detail}" for a in actions]
    by_kind: dict[FindingKind, list[Finding]] = {kind: [] for kind in KINDS}
    for finding in findings:
        by_kind[finding.kind].append(finding)
    for kind, found in by_kind.items():
        if found:
            lines += ["", f"## {TITLES[kind]} ({len(found)})", ""]
            lines += [_finding_line(f) for f in found]
    return shown("\n".join(lines), None, lines=True) + "\n"


def _summary(findings: Sequence[Finding]) -> list[str]:
    if not findings:
        return ["Nothing to review: no findings."]
    lines = ["| finding | count |", "|---|---|"]
    lines += [f"| {TITLES[kind]} | {count} |" for kind, count in kind_counts(findings).items()]
    return lines


def _finding_line(finding: Finding) -> str:
    where = finding.subject + (f":{finding.line}" if finding.line else "")
    problem = " ".join(finding.problem.split())
    return f"- `{where}` — {problem}. To fix: {finding.action}"


def report_json(findings: Sequence[Finding], day: str,
                actions: Sequence[ActionResult] = ()) -> dict[str, object]:
    return {"date": day, "counts": kind_counts(findings),
            "findings": [f.to_json() for f in findings], "actions": [a.to_json() for a in actions]}


def kind_counts(findings: Sequence[Finding]) -> dict[FindingKind, int]:
    """How many findings of each kind, in KINDS order (one pass: tens of thousands of
    stale facts)."""
    counted = Counter(finding.kind for finding in findings)
    return {kind: counted[kind] for kind in KINDS}


def today() -> str:
    return format_instant(now())[:10]


def write_report(target: Path, text: str) -> None:
    """Atomically: a temporary file next to `target`, then a rename."""

    path = Path(os.path.abspath(target))
    try:
        write_atomically(path, text.encode("utf-8"))
    except OSError as err:
        raise InputError(Problem(str(path), f"cannot write the report: {err.strerror}",
                                 "give --report a file path in a writable folder")) from None
