"""`memrepo bench secrets`: every format and credential word found in values, quotes and
notes; false alarms counted on the demo memory, the worlds, LoCoMo-shaped conversations of
our own making (the real set is never part of the project) and generated ordinary values."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from memrepo.bench.secret_samples import ORDINARY, ordinary_values
from memrepo.bench.secrets import locomo_texts, ordinary_alarms
from tests.bench.locomo_test import CONVERSATIONS
from tests.support import isolated_env

LEAKY = [{**CONVERSATIONS[0], "conversation": {
    **CONVERSATIONS[0]["conversation"],  # type: ignore[dict-item]
    "session_4": [{"speaker": "Anna", "dia_id": "D4:1", "text": "The wifi password is Zaq12wsx!"}],
}}]


def _run(tmp_path: Path, data: object, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "locomo10.json").write_text(json.dumps(data), encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "memrepo", "bench", "secrets", "--locomo",
                           str(tmp_path), "--values", "600", *args], capture_output=True,
                          text=True, check=False, env=isolated_env(tmp_path))


def test_the_benchmark_meets_its_targets_and_prints_each_figure(tmp_path: Path) -> None:
    done = _run(tmp_path, CONVERSATIONS)
    assert done.returncode == 0, done.stdout + done.stderr
    total = re.search(r"(\d+) token formats", done.stdout)
    assert total is not None and int(total[1]) >= 60
    for group in ("memrepo formats", "gitleaks tokens", "gitleaks keyed"):
        for place in ("value", "quote", "note"):
            found = re.search(rf"(\d+) {group}, {place} +(\d+) of (\d+)", done.stdout)
            assert found is not None and found[1] == found[2] == found[3], done.stdout
    for place in ("value", "quote", "note"):
        assert re.search(rf"credential words, {place} +(\d+) of \1 ", done.stdout), done.stdout
    for corpus in ("demo memory", "question worlds", "LoCoMo", "ordinary values"):
        assert re.search(rf"{corpus} +0 of [1-9]", done.stdout), done.stdout
    assert re.search(r"neighbour keys +0 of [1-9]", done.stdout)


def test_a_false_alarm_fails_the_benchmark(tmp_path: Path) -> None:
    """The same run on a conversation that does hold a password: it is counted (the
    benchmark would fail on real text that alarms, and names the line)."""
    done = _run(tmp_path, LEAKY)
    assert done.returncode == 1
    assert re.search(r"LoCoMo +1 of ", done.stdout)
    assert "alarm: LoCoMo: The wifi password is" in done.stdout


def test_locomo_texts_are_turns_captions_and_summaries(tmp_path: Path) -> None:
    data = [{**CONVERSATIONS[0], "session_summary": {"s1": "Anna adopted a cat."}}]
    (tmp_path / "locomo10.json").write_text(json.dumps(data), encoding="utf-8")
    texts = locomo_texts(tmp_path)
    assert "I adopted a grey cat called Mruczek." in texts
    assert "Anna adopted a cat." in texts


def test_ordinary_values_are_many_kinds_and_the_same_for_a_seed() -> None:
    values = ordinary_values(len(ORDINARY) * 10, seed=3)
    assert values == ordinary_values(len(ORDINARY) * 10, seed=3)
    assert len({relation for _, relation, _ in values}) > len(ORDINARY)
    assert ordinary_alarms(2_000, seed=1).found == 0
