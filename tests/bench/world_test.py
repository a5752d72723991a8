"""memrepo.bench.world: a world file missing what FORMAT.md requires is refused in one line
naming the file, the entry and the key — before anything is built."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from memrepo.bench.world import judge_values, load
from memrepo.core.problems import InputError

HEAD = 'world: w\nnow: "2026-01-01T00:00:00Z"\n'
QUESTION = "questions:\n  - {id: Q1, scope: a, class: subject, text: 'Where?', expect: []}\n"


@pytest.mark.parametrize(("body", "said"), [
    ("events:\n  - {op: assert, scope: a, subject: b, relation: c, object: d,"
     " recorded_at: '2025-01-01T00:00:00Z'}\n" + QUESTION, "event 1 (assert) lacks 'valid_from'"),
    ("events:\n  - {op: end, scope: a, subject: b, relation: c,"
     " recorded_at: '2025-01-01T00:00:00Z'}\n" + QUESTION, "event 1 (end) lacks 'valid_to'"),
    ("events:\n  - {op: forget, recorded_at: '2025-01-01T00:00:00Z'}\n" + QUESTION,
     "event 1: 'op' is not assert, end or retract"),
    ("questions:\n  - {id: Q1, scope: a, class: subject}\n", "question 1 lacks 'text'"),
    ("notes:\n  - {category: entities, name: x}\n" + QUESTION, "note 1 lacks 'description'"),
    ("notes:\n  - {category: people, name: x, description: y}\n" + QUESTION,
     "note 1: category 'people' is not rules, entities, references or project"),
])
def test_a_world_missing_a_required_key_is_one_line_naming_it(tmp_path: Path, body: str,
                                                              said: str) -> None:
    path = tmp_path / "world.yaml"
    path.write_text(HEAD + body, encoding="utf-8")
    with pytest.raises(InputError, match=re.escape(said)):
        load(str(path))


def test_the_cli_shows_it_without_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "world.yaml").write_text(HEAD + "questions: []\nevents:\n  - {op: assert}\n",
                                         encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "memrepo", "bench", "world", str(tmp_path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode != 0
    assert f"{tmp_path / 'world.yaml'}: event 1 (assert) lacks 'scope'" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_missing_or_unreadable_world_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot read it"):
        load(str(tmp_path / "nowhere"))
    (tmp_path / "world.yaml").write_text("world: [\n", encoding="utf-8")
    with pytest.raises(InputError, match=re.escape("world.yaml:2: not valid YAML")):
        load(str(tmp_path))


def test_a_fact_names_an_expected_date_by_the_day_it_held_from(tmp_path: Path) -> None:
    """"od kiedy Juraj ma prawo jazdy" expects the day the licence holds from: the answer
    `juraj.prawo_jazdy = "kat. B"` (since 2016-05-20) names it, counted apart; another key's
    value is still a look-alike."""
    path = tmp_path / "world.yaml"
    path.write_text(HEAD + (
        "events:\n  - {op: assert, scope: a, subject: juraj, relation: prawo_jazdy,"
        " object: 'kat. B', valid_from: '2016-05-20', recorded_at: '2025-01-01T00:00:00Z',"
        " source: manual}\n"
        "questions:\n  - {id: Q1, scope: a, class: time, text: 'od kiedy?',"
        " expect: ['2016-05-20']}\n"), encoding="utf-8")
    world = load(str(path))
    question = world.questions[0]
    dated = judge_values(world, question, [("juraj.prawo_jazdy", "kat. B", ("2016-05-20",))])
    assert (dated.right, dated.by_date, dated.lookalike) == (True, True, False)
    other = judge_values(world, question, [("anna.prawo_jazdy", "kat. A", ("2019-01-01",))])
    assert (other.right, other.lookalike) == (False, True)
