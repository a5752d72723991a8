"""Commit-message trailers, read by hand: pygit2 keeps only the last of repeated keys."""

from __future__ import annotations

import re

_TRAILER = re.compile(r"^([A-Za-z][A-Za-z0-9-]*):[ \t]+(\S.*?)\s*$")


def parse_trailers(message: str) -> list[tuple[str, str]]:
    """Every `Key: value` line of the message's last paragraph, in order, repeats kept.

    Like git, a trailer block is the final paragraph whose lines are all trailers;
    comment lines (`#`) that git strips are ignored.
    """
    lines = [ln for ln in message.replace("\r\n", "\n").split("\n") if not ln.startswith("#")]
    while lines and not lines[-1].strip():
        lines.pop()
    block: list[str] = []
    for line in reversed(lines):
        if not line.strip():
            break
        block.append(line)
    if len(block) == len(lines):  # a message that is only a subject has no trailers
        return []
    matches = [_TRAILER.match(line) for line in reversed(block)]
    if not all(matches):
        return []
    return [(m.group(1), m.group(2)) for m in matches if m]


def trailer_values(message: str, key: str) -> list[str]:
    """All values of one trailer key (case-insensitive), in order."""
    wanted = key.lower()
    return [value for name, value in parse_trailers(message) if name.lower() == wanted]


def with_trailers(subject: str, trailers: list[tuple[str, str]], body: str = "") -> str:
    """Build a commit message: subject, optional body, then one trailer per line."""
    parts = [subject.strip()]
    if body.strip():
        parts.append(body.strip())
    if trailers:
        parts.append("\n".join(f"{key}: {value}" for key, value in trailers))
    return "\n\n".join(parts) + "\n"
