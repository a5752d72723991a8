"""The README's Python examples run as written, against a fresh memory repository."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.DOTALL)


def test_the_readme_starts_with_the_two_set_up_commands() -> None:
    text = README.read_text(encoding="utf-8")
    first = re.search(r"```bash\n(.*?)```", text, re.DOTALL)
    assert first is not None
    assert first.group(1).splitlines() == ["pip install -e . && memrepo demo",
                                           "pip install -e '.[test]' && python -m pytest -n 2"]
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install -e '.[test]' && python -m pytest -n 2" in ci


def test_the_agent_session_example_runs(memory_repo: Path) -> None:
    (block,) = python_blocks()
    exec(compile(block, "README.md", "exec"), {"repo": memory_repo})
