"""Every pygit2 call of memrepo: reading snapshots and changes (`read`), writing commits (`write`).

Importing this package does not import pygit2 (≈55 ms); its modules do.
"""
