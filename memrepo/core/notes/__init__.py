"""Notes: headers (and their plain YAML reader), links, INDEX.md files, TRIGGERS.md, the
text edits of a note merge."""
