"""One refusal, as the checks and validators report it."""

from __future__ import annotations

from memrepo.core.display import shown
from memrepo.core.record_base import Record, init_field

RENDER_LIMIT = 1_000
"""Characters of a problem or fix shown: a refusal names what is wrong, it does not echo
a 60 KB value back."""


class Problem(Record):
    """A reason to refuse: where, what is wrong, and how to fix it."""

    __slots__ = ("fix", "line", "path", "problem")
    path: str
    problem: str
    fix: str
    line: int | None

    def __init__(self, path: str, problem: str, fix: str, line: int | None = None) -> None:
        init_field(self, "path", path)
        init_field(self, "problem", problem)
        init_field(self, "fix", fix)
        init_field(self, "line", line)

    def render(self) -> str:
        """`path[:line]: problem` and `  To fix: …`, control characters escaped."""
        where = shown(self.path) if self.line is None else f"{shown(self.path)}:{self.line}"
        return (f"{where}: {shown(self.problem, RENDER_LIMIT)}\n"
                f"  To fix: {shown(self.fix, RENDER_LIMIT)}")


INLINE_FIX = " (to fix: "
"""How a reason kept as one line of text (the cache's `skipped` rows) carries its fix."""


def with_fix(problem: str, fix: str) -> str:
    """`problem` and its fix as one line: "problem (to fix: fix)" (`split_fix` reads it)."""
    return f"{problem}{INLINE_FIX}{fix})"


def split_fix(reason: str) -> tuple[str, str | None]:
    """(problem, fix) of a `with_fix` line; (reason, None) for a reason without a fix."""
    problem, mark, fix = reason.partition(INLINE_FIX)
    return (problem, fix.removesuffix(")")) if mark else (reason, None)


class InputError(ValueError):
    """Bad input from a person or an agent: shown as one line, never as a traceback."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.render())
        self.detail = problem


class NotAMemory(InputError):
    """The path given (or the working directory) is not a memory repository: not a folder,
    not in a git repository, or without memory/config.yaml."""


class MemoryBusy(InputError):
    """Another writer holds the memory (memrepo's write lock, or a person's git command
    that moves the branch) past the lock timeout, or the branch kept moving: nothing was
    written; the same call can be retried."""


class CheckRefused(InputError):
    """The checks a commit goes through (a secret, an invalid event, a rule broken) refuse
    what the write would store: nothing was written; change the input, not the timing."""


def require_utf8(what: str, text: str | None) -> str | None:
    """`text` itself when it is valid Unicode text; a refusal for the lone surrogates that
    undecodable command-line bytes (or a JSON `\\ud800`) become in Python."""
    if text is not None and not text.isprintable():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise InputError(Problem(what, "is not valid UTF-8 text (undecodable bytes)",
                                     "give the text as UTF-8")) from None
    return text


def require_length(what: str, text: str | None, limit: int, fix: str) -> None:
    """Refuse a text longer than `limit` characters (a 1 MB query is refused, not run)."""
    if text is not None and len(text) > limit:
        raise InputError(Problem(what, f"is longer than {limit} characters ({len(text)})",
                                 fix))
