"""docs/editors.md as written: its example note commits through the hooks and is found by
its tags, the refusal it shows is the one the hooks print, and its shell commands run."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from memrepo.resources import data_dir
from tests.support import APPROVER, commit, git, memrepo, output, write

DOC = Path(__file__).resolve().parent.parent / "docs" / "editors.md"
JAN = """---
name: jan-novak
description: "Accountant at Acme: invoices, VAT questions, prefers email"
type: entity
---
# Jan Novák

## Contact

Email only.
"""


def blocks(kind: str) -> list[str]:
    """The doc's fenced blocks of one kind ("" for those without one), indented or not."""
    found: list[str] = []
    opened: tuple[str, list[str]] | None = None
    for line in DOC.read_text(encoding="utf-8").split("\n"):
        fence = re.fullmatch(r"\s*```(\w*)", line)
        if opened is None and fence:
            opened = (fence[1], [])
        elif opened is not None and fence:
            found += ["".join(opened[1])] if opened[0] == kind else []
            opened = None
        elif opened is not None:
            opened[1].append(line.strip() + "\n" if kind == "sh" else line + "\n")
    return found


def shell(repo: Path, script: str) -> None:
    done = subprocess.run(["bash", "-euc", script], cwd=repo, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, f"{script}\n{done.stdout}{done.stderr}"


def command(text: str) -> str:
    """The one sh block of the doc that holds `text`."""
    [found] = [block for block in blocks("sh") if text in block]
    return found


def example_note() -> str:
    [note] = blocks("markdown")
    return note


def test_the_example_note_commits_and_is_found_by_its_tags(memory_repo: Path) -> None:
    write(memory_repo, "memory/entities/jan-novak.md", JAN)
    write(memory_repo, "memory/project/vat-return.md", example_note())
    shell(memory_repo, command("git add -A"))  # the closing block: index, add -A, commit
    assert "[project] vat-return" in memrepo(memory_repo, "search", "bookkeeping").stdout
    shell(memory_repo, command("memrepo search"))


def test_the_refusal_it_shows_is_the_one_the_hooks_print(memory_repo: Path) -> None:
    write(memory_repo, "memory/entities/jan-novak.md", JAN)
    write(memory_repo, "memory/project/vat-return.md", example_note().replace(
        "[[jan-novak|our accountant]]", "[[anna-nowak|our accountant]]"))
    assert memrepo(memory_repo, "index").returncode == 0
    git(memory_repo, "add", "-A")
    done = commit(memory_repo, "VAT return")
    assert done.returncode == 1
    [shown] = [block for block in blocks("") if "points to no note" in block]
    assert shown in output(done)


def test_its_shell_commands_run(memory_repo: Path, tmp_path: Path) -> None:
    (memory_repo / "memory/.obsidian").mkdir()
    (memory_repo / "memory/.obsidian/workspace.json").write_text("{}\n")
    shell(memory_repo, command(".gitignore"))
    assert git(memory_repo, "status", "--porcelain").stdout == ""

    _without_tags(memory_repo)
    write(memory_repo, "memory/entities/jan-novak.md", JAN)
    write(memory_repo, "memory/project/vat-return.md", example_note())
    assert memrepo(memory_repo, "index").returncode == 0
    git(memory_repo, "add", "-A")
    refused = commit(memory_repo, "VAT return")
    assert "unknown key(s): 'tags'" in output(refused) and "docs/editors.md" in output(refused)
    git(memory_repo, "reset", "-q")
    upgrade = command("schema/notes/")
    assert APPROVER in upgrade
    shell(memory_repo, upgrade.replace("/tmp/memrepo-schema", str(tmp_path / "fresh")))
    shell(memory_repo, command("git add -A"))

    shell(memory_repo, command("git mv"))
    shell(memory_repo, command("git add -A"))
    assert (memory_repo / "memory/archive/project/vat-return.md").is_file()
    assert git(memory_repo, "status", "--porcelain").stdout == ""


def _without_tags(repo: Path) -> None:
    """The note schemas of a memory made before tags, committed with approval."""
    for path in (data_dir("schema") / "notes").glob("*.schema.json"):
        document = json.loads(path.read_text())
        del document["properties"]["tags"]
        write(repo, f"schema/notes/{path.name}", json.dumps(document, indent=2) + "\n")
    git(repo, "add", "schema")
    done = commit(repo, "note schemas without tags", "-m", f"Approved-by: {APPROVER}")
    assert done.returncode == 0, output(done)
