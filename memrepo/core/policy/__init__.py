"""Policy: who approves what (§6.4), credentials (§6.6), trust levels (§8), extraction filters."""
