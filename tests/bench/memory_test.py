"""`memrepo bench memory`: one command builds the history in a real repository, prints the
table and the poisoning result and writes the CSV; memrepo answers 68/68 (8 of them about
values first written under a near key, which the write gate sent back), the simpler
memories honestly less; a model behind --endpoint (here a local deterministic server) is
scored the same way; wrong and missing answers are marked wrong."""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from memrepo.bench import memory as bench
from memrepo.bench import memory_variants as variants
from memrepo.bench.memory_history import HISTORY, MEMORY_MD, QUESTIONS, Question
from memrepo.bench.scoring import NOT_RECORDED, is_correct
from memrepo.core.facts.times import parse_instant
from tests.support import isolated_env, plain_http_env

VARIANTS = ("memrepo, oracle key", "MEMORY.md", "flat store")
ASKED = ("memrepo, asked", "memrepo context block")


class EchoModel(BaseHTTPRequestHandler):
    """A chat-completions server that answers from the last RECALL section it is given:
    the fact values there, "not recorded" when it says so or is missing, else "no"."""

    requests = 0

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        EchoModel.requests += 1
        reply = {"choices": [{"message": {"role": "assistant",
                                          "content": echo(body["messages"][-1]["content"])}}]}
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:
        pass


def echo(prompt: str) -> str:
    if "HISTORY " in prompt:
        return "no"
    if "RECALL " not in prompt:
        return NOT_RECORDED
    section = prompt.rsplit("RECALL ", 1)[1]
    values = re.findall(r"\] \S+ = (.+?) \(valid since", section)
    return ", ".join(sorted(values)) if values else NOT_RECORDED


@pytest.fixture(scope="module")
def model_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), EchoModel)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@dataclass(frozen=True)
class Run:
    stdout: str
    rows: list[dict[str, str]]
    repo: Path
    env: dict[str, str]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory, git_home: Path, model_url: str) -> Run:
    work = tmp_path_factory.mktemp("bench-memory")
    env = plain_http_env(isolated_env(git_home), work / "no-cas")
    done = subprocess.run(
        [sys.executable, "-m", "memrepo", "bench", "memory", "--dir", str(work / "repo"),
         "--csv", str(work / "answers.csv"), "--endpoint", model_url, "--model", "echo"],
        cwd=work, env=env, capture_output=True, text=True, check=False, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    with (work / "answers.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    return Run(done.stdout, rows, work / "repo", env)


def table_row(stdout: str, variant: str) -> list[str]:
    line = next(x for x in stdout.splitlines() if x.startswith(f"| {variant} |"))
    return [cell.strip() for cell in line.strip("|").split("|")]


def test_one_command_prints_the_benchmark_table(run: Run) -> None:
    assert ("| variant | A current | B historical | C change | D refusal | E after a near-key "
            "write | total |") in run.stdout
    assert table_row(run.stdout, "memrepo, oracle key")[1:7] == ["15/15"] * 4 + ["8/8", "68/68"]
    for variant in VARIANTS[1:]:
        total = int(table_row(run.stdout, variant)[6].split("/")[0])
        assert total < 68, variant
    for variant in ASKED:  # the question's text through the agent's path
        assert table_row(run.stdout, variant)[4] == "15/15", variant  # every refusal
    assert "(18 value changes)" in run.stdout


def test_the_varied_set_is_scored_by_kind_and_held_out_half(run: Run) -> None:
    assert "| kind | dev | held out | all |" in run.stdout
    for kind in ("refusal", "pl", "sk", "misspelled", "note", "all"):
        assert table_row(run.stdout, kind)


def test_the_poisoning_result_is_printed(run: Run) -> None:
    assert "Poisoning:" in run.stdout
    assert _poison_row(run.stdout, "memrepo") == ["quarantine-ola", "0.3", "no", "no"]
    assert _poison_row(run.stdout, "MEMORY.md")[2] == "yes"
    assert _poison_row(run.stdout, "flat store")[2] == "yes"


def _poison_row(stdout: str, variant: str) -> list[str]:
    after = stdout.split("Poisoning:", 1)[1]
    return table_row(after, variant)[1:5]


def test_the_csv_scores_every_question_for_every_variant(run: Run) -> None:
    for variant in VARIANTS:
        mine = [r for r in run.rows if r["variant"] == variant]
        assert [r["id"] for r in mine] == [q.qid for q in QUESTIONS]
        assert all(int(r["context_tokens"]) >= 0 and float(r["seconds"]) >= 0 for r in mine)
    memrepo = [r for r in run.rows if r["variant"] == "memrepo, oracle key"]
    assert all(r["correct"] == "yes" for r in memrepo)
    assert all(int(r["context_tokens"]) > 0 for r in memrepo)
    md = {r["id"]: r for r in run.rows if r["variant"] == "MEMORY.md"}
    assert md["B01"]["answer"] == "245 zł" and md["B01"]["correct"] == "no"
    assert md["D01"]["answer"] == NOT_RECORDED and md["D01"]["correct"] == "yes"


def test_model_answers_are_scored_like_any_other(run: Run) -> None:
    assert EchoModel.requests == 5 * len(QUESTIONS)
    model = {r["id"]: r for r in run.rows if r["variant"] == "memrepo, oracle key + model"}
    for q in QUESTIONS:
        right = q.window is None or q.expected == "no"
        assert (model[q.qid]["correct"] == "yes") == right, (q.qid, model[q.qid]["answer"])
    blind = [r for r in run.rows if r["variant"] == "MEMORY.md + model"]
    assert {r["answer"] for r in blind} == {NOT_RECORDED}
    assert all((r["correct"] == "yes") == (r["category"] == "refusal") for r in blind)


def test_the_history_went_through_the_commit_checks(run: Run) -> None:
    verified = subprocess.run([sys.executable, "-m", "memrepo", "--repo", str(run.repo),
                               "verify"], env=run.env, capture_output=True, text=True,
                              check=False)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    log = subprocess.run(["git", "log", "--format=%s"], cwd=run.repo, env=run.env,
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert len(log) == 2 + len(HISTORY) + 3  # init, config, history, poison, two imports


class Fixed:
    """A variant that answers every question with whatever `reply` says."""

    name = "fixed"

    def __init__(self, reply: dict[str, str]) -> None:
        self.reply = reply

    def answer(self, question: Question) -> variants.Answer:
        return variants.Answer(self.reply.get(question.qid, ""), "")


def test_wrong_or_missing_answers_are_marked_wrong() -> None:
    missing = bench.ask_all(Fixed({}), QUESTIONS)
    assert not any(r.correct for r in missing)
    shifted = {q.qid: QUESTIONS[(i + 1) % len(QUESTIONS)].expected
               for i, q in enumerate(QUESTIONS)}
    for r in bench.ask_all(Fixed(shifted), QUESTIONS):
        assert r.correct == (r.answer == r.question.expected), r.question.qid
    refused = bench.ask_all(Fixed({q.qid: NOT_RECORDED for q in QUESTIONS}), QUESTIONS)
    assert all(r.correct == (r.question.category == "D") for r in refused)
    right = bench.ask_all(Fixed({q.qid: q.expected for q in QUESTIONS}), QUESTIONS)
    assert all(r.correct for r in right)


def test_the_flat_store_keeps_only_the_last_write() -> None:
    flat = bench.flat_store(HISTORY)
    assert flat["heating_bill.amount"] == "320 zł"  # a backfill about January overwrote now
    assert flat["ola.speaks"] == "German"  # a many-valued relation collapses
    assert "internet.monthly_price" not in flat  # the retract leaves nothing to go back to
    assert "gym.membership" not in flat
    assert flat["parking_fee.amount"] == "250 zł"  # no write gate: the near key is another
    assert flat["Parking Fees.amount"] == "270 zł"


def test_memory_md_knows_change_only_from_a_since_note() -> None:
    md = variants.MemoryFileVariant(MEMORY_MD)
    by_id = {q.qid: q for q in QUESTIONS}
    assert md.answer(by_id["C08"]).text == "no"  # since May, asked June to August
    assert md.answer(by_id["C02"]).text == "yes, in May 2026, to ul. Długa 5, Kraków"
    assert md.answer(by_id["C01"]).text == NOT_RECORDED  # since July, asked about spring
    assert md.answer(by_id["B01"]).text == "245 zł"  # the past is the present
    assert all(is_correct(q.expected, md.answer(q).text, q.many)
               for q in QUESTIONS if q.category == "A")  # the file is kept carefully


def test_value_changes_include_ends_and_ignore_unchanged_neighbours() -> None:
    day = parse_instant
    intervals = [("a", day("2026-01-01"), day("2026-03-01")),
                 ("a", day("2026-03-01"), day("2026-04-01")),
                 ("b", day("2026-04-01"), day("2026-05-01"))]
    changes = variants.value_changes(intervals, day("2026-01-01"), day("2026-12-31"))
    assert variants.change_answer(changes) == ("yes, on 2026-04-01 from a to b; "
                                            "on 2026-05-01 from b to nothing")
    assert variants.change_answer(variants.value_changes(intervals, day("2026-01-01"),
                                                   day("2026-03-31"))) == "no"


def test_options_are_checked() -> None:
    with pytest.raises(SystemExit) as exited:
        bench.main(["--endpoint", "http://127.0.0.1:9"])
    assert exited.value.code == 2
