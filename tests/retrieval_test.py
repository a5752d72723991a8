"""Retrieval from the question (SPEC §7, issue 9): each kind of question, phrased as people
ask it, through the Python API, the CLI and a real MCP client.

The memory: the demo memory (notes of every category, scope `michal`'s electricity bill
from SPEC §5) plus small histories written through the library (every write checked and
committed): `ola` in English, `kasia` in Polish, `zuzana` in Slovak. Now = 2026-08-31.
"""

from __future__ import annotations

import json
import os
import shutil
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
from memrepo.facts.writes import FactInput
from memrepo.maintenance.demo import DEMO_APPROVER
from tests.support import append_events, assert_event, isolated_env, make_repo

NOW = "2026-08-31T18:00:00Z"
TOLD = [  # recorded, scope, key, value, valid from, quote
    ("2026-01-03T09:00:00Z", "ola", "rent.amount", "2 400 zł", "2025-06-01",
     "The rent is 2 400 zł a month."),
    ("2026-01-25T12:00:00Z", "ola", "cat.name", "Mruczek", "2019-05-01",
     "My cat is called Mruczek."),
    ("2026-01-26T12:00:00Z", "ola", "ola.plays", "the cello", "2015-09-01",
     "I have played the cello since 2015."),
    ("2026-01-26T12:10:00Z", "ola", "car.model", "Toyota Yaris", "2022-03-01",
     "I drive a Toyota Yaris."),
    ("2026-01-27T12:00:00Z", "ola", "home.address", "ul. Zielona 7, Kraków", "2024-04-01",
     "I live at ul. Zielona 7 in Kraków."),
    ("2026-01-27T12:10:00Z", "ola", "sister.name", "Kasia", "1990-01-01",
     "My sister is called Kasia."),
    ("2026-05-16T18:05:00Z", "ola", "rent.amount", "3 100 zł", "2026-05-15",
     "Rent in Kraków is 3 100 zł."),
    ("2026-01-05T12:00:00Z", "kasia", "czynsz.kwota", "1 900 zł", "2025-01-01",
     "Płacę 1 900 zł czynszu miesięcznie."),
    ("2026-03-02T12:00:00Z", "kasia", "czynsz.kwota", "2 100 zł", "2026-03-01",
     "Od marca czynsz wzrósł do 2 100 zł."),
    ("2026-01-04T12:00:00Z", "zuzana", "najom.suma", "650 €", "2025-09-01",
     "Nájom je 650 eur mesačne."),
    ("2026-02-03T12:00:00Z", "zuzana", "najom.suma", "700 €", "2026-02-01",
     "Od februára platím za nájom 700 eur."),
]


@pytest.fixture(scope="module")
def repo(demo_template: Path, tmp_path_factory: pytest.TempPathFactory,
         git_home: Path) -> Path:
    """The histories are imported (recorded in the past): one commit through the hooks
    with an `Imported-from:` trailer, approved (imports need approval) by the demo
    memory's approver."""
    root = tmp_path_factory.mktemp("retrieval") / "repo"
    shutil.copytree(demo_template, root, symlinks=True)
    for n, (recorded, scope, key, value, valid, quote) in enumerate(sorted(TOLD)):
        subject, relation = key.split(".")
        append_events(root, f"memory/facts/{scope}/{recorded[:7]}.jsonl", [assert_event(
            f"told-{n}", recorded, subject, relation, value, valid, scope=scope, quote=quote,
            source="conversation")])
    env = isolated_env(git_home)
    subprocess.run(["git", "add", "memory"], cwd=root, env=env, check=True)
    subprocess.run(["git", "commit", "-q", "-m", "Histories in three languages\n\n"
                    f"Imported-from: retrieval test\nApproved-by: {DEMO_APPROVER}"],
                   cwd=root, env=env, check=True, capture_output=True)
    return root


@pytest.fixture()
def memory(repo: Path, monkeypatch: pytest.MonkeyPatch) -> Memory:
    monkeypatch.setenv("MEMREPO_NOW", NOW)
    return Memory(repo)


def values(memory: Memory, scope: str, question: str) -> list[str]:
    return [fact.object for fact in memory.recall(scope, question).facts]


# --- the Python API, kind by kind ---------------------------------------------------------

def test_current(memory: Memory) -> None:
    assert values(memory, "ola", "How much rent do I pay?") == ["3 100 zł"]
    assert values(memory, "ola", "What's my cat called?") == ["Mruczek"]


def test_dated(memory: Memory) -> None:
    assert values(memory, "ola", "What was my rent in March 2026?") == ["2 400 zł"]
    assert values(memory, "michal", "How much was the electricity bill in November 2025?"
                  ) == ["200 zł"]
    assert values(memory, "michal", "How much did I pay for electricity in April?") == [
        "280 zł"]


def test_a_period_returns_every_value_that_held_with_its_interval(memory: Memory) -> None:
    result = memory.recall("ola", "How much rent did I pay this year?")
    assert [(f.object, f.valid_from, f.valid_to) for f in result.facts] == [
        ("2 400 zł", "2025-06-01", "2026-05-15"), ("3 100 zł", "2026-05-15", None)]
    assert result.asked["valid_from"] == "2026-01-01"


def test_when_did_it_change_returns_the_history(memory: Memory) -> None:
    result = memory.recall("ola", "When did my rent change?")
    assert [f.object for f in result.facts] == ["2 400 zł", "3 100 zł"]
    assert result.asked["history"] is True


def test_refusal_never_answers_with_a_look_alike(memory: Memory) -> None:
    for question in ("What is my dog's name?", "What is my shoe size?",
                     "How much do I pay for water?", "Who is my dentist?"):
        result = memory.recall("ola", question)
        assert result.status == "not_recorded" and result.facts == [], question


def test_the_kind_of_answer_a_value_never_names_is_not_held_against_a_key(
        memory: Memory) -> None:
    """"Which instrument…": the value is "the cello", no fact says "instrument"; the kind
    word is forgiven only where it cannot be the property asked about."""
    assert values(memory, "ola", "Which instrument do I play?") == ["the cello"]
    assert values(memory, "ola", "What instruments did I play in 2020?") == ["the cello"]
    assert values(memory, "ola", "Did the instrument I play change?") == ["the cello"]
    for question in ("What colour is my car?", "What colour does my car have?",
                     "Which dog do I walk?", "Which insurer is my car with?"):
        assert memory.recall("ola", question).status == "not_recorded", question


def test_a_kind_word_the_memory_lacks_does_not_leave_the_subject_alone_to_answer(
        memory: Memory) -> None:
    """Review: with the kind word forgiven, the subject's name was the only word left, so
    any key of that subject answered ("Which dog does Ola have?" → the cello)."""
    for question in ("Which dog does Ola have?", "What allergies does Ola have?"):
        assert memory.recall("ola", question).status == "not_recorded", question


def test_a_key_that_holds_one_of_two_equally_rare_words_is_a_look_alike(
        memory: Memory) -> None:
    """"Where does my sister live?": `sister.name` holds "sister", `home.address` holds
    "live" (its quote), each as rare as the other; neither answers where the sister lives."""
    assert memory.recall("ola", "Where does my sister live?").status == "not_recorded"
    assert values(memory, "ola", "Where do I live?") == ["ul. Zielona 7, Kraków"]
    assert values(memory, "ola", "What is my sister called?") == ["Kasia"]


MANUAL = [("car", "model", "Toyota Yaris"), ("dentist", "name", "dr Nowak"),
          ("cat", "name", "Mruczek"), ("electricity_bill", "amount", "210 zł"),
          ("phone_plan", "operator", "Play")]
"""Facts typed by hand (`memrepo remember`, source manual): no quote holds the user's words."""


def test_the_question_verb_a_key_lacks_is_its_relation_in_other_words(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """"What car do I drive?" asks for car.model: in "what KIND do I VERB" a verb of having
    or habit names the relation of the key whose subject is the kind, so that key answers
    without it. Any other verb, an event ("did I sell"), someone else ("does she"), a noun
    the memory lacks, or a key about something else all still refuse."""
    root = make_repo(tmp_path / "mem", monkeypatch)
    memory = Memory(root)
    memory.remember_many([FactInput("ola", *fact) for fact in MANUAL])
    for question in ("What car do I drive?", "Which car do I drive?", "What car do I own?"):
        assert values(memory, "ola", question) == ["Toyota Yaris"], question
    assert values(memory, "ola", "What is my cat called?") == ["Mruczek"]
    for question in ("What dog do I walk?", "What bike do I ride?", "Where do I live?",
                     "What car does my sister drive?", "What did I buy?",
                     "Which dentist does my mother see?", "What is my dog's name?",
                     "What car did I sell?", "What games do I play?",
                     "Where do I park the car?", "When do I see the dentist?",
                     "Which car do I hate?", "Which car do you recommend?",
                     "What car does she want?", "What cat does he feed?",
                     "What is my brother's car?", "What is the name of my bank?"):
        assert memory.recall("ola", question).status == "not_recorded", question


HEADED = [("dentist", "phone", "+48 600 100 200"), ("bank", "account", "PL61 1090 1014"),
          ("passport", "expiry", "2031-05-01"), ("dentysta", "telefon", "+48 12 345 67 89"),
          ("dentist", "email", "gabinet@zab.pl"), ("ola", "account_manager", "Eva Nowak"),
          ("ola", "house", "detached, two floors"), ("ola", "room", "the attic"),
          ("ola", "flight", "Warsaw to Rome on Friday")]


def test_a_head_noun_beside_the_relation_is_not_a_word_the_key_must_hold(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """"the dentist's phone NUMBER", "NUMER telefonu", "email ADDRESS": the head noun says
    what kind of value the word beside it has, so a key whose relation is that word and
    whose value is of that kind (digits; an address: digits or an @) answers without it;
    a key whose relation is not named, or whose value is of another kind ("room number"
    and `room` = "the attic"), still refuses."""
    root = make_repo(tmp_path / "mem", monkeypatch)
    memory = Memory(root)
    memory.remember_many([FactInput("ola", *fact) for fact in HEADED])
    for question, value in (("What is the dentist's phone number?", "+48 600 100 200"),
                            ("dentist phone number", "+48 600 100 200"),
                            ("What's the phone number of the dentist?", "+48 600 100 200"),
                            ("What is my bank account number?", "PL61 1090 1014"),
                            ("Jaki jest numer telefonu dentysty?", "+48 12 345 67 89"),
                            ("What is the dentist's email address?", "gabinet@zab.pl")):
        assert values(memory, "ola", question) == [value], question
    for question in ("What is my passport number?", "What is the dentist's fax number?",
                     "What is my bank's address?", "What is the phone number of my mother?",
                     "What is my house number?",
                     "What is my house address?", "What is my room number?",
                     "What is my flight number?"):
        assert memory.recall("ola", question).status == "not_recorded", question


def test_a_part_cut_from_a_text_answers_only_about_what_it_names(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Cut from "… and what is the email of Acme?", "What is the phone" is nobody's phone
    in particular: a part's key answers only when the part names its subject. A part that
    names no time asks at the text's only when it speaks of the past."""
    root = make_repo(tmp_path / "mem", monkeypatch)
    memory = Memory(root)
    memory.remember_many([FactInput("ola", *fact) for fact in (
        ("me", "phone", "Pixel 8"), ("me", "car", "Skoda"), ("me", "bike", "Cube"),
        ("acme", "email", "office@acme.example"), ("tomek", "phone", "600 100 200"),
        ("ola", "vat_number", "PL 526 104 22 11"), ("vat_return", "next_due", "25 May"))])
    # a part that names nobody asks the asker's own, when no part names an owner it may
    # share ("… the email OF ACME")
    assert values(memory, "ola", "VAT number and when's the next return due?") == [
        "PL 526 104 22 11", "25 May"]
    for question in ("What phone and what car does my boss have?",
                     "What car does my sister drive and what bike?"):
        assert memory.recall("ola", question).status == "not_recorded", question
    assert values(memory, "ola", "What is the phone and what is the email of Acme?") == [
        "office@acme.example"]
    assert values(memory, "ola", "What is Tomek's phone and what is the email of Acme?"
                  ) == ["600 100 200", "office@acme.example"]
    # search lists each question's hits only when the whole text finds nothing, and a
    # fact only where its question says whose it is
    listed = memory.search("What is the phone and what is the zodiac sign of Acme?")
    assert [hit.fact.object for hit in listed.results if hit.fact] == []
    mine = memory.search("What is my phone and what is the zodiac sign of Acme?").results
    assert "Pixel 8" in [hit.fact.object for hit in mine if hit.fact]
    own = values(memory, "ola", "What is my phone?")  # the asker's own: "my" says whose
    assert "Pixel 8" in own
    assert sorted(values(memory, "ola", "What is my phone? What is the email of Acme?")) == (
        sorted([*own, "office@acme.example"]))


def test_a_question_that_points_back_asks_about_the_thing_named_before(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_repo(tmp_path / "mem", monkeypatch)
    memory = Memory(root)
    memory.remember_many([FactInput("ola", *fact) for fact in (
        ("car", "model", "Toyota Yaris"), ("car", "service_date", "2027-05-01"),
        ("father", "city", "Wrocław"), ("father", "phone", "601 200 300"),
        ("tomek", "phone", "600 100 200"))])
    assert values(memory, "ola", "What car do I drive and when is its service?") == [
        "Toyota Yaris", "2027-05-01"]
    assert values(memory, "ola", "What is my dad's city and what is his phone?") == [
        "Wrocław", "601 200 300"]


def test_a_family_member_is_found_by_the_familiar_word_and_never_by_another_member(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_repo(tmp_path / "mem", monkeypatch)
    memory = Memory(root)
    memory.remember_many([FactInput("ola", *fact) for fact in (
        ("mother", "name", "Anna"), ("mother", "city", "Gdańsk"))])
    assert values(memory, "ola", "What is my mum's name?") == ["Anna"]
    assert values(memory, "ola", "Which city is my mom in?") == ["Gdańsk"]
    for question in ("What is my dad's name?", "Where does my father live?",
                     "What is my grandma's name?"):
        assert memory.recall("ola", question).status == "not_recorded", question


def test_a_key_about_something_else_never_answers_for_the_kind_asked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The kind of the answer ("car") or the name asked for, when the memory knows the
    word, must be in the key: `brother.drives` does not answer "What car do I drive?",
    nor `dog.walker` "What is my dog's name?"."""
    root = make_repo(tmp_path / "mem", monkeypatch)
    memory = Memory(root)
    memory.remember_many([FactInput("ola", *fact) for fact in (
        *MANUAL, ("brother", "drives", "Skoda Octavia"), ("dog", "walker", "Tomek"))])
    assert values(memory, "ola", "What car do I drive?") == ["Toyota Yaris"]
    assert memory.recall("ola", "What is my dog's name?").status == "not_recorded"
    assert values(memory, "ola", "What does my brother drive?") == ["Skoda Octavia"]


def test_a_text_that_asks_two_questions_gets_both_answers(memory: Memory) -> None:
    """"… and when/what/who …", or two sentences: each question is answered on its own, at
    its own time (a part without one asks at the text's), and the answers are merged."""
    assert values(memory, "ola", "What is my cat called and how much rent do I pay?") == [
        "Mruczek", "3 100 zł"]
    assert values(memory, "ola", "What was my rent in March 2026, and what is my cat "
                  "called?") == ["2 400 zł", "Mruczek"]
    assert values(memory, "ola", "How much rent did I pay in March 2026 and who is my "
                  "sister?") == ["2 400 zł", "Kasia"]
    assert values(memory, "ola", "What was my rent in March 2026 and what is my rent?") == [
        "2 400 zł", "3 100 zł"]
    assert values(memory, "ola", "What is my rent and what was my rent in March 2026?") == [
        "3 100 zł", "2 400 zł"]
    both = memory.recall("michal", "How much is my electricity bill? When is the Octavia "
                         "inspection booked?")
    assert [f.object for f in both.facts] == ["250 zł"]
    assert "car-service-2026" in [n.name for n in both.notes]
    assert values(memory, "ola", "What is my cat called and what is my dog's name?") == [
        "Mruczek"]
    assert memory.recall("ola", "What is my dog's name and where is it?").status == (
        "not_recorded")


def test_search_answers_each_question_when_the_whole_text_finds_nothing(
        memory: Memory) -> None:
    """Ranked together, the two questions' words match no one note or key well enough;
    asked one by one, each finds its own answer."""
    found = memory.search("What car do I drive and when is the oil change?").results
    assert [(hit.fact.object if hit.fact else hit.name) for hit in found] == [
        "Toyota Yaris", "car-service-2026"]


def test_a_question_pasted_with_terminal_colours_is_read_without_them(
        memory: Memory) -> None:
    assert values(memory, "ola", "What's my \x1b[1mcat\x1b[0m called?") == ["Mruczek"]
    assert memory.search("\x1b[31mWhat is the cash method for VAT?\x1b[0m").results[0].name == (
        "vat-cash-method")


def test_misspelled(memory: Memory) -> None:
    result = memory.recall("michal", "How much is my electrcity bill?")
    assert [f.object for f in result.facts] == ["250 zł"]
    assert result.respelled == {"electrcity": "electricity"}


def test_a_misspelt_opening_question_word_is_read_as_one(memory: Memory) -> None:
    """"Wher…", "Whic…": the memory lacks the word, and a content word would make the
    question unanswerable; only the opening wh-word is read so ("Cold water…" is not
    "Could water…")."""
    result = memory.recall("ola", "Whic cat do I have?")
    assert [f.object for f in result.facts] == ["Mruczek"]
    assert result.respelled == {"whic": "which"}
    assert memory.recall("ola", "Wher is my dog?").status == "not_recorded"


def test_inflected_polish_and_slovak(memory: Memory) -> None:
    assert values(memory, "kasia", "Ile płacę czynszu?") == ["2 100 zł"]
    assert values(memory, "kasia", "Ile wynosił czynsz w 2025 roku?") == ["1 900 zł"]
    assert values(memory, "zuzana", "Koľko platím za nájom?") == ["700 €"]
    assert values(memory, "zuzana", "Koľko som platila za nájom v januári?") == ["650 €"]
    assert memory.recall("kasia", "Jak ma na imię mój pies?").status == "not_recorded"


def test_knowledge_only_in_a_reference_or_project_note(memory: Memory) -> None:
    cash = memory.recall("michal", "What is the cash method for VAT?")
    assert cash.facts == [] and cash.notes[0].name == "vat-cash-method"
    assert cash.notes[0].category == "references"
    assert cash.notes[0].uri == "memrepo://note/vat-cash-method"
    booked = memory.recall("michal", "When is the Octavia inspection booked?")
    assert "car-service-2026" in [n.name for n in booked.notes]


def test_a_note_gives_a_name_without_saying_name(memory: Memory) -> None:
    """"name", "called", "nazywa", "volá" ask for the name itself, which the note about the
    thing writes without saying so; the thing must still be in the note."""
    for question, note_name in (("What is the name of my accountant?", "jan-novak"),
                                ("What is the service advisor called?", "michal-zielinski")):
        assert memory.search(question).results[0].name == note_name, question
    for question in ("What is the name of my dog?", "What is the plumber called?",
                     "Jak się nazywa mój pies?", "Ako sa volá môj pes?"):
        assert memory.search(question).status == "not_recorded", question


def test_the_context_block_cuts_honestly_at_its_budget(repo: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMREPO_NOW", NOW)
    block = build_context(repo, "michal", "What is the minimum order at Lodz Packaging?", 100)
    assert block.left_out > 0 and block.tokens <= 100
    assert "did not fit the budget" in block.text
    assert "nothing in memory matches" not in block.text


LONG_UNRECORDED = [  # long questions about things no note holds, sharing words with notes
    "What did the plumber say about the leaking kitchen tap in the Kraków flat last winter?",
    "When Jan was a child, what did he and his father build in the garden shed?",
    "How many pallets of printer paper did Warsaw Cartons deliver to the warehouse in March?",
    "Which insurance company covers the Octavia's windscreen, and what is the excess?",
    "What did the bank advisor say about refinancing the mortgage at a fixed rate?",
    "Which supplier delivered the damaged boxes of glass bottles to the Łódź shop?",
    "How much did the electrician charge to replace the fuse box in the garage?",
    "Kiedy hydraulik naprawił cieknący kran w kuchni i ile to kosztowało?",
]


def test_a_long_question_finds_the_note_that_answers_it_but_never_a_look_alike(
        memory: Memory) -> None:
    """A long question carries words of context its note need not repeat (relevance.
    LONG_COVERAGE); a long question about something unrecorded still finds nothing."""
    found = memory.search("When the Octavia went in for its big inspection in May, what did "
                          "the service advisor quote for it?")
    assert found.results[0].name == "car-service-2026"
    for question in LONG_UNRECORDED:
        assert memory.search(question).status == "not_recorded", question


def test_search_asks_the_question_not_an_and_of_its_words(memory: Memory) -> None:
    found = memory.search("What is the minimum order at Lodz Packaging?")
    assert found.results[0].name == "lodz-packaging"
    assert memory.search("What is my dog's name?").status == "not_recorded"


# --- the command line ---------------------------------------------------------------------

def cli(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MEMREPO_NOW": NOW}
    return subprocess.run([sys.executable, "-m", "memrepo", "--repo", str(repo), *args],
                          capture_output=True, text=True, check=False, env=env)


ASKED = [  # scope, question, the values answered: one question of each kind
    ("ola", "How much rent do I pay?", ["3 100 zł"]),  # current
    ("ola", "How much rent did I pay this year?", ["2 400 zł", "3 100 zł"]),  # period
    ("ola", "When did my rent change?", ["2 400 zł", "3 100 zł"]),  # change
    ("michal", "How much is my electrcity bill?", ["250 zł"]),  # misspelled
    ("kasia", "Ile wynosił czynsz w 2025 roku?", ["1 900 zł"]),  # Polish, inflected, dated
    ("zuzana", "Koľko platím za nájom?", ["700 €"]),  # Slovak, inflected
    ("ola", "What is my cat called and how much rent do I pay?", ["Mruczek", "3 100 zł"]),
]


@pytest.mark.parametrize(("scope", "question", "expected"), ASKED)
def test_cli_recall_answers_each_kind_of_question(repo: Path, git_env: Any, scope: str,
                                                  question: str, expected: list[str]) -> None:
    done = cli(repo, "recall", "--scope", scope, "--json", question)
    assert done.returncode == 0, done.stderr
    assert [f["object"] for f in json.loads(done.stdout)["facts"]] == expected


def test_cli_recall_says_which_spelling_it_used(repo: Path, git_env: Any) -> None:
    done = cli(repo, "recall", "--scope", "michal", "How much is my electrcity bill?")
    assert "250 zł" in done.stdout and "'electricity' for 'electrcity'" in done.stdout


def test_cli_recall_reads_the_date_in_the_question(repo: Path, git_env: Any) -> None:
    done = cli(repo, "recall", "--scope", "ola", "--json", "What was my rent in March 2026?")
    assert done.returncode == 0, done.stderr
    assert [f["object"] for f in json.loads(done.stdout)["facts"]] == ["2 400 zł"]
    refused = cli(repo, "recall", "--scope", "ola", "What is my dog's name?")
    assert refused.returncode == 0 and refused.stdout.startswith("not recorded")


def test_cli_context_holds_notes_of_every_category_and_the_dated_fact(
        repo: Path, git_env: Any) -> None:
    done = cli(repo, "context", "--scope", "michal",
               "How much did I pay for electricity in April?")
    assert done.returncode == 0, done.stderr
    assert 'electricity_bill.amount = "280 zł"' in done.stdout
    assert '[references] "reading-electricity-bill"' in done.stdout
    note_only = cli(repo, "context", "--scope", "michal", "What is the cash method for VAT?")
    assert '[references] "vat-cash-method"' in note_only.stdout
    both = cli(repo, "context", "--scope", "michal", "How much did I pay for electricity in "
               "April and what is the cash method for VAT?")
    assert 'electricity_bill.amount = "280 zł"' in both.stdout
    assert '[references] "vat-cash-method"' in both.stdout


def test_cli_context_says_which_spelling_it_used(repo: Path, git_env: Any) -> None:
    # five notes fill the default 1,500 tokens (quoted, a few characters more than as
    # written), where the remark would be cut first
    done = cli(repo, "context", "--scope", "michal", "--budget", "2000",
               "What does Jan Nowak do?")
    assert """did you mean: "jan-novak"? (searched 'novak' for 'nowak')""" in done.stdout
    plain = cli(repo, "context", "--scope", "michal", "What is the minimun order?")
    assert ("- spelling: searched 'minimum' for 'minimun' (a note on the search, not a fact)"
            in plain.stdout)
    assert '- [entities] "jan-novak":' in done.stdout


def test_cli_context_refuses_a_question_longer_than_recall_reads(repo: Path,
                                                                 git_env: Any) -> None:
    done = cli(repo, "context", "--scope", "michal", "what is my car and " * 200)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "question: is longer than 2000 characters" in done.stderr
    assert "To fix: ask with fewer words" in done.stderr


def test_cli_context_budget_cut_is_honest(repo: Path, git_env: Any) -> None:
    done = cli(repo, "context", "--scope", "michal", "--budget", "100", "--json",
               "What is the minimum order at Lodz Packaging?")
    data = json.loads(done.stdout)
    assert data["left_out"] > 0 and data["tokens"] <= 100
    assert "did not fit the budget" in data["context"]
    assert "nothing in memory matches" not in data["context"]


# --- the real MCP client ------------------------------------------------------------------

async def _mcp(repo: Path, env: dict[str, str], calls: list[dict[str, Any]],
               scope: str = "ola") -> tuple[list[dict[str, Any]], str]:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "memrepo", "--repo", str(repo), "serve",
                                      "--scope", scope, "--session", "s-retrieval"],
        env={**env, "MEMREPO_NOW": NOW}, cwd=str(repo))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        answers = []
        for arguments in calls:
            result = await session.call_tool("recall", arguments)
            data = result.structured_content or json.loads(
                result.content[0].text)  # type: ignore[union-attr]
            answers.append(dict(data.get("result", data)))
        note = await session.read_resource("memrepo://note/vat-cash-method")
        return answers, note.contents[0].text  # type: ignore[union-attr]


def test_mcp_recall_answers_questions_and_notes_are_resources(
        repo: Path, git_env: dict[str, str]) -> None:
    answers, note = anyio.run(_mcp, repo, git_env, [
        {"query": "What was my rent in March 2026?"},
        {"query": "What is my dog's name?"},
        {"query": "What is the cash method for VAT?"},
    ])
    dated, refused, note_only = answers
    assert [f["object"] for f in dated["facts"]] == ["2 400 zł"]
    assert refused["status"] == "not_recorded" and refused["facts"] == []
    assert note_only["notes"][0]["uri"] == "memrepo://note/vat-cash-method"
    assert note_only["notes"][0]["description"]
    assert note.startswith("---\nname: vat-cash-method")


def test_mcp_recall_answers_each_kind_of_question(repo: Path, git_env: dict[str, str],
                                                  ) -> None:
    by_scope: dict[str, list[tuple[str, list[str]]]] = {}
    for scope, question, expected in ASKED:
        by_scope.setdefault(scope, []).append((question, expected))
    for scope, asked in by_scope.items():
        answers, _ = anyio.run(_mcp, repo, git_env, [{"query": q} for q, _ in asked], scope)
        for (question, expected), answer in zip(asked, answers, strict=True):
            assert [f["object"] for f in answer["facts"]] == expected, question
            if scope == "michal":
                assert answer["respelled"] == {"electrcity": "electricity"}
