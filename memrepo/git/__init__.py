"""git, the only way memrepo touches it: every git process (`command`), every pygit2 call —
reading snapshots and changes (`read`), writing commits (`write`).

Importing this package does not import pygit2 (≈55 ms); `read` and `write` do.
"""
