"""One refusal, as the checks and validators report it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Problem:
    """A reason to refuse: where, what is wrong, and how to fix it."""

    path: str
    problem: str
    fix: str
    line: int | None = None

    def render(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.problem}\n  To fix: {self.fix}"


class InputError(ValueError):
    """Bad input from a person or an agent: shown as one line, never as a traceback."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.render())
        self.detail = problem
