"""Lines judged in batches (`judged_lines`: one credential screen for many lines) get the
verdicts `judged_line` gives each alone — every credential format, credential word and
ordinary value the secrets bench samples, between lines the screens pass over."""

from __future__ import annotations

import random
from pathlib import Path

import orjson
import pytest

from memrepo.bench.secret_samples import format_sample, ordinary_values
from memrepo.core.facts import line_rules
from memrepo.core.facts.line_rules import Bound, LineRules, judged_line, judged_lines
from memrepo.core.policy.credential_words import spellings
from memrepo.core.policy.token_formats import format_set
from memrepo.files import WorkTree
from memrepo.schemas import EVENT_SCHEMA, checker

STAMP = "2026-05-03T10:00:00Z"


def _event(n: int, subject: str, relation: str, value: str, **extra: object) -> bytes:
    return orjson.dumps({"id": f"e{n:06d}", "op": "assert", "recorded_at": STAMP,
                         "scope": "michal", "subject": subject, "relation": relation,
                         "object": value, "valid_from": "2026-05-01", "confidence": 1.0,
                         "trust": "host", "source": "manual", "session": "s", **extra})


def _lines() -> list[bytes]:
    formats = format_set()
    samples = [format_sample(f, formats) for f in formats.formats]
    texts = [(subject, relation, value) for subject, relation, value in ordinary_values(300)]
    texts += [("server", "details", sample) for sample in samples]
    texts += [("router", spelling, "hunter2") for spelling, _ in spellings()]
    texts += [("anna", "note", f"her {spelling} is in the drawer") for spelling, _ in
              spellings()]
    lines = [_event(n, *text) for n, text in enumerate(texts)]
    lines += [_event(len(lines) + n, "anna", "note", "see the quote", source="chat",
                     quote=f"it is {sample}") for n, sample in enumerate(samples[:40])]
    lines += [b"not json", b"[1, 2]", orjson.dumps({"op": ["assert"], "id": "x"}),
              _event(0, "anna", "city", "\u202eŁódź"), _event(1, "a\tb", "city", "x"),
              _event(2, "anna", "city", "Łódź", colour="blue")]
    random.Random(7).shuffle(lines)
    return lines


@pytest.mark.parametrize("batch", [1, 5, 64, 256])
def test_batches_judge_every_line_as_it_is_judged_alone(
        batch: int, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    rules = LineRules(checker(EVENT_SCHEMA, WorkTree(tmp_path)), None,
                      Bound(10**18, "now"))
    lines = _lines()
    alone = [judged_line(line, "michal", "2026-05", rules, True) for line in lines]
    monkeypatch.setattr(line_rules, "SCREEN_BATCH", batch)
    assert judged_lines([(line, True) for line in lines], "michal", "2026-05",
                        rules) == alone
    refused = [verdict for verdict in alone if isinstance(verdict, str)]
    assert sum("credential" in reason for reason in refused) > 300
