"""What `memrepo doctor` reports: a finding per problem, and what --repair did about it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem found; `repaired` says what --repair did about it (None: nothing)."""

    path: str
    problem: str
    fix: str
    repaired: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "problem": self.problem, "fix": self.fix,
                "repaired": self.repaired}


@dataclass(frozen=True, slots=True)
class CacheAudit:
    """What became of the audit of the cache (memrepo.cache.audit): `status` "audited" (run
    now), "unchanged" (not run: the cache is as it was at the clean audit at `clean_at`,
    memrepo.cache.audit_memo) or "not run" (no sound, current cache to audit). `clean_at`:
    the time of the last clean audit when known (this run's, when it was clean)."""

    status: Literal["audited", "unchanged", "not run"]
    clean_at: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "clean_at": self.clean_at}

    def said(self) -> str | None:
        """The line a person reads when the audit was not run again; None otherwise."""
        if self.status != "unchanged":
            return None
        return (f"the cache's audit: unchanged since the clean audit at {self.clean_at} "
                "(`memrepo doctor --full` audits it again)")


NOT_AUDITED = CacheAudit("not run")


@dataclass(slots=True)
class Report:
    findings: list[Finding] = field(default_factory=list)
    cache_audit: CacheAudit = NOT_AUDITED

    @property
    def healthy(self) -> bool:
        return all(f.repaired is not None for f in self.findings)

    def to_json(self) -> dict[str, Any]:
        return {"healthy": self.healthy, "findings": [f.to_json() for f in self.findings],
                "cache_audit": self.cache_audit.to_json()}


def done(finding: Finding, what: str) -> Finding:
    return Finding(finding.path, finding.problem, finding.fix, what)


def relative(root: Path, path: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


GIT_FIX = ("end the other git process (or remove its stale lock) and run `memrepo doctor "
           "--repair` again")
"""What to do when a git command doctor runs fails."""
