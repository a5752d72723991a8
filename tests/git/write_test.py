"""HEAD as the library's commits see it (memrepo.git.write): pinned for a batch placing its
lines, asked again after."""

from __future__ import annotations

import subprocess
from pathlib import Path

from memrepo.git import write


def test_head_pinned_answers_as_on_entry_and_asks_again_after(memory_repo: Path) -> None:
    before = write.head_base(write.open_repo(memory_repo)).commit
    assert before is not None
    with write.head_pinned(memory_repo):
        subprocess.run(["git", "-C", str(memory_repo), "commit", "-q", "--allow-empty",
                        "--no-verify", "-m", "another commit"], check=True)
        pinned = write.head_base(write.open_repo(memory_repo)).commit
        assert pinned is not None and pinned.id == before.id
    after = write.head_base(write.open_repo(memory_repo)).commit
    assert after is not None and after.id != before.id
