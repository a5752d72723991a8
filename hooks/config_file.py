"""The memory's config (memory/config.yaml) is valid YAML and matches the config schema of
the parent commit (a commit cannot loosen the schema its own config is checked by).

Checked only when the config is part of the change. Cost: one file read, one schema
validation.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from memrepo.check_support import run_hook
from memrepo.config import snapshot_config
from memrepo.core.change import Change
from memrepo.core.config import CONFIG_PATH
from memrepo.core.problems import Problem

NEEDS_MESSAGE: bool = False


def check(change: Change) -> list[Problem]:
    touched = [f for f in change.files if f.path == CONFIG_PATH]
    if not touched:
        return []
    if touched[0].status == "deleted":
        return [Problem(CONFIG_PATH, "the config file was deleted",
                        f"restore it: git checkout HEAD -- {CONFIG_PATH}")]
    return snapshot_config(change.new, change.rules, validate=True)[1]


def main(argv: Sequence[str] | None = None) -> int:
    return run_hook(check, argv)


if __name__ == "__main__":
    sys.exit(main())
