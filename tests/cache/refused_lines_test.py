"""The cache serves nothing the checks refuse (SPEC §7, issue 21 item 3): lines appended to
a log by hand that `git commit` refuses — a GitHub token, tag characters, zero-width
text, an unknown field, a back-dated recorded_at — and a note holding a credential or a
bidi override are left out of recall, context and search, named once on stderr, and
listed by doctor; committed past the checks, they stay out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.support import HOOKS_OFF, git, memrepo_at, note, plain_env, write

NOW = "2030-06-15T12:00:00Z"  # after the first commit of memory_repo, made now
LOG = "memory/facts/michal/2030-06.jsonl"
TOKEN = "ghp_" + "Zq8Lr2Vt6Nw4Xc1Bm7Kp3Hs9Dj5Fg0Ay2Qe7"
TAGS = "".join(chr(0xE0000 + ord(c)) for c in "obey")


def refused_lines(base: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """What each hand-appended line holds, by the city it names (each a key of its own)."""
    return {
        "Gdynia": {**base, "object": f"Gdynia {TOKEN}"},
        "Sopot": {**base, "object": f"Sopot{TAGS}"},
        "Hel": {**base, "object": "He\u200bl"},
        "Puck": {**base, "object": "Puck", "note": "an unknown field"},
        "Reda": {**base, "object": "Reda", "recorded_at": "2030-06-01T00:00:00Z"},
    }


def start(repo: Path) -> dict[str, Any]:
    done = memrepo_at(repo, "remember", "--scope", "michal", "home", "city", "Kraków",
                      now=NOW)
    assert done.returncode == 0, done.stderr
    [line] = (repo / LOG).read_text(encoding="utf-8").splitlines()
    return dict(json.loads(line))


def append(repo: Path, events: list[dict[str, Any]]) -> None:
    with (repo / LOG).open("a", encoding="utf-8") as log:
        for event in events:
            log.write(json.dumps(event, ensure_ascii=False) + "\n")


def each_refused(base: dict[str, Any]) -> list[dict[str, Any]]:
    """The refused lines, each with an id and a subject of its own."""
    return [{**event, "id": f"01KZ{number:022d}", "subject": f"place{number}"}
            for number, event in enumerate(refused_lines(base).values(), 1)]


def test_hand_appended_lines_the_commit_refuses_are_never_served(memory_repo: Path) -> None:
    base = start(memory_repo)
    events = each_refused(base)
    append(memory_repo, events)
    git(memory_repo, "add", LOG, env=plain_env())
    assert git(memory_repo, "commit", "-qm", "by hand", check=False,
               env=plain_env(MEMREPO_NOW=NOW)).returncode != 0  # what the commit says
    first = memrepo_at(memory_repo, "recall", "--scope", "michal", "--json", "city",
                       now=NOW)
    assert first.returncode == 0, first.stderr
    shown = first.stdout + first.stderr
    for city in ("Gdynia", "Sopot", "Hel", "Puck", "Reda"):
        assert city not in first.stdout
    named = [x for x in first.stderr.splitlines() if x.startswith(f"memrepo: {LOG}:")]
    assert len(named) == 5, first.stderr
    assert TOKEN not in shown and TAGS not in shown and "Traceback" not in shown
    reasons = "\n".join(named)
    for part in ("looks like a credential", "invisible character (U+E006F)",
                 "invisible character (U+200B)", "unknown key(s): 'note'",
                 "back-dated"):
        assert part in reasons, reasons
    context = memrepo_at(memory_repo, "context", "--scope", "michal",
                         "where", "do", "I", "live", now=NOW)
    assert context.returncode == 0 and "Kraków" in context.stdout
    for city in ("Gdynia", "Sopot", "Hel", "Puck", "Reda"):
        assert city not in context.stdout
    assert LOG not in context.stderr  # named once
    doctor = memrepo_at(memory_repo, "doctor", now=NOW)
    listed = [x for x in doctor.stdout.splitlines() if "the cache leaves this line out" in x]
    assert [x.split(":")[1] for x in listed] == ["2", "3", "4", "5", "6"], doctor.stdout
    assert TOKEN not in doctor.stdout + doctor.stderr


def test_committed_past_the_checks_and_rebuilt_they_stay_out(memory_repo: Path) -> None:
    base = start(memory_repo)
    append(memory_repo, each_refused(base)[:4])
    git(memory_repo, "add", LOG, env=plain_env())
    git(memory_repo, *HOOKS_OFF, "commit", "-qm", "past the checks", env=plain_env())
    rebuilt = memrepo_at(memory_repo, "cache", "rebuild", now=NOW)
    assert rebuilt.stderr.count(f"memrepo: {LOG}:") == 4, rebuilt.stderr
    recall = memrepo_at(memory_repo, "recall", "--scope", "michal", "city", now=NOW)
    assert "Kraków" in recall.stdout
    assert not any(c in recall.stdout for c in ("Gdynia", "Sopot", "Hel", "Puck"))


def test_a_note_with_a_credential_or_a_bidi_override_is_left_out(memory_repo: Path) -> None:
    write(memory_repo, "memory/entities/router.md", note(
        "entities", "router", "The office router zanzibar", f"Admin token {TOKEN}\n"))
    write(memory_repo, "memory/entities/invoice.md", note(
        "entities", "invoice", "Invoice zanzibar attachment", "Open invoice\u202etxt.exe\n"))
    first = memrepo_at(memory_repo, "search", "zanzibar", now=NOW)
    assert "router" not in first.stdout and "invoice" not in first.stdout
    named = sorted(x for x in first.stderr.splitlines() if x.startswith("memrepo: memory/"))
    assert len(named) == 2 and "invisible character (U+202E)" in named[0], named
    assert "looks like a credential" in named[1] and TOKEN not in first.stderr
    doctor = memrepo_at(memory_repo, "doctor", now=NOW)
    assert ("memory/entities/router.md:6: the cache leaves this note out: looks like a "
            "credential (a GitHub token)") in doctor.stdout
    assert ("memory/entities/invoice.md:6: the cache leaves this note out: contains an "
            "invisible character (U+202E)") in doctor.stdout
