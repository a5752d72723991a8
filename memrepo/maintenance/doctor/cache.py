"""Doctor: the cache (corrupt, behind, leftovers of a rebuild, not saying what the files
say, lines it leaves out) and INDEX.md drift."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo import cache
from memrepo.cache import audit
from memrepo.cache.build import built_aside, swap_in
from memrepo.cache.db import require_cache_file
from memrepo.cache.listing import note_descriptions
from memrepo.cache.rows import UNFINISHED
from memrepo.cache.skipped import skipped_lines
from memrepo.cache.staleness import is_stale
from memrepo.core.config import CATEGORIES
from memrepo.core.notes.headers import index_path
from memrepo.core.notes.index_file import render_index
from memrepo.core.problems import InputError, split_fix
from memrepo.faults import fault_problem
from memrepo.git.activity import process_alive
from memrepo.local_state import STATE_DIR
from memrepo.maintenance.indexes import build_indexes, current_index, known_descriptions

from .findings import NOT_AUDITED, CacheAudit, Finding, done, relative

if TYPE_CHECKING:
    from memrepo.cache.audit import Audited, EarlyAudit
    from memrepo.cache.skipped import SkippedLine


PROBE_BYTES = 64 * 1024
"""What doctor writes (and removes) in .memrepo to find out whether memrepo can write
there: a cache sync or the write lock needs at least that much."""


def local_state(root: Path, repair: bool) -> list[Finding]:
    """Can memrepo write in .memrepo (read-only file system, full disk, permissions)?
    Writes refuse and queries answer from the files until it can."""
    folder = root / STATE_DIR
    probe = folder / f"doctor-probe.{os.getpid()}"
    try:
        folder.mkdir(exist_ok=True)
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        try:
            os.write(fd, bytes(PROBE_BYTES))
        finally:
            os.close(fd)
            probe.unlink(missing_ok=True)
    except OSError as err:
        problem = fault_problem(err)
        if problem is None:
            return []  # not a fault of the file system (a file in the folder's place…)
        return [Finding(STATE_DIR, f"memrepo cannot write here: {problem.problem}; writes "
                        "are refused and queries answer from the files (slower)",
                        problem.fix)]
    return []


def cache_file(root: Path, repair: bool) -> list[Finding]:
    findings = _cache_leftovers(root, repair)
    try:
        require_cache_file(cache.cache_path(root))
    except InputError as refused:  # reported only: memrepo never deletes what it did not make
        refusal = refused.detail
        return [*findings, Finding(relative(root, Path(refusal.path)), refusal.problem,
                                   refusal.fix)]
    status = cache.status(root)
    path = Path(status.path)
    if path.exists() and not status.exists:
        finding = Finding(relative(root, path), "the cache file is corrupt or of an older schema",
                          "run `memrepo cache rebuild`")
        if repair:
            cache.rebuild(root, announce=False)
            finding = done(finding, "rebuilt it")
        findings.append(finding)
    elif status.exists and not status.current:  # ordinary after a write: not a problem
        cache.sync(root, announce=False)  # as the next query would; then audited
        findings.append(Finding(relative(root, path), "the cache was behind the files (as after "
                                "any write; the next query would have synced it)",
                                "nothing to do", "synced it"))
    return findings


def _cache_leftovers(root: Path, repair: bool) -> list[Finding]:
    target = cache.cache_path(root)
    findings = []
    # cache.sqlite.<pid>.tmp, the notes' side cache.sqlite.<pid>.notes.tmp (and, from
    # before that name, cache.sqlite.<pid>.tmp.notes)
    leftovers = {*target.parent.glob(f"{target.name}.*.tmp"),
                 *target.parent.glob(f"{target.name}.*.tmp.notes")}
    for temporary in sorted(leftovers):
        pid = temporary.name.removeprefix(f"{target.name}.").split(".")[0]
        if pid.isdigit() and process_alive(int(pid)):
            continue  # a rebuild still running
        finding = Finding(relative(root, temporary), "a half-built cache left by a killed "
                          "rebuild", f"remove it: `rm {relative(root, temporary)}`")
        if repair:
            temporary.unlink(missing_ok=True)
            finding = done(finding, "removed it")
        findings.append(finding)
    return findings


def cache_contents(root: Path, repair: bool, deep: bool, early: EarlyAudit | None = None,
                   full: bool = False) -> tuple[list[Finding], CacheAudit]:
    """Whether a sound, current cache says what the files say, and the lines it skips
    (`early`: audited already, unless the cache was written since); and what became of the
    audit. The default audit is not run again while the cache is as it was at the last
    clean one (memrepo.cache.audit_memo), unless `full`, `repair` or `deep`."""
    found = None if early is None or repair or deep else early.result()
    if found is not None:
        return _audit_findings(root, found, repair)
    if not cache.cache_path(root).is_file():
        return [], NOT_AUDITED
    conn = audit.open_existing(root)
    if conn is None:
        return [], NOT_AUDITED  # missing, corrupt or behind: reported (and repaired) by _cache
    try:
        if is_stale(conn, root):
            return [], NOT_AUDITED
        if not deep:
            return _audit_findings(root, audit.audited_or_remembered(
                root, conn, full or repair), repair)
        findings = _skipped(skipped_lines(conn))
        with built_aside(root) as (fresh, _):
            differences = audit.deep_differences(conn, fresh)
            if differences:
                findings.append(_differs(root, "; ".join(differences), repair, fresh))
    finally:
        conn.close()
    return findings, CacheAudit("audited")


def _audit_findings(root: Path, found: Audited,
                    repair: bool) -> tuple[list[Finding], CacheAudit]:
    findings = _skipped(found.skipped)
    edited = found.edited
    if edited:
        shown_paths = ", ".join(edited[:3]) + (" …" if len(edited) > 3 else "")
        findings.append(_differs(root, f"rows of {len(edited)} log(s) were changed after "
                                 f"they were indexed ({shown_paths})", repair, None))
    return findings, CacheAudit("unchanged" if found.remembered else "audited", found.clean_at)


def _skipped(lines: list[SkippedLine]) -> list[Finding]:
    """The lines and notes the cache leaves out (an unfinished last line is reported with
    the logs)."""
    lines = [line for line in lines if line.reason != UNFINISHED]
    return [_skipped_note(line) if line.path.endswith(".md") else Finding(
        f"{line.path}:{line.line}", f"the cache leaves this line out: {line.reason}",
        "nothing reads it (every query skips it): a line not committed yet can be fixed "
        "or removed; one a commit added past the checks stays (logs are append-only), "
        "and `memrepo verify` names that commit") for line in lines]


def _skipped_note(line: SkippedLine) -> Finding:
    problem, fix = split_fix(line.reason)
    return Finding(f"{line.path}:{line.line}", f"the cache leaves this note out: {problem}",
                   f"{fix or 'fix the note'}; the next query indexes it")


def _differs(root: Path, what: str, repair: bool, fresh: Path | None) -> Finding:
    path = relative(root, cache.cache_path(root))
    finding = Finding(path, f"the cache does not say what the files say: {what}",
                      "run `memrepo doctor --repair` (it rebuilds the cache from the files)")
    if not repair:
        return finding
    if fresh is not None:
        swap_in(root, fresh)
    else:
        cache.rebuild(root, announce=False)
    return done(finding, "rebuilt it from the files")


def index_files(root: Path, repair: bool) -> list[Finding]:
    """Each INDEX.md that does not match the notes of its folder. The notes' descriptions
    come from the cache when it is current (synced by `cache_file` just before): at 100k
    notes reading every note took most of doctor's minute."""
    if not (root / "memory").is_dir():
        return []
    indexed = _indexed_descriptions(root)
    try:
        texts = _index_texts(root, indexed)  # unreadable notes are `memrepo check`'s to report
        current = {category: current_index(root, category) for category in texts
                   if (root / index_path(category)).parent.is_dir()}
    except InputError:  # a symbolic link, which `_links` reports
        return []
    return [Finding(index_path(category), "INDEX.md does not match the notes of its folder",
                    "run `memrepo index`")
            for category, data in current.items() if data != texts[category].encode("utf-8")]


def _index_texts(root: Path, indexed: dict[str, dict[str, str]] | None) -> dict[str, str]:
    """The INDEX.md text of every category whose notes all parse."""
    if indexed is None:
        return build_indexes(root)[0]
    texts = {}
    for category in CATEGORIES:
        descriptions, broken = known_descriptions(root, category, indexed.get(category, {}))
        if not broken:
            texts[category] = render_index(category, descriptions)
    return texts


def _indexed_descriptions(root: Path) -> dict[str, dict[str, str]] | None:
    """The notes' descriptions by category from a sound cache, synced with the work tree
    as a query syncs it (notes saved in place too); None without one (doctor rebuilds no
    cache unasked)."""
    if not cache.cache_path(root).is_file():
        return None
    sound = audit.open_existing(root)
    if sound is None:
        return None
    sound.close()
    try:
        conn = cache.open_fresh(root)
    except InputError:
        return None
    try:
        return note_descriptions(conn)
    finally:
        conn.close()
