"""The §6 commit-time checks, one module per check (installed as `memrepo.hooks`).

Each module defines `NEEDS_MESSAGE: bool`, `check(change) -> list[Problem]` and
`main(argv=None) -> int`; memrepo.checks.runner.HOOK_MODULES lists them in running order.
Run one on what is staged with `python -m memrepo.hooks.<name> [COMMIT_MSG_FILE]`.
"""
