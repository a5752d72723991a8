"""Doctor: the cache (corrupt, behind, leftovers of a rebuild, not saying what the files
say, lines it leaves out) and INDEX.md drift."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.core.problems import InputError, split_fix

from .findings import Finding, done, relative

if TYPE_CHECKING:
    from memrepo.cache.audit import SkippedLine


def cache_file(root: Path, repair: bool) -> list[Finding]:
    from memrepo import cache

    findings = _cache_leftovers(root, repair)
    try:
        cache.require_cache_file(cache.cache_path(root))
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
    from memrepo import cache
    from memrepo.git.activity import process_alive

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


def cache_contents(root: Path, repair: bool, deep: bool) -> list[Finding]:
    """Whether a sound, current cache says what the files say, and the lines it skips."""
    from memrepo import cache
    from memrepo.cache import audit
    from memrepo.cache.build import built_aside
    from memrepo.cache.rows import UNFINISHED
    from memrepo.cache.staleness import is_stale

    if not cache.cache_path(root).is_file():
        return []
    conn = audit.open_existing(root)
    if conn is None:
        return []  # missing, corrupt or behind: reported (and repaired) by _cache
    try:
        if is_stale(conn, root):
            return []
        findings = _skipped([line for line in audit.skipped_lines(conn)
                             if line.reason != UNFINISHED])  # reported with the logs
        if deep:
            with built_aside(root) as (fresh, _):
                differences = audit.deep_differences(conn, fresh)
                if differences:
                    findings.append(_differs(root, "; ".join(differences), repair, fresh))
        else:
            edited = audit.edited_logs(conn)
            if edited:
                shown_paths = ", ".join(edited[:3]) + (" …" if len(edited) > 3 else "")
                findings.append(_differs(root, f"rows of {len(edited)} log(s) were changed "
                                         f"after they were indexed ({shown_paths})",
                                         repair, None))
    finally:
        conn.close()
    return findings


def _skipped(lines: list[SkippedLine]) -> list[Finding]:
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
    from memrepo import cache
    from memrepo.cache.build import swap_in

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
    from memrepo.core.notes.headers import index_path
    from memrepo.maintenance.indexes import build_indexes, current_index

    if not (root / "memory").is_dir():
        return []
    try:
        texts, _ = build_indexes(root)  # unreadable notes are `memrepo check`'s to report
        current = {category: current_index(root, category) for category in texts
                   if (root / index_path(category)).parent.is_dir()}
    except InputError:  # a symbolic link, which `_links` reports
        return []
    return [Finding(index_path(category), "INDEX.md does not match the notes of its folder",
                    "run `memrepo index`")
            for category, data in current.items() if data != texts[category].encode("utf-8")]
