"""The fact write path (SPEC §4, §5, §8): validate, lock, append, check in-process, commit."""
