"""`memrepo triage [--apply]` for issue 11 in real repositories through the hooks: a note
merge keeps every line the merged-away note had and `git revert` of it restores every
file; near-duplicate fact keys are reported, contradictions across them too, and merged
by ending the duplicate and re-asserting its values with their provenance; what someone
said is different (`Not-a-duplicate-of:`, `--new-key`) is left alone."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tests.support import commit, event, git, lines, memrepo, note, now_stamp, segment, write

TODAY = datetime.now(UTC).strftime("%Y-%m-%d")


def triage(repo: Path, *args: str) -> dict[str, Any]:
    done = memrepo(repo, "triage", "--json", *args)
    assert done.returncode == 0, done.stdout + done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def of_kind(report: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [f for f in report["findings"] if f["kind"] == kind]


def legacy_commit(repo: Path, message: str = "from before the commit check") -> None:
    """Commit what a memory made before the near-duplicate check could hold."""
    assert memrepo(repo, "index").returncode == 0
    git(repo, "add", "-A")
    done = commit(repo, message, "--no-verify")
    assert done.returncode == 0, done.stdout + done.stderr


def record(repo: Path, *facts: dict[str, Any]) -> list[str]:
    """Asserts and ends recorded now in scope michal, committed through the hooks."""
    stamp = now_stamp()
    events = [event(f"k{number}-{stamp[:10]}", stamp, **fields)
              for number, fields in enumerate(facts, len(git(repo, "log", "--oneline")
                                                          .stdout.splitlines()))]
    path = repo / segment(stamp)
    write(repo, segment(stamp), (path.read_bytes() if path.exists() else b"") + lines(*events))
    git(repo, "add", "-A")
    done = commit(repo, "facts")
    assert done.returncode == 0, done.stdout + done.stderr
    return [e["id"] for e in events]


# --- notes ---------------------------------------------------------------------------------

def test_a_merge_keeps_every_line_and_git_revert_restores_it(memory_repo: Path) -> None:
    repo = memory_repo
    write(repo, "memory/entities/jan-kowalski.md", note(
        "entities", "jan-kowalski", "Accountant at Acme in Kraków: invoices and VAT",
        "# Jan Kowalski\n\nAccountant at Acme.\nEmail: jan@acme.example\n"))
    write(repo, "memory/entities/jan-kowalsky.md", note(
        "entities", "jan-kowalsky", "Jan from Acme accounting, reachable by phone",
        "# Jan Kowalsky\n\nAccountant at Acme.\nPhone: +48 600 100 200\n"))
    write(repo, "memory/project/vat-filing.md", note(
        "project", "vat-filing", "Quarterly VAT filing steps and who signs what",
        "Send to [[jan-kowalski]], call [Jan](/memory/entities/jan-kowalsky.md).\n"))
    legacy_commit(repo)
    before = {p: (repo / p).read_text() for p in ("memory/entities/jan-kowalski.md",
                                                  "memory/entities/jan-kowalsky.md",
                                                  "memory/project/vat-filing.md",
                                                  "memory/entities/INDEX.md")}
    [finding] = of_kind(triage(repo), "near-duplicate")
    assert "'kowalski' and 'kowalsky' are one typo apart" in finding["problem"]
    actions = triage(repo, "--apply")["actions"]
    assert [a["status"] for a in actions] == ["committed"], actions
    kept = (repo / "memory/entities/jan-kowalski.md").read_text()
    assert kept.startswith(before["memory/entities/jan-kowalski.md"].split("---\n# ")[0]
                           .replace("type: entity\n", "type: entity\naliases: "
                                    '["Jan Kowalsky"]\n'))
    assert (f"## From jan-kowalsky, Jan Kowalsky (merged {TODAY})\n\n"
            "Description: Jan from Acme accounting, reachable by phone\n\n"
            "Phone: +48 600 100 200\n") in kept
    assert kept.count("Accountant at Acme.") == 1
    assert "/memory/entities/jan-kowalski.md" in (repo / "memory/project/vat-filing.md"
                                                   ).read_text()
    message = git(repo, "log", "-1", "--format=%B").stdout
    assert "Merged-into: jan-kowalski" in message
    found = json.loads(memrepo(repo, "search", "600 100 200", "--json").stdout)
    assert [r["name"] for r in found["results"]] == ["jan-kowalski"]

    done = git(repo, "revert", "--no-edit", "HEAD", check=False)  # through the hooks
    assert done.returncode == 0, done.stdout + done.stderr
    assert {p: (repo / p).read_text() for p in before} == before
    assert not (repo / "memory/archive/entities/jan-kowalsky.md").exists()
    assert memrepo(repo, "verify").returncode == 0


def test_a_merge_keeps_the_tags_and_every_editor_link_form(memory_repo: Path) -> None:
    repo = memory_repo
    write(repo, "memory/entities/jan-kowalsky.md", note(
        "entities", "jan-kowalsky", "Jan from Acme accounting, reachable by phone",
        "# Jan Kowalsky\n\n## Phone\n\n+48 600 100 200\n", tags='["#invoices"]'))
    write(repo, "memory/entities/jan-kowalski.md", note(
        "entities", "jan-kowalski", "Accountant at Acme in Kraków: invoices and VAT",
        "# Jan Kowalski\n\nAccountant at Acme.\n", tags="[Invoices, payroll]"))
    write(repo, "memory/project/vat-filing.md", note(
        "project", "vat-filing", "Quarterly VAT filing steps and who signs what",
        "Ask [[jan-kowalsky]]. Call [[jan-kowalski#Phone|Jan]], ![[jan-kowalski]].\n\n"
        "| who |\n|---|\n| [[jan-kowalski\\|Jan]] |\n"))
    write(repo, "memory/project/payroll-run.md", note(
        "project", "payroll-run", "Monthly payroll run: who prepares it and the deadlines",
        "Prepared by [[jan-kowalsky#Phone|Jan]].\n"))
    legacy_commit(repo)
    actions = triage(repo, "--apply")["actions"]
    assert [(a["status"], a["summary"]) for a in actions] == [(
        "committed", "merged memory/entities/jan-kowalski.md into "
        "memory/entities/jan-kowalsky.md")], actions  # the one with more backlinks is kept
    kept = (repo / "memory/entities/jan-kowalsky.md").read_text()
    assert 'tags: ["#invoices", "payroll"]\n' in kept
    assert (repo / "memory/project/vat-filing.md").read_text().endswith(
        "Ask [[jan-kowalsky]]. Call [[jan-kowalsky#Phone|Jan]], ![[jan-kowalsky]].\n\n"
        "| who |\n|---|\n| [[jan-kowalsky\\|Jan]] |\n")
    found = json.loads(memrepo(repo, "search", "payroll", "--json").stdout)
    assert "jan-kowalsky" in [r["name"] for r in found["results"]]
    assert of_kind(triage(repo), "dead-link") == []


def test_someone_saying_two_notes_differ_is_respected(memory_repo: Path) -> None:
    repo = memory_repo
    write(repo, "memory/entities/jan-kowalski.md", note(
        "entities", "jan-kowalski", "Accountant at Acme in Kraków: invoices and VAT"))
    legacy_commit(repo)
    write(repo, "memory/entities/jan-kowalsky.md", note(
        "entities", "jan-kowalsky", "Jan Kowalsky the carpenter from Gdańsk, oak tables"))
    assert memrepo(repo, "index").returncode == 0
    git(repo, "add", "-A")
    done = commit(repo, "the carpenter", "-m", "Not-a-duplicate-of: jan-kowalski")
    assert done.returncode == 0, done.stdout + done.stderr
    assert of_kind(triage(repo), "near-duplicate") == []


# --- fact keys -----------------------------------------------------------------------------

BILL = {"subject": "electricity_bill", "relation": "amount", "source": "email"}
TYPO = {**BILL, "subject": "electricty_bill", "source": "sms"}


def recall(repo: Path, subject: str, as_of: str) -> list[tuple[str, str | None]]:
    done = memrepo(repo, "recall", "--scope", "michal", "--subject", subject,
                   "--relation", "amount", "--as-of", as_of, "--json")
    assert done.returncode == 0, done.stderr
    return [(f["object"], f["quote"]) for f in json.loads(done.stdout)["facts"]]


def test_near_duplicate_keys_are_merged_with_their_provenance(memory_repo: Path) -> None:
    repo = memory_repo
    record(repo, {**BILL, "object": "245 zł", "valid_from": "2026-01-01",
                  "valid_to": "2026-03-01", "quote": "245 zł in January"},
           {**TYPO, "object": "260 zł", "valid_from": "2026-03-01",
            "quote": "the bill is 260 zł now"},
           {"subject": "car", "relation": "colour", "object": "red", "quote": "red car",
            "valid_from": "2026-01-01"})
    report = triage(repo)
    [finding] = of_kind(report, "near-duplicate-key")
    assert finding["subject"] == "michal: electricty_bill.amount"
    assert "looks like the key electricity_bill.amount" in finding["problem"]
    assert of_kind(report, "contradiction") == []
    head = git(repo, "rev-parse", "HEAD").stdout
    actions = triage(repo, "--apply")["actions"]
    assert [a["status"] for a in actions] == ["committed"], actions
    assert git(repo, "rev-parse", "HEAD~1").stdout == head  # one commit
    assert recall(repo, "electricity_bill", "2026-02-01") == [("245 zł", "245 zł in January")]
    assert recall(repo, "electricity_bill", "2026-06-01") == [("260 zł",
                                                               "the bill is 260 zł now")]
    assert recall(repo, "electricty_bill", "2026-06-01") == []
    message = git(repo, "log", "-1", "--format=%B").stdout
    assert "Merged-key: michal: electricty_bill.amount -> electricity_bill.amount" in message
    history = json.loads(memrepo(repo, "history", "--scope", "michal", "electricity_bill",
                                 "amount", "--json").stdout)["events"]
    carried = history[-1]
    assert (carried["source"], carried["session"], carried["object"]) == ("sms", "triage",
                                                                          "260 zł")
    assert f"{carried['id']} carries " in message
    assert of_kind(triage(repo), "near-duplicate-key") == []
    assert memrepo(repo, "verify").returncode == 0
    assert git(repo, "status", "--porcelain").stdout == ""
    # logs are append-only (a `git revert` fails `memrepo verify`): the merge is undone
    # by retracting the events it wrote
    ended = json.loads(memrepo(repo, "history", "--scope", "michal", "electricty_bill",
                               "amount", "--json").stdout)["events"]
    for written in (e for e in history + ended if e["session"] == "triage"):
        done = memrepo(repo, "retract", "--scope", "michal", "--reason", "undo the merge",
                       written["id"])
        assert done.returncode == 0, done.stderr
    assert recall(repo, "electricity_bill", "2026-06-01") == []
    assert recall(repo, "electricty_bill", "2026-06-01") == [("260 zł",
                                                              "the bill is 260 zł now")]
    assert recall(repo, "electricity_bill", "2026-02-01") == [("245 zł", "245 zł in January")]


def test_keys_holding_different_values_at_once_are_a_contradiction(memory_repo: Path,
                                                                  ) -> None:
    repo = memory_repo
    record(repo, {**BILL, "object": "245 zł", "valid_from": "2026-01-01", "quote": "245"},
           {**TYPO, "object": "260 zł", "valid_from": "2026-03-01", "quote": "260"})
    report = triage(repo)
    [contradiction] = of_kind(report, "contradiction")
    assert contradiction["subject"] == "michal: electricity_bill.amount"
    assert "from 2026-03-01: '245 zł' and '260 zł'" in contradiction["problem"]
    head = git(repo, "rev-parse", "HEAD").stdout
    [action] = triage(repo, "--apply")["actions"]
    assert action["status"] == "skipped" and "different values" in action["detail"]
    assert git(repo, "rev-parse", "HEAD").stdout == head


def test_a_key_written_with_new_key_is_not_reported(memory_repo: Path) -> None:
    repo = memory_repo
    said = memrepo(repo, "remember", "--scope", "michal", "car", "colour", "red")
    assert said.returncode == 0, said.stderr
    assert memrepo(repo, "remember", "--scope", "michal", "car", "color", "RAL 3020"
                   ).returncode == 1
    said = memrepo(repo, "remember", "--scope", "michal", "car", "color", "RAL 3020",
                   "--new-key")
    assert said.returncode == 0, said.stderr
    assert "Not-a-duplicate-of: michal: car.colour" in git(repo, "log", "-1",
                                                           "--format=%B").stdout
    assert of_kind(triage(repo), "near-duplicate-key") == []
