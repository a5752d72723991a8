"""The pure triage rules (memrepo.core.duplicates.triage) and merge edits
(memrepo.core.notes.merge_edits)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memrepo.core.config import Config
from memrepo.core.duplicates.triage import (
    LinkRecord,
    NoteRecord,
    TriageInput,
    near_duplicates,
    plan_merges,
    title_of,
    triage,
)
from memrepo.core.facts.events import Event
from memrepo.core.facts.times import parse_instant
from memrepo.core.notes.headers import parse_note
from memrepo.core.notes.merge_edits import (
    add_aliases,
    add_tags,
    mention_merged,
    retarget_links,
    retarget_triggers,
)

NOW = parse_instant("2027-06-01")


def rec(name: str, category: str = "project", title: str | None = None,
        aliases: tuple[str, ...] = (), links: tuple[str, ...] = (), size: int = 10,
        description: str | None = None) -> NoteRecord:
    return NoteRecord(f"memory/{category}/{name}.md", category, name, title,
                      description or f"Description of {name} with enough words",
                      aliases, tuple(LinkRecord(t, 5) for t in links), size=size)


def ev(id_: str, op: str = "assert", scope: str = "michal", subject: str = "car",
       relation: str = "colour", object: str | None = "red", valid_from: str = "2026-01-01",
       recorded_at: str = "2026-01-02", **extra: Any) -> Event:
    return Event(id=id_, op=op, recorded_at=parse_instant(recorded_at), scope=scope,  # type: ignore[arg-type]
                 subject=subject, relation=relation, object=object,
                 valid_from=parse_instant(valid_from) if op == "assert" else None,
                 source=extra.pop("source", "chat"), **extra)


def kinds(given: TriageInput) -> list[str]:
    return [f.kind for f in triage(given)]


# --- near-duplicates ---------------------------------------------------------------------

@pytest.mark.parametrize(("a", "b"), [
    ("jan-novak", "jan-nowak"),            # substitution
    ("site-roadmap", "site-roadmp"),       # deletion
    ("tauron", "taurron"),                 # insertion
    ("lodz-packaging", "lodz-pakcaging"),  # adjacent swap
    ("kowalski-jan", "jan-kowalski"),      # word order
    ("house-plant", "house-plants"),       # plural
    ("lodzpackaging", "lodz-packaging"),   # word breaks
])
def test_one_letter_misspellings_are_variants(a: str, b: str) -> None:
    assert len(near_duplicates([rec(a), rec(b)])) == 1


@pytest.mark.parametrize(("a", "b"), [
    ("anna", "anne"), ("tom", "tim"), ("mark", "mary"),   # short: another name, not a typo
    ("vat-return-q2-2026", "vat-return-q3-2026"),         # other numbers: other things
    ("car-service-2025", "car-service-2026"),
    ("site-roadmap", "site-routemap"),                    # two edits
    ("jan-kowalski", "anna-kowalska"),                    # relatives
    ("jan-novak", "jana-novakova"),
])
def test_unrelated_or_numbered_names_are_not_variants(a: str, b: str) -> None:
    assert near_duplicates([rec(a), rec(b)]) == []


def test_two_words_other_notes_use_are_no_typo() -> None:
    notes = [rec("konrad-borkowski"), rec("konrad-borowski"), rec("piotr-borowski"),
             rec("ewa-borkowska"), rec("piotr-borkowski")]
    assert near_duplicates(notes) == []
    [duplicate] = near_duplicates(notes[:3])
    assert {duplicate.first.name, duplicate.second.name} == {"konrad-borkowski",
                                                             "konrad-borowski"}


def test_name_and_title_same_after_folding() -> None:
    notes = [rec("site-roadmap"), rec("roadmap", title="Site Roadmap")]
    [duplicate] = near_duplicates(notes)
    assert {duplicate.first.name, duplicate.second.name} == {"site-roadmap", "roadmap"}
    assert "same after folding" in duplicate.how


def test_diacritics_via_alias_and_title() -> None:
    notes = [rec("michal-novak", "entities", title="Michal Novak"),
             rec("m-novak", "entities", title="M. Novák", aliases=("Michał Novák",))]
    assert len(near_duplicates(notes)) == 1


def test_spelling_variant_names_and_similarity_in_reason() -> None:
    [duplicate] = near_duplicates([rec("jan-novak", "entities"), rec("jan-nowak", "entities")])
    assert "'novak' and 'nowak' are one typo apart" in duplicate.how


def test_identical_descriptions_are_duplicates() -> None:
    notes = [rec("a-one", description="Ordering profile: minimum quantities, lead times"),
             rec("b-two", description="ordering profile:  minimum quantities, lead times")]
    assert near_duplicates(notes)[0].how == "identical descriptions"


def test_distinct_notes_are_not_duplicates() -> None:
    notes = [rec("anna"), rec("anne"), rec("vat-return-q2-2026"), rec("vat-return-q3-2026"),
             rec("tauron", title="Tauron"), rec("skoda-centrum", title="Škoda Centrum")]
    assert near_duplicates(notes) == []


def test_a_note_is_not_its_own_duplicate() -> None:
    assert near_duplicates([rec("jan-novak", title="Jan Novák", aliases=("Jan Nowak",))]) == []


def test_title_is_first_heading_outside_code() -> None:
    assert title_of("```\n# not this\n```\nText\n# Site Roadmap\n# Later") == "Site Roadmap"
    assert title_of("no heading\n## sub") is None
    assert title_of("# Site Roadmap\r\nText") == "Site Roadmap"
    assert title_of("Text\n#  \n# Later") is None  # the first heading is empty


def _title_line_by_line(body: str) -> str | None:
    in_fence = False
    for line in body.split("\n"):
        if re.match(r"^\s*(```|~~~)", line):
            in_fence = not in_fence
        elif not in_fence and line.startswith("# "):
            return line[2:].strip() or None
    return None


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["# Title", "# ", "#", "## Sub", "text", "", "  ```",
                                 "~~~", "# Other ", "\r", " # x"]), max_size=8))
def test_a_title_is_found_as_reading_line_by_line_finds_it(lines: list[str]) -> None:
    body = "\n".join(lines)
    assert title_of(body) == _title_line_by_line(body)


def test_merge_keeps_the_note_with_more_backlinks() -> None:
    weak, strong = rec("site-roadmap", size=500), rec("roadmap", title="Site Roadmap")
    other = rec("plan", links=("roadmap",))
    [merge] = plan_merges(near_duplicates([weak, strong, other]), [weak, strong, other])
    assert (merge.old.name, merge.kept.name) == ("site-roadmap", "roadmap")


def test_merge_never_touches_rules_or_crosses_categories() -> None:
    notes = [rec("write-dates", "rules"), rec("write-datse", "rules"),
             rec("jan-novak", "entities"), rec("jan-nowak", "project")]
    duplicates = near_duplicates(notes)
    assert len(duplicates) == 2
    assert plan_merges(duplicates, notes) == []
    actions = [f.action for f in triage(TriageInput(notes, {}, Config(), NOW))
               if f.kind == "near-duplicate"]
    assert any("Approved-by" in a for a in actions)
    assert any("category" in a for a in actions)


def test_a_cluster_keeps_one_note() -> None:
    notes = [rec("site-roadmap", size=9), rec("site-roadmapp", size=1),
             rec("roadmap", title="Site Roadmap", size=3)]
    merges = plan_merges(near_duplicates(notes), notes)
    assert {m.kept.name for m in merges} == {"site-roadmap"}
    assert sorted(m.old.name for m in merges) == ["roadmap", "site-roadmapp"]


# --- notes --------------------------------------------------------------------------------

def test_dead_links_orphans_and_limits() -> None:
    notes = [rec("hub", links=("alpha", "gone", "old-one")), rec("alpha"), rec("lonely")]
    config = Config(limits={"project": 2})
    given = TriageInput(notes, {}, config, NOW, triggered=frozenset({"hub"}),
                        archived={"old-one": "memory/archive/project/old-one.md"})
    findings = triage(given)
    dead = [f for f in findings if f.kind == "dead-link"]
    assert [(f.subject, f.line) for f in dead] == [("memory/project/hub.md", 5)] * 2
    assert "archived" in dead[1].problem and "no note" in dead[0].problem
    assert [f.subject for f in findings if f.kind == "orphan"] == ["memory/project/lonely.md"]
    assert [f.subject for f in findings if f.kind == "over-limit"] == ["memory/project/"]


# --- facts --------------------------------------------------------------------------------

def test_quarantined_fact_against_host_fact() -> None:
    host = ev("h1", object="red")
    quarantined = ev("q1", scope="quarantine-michal", object="blue", trust="untrusted")
    facts = {host.key: [host], quarantined.key: [quarantined]}
    findings = triage(TriageInput([], facts, Config(), parse_instant("2026-02-01")))
    assert [f.kind for f in findings] == ["contradiction", "quarantine"]
    assert "memrepo promote --scope michal q1" in findings[0].action
    assert findings[0].related == ("q1", "h1")


def test_promoted_quarantine_is_not_awaiting_review() -> None:
    quarantined = ev("q1", scope="quarantine-michal", object="red")
    promoted = ev("h1", object="red", source="promoted:q1")
    facts = {quarantined.key: [quarantined], promoted.key: [promoted]}
    assert kinds(TriageInput([], facts, Config(), parse_instant("2026-02-01"))) == []


def test_same_key_and_valid_time_from_different_sources() -> None:
    first = ev("e1", object="red", source="chat")
    second = ev("e2", object="blue", source="email", recorded_at="2026-01-03")
    same_source = ev("e3", object="green", source="chat", valid_from="2026-02-01")
    correction = ev("e4", object="white", source="chat", valid_from="2026-02-01",
                    recorded_at="2026-02-05")
    given = TriageInput([], {first.key: [first, second, same_source, correction]}, Config(),
                        parse_instant("2026-03-01"))
    [finding] = triage(given)
    assert finding.kind == "contradiction" and finding.related == ("e1", "e2")
    assert "'blue' wins" in finding.problem


def test_retracted_assert_is_no_contradiction() -> None:
    first, second = ev("e1", object="red"), ev("e2", object="blue", source="email")
    retract = Event(id="r1", op="retract", recorded_at=parse_instant("2026-01-05"),
                    scope="michal", target="e2", source="chat")
    given = TriageInput([], {first.key: [first, second, retract]}, Config(),
                        parse_instant("2026-03-01"))
    assert kinds(given) == []


def test_many_valued_relation_may_hold_two_values() -> None:
    first = ev("e1", relation="speaks", object="pl")
    second = ev("e2", relation="speaks", object="en", source="email")
    config = Config(many_valued_relations=frozenset({"speaks"}))
    assert kinds(TriageInput([], {first.key: [first, second]}, config,
                             parse_instant("2026-03-01"))) == []


def test_stale_after_configured_days() -> None:
    old = ev("e1", recorded_at="2026-01-02")
    facts = {old.key: [old]}
    assert kinds(TriageInput([], facts, Config(), parse_instant("2026-12-01"))) == []
    [stale] = triage(TriageInput([], facts, Config(), parse_instant("2027-01-03")))
    assert stale.kind == "stale-fact" and "2026-01-02" in stale.problem
    assert "memrepo forget --scope michal car colour" in stale.action
    short = Config(stale_after_days=30)
    assert kinds(TriageInput([], facts, short, parse_instant("2026-03-01"))) == ["stale-fact"]


def test_reasserted_or_ended_facts_are_not_stale() -> None:
    old = ev("e1", recorded_at="2025-01-02")
    again = ev("e2", recorded_at="2027-01-02", valid_from="2025-06-01")
    ended = Event(id="e3", op="end", recorded_at=parse_instant("2026-01-01"), scope="michal",
                  subject="car", relation="colour", valid_to=parse_instant("2026-01-01"),
                  source="chat")
    assert kinds(TriageInput([], {old.key: [old, again]}, Config(), NOW)) == []
    assert kinds(TriageInput([], {old.key: [old, ended]}, Config(), NOW)) == []


# --- merge edits --------------------------------------------------------------------------

ENTITY = ('---\nname: jan-novak\ndescription: "Accountant at Acme: invoices, VAT questions"\n'
          'type: entity\naliases:\n  - Jan\n  - "J. Novák"\nupdated: 2026-05-01\n---\n'
          '# Jan Novák\n\nBody.\n')


def test_add_aliases_keeps_key_order_and_parses() -> None:
    text = add_aliases(ENTITY, ["Jan Nowak", "jan", "Jan Nowak"])
    assert text is not None
    note = parse_note("memory/entities/jan-novak.md", text.encode())
    assert not isinstance(note, Exception) and hasattr(note, "header")
    assert note.header["aliases"] == ["Jan", "J. Novák", "Jan Nowak"]  # type: ignore[union-attr]
    assert list(note.header) == ["name", "description", "type", "aliases", "updated"]  # type: ignore[union-attr]
    assert note.header["updated"] == "2026-05-01"  # type: ignore[union-attr]
    assert text.endswith("# Jan Novák\n\nBody.\n")


def test_add_aliases_to_a_header_without_them() -> None:
    plain = "---\nname: x-y\ndescription: d\ntype: entity\n---\nBody\n"
    assert add_aliases(plain, ['Quote " and: colon']) == (
        '---\nname: x-y\ndescription: d\ntype: entity\naliases: ["Quote \\" and: colon"]\n'
        "---\nBody\n")
    assert add_aliases("no header", ["A"]) is None


def test_retarget_links_and_triggers() -> None:
    body = ("See [[site-roadmap]], [[site-roadmap|the plan]], [x](/memory/project/"
            "site-roadmap.md#goals) and [[site-roadmap-2]].\n")
    assert retarget_links(body, ("project", "site-roadmap"), ("project", "roadmap")) == (
        "See [[roadmap]], [[roadmap|the plan]], [x](/memory/project/roadmap.md#goals) and "
        "[[site-roadmap-2]].\n")
    table = ("| trigger | notes |\n|---|---|\n| plan, road | site-roadmap, roadmap |\n"
             "| other | site-roadmap-2 |\n")
    assert retarget_triggers(table, "site-roadmap", "roadmap") == (
        "| trigger | notes |\n|---|---|\n| plan, road | roadmap |\n"
        "| other | site-roadmap-2 |\n")


def test_retarget_links_keeps_what_an_editor_wrote_around_the_name() -> None:
    body = ("[[site-roadmap#Goals|goals]], ![[site-roadmap]], [[site-roadmap#^b1]], "
            "| [[site-roadmap\\|plan]] |, [[site-roadmap-2#x]] and [[#site-roadmap]].\n")
    assert retarget_links(body, ("project", "site-roadmap"), ("project", "roadmap")) == (
        "[[roadmap#Goals|goals]], ![[roadmap]], [[roadmap#^b1]], | [[roadmap\\|plan]] |, "
        "[[site-roadmap-2#x]] and [[#site-roadmap]].\n")


def test_add_tags_skips_those_the_note_has_and_keeps_the_header_exact() -> None:
    text = "---\nname: x\ndescription: d\ntype: project\ntags:\n  - vat\n---\nBody\n"
    assert add_tags(text, ["#VAT", "payroll", "payroll"]) == (
        '---\nname: x\ndescription: d\ntype: project\ntags: ["vat", "payroll"]\n---\nBody\n')
    assert add_tags(text, ["vat"]) == text
    plain = "---\nname: x\ndescription: d\ntype: project\n---\nBody\n"
    assert add_tags(plain, ["vat"]) == plain.replace("project\n", 'project\ntags: ["vat"]\n')
    assert add_tags(plain.replace("type", "tags: vat\ntype"), ["a"]) is None


def test_mention_merged() -> None:
    assert mention_merged("Body\n\n", "old-x", "Old X", "2026-05-01") == (
        "Body\n\nMerged from the archived note old-x (Old X) by triage on 2026-05-01.\n")


def test_a_group_of_copies_is_one_finding_with_linear_edges() -> None:
    notes = [rec(f"acme-arhus-{n}", "entities", title="Acme Århus") for n in range(2, 40)]
    duplicates = near_duplicates(notes)
    assert len(duplicates) == len(notes) - 1
    [finding] = [f for f in triage(TriageInput(notes, {}, Config(), NOW))
                 if f.kind == "near-duplicate"]
    assert finding.subject == "memory/entities/acme-arhus-10.md"
    assert "and 32 more" in finding.problem and len(finding.related) == 37
    assert len(plan_merges(duplicates, notes)) == 37
