"""Answering a question (SPEC §7): the question as retrieval reads it, its times, its
parts, the relevance rules, and the answer."""
