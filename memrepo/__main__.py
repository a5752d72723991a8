"""`python -m memrepo`: what memrepo's git hooks run (memrepo.git.hook_scripts)."""

from __future__ import annotations

import gc
import sys

from memrepo.cli import main

code = main()
# The process ends here. The collector's last pass at exit walks every object of the
# modules a command imported (≈13 ms after a commit's checks, which a hooked commit waits
# for); frozen, they are left to the exit. Objects are still freed as their references go,
# files flushed, atexit handlers and finalizers run.
gc.freeze()
sys.exit(code)
