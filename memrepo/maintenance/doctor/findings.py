"""What `memrepo doctor` reports: a finding per problem, and what --repair did about it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


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


@dataclass(slots=True)
class Report:
    findings: list[Finding] = field(default_factory=list)

    @property
    def healthy(self) -> bool:
        return all(f.repaired is not None for f in self.findings)

    def to_json(self) -> dict[str, Any]:
        return {"healthy": self.healthy, "findings": [f.to_json() for f in self.findings]}


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
