"""Trust levels (SPEC §8): which scope a write goes to and which scopes a reader may read.

A session is started for one scope and one trust level, which no tool argument changes:
- `host`: writes and reads its scope;
- `untrusted`: writes only `quarantine-<scope>` (confidence capped), ends or retracts only
  what is there, and reads only that quarantine — unless whoever started it granted host
  reads explicitly (`memrepo serve --grant-host-reads`), which adds the host scope and the
  notes.
A person at the command line (`Reader()`) reads exactly the scope it names, quarantine
included, and every note.
"""

from __future__ import annotations

from dataclasses import dataclass

from memrepo.core.config import QUARANTINE_PREFIX, SLUG
from memrepo.core.problems import InputError, Problem

HOST = "host"
UNTRUSTED = "untrusted"
TRUST_LEVELS = (HOST, UNTRUSTED)
MAX_SCOPE_LENGTH = 100


def check_scope(scope: str) -> str:
    """The scope itself when it is a slug; InputError otherwise."""
    fix = "use lowercase letters, digits and '-', e.g. 'michal'"
    if len(scope) > MAX_SCOPE_LENGTH:
        raise InputError(Problem("--scope", f"is longer than {MAX_SCOPE_LENGTH} characters "
                                 f"({len(scope)})", fix))
    if not SLUG.fullmatch(scope):
        raise InputError(Problem("--scope", f"scope {scope[:120]!r} is not a slug", fix))
    return scope


def check_trust(trust: str) -> str:
    if trust not in TRUST_LEVELS:
        raise InputError(Problem("--trust", f"trust {trust[:40]!r} is neither 'host' nor "
                                 "'untrusted'", "use --trust host or --trust untrusted"))
    return trust


def quarantine_of(scope: str) -> str:
    """The quarantine of a host scope (a quarantine is its own quarantine)."""
    check_scope(scope)
    return scope if scope.startswith(QUARANTINE_PREFIX) else QUARANTINE_PREFIX + scope


def write_scope(scope: str, trust: str) -> str:
    """The scope a write (assert, end or retract) goes to: untrusted writes only ever reach
    `quarantine-<scope>`."""
    check_scope(scope)
    return scope if check_trust(trust) == HOST else quarantine_of(scope)


@dataclass(frozen=True, slots=True)
class Reader:
    """Who reads. `scope` is the scope a session was started for (None: a person, who reads
    what it names); `host_reads` is the explicit grant for an untrusted session."""

    scope: str | None = None
    trust: str = HOST
    host_reads: bool = False

    def __post_init__(self) -> None:
        check_trust(self.trust)
        if self.scope is not None:
            check_scope(self.scope)

    @property
    def reads_notes(self) -> bool:
        """Notes (indexes, triggers, note resources) are the host's memory too."""
        return self.trust == HOST or self.host_reads

    def fact_scopes(self, asked: str) -> tuple[str, ...]:
        """The scopes of facts a read of scope `asked` covers (quarantine first)."""
        check_scope(asked)
        if self.scope is None:
            return (asked,)
        if asked not in (self.scope, quarantine_of(self.scope)):
            raise InputError(Problem("scope", f"this session reads scope {self.scope!r} "
                                     f"only, not {asked!r}",
                                     "start a session for that scope"))
        if self.trust == HOST:
            return (asked,)
        own = quarantine_of(self.scope)
        return (own, self.scope) if self.host_reads and self.scope != own else (own,)
