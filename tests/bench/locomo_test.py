"""`memrepo bench locomo`: LoCoMo-shaped conversations of our own making (the real data set
is CC BY-NC and never part of the project) become notes committed through the hooks; the
questions go through search and the context block, beside the plain FTS5 floor."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from memrepo.bench.locomo import choose, load
from tests.support import isolated_env

CONVERSATIONS = [{
    "sample_id": "conv-a",
    "conversation": {
        "speaker_a": "Anna", "speaker_b": "Piotr",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Anna", "dia_id": "D1:1", "text": "I adopted a grey cat called Mruczek."},
            {"speaker": "Piotr", "dia_id": "D1:2",
             "text": "Lovely! I am training for a marathon."}],
        "session_2_date_time": "10:00 am on 2 June, 2023",
        "session_2": [
            {"speaker": "Anna", "dia_id": "D2:1", "text": "My pottery class starts in July."},
            {"speaker": "Piotr", "dia_id": "D2:2", "text": "I bought new running shoes."}],
        "session_3_date_time": "9:00 am on 1 July, 2023",
        "session_3": [
            {"speaker": "Anna", "dia_id": "D3:1", "text": "We sailed to Hel over the weekend."},
            {"speaker": "Piotr", "dia_id": "D3:2", "text": "The marathon went well, 3h40."}],
    },
    "qa": [
        {"question": "What is the name of Anna's cat?", "answer": "Mruczek",
         "evidence": ["D1:1"], "category": 1},
        {"question": "When does Anna's pottery class start?", "answer": "July",
         "evidence": ["D2:1"], "category": 2},
        {"question": "Where did Anna sail to?", "answer": "Hel", "evidence": ["D3:1"],
         "category": 4},
        {"question": "How long did Piotr's marathon take?", "answer": "3h40",
         "evidence": ["D3:2"], "category": 1},
    ],
}]


def test_sessions_and_questions_are_read_with_their_evidence(tmp_path: Path) -> None:
    (tmp_path / "locomo10.json").write_text(json.dumps(CONVERSATIONS), encoding="utf-8")
    sessions, asked = load(tmp_path)
    assert [s.name for s in sessions] == ["conv-a-session-1", "conv-a-session-2",
                                          "conv-a-session-3"]
    assert "8 May, 2023" in sessions[0].description
    assert asked[0].gold == {"conv-a-session-1"}
    assert len(choose(asked, "all", 10)) == 4


def test_the_benchmark_prints_recall_beside_the_floor(tmp_path: Path, git_home: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "locomo10.json").write_text(json.dumps(CONVERSATIONS),
                                                     encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "memrepo", "bench", "locomo", "--data",
                           str(tmp_path / "data"), "--dir", str(tmp_path / "repo")],
                          env=isolated_env(git_home), capture_output=True, text=True,
                          check=False, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = {line.split("|")[1].strip(): [cell.strip() for cell in line.split("|")[2:-1]]
            for line in done.stdout.splitlines() if line.startswith("| ")}
    assert rows["its ranking before the 'not recorded' threshold"][1] == "1.000"  # R@3
    assert rows["memrepo search (question as asked)"][1]
    assert rows["floor: plain FTS5 BM25, OR of the words"][1]
    log = subprocess.run(["git", "log", "--format=%s"], cwd=tmp_path / "repo",
                         capture_output=True, text=True, check=True).stdout
    assert "LoCoMo sessions as project notes" in log


def test_missing_data_is_a_clear_usage_error(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "memrepo", "bench", "locomo", "--data",
                           str(tmp_path)], capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert "no LoCoMo data here" in done.stderr and "Traceback" not in done.stderr
