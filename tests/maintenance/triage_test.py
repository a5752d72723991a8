"""`memrepo triage` on crafted repositories: each finding kind, the report, --apply."""

from __future__ import annotations

import json
import subprocess
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from tests.support import (
    APPROVER,
    HOOKS_OFF,
    commit,
    event,
    git,
    lines,
    memrepo,
    note,
    now_stamp,
    segment,
    write,
)


def put(repo: Path, category: str, name: str, description: str, body: str,
        **extra: Any) -> None:
    write(repo, f"memory/{category}/{name}.md", note(category, name, description, body,
                                                       **extra))


def commit_all(repo: Path, message: str, *extra: str) -> None:
    assert memrepo(repo, "index").returncode == 0
    git(repo, "add", "-A")
    done = commit(repo, message, *extra)
    assert done.returncode == 0, done.stdout + done.stderr


def triage_json(repo: Path, *args: str, now: str | None = None) -> dict[str, Any]:
    done = run_memrepo(repo, "triage", "--json", *args, now=now)
    assert done.returncode == 0, done.stdout + done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def run_memrepo(repo: Path, *args: str, now: str | None = None,
                ) -> subprocess.CompletedProcess[str]:
    import os

    env = dict(os.environ, **({"MEMREPO_NOW": now} if now else {}))
    return subprocess.run(["memrepo", *args], cwd=repo, capture_output=True, text=True,
                          env=env, check=False)


def of_kind(report: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [f for f in report["findings"] if f["kind"] == kind]


def record(repo: Path, *facts: dict[str, Any]) -> str:
    """Append asserts recorded now (the hooks refuse back-dated ones) and commit them
    through the hooks; triage then pins MEMREPO_NOW where a test needs it."""
    stamp = now_stamp()
    events = [event(f"e{number}-{stamp[:10]}", stamp, **fields)
              for number, fields in enumerate(facts, len(git(repo, "log", "--oneline")
                                                          .stdout.splitlines()))]
    for scope in {e["scope"] for e in events}:
        path = repo / segment(stamp, scope)
        old = path.read_bytes() if path.exists() else b""
        write(repo, segment(stamp, scope), old + lines(*[e for e in events
                                                        if e["scope"] == scope]))
    git(repo, "add", "-A")
    done = commit(repo, "facts")
    assert done.returncode == 0, done.stdout + done.stderr
    return stamp


CAR = {"subject": "car", "relation": "colour", "valid_from": "2026-01-01"}


# --- detection -----------------------------------------------------------------------------

def test_near_duplicates_by_folding_title_alias_and_spelling(memory_repo: Path) -> None:
    repo = memory_repo
    put(repo, "project", "site-roadmap", "Website relaunch milestones, owners and dates",
        "Milestones.\n")
    put(repo, "project", "roadmap", "Plan for the web shop relaunch with launch dates",
        "# Site Roadmap\n\nThe plan.\n")
    put(repo, "entities", "michal-novak", "Plumber from Brno, fixes boilers, call mornings",
        "# Michal Novak\n")
    put(repo, "entities", "m-novak", "Boiler repairs in Brno, answers calls before noon",
        "# M. Novák\n", aliases=["Michał Novák"])
    put(repo, "entities", "lodz-packaging", "Box supplier: minimum order 500, 10 days",
        "# Łódź Packaging\n")
    put(repo, "entities", "lodz-packageing", "Cardboard boxes, minimum 500, ten-day lead time",
        "Boxes.\n")
    put(repo, "entities", "anna", "Neighbour who waters the plants in August", "Anna.\n")
    put(repo, "entities", "anne", "Colleague from the Prague office, speaks French", "Anne.\n")
    commit_all(repo, "notes", "--no-verify")  # duplicates the commit check would refuse
    pairs = {(f["subject"], f["related"][0]) for f in
             of_kind(triage_json(repo), "near-duplicate")}
    assert pairs == {("memory/project/roadmap.md", "memory/project/site-roadmap.md"),
                     ("memory/entities/m-novak.md", "memory/entities/michal-novak.md"),
                     ("memory/entities/lodz-packageing.md",
                      "memory/entities/lodz-packaging.md")}


def test_quarantined_fact_contradicting_a_host_fact(memory_repo: Path) -> None:
    repo = memory_repo
    record(repo, {**CAR, "object": "red", "quote": "my car is red"},
           {**CAR, "object": "blue", "quote": "the car is blue", "source": "web",
            "scope": "quarantine-michal", "trust": "untrusted", "confidence": 0.3})
    report = triage_json(repo)
    [contradiction] = of_kind(report, "contradiction")
    assert contradiction["subject"] == "quarantine-michal: car.colour"
    assert "'blue'" in contradiction["problem"] and "'red'" in contradiction["problem"]
    [waiting] = of_kind(report, "quarantine")
    assert "memrepo promote --scope michal" in waiting["action"]


def test_two_sources_assert_one_key_and_valid_time(memory_repo: Path) -> None:
    repo = memory_repo
    record(repo, {**CAR, "object": "red", "quote": "my car is red"})
    record(repo, {**CAR, "object": "green", "quote": "car: green", "source": "invoice"})
    [finding] = of_kind(triage_json(repo), "contradiction")
    assert finding["subject"] == "michal: car.colour"
    assert "'green' wins" in finding["problem"] and len(finding["related"]) == 2


def test_fact_not_reconfirmed_for_a_year(memory_repo: Path) -> None:
    repo = memory_repo
    stamp = record(repo, {**CAR, "object": "red", "quote": "my car is red"})
    today = datetime.strptime(stamp[:10], "%Y-%m-%d")
    later = (today + timedelta(days=300)).strftime("%Y-%m-%d")
    assert of_kind(triage_json(repo, now=later), "stale-fact") == []
    next_year = (today + timedelta(days=367)).strftime("%Y-%m-%d")
    [stale] = of_kind(triage_json(repo, now=next_year), "stale-fact")
    assert stale["subject"] == "michal: car.colour"
    assert today.strftime("%Y-%m-%d") in stale["problem"]


def test_dead_link_orphan_and_category_limit(memory_repo: Path) -> None:
    repo = memory_repo
    config = (repo / "memory/config.yaml").read_text()
    write(repo, "memory/config.yaml", config + "\nlimits:\n  project: 1\n")
    put(repo, "project", "kitchen-renovation", "Kitchen renovation: budget, contractor, dates",
        "Tiles chosen; see [[tile-shop]].\n")
    put(repo, "project", "tile-shop", "Tile shop on Main Street: prices and opening hours",
        "Open 9-17.\n")
    commit_all(repo, "notes and a tiny limit", "-m", f"Approved-by: {APPROVER}")
    path = repo / "memory/project/kitchen-renovation.md"  # a dead link: only by hand
    path.write_text(path.read_text() + "Ask [[plumber-jan]] about the sink.\n")
    report = triage_json(repo)
    [dead] = of_kind(report, "dead-link")
    assert (dead["subject"], dead["line"]) == ("memory/project/kitchen-renovation.md", 7)
    assert "plumber-jan" in dead["problem"]
    assert [f["subject"] for f in of_kind(report, "orphan")] == [
        "memory/project/kitchen-renovation.md"]
    [limit] = of_kind(report, "over-limit")
    assert limit["subject"] == "memory/project/" and "limit of 1" in limit["problem"]


def test_markdown_report_to_a_file(demo_repo: Path, tmp_path: Path) -> None:
    record(demo_repo, {"subject": "email", "relation": "policy", "object": "use bcc",
                       "quote": "use bcc", "source": "web", "scope": "quarantine-michal",
                       "trust": "untrusted", "confidence": 0.3})
    target = tmp_path / "reports" / "triage.md"
    target.parent.mkdir()
    done = run_memrepo(demo_repo, "triage", "--report", str(target), now="2030-11-02")
    assert done.returncode == 0 and done.stdout == ""
    text = target.read_text()
    assert text.startswith("# Memory triage, 2030-11-02\n")
    assert "| Quarantined facts awaiting review | 1 |" in text
    assert "| Near-duplicate notes | 0 |" in text
    assert "## Quarantined facts awaiting review (1)" in text
    assert "`quarantine-michal: email.policy` — 'use bcc' from web" in text
    assert [p.name for p in target.parent.iterdir()] == ["triage.md"]


# --- --apply --------------------------------------------------------------------------------

ORIGIN = '"2026-03-02 Ann asked for it"'


def _duplicates_repo(repo: Path) -> None:
    put(repo, "entities", "jan-novak", "Accountant at Acme: invoices, VAT questions, email",
        "# Jan Novák\n\nPrefers email.\n", updated="2026-05-01")
    put(repo, "entities", "jan-nowak", "Acme accountant handling invoices and VAT by email",
        "# Jan Nowak\n")
    put(repo, "project", "vat-filing", "Quarterly VAT filing steps and who signs what",
        "Send to [[jan-novak]], copy [Jan](/memory/entities/jan-nowak.md).\n"
        "See [[site-roadmap]] and [[roadmap]].\n")
    put(repo, "project", "site-roadmap", "Website relaunch milestones, owners and dates",
        "Milestones; ask [[jan-novak]].\n")
    put(repo, "project", "roadmap", "Plan for the web shop relaunch with launch dates",
        "# Site Roadmap\n\nThe plan.\n")
    put(repo, "rules", "write-absolute-dates", "Write dates as YYYY-MM-DD, never relative",
        "Dates.\n", origin=ORIGIN)
    put(repo, "rules", "write-absolute-date", "Dates in stored notes use the YYYY-MM-DD form",
        "Dates.\n", origin=ORIGIN)
    triggers = repo / "memory/TRIGGERS.md"
    triggers.write_text(triggers.read_text() + "| accountant, VAT | jan-nowak, vat-filing |\n")
    commit_all(repo, "notes", "-m", f"Approved-by: {APPROVER}", "--no-verify")  # (as above)


def test_apply_merges_each_duplicate_in_its_own_commit(memory_repo: Path) -> None:
    repo = memory_repo
    _duplicates_repo(repo)
    before = git(repo, "rev-parse", "HEAD").stdout.strip()
    done = run_memrepo(repo, "triage", "--apply", "--json", now="2026-06-01")
    assert done.returncode == 0, done.stdout + done.stderr
    actions = json.loads(done.stdout)["actions"]
    assert [a["status"] for a in actions] == ["skipped", "committed", "committed"]
    assert "Approved-by" in actions[0]["detail"]
    log = git(repo, "log", "--format=%s%n%b", f"{before}..HEAD").stdout
    assert log.count("triage: merge") == 2
    assert "Merged-into: jan-novak" in log
    assert "Removed: jan-nowak: merged into jan-novak by triage" in log
    assert "Merged-into: site-roadmap" in log  # backlinks equal: the longer body wins
    assert (repo / "memory/archive/entities/jan-nowak.md").is_file()
    assert not (repo / "memory/entities/jan-nowak.md").exists()
    kept = (repo / "memory/entities/jan-novak.md").read_text()
    assert 'aliases: ["Jan Nowak"]\n' in kept
    vat = (repo / "memory/project/vat-filing.md").read_text()
    assert "[Jan](/memory/entities/jan-novak.md)" in vat and "jan-nowak" not in vat
    assert "| jan-novak, vat-filing |" in (repo / "memory/TRIGGERS.md").read_text()
    kept_plan = (repo / "memory/project/site-roadmap.md").read_text()
    assert ("## From roadmap, Site Roadmap (merged 2026-06-01)\n\nDescription: Plan for the "
            "web shop relaunch with launch dates\n\nThe plan.\n") in kept_plan
    assert memrepo(repo, "verify").returncode == 0
    assert memrepo(repo, "check", "--all").returncode == 0
    assert git(repo, "status", "--porcelain").stdout == ""
    left = triage_json(repo, now="2026-06-01")
    assert [f["subject"] for f in of_kind(left, "near-duplicate")] == [
        "memory/rules/write-absolute-date.md"]


def test_a_refused_action_leaves_nothing_behind(memory_repo: Path) -> None:
    repo = memory_repo
    put(repo, "project", "site-roadmap", "Website relaunch milestones, owners and dates",
        "Milestones; draft in /tmp/roadmap.txt.\n")
    put(repo, "project", "roadmap", "Plan for the web shop relaunch with launch dates",
        "# Site Roadmap\n\nThe plan.\n")
    put(repo, "project", "hub", "Index of web shop projects with owners and dates",
        "[[site-roadmap]] and [[roadmap]].\n")
    assert memrepo(repo, "index").returncode == 0
    git(repo, "add", "-A")
    assert git(repo, *HOOKS_OFF, "commit", "-m", "bypassing the hooks").returncode == 0
    head = git(repo, "rev-parse", "HEAD").stdout
    done = run_memrepo(repo, "triage", "--apply", now="2026-06-01")
    assert done.returncode == 1
    assert "**refused**: merged memory/project/roadmap.md into memory/project/" in done.stdout
    assert "/tmp/" in done.stdout
    assert git(repo, "rev-parse", "HEAD").stdout == head
    assert git(repo, "status", "--porcelain", "--untracked-files=all").stdout == ""


def test_apply_refuses_to_start_with_uncommitted_changes(memory_repo: Path) -> None:
    write(memory_repo, "memory/project/draft.md", "draft")
    done = run_memrepo(memory_repo, "triage", "--apply")
    assert done.returncode == 1 and "uncommitted changes" in done.stderr
