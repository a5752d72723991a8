"""`memrepo doctor [--repair]`: find (and put right) what an interrupted write can leave.

Diagnosed, and what `--repair` does (under the write lock, so no memrepo write runs
meanwhile):
- a merge, rebase, cherry-pick or revert left unfinished: a merge `memrepo sync` began
  (its message says so) is aborted — sync redoes it, nothing is lost; anyone else's is
  reported only. Checked first: lines a merge brought in are not "uncommitted lines";
- git hooks missing in this clone (a fresh clone has none): installed;
- symbolic links under memory/ or .memrepo/: reported only — memrepo never reads, writes
  or repairs through one;
- a fact log behind HEAD (killed after the commit, before the file was appended): the
  missing committed tail appended;
- a partial last line in a fact log (a write cut off): moved aside to
  `.memrepo/partial/<path-with-dashes>.<timestamp>` (never dropped: a person can read it)
  and the log cut back to its last `\\n`;
- complete lines appended but not committed (killed between append and commit): committed
  through the normal checked write path with a message saying so. Lines the checks refuse
  (e.g. left so long that they are now older than HEAD) are moved aside like a partial
  line, so the log is valid again; nothing committed is ever touched. (A later `remember`
  to the same segment also commits such lines; doctor does it for every log at once.)
- a log whose committed lines were changed or removed: reported only (`git checkout`);
- index entries of fact logs left behind HEAD (killed after the commit, before the index
  update; the work file equals HEAD): reset to HEAD;
- stale lock files under .git (`index.lock`, `<ref>.lock`, …) that no process holds:
  removed; a lock some process holds is reported only;
- the temporary index files (`.git/memrepo-index.<pid>.tmp`, `.old`) of writes killed
  while they updated the index, each as large as the index: removed when their process is
  gone (a live memrepo process's are never touched);
- a cache file that is corrupt or of an older schema: rebuilt; leftovers of a killed
  rebuild: removed; a stale (but sound) cache — ordinary after any write — is synced even
  without --repair, as the next query would, and reported as information, not a problem;
- a cache that does not say what the files say (memrepo.cache.audit): rows edited behind
  memrepo's back (a digest per log, cheap) or, with `deep`, any difference from a fresh
  build: rebuilt (the fresh build is swapped in). The default audit is not run again while
  the cache file and its sync state are those of the last clean audit
  (memrepo.cache.audit_memo): reported as "unchanged since the clean audit at <time>";
  `full` (`doctor --full`), `deep` and `repair` always audit;
- log lines the cache leaves out because the checks refuse them (committed with
  `--no-verify`): reported only — committed history is not rewritten;
- INDEX.md drift: reported only (`memrepo index`);
- a `.memrepo` memrepo cannot write (a read-only or full file system, no permission):
  reported, and the cache's checks (which write) skipped.
"""


from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from memrepo.cache.audit import EarlyAudit
from memrepo.facts.write_lock import write_lock

from .cache import cache_contents, cache_file, index_files, local_state
from .findings import Finding, Report
from .git_index import git_locks, index_behind_head, index_leftovers
from .logs import logs
from .operations import hooks, links, unfinished_operation

__all__ = ["Finding", "Report", "doctor"]


def doctor(root: Path, repair: bool = False, deep: bool = False,
           early: EarlyAudit | None = None, full: bool = False) -> Report:
    """Diagnose the clone at `root` (and repair what is safe to repair); `deep` compares
    the cache with a fresh build from the files (a full build's cost). A current cache is
    audited while the other checks run (nothing they do without `repair` changes it; if
    the work tree does meanwhile, it is audited again): `early`, an audit the caller
    started already (`EarlyAudit.start`), else one started here. The audit is not run
    again while the cache is as it was at the last clean one (memrepo.cache.audit_memo;
    `report.cache_audit` says so) unless `full`, `repair` or `deep`."""
    report = Report()
    if repair:
        with write_lock(root):
            _run_checks(root, True, deep, None, full, report)
    else:
        early = early or (None if deep else EarlyAudit.start(root, full))
        _run_checks(root, False, deep, early, full, report)
    return report


def _run_checks(root: Path, repair: bool, deep: bool, early: EarlyAudit | None, full: bool,
                report: Report) -> None:
    unfinished = unfinished_operation(root, repair)
    report.findings.extend(unfinished)
    checks: tuple[Callable[[Path, bool], list[Finding]], ...] = (
        hooks, links, git_locks, index_leftovers, index_behind_head, cache_file, index_files)
    if not any(f.repaired is None for f in unfinished):
        checks = (hooks, links, git_locks, index_leftovers, logs, index_behind_head,
                  cache_file, index_files)
    unwritable = local_state(root, repair)
    report.findings.extend(unwritable)
    if unwritable:  # the cache's checks write (a sync, a rebuild): the files are read
        checks = tuple(c for c in checks if c is not cache_file)
    for check in checks:
        report.findings.extend(check(root, repair))
    if not unwritable:
        contents, report.cache_audit = cache_contents(root, repair, deep, early, full)
        report.findings.extend(contents)
