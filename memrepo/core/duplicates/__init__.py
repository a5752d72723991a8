"""Near-duplicates and triage: the one near-duplicate rule for keys and note names, a
scope's keys (the write gate), pairs over a whole memory, key merges, new notes against the
existing ones, triage findings."""
