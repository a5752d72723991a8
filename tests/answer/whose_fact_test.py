"""Whose fact it is (issue 20): a question is resolved to the subject it speaks of before any
relation is ranked, and another subject's value is never the answer. One small household
and its business, written for these tests alone, asked through the Python API, the CLI and
the context block.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from memrepo.agent.api import Memory
from memrepo.agent.context import build_context
from memrepo.answer.clauses import refers_back
from memrepo.facts.new_event import FactInput
from tests.support import answered_keys, isolated_env, make_repo, world_fixtures

WORLD = """\
world: whose-fact
about: "Ewa, a ceramicist, her family and her studio"
now: "2026-10-01T12:00:00Z"
many_valued: [child, phone]
notes:
  - category: entities
    name: ewa-lis
    description: "Ewa Lis: ceramicist, owns Pracownia Glina"
    aliases: ["Ewa"]
  - category: entities
    name: daniel-lis
    description: "Ewa's husband Daniel: bus driver"
    aliases: ["Daniel", "husband", "mąż"]
  - category: entities
    name: marta-wrona
    description: "Ewa's sister Marta: nurse in Gdynia"
    aliases: ["Marta", "sister", "siostra"]
  - category: entities
    name: halina-lis
    description: "Daniel's mother Halina: retired, lives in Toruń"
    aliases: ["Halina", "teściowa", "mother-in-law"]
  - category: entities
    name: pracownia-glina
    description: "Pracownia Glina: Ewa's pottery studio and shop"
    aliases: ["Glina", "studio", "pracownia"]
  - category: entities
    name: beata-zajac
    description: "Ewa's accountant Beata: keeps the studio's books"
    aliases: ["Beata", "księgowa", "accountant"]
events:
  - {op: assert, scope: ewa, subject: ewa, relation: phone, object: "+48 501 000 111",
     valid_from: "2020-01-01", recorded_at: "2026-01-05T10:00:00Z", source: manual}
  - {op: assert, scope: ewa, subject: ewa, relation: child, object: "Kuba",
     valid_from: "2015-04-02", recorded_at: "2026-01-05T10:00:00Z", source: manual}
  - {op: assert, scope: ewa, subject: daniel, relation: phone, object: "+48 502 000 222",
     valid_from: "2020-01-01", recorded_at: "2026-01-05T10:00:00Z", source: manual}
  - {op: assert, scope: ewa, subject: daniel, relation: employer, object: "MPK Gdańsk",
     valid_from: "2019-03-01", recorded_at: "2026-01-05T10:00:00Z", source: manual}
  - {op: assert, scope: ewa, subject: marta, relation: city, object: "Gdynia",
     valid_from: "2018-01-01", recorded_at: "2026-01-05T10:00:00Z", source: manual}
  - {op: assert, scope: ewa, subject: marta, relation: child, object: "Ola",
     valid_from: "2017-06-01", recorded_at: "2026-01-05T10:00:00Z", source: manual}
  - {op: assert, scope: ewa, subject: marta, relation: child, object: "Igor",
     valid_from: "2020-09-01", recorded_at: "2026-01-05T10:00:00Z", source: manual}
  - {op: assert, scope: ewa, subject: teściowa, relation: miasto, object: "Toruń",
     valid_from: "1990-01-01", recorded_at: "2026-01-05T10:00:00Z", source: manual}
  - {op: assert, scope: ewa, subject: mieszkanie, relation: adres,
     object: "ul. Długa 5/2, Gdańsk", valid_from: "2016-01-01",
     recorded_at: "2026-01-05T10:00:00Z", source: manual}
  - {op: assert, scope: ewa, subject: pracownia_glina, relation: adres,
     object: "ul. Mariacka 12, Gdańsk", valid_from: "2021-05-01",
     recorded_at: "2026-01-05T10:00:00Z", source: manual}
  - {op: assert, scope: ewa, subject: electricity_bill, relation: amount, object: "240 zł",
     valid_from: "2026-01-01", recorded_at: "2026-01-05T10:00:00Z", source: manual}
  - {op: assert, scope: ewa, subject: cat, relation: name, object: "Mruczek",
     valid_from: "2022-01-01", recorded_at: "2026-01-05T10:00:00Z", source: manual}
  - {op: assert, scope: ewa, subject: anna, relation: phone, object: "+48 503 000 333",
     valid_from: "2024-01-01", recorded_at: "2026-01-05T10:00:00Z", source: manual}
  - {op: assert, scope: piotr, subject: gym_membership, relation: price, object: "150 zł",
     valid_from: "2026-01-01", recorded_at: "2026-01-05T10:00:00Z", source: manual}
  - {op: assert, scope: ewa, subject: studio_rent, relation: amount, object: "3 100 zł",
     valid_from: "2021-05-01", recorded_at: "2026-01-05T10:00:00Z", source: manual}
  - {op: assert, scope: ewa, subject: ksiegowa, relation: name, object: "Beata Zając",
     valid_from: "2021-05-01", recorded_at: "2026-01-05T10:00:00Z", source: manual}
  - {op: assert, scope: ewa, subject: ewa, relation: tax_form, object: "ryczałt 8,5%",
     valid_from: "2021-05-01", recorded_at: "2026-01-05T10:00:00Z", source: manual}
questions: []
"""


world_repo, memory = world_fixtures(WORLD, "ewa", "2026-10-01T12:00:00Z")


def answered(memory: Memory, question: str) -> list[str]:
    return answered_keys(memory, "ewa", question)


@pytest.mark.parametrize(("question", "expected"), [
    ("Does Marta have kids?", ["marta.child=Ola", "marta.child=Igor"]),
    ("Czy Marta ma dzieci?", ["marta.child=Ola", "marta.child=Igor"]),
    ("Ile dzieci ma siostra?", ["marta.child=Ola", "marta.child=Igor"]),
    ("Do I have kids?", ["ewa.child=Kuba"]),
])
def test_whose_children_a_question_asks_about_is_whom_it_names(
        memory: Memory, question: str, expected: list[str]) -> None:
    assert sorted(answered(memory, question)) == sorted(expected)


@pytest.mark.parametrize("question", [
    "Does Halina have kids?",  # her children are not recorded: never the asker's
    "Does my mother-in-law have kids?",
    "Does Daniel have kids?",
])
def test_a_persons_unrecorded_children_are_never_the_askers(memory: Memory,
                                                            question: str) -> None:
    assert answered(memory, question) == []


@pytest.mark.parametrize("question", [
    "Where does my mother-in-law live?", "Gdzie mieszka teściowa?",
    "Where does Daniel's mother live?",
])
def test_a_role_alias_the_description_gives_nobody_else_is_the_askers_word(
        memory: Memory, question: str) -> None:
    """"teściowa" is an alias of "Daniel's mother Halina": the fact `teściowa.miasto` is
    hers, found through the note."""
    assert answered(memory, question) == ["teściowa.miasto=Toruń"]


def test_a_persons_name_is_never_read_as_a_concept_word(memory: Memory) -> None:
    """'Daniel' is no form of the Slovak "daň" (tax): asking about a tax of something
    else never answers with Daniel's keys, and asking about Daniel never with the tax."""
    assert not [a for a in answered(memory, "What is the VAT's phone number?")
                if a.startswith("daniel.")]
    assert answered(memory, "What form of taxation am I on?") == ["ewa.tax_form=ryczałt 8,5%"]
    assert answered(memory, "What is Daniel's phone number?") == ["daniel.phone=+48 502 000 222"]


@pytest.mark.parametrize(("question", "expected"), [
    ("What is the studio's address?", ["pracownia_glina.adres=ul. Mariacka 12, Gdańsk"]),
    ("Jaki jest adres pracowni?", ["pracownia_glina.adres=ul. Mariacka 12, Gdańsk"]),
    ("What is our home address?", ["mieszkanie.adres=ul. Długa 5/2, Gdańsk"]),
])
def test_a_company_named_is_answered_from_its_own_keys_never_the_homes(
        memory: Memory, question: str, expected: list[str]) -> None:
    assert answered(memory, question) == expected


@pytest.mark.parametrize(("question", "expected"), [
    ("What's my phone number?", ["ewa.phone=+48 501 000 111"]),
    ("Jaki mam numer telefonu?", ["ewa.phone=+48 501 000 111"]),
    ("What's my husband's phone number?", ["daniel.phone=+48 502 000 222"]),
    ("Jaki jest numer męża?", ["daniel.phone=+48 502 000 222"]),  # a person's number
    ("Jaki jest numer Daniela?", ["daniel.phone=+48 502 000 222"]),
    ("Where does Daniel work?", ["daniel.employer=MPK Gdańsk"]),
    ("Jaki jest numer telefonu Anny?", ["anna.phone=+48 503 000 333"]),  # no note: her key
    ("Where does my sister live?", ["marta.city=Gdynia"]),
    ("How much do I pay for electricity?", ["electricity_bill.amount=240 zł"]),
    ("What is the cta called?", ["cat.name=Mruczek"]),
])
def test_the_asker_a_role_and_a_thing_each_answer_from_their_own_keys(
        memory: Memory, question: str, expected: list[str]) -> None:
    assert answered(memory, question) == expected


@pytest.mark.parametrize(("question", "expected"), [
    ("How much rent does Marta pay?", []),
    ("How much rent do we pay for the studio?", ["studio_rent.amount=3 100 zł"]),
    ("Who is Marta's accountant?", []),
    ("Who is Daniel's accountant?", []),
    ("Who is my accountant?", ["ksiegowa.name=Beata Zając"]),
])
def test_the_households_things_and_people_are_not_another_persons(
        memory: Memory, question: str, expected: list[str]) -> None:
    """A question about someone else (named, not the asker, not a company) is not answered
    from the household's things or the asker's role persons."""
    assert answered(memory, question) == expected


def test_what_another_scope_holds_never_changes_this_scopes_answer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Word rarity is weighed within the scope asked: a gym recorded only in `michal`'s
    memory does not change what `kasia`'s question finds (it used to turn her "not
    recorded" into her rent)."""
    root = make_repo(tmp_path / "mem", monkeypatch)
    memory = Memory(root)
    memory.remember_many([FactInput("kasia", "czynsz", "kwota", "1 900 zł")])
    questions = ("How much do I pay for the gym?", "How much do I pay for electricity?",
                 "Ile płacę czynszu?")
    before = [answered_in(memory, "kasia", q) for q in questions]
    memory.remember_many([FactInput("michal", "gym_membership", "price", "150 zł"),
                          FactInput("michal", "electricity_bill", "amount", "280 zł")])
    assert [answered_in(Memory(root), "kasia", q) for q in questions] == before
    assert before[2] == ["czynsz.kwota=1 900 zł"]


def answered_in(memory: Memory, scope: str, question: str) -> list[str]:
    return [f"{f.subject}.{f.relation}={f.object}" for f in memory.recall(scope, question).facts]


def test_a_subject_recorded_without_the_relation_is_not_recorded_with_what_is(
        memory: Memory) -> None:
    answer = memory.recall("ewa", "What is Marta's phone number?")
    assert answer.facts == []
    recorded = {relation for relations in answer.recorded_about.values() for relation in relations}
    assert {"city", "child"} <= recorded


def test_the_context_block_holds_the_subjects_value_and_never_anothers(
        world_repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMREPO_NOW", "2026-10-01T12:00:00Z")
    block = build_context(world_repo, "ewa", "Does Marta have kids?", 400).text
    assert '"Ola"' in block and '"Igor"' in block
    assert '"Kuba"' not in block


def test_the_cli_says_why_it_chose_the_subject(world_repo: Path) -> None:
    env = {**isolated_env(world_repo.parent), "MEMREPO_NOW": "2026-10-01T12:00:00Z"}
    shown = subprocess.run([sys.executable, "-m", "memrepo", "recall", "--scope", "ewa",
                            "Does Marta have kids?"], cwd=world_repo, env=env,
                           capture_output=True, text=True, check=True).stdout
    assert "marta.child = Ola" in shown and "ewa.child" not in shown
    assert "why: whose the role is; role 'kids' → its relation" in shown


def test_each_part_of_two_questions_is_answered_or_said_not_recorded(memory: Memory) -> None:
    answer = memory.recall("ewa", "Where does Marta live, and what's her phone number?")
    assert [f"{f.subject}.{f.relation}={f.object}" for f in answer.facts] == [
        "marta.city=Gdynia"]
    assert len(answer.parts) == 2
    assert answer.parts[1]["status"] == "not_recorded"


def test_under_a_tight_budget_the_answering_fact_comes_before_remarks(
        world_repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMREPO_NOW", "2026-10-01T12:00:00Z")
    block = build_context(world_repo, "ewa", "Where does my sistr live?", 60).text
    assert '"Gdynia"' in block
    assert "did you mean" not in block


async def _recall_over_mcp(root: Path, questions: list[str]) -> list[dict[str, Any]]:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "memrepo", "--repo", str(root), "serve",
                                      "--scope", "ewa", "--session", "s-whose"],
        env={**isolated_env(root.parent), "MEMREPO_NOW": "2026-10-01T12:00:00Z"},
        cwd=str(root))
    answers = []
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        for question in questions:
            result = await session.call_tool("recall", {"query": question})
            data = result.structured_content or json.loads(
                result.content[0].text)  # type: ignore[union-attr]
            answers.append(dict(data.get("result", data)))
    return answers


def test_a_real_mcp_client_gets_the_subjects_value_or_not_recorded(world_repo: Path) -> None:
    kids, unrecorded, mine = anyio.run(_recall_over_mcp, world_repo, [
        "Does Marta have kids?", "Does Halina have kids?", "Jaki mam numer telefonu?"])
    assert sorted(f["object"] for f in kids["facts"]) == ["Igor", "Ola"]
    assert all(f["subject"] == "marta" for f in kids["facts"])
    assert unrecorded["status"] == "not_recorded" and unrecorded["facts"] == []
    assert [f["object"] for f in mine["facts"]] == ["+48 501 000 111"]


def test_a_name_inflected_after_a_role_word_owns_the_role(memory: Memory) -> None:
    # "mąż Marty" is Marta's husband (not recorded), never the asker's husband Daniel
    assert answered_keys(memory, "ewa", "Gdzie pracuje mąż Marty?") == []
    assert answered_keys(memory, "ewa", "Gdzie pracuje mąż?") == ["daniel.employer=MPK Gdańsk"]


def test_her_in_a_second_part_is_whom_the_first_named(memory: Memory) -> None:
    answer = memory.recall("ewa", "Gdzie mieszka Marta i gdzie pracuje jej mąż?")
    assert [f"{f.subject}.{f.relation}={f.object}" for f in answer.facts] == [
        "marta.city=Gdynia"]


def test_parts_answered_alone_take_nothing_from_the_whole_text(memory: Memory) -> None:
    answer = memory.recall("ewa", "What's Daniel's phone, and where does Marta live?")
    assert [f"{f.subject}.{f.relation}={f.object}" for f in answer.facts] == [
        "daniel.phone=+48 502 000 222", "marta.city=Gdynia"]


@pytest.mark.parametrize(("part", "points_back"), [
    ("and which school does Samuel go to?", False), ("a ile go kosztuje?", True),
    ("and who insures it?", True), ("i gdzie pracuje jej mąż?", True)])
def test_a_slavic_pronoun_points_back_only_in_a_slavic_part(part: str,
                                                           points_back: bool) -> None:
    assert refers_back(part) is points_back
