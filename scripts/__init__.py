"""The scripts the design card names (installed as memrepo.scripts): building and refreshing
the SQLite cache — what the post-checkout, post-merge and post-rewrite hooks run, and what a
person can run (`memrepo-build-cache`, `memrepo-refresh-cache`) — and the shared server's
pre-receive hook (`pre_receive.py`, `pre-receive`)."""
