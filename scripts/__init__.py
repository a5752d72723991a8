"""The shared server's pre-receive hook (installed as memrepo.scripts)."""
