"""The §6 commit-time checks as a library: the runner and its registry, the one config
loader, JSON Schemas, and what a check entry point needs."""
