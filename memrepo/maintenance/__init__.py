"""Keeping a memory repository in shape: init, demo, indexes, triage, doctor, sync."""
