"""README.md and docs/ as written: every ```console block runs, in order, in a fresh home
folder per page (one bash, so `cd` and variables carry from one command to the next), and
prints what the page shows; every ```python block of docs/ runs against a fresh memory.

In a console block, `$ ` starts a command (a line ending in `\\` continues it, a heredoc
runs to its closing word), the lines after it are what it prints: each must be a whole line
of its output, in order (`…` stands for any text; lines the page leaves out are allowed).
A command must exit 0 unless it ends with the comment `# exit N`."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.support import CLEARED, ROOT

README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = [README, *sorted(DOCS.glob("*.md"))]
MARK = "@@memrepo-docs-test"
IDENTITY = {"GIT_AUTHOR_NAME": "Michał Kowalski", "GIT_AUTHOR_EMAIL": "michal@example.com",
            "GIT_COMMITTER_NAME": "Michał Kowalski",
            "GIT_COMMITTER_EMAIL": "michal@example.com"}


@dataclass
class Command:
    text: str
    exit: int = 0
    shows: list[str] = field(default_factory=list)


def fenced(page: Path, kind: str) -> list[str]:
    return re.findall(rf"^```{kind}\n(.*?)^```$", page.read_text(encoding="utf-8"),
                      re.DOTALL | re.MULTILINE)


def commands(page: Path) -> list[Command]:
    found: list[Command] = []
    for block in fenced(page, "console"):
        lines = block.splitlines()
        while lines:
            line = lines.pop(0)
            if not line.startswith("$ "):
                if found and line.strip():
                    found[-1].shows.append(line.rstrip())
                continue
            text = line[2:]
            while text.endswith("\\") and lines:
                text += "\n" + lines.pop(0)
            wanted = re.search(r"# exit (\d+)$", text)
            heredoc = re.search(r"<<-?'?(\w+)'?", text)
            while heredoc and lines:
                body = lines.pop(0)
                text += "\n" + body
                if body == heredoc.group(1):
                    break
            found.append(Command(text, int(wanted.group(1)) if wanted else 0))
    return found


def script(steps: list[Command]) -> str:
    parts = [f"printf '\\n{MARK} {n}\\n'\n{{ {step.text}\n}} 2>&1\n"
             f"printf '\\n{MARK} rc %s\\n' $?" for n, step in enumerate(steps)]
    return "\n".join(parts) + "\n"


def environment(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in CLEARED}
    env.update(IDENTITY, HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"),
               GIT_CONFIG_NOSYSTEM="1", MEMREPO_VECTORS="0",
               PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}")
    return env


def outputs(text: str, count: int) -> list[tuple[str, int]]:
    """(output, exit code) of each command, from the markers the script printed."""
    found = []
    for n in range(count):
        start = text.index(f"\n{MARK} {n}\n") + len(f"\n{MARK} {n}\n")
        end = text.index(f"\n{MARK} rc ", start)
        code = text[end + len(f"\n{MARK} rc "):].split("\n", 1)[0]
        found.append((text[start:end], int(code)))
    return found


def pattern(shown: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in shown.strip().split("…")))


def assert_shows(step: Command, printed: str) -> None:
    lines = [line.strip() for line in printed.splitlines()]
    at = 0
    for shown in step.shows:
        wanted = pattern(shown)
        while at < len(lines) and not wanted.fullmatch(lines[at]):
            at += 1
        assert at < len(lines), f"$ {step.text}\nexpected the line: {shown}\nit printed:\n{printed}"
        at += 1


@pytest.mark.parametrize("page", [p for p in PAGES if fenced(p, "console")],
                         ids=lambda p: p.name)
def test_every_console_block_runs_as_shown(page: Path, tmp_path: Path) -> None:
    steps = commands(page)
    home = tmp_path / "home"
    home.mkdir()
    done = subprocess.run(["bash", "-c", script(steps)], cwd=home, env=environment(home),
                          capture_output=True, text=True, check=False, timeout=600)
    for step, (printed, code) in zip(steps, outputs(done.stdout, len(steps)), strict=True):
        assert code == step.exit, f"$ {step.text}\nexited {code}, not {step.exit}:\n{printed}"
        assert_shows(step, printed)


@pytest.mark.parametrize("page", [p for p in PAGES[1:] if fenced(p, "python")],
                         ids=lambda p: p.name)
def test_every_python_block_of_the_docs_runs(page: Path, memory_repo: Path) -> None:
    for block in fenced(page, "python"):
        exec(compile(block, str(page), "exec"), {"repo": memory_repo})


def test_the_readme_is_short_and_the_docs_are_many_pages() -> None:
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 300
    assert len(list(DOCS.glob("*.md"))) >= 8


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_no_page_cites_a_document_a_clone_lacks(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert not re.search(r"§\s?\d", text), "section numbers of SPEC, which is not in a clone"
    prose = re.sub(r"^```.*?^```$|`[^`\n]*`", "", text, flags=re.DOTALL | re.MULTILINE)
    for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", prose):
        assert (page.parent / target).exists(), f"{page.name} links to {target}"


def test_a_console_block_is_read_as_commands_and_output() -> None:
    page = DOCS / "example.md.txt"
    try:
        page.write_text("```console\n$ echo a \\\n  b  # exit 0\na b\n$ cat <<'EOF'\n"
                        "x\nEOF\nx\n$ false  # exit 1\n```\n", encoding="utf-8")
        [echo, cat, false] = commands(page)
    finally:
        page.unlink()
    assert echo.text == "echo a \\\n  b  # exit 0" and echo.shows == ["a b"]
    assert cat.text == "cat <<'EOF'\nx\nEOF" and cat.shows == ["x"] and false.exit == 1
    assert pattern("added x (…, commit …)").fullmatch("added x (01AB, commit 5f0c)")
