"""The near-duplicate rules (memrepo.core.duplicates.near_duplicates): keys for the write
gate, notes for the commit check; the no-false-alarm neighbours and the duplicates they
must catch."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from memrepo.core.duplicates.near_duplicates import (
    KEY_MIN_TYPO_WORD,
    NAME_MIN_TYPO_WORD,
    NoteNames,
    label_variant,
    word_variant,
)
from memrepo.core.duplicates.scope_keys import ScopeKeys
from memrepo.core.text import key_slug


@pytest.mark.parametrize("text", ["Electricity Bill", "electricity-bill", "electricity_bill",
                                  "  ELECTRICITY   bill!", "Electricity—Bill"])
def test_one_key_however_written(text: str) -> None:
    assert key_slug(text) == "electricity_bill"


def test_key_slug_folds_letters_without_decomposition() -> None:
    assert key_slug("Łódź Packaging") == "lodz_packaging"
    assert key_slug("Straße") == "strasse"
    assert key_slug("!!!") == ""


@pytest.mark.parametrize(("recorded", "new"), [
    (("electricity_bill", "amount"), ("electricty_bill", "amount")),
    (("electricity_bill", "amount"), ("ElectricityBill", "amount")),
    (("electricity_bill", "amount"), ("bill_electricity", "amount")),
    (("electricity_bill", "amount"), ("electricity_bill", "amout")),
    (("phone", "number"), ("phones", "number")),
    (("phone", "plan"), ("phone", "plans")),
    (("company", "ceo"), ("companies", "ceo")),
    (("car", "colour"), ("car", "color")),
    (("ola", "speaks"), ("ola", "speak")),
    (("cat", "name"), ("cat", "nmae")),
    (("jan_kowalski", "email"), ("jan_kowalsky", "email")),
])
def test_near_keys_are_flagged(recorded: tuple[str, str], new: tuple[str, str]) -> None:
    [match] = ScopeKeys([recorded]).similar(*new)
    assert (match.subject, match.relation) == recorded and match.recorded


@pytest.mark.parametrize(("recorded", "new"), [
    (("car", "model"), ("car", "make")),
    (("cat", "name"), ("car", "name")),
    (("person", "weight"), ("person", "height")),
    (("mother", "name"), ("brother", "name")),
    (("father", "name"), ("mother", "name")),
    (("grandma", "phone"), ("grandpa", "phone")),
    (("wife", "name"), ("wifi", "name")),
    (("vat", "q2_2026"), ("vat", "q3_2026")),
    (("bill_2025", "amount"), ("bill_2026", "amount")),
    (("jan", "phone"), ("jana", "phone")),
    (("daniel", "email"), ("daniela", "email")),
    (("ola", "speaks"), ("ala", "speaks")),
    (("job", "start_date"), ("job", "end_date")),
    (("salary", "monthly_gross"), ("salary", "monthly_net")),
])
def test_legitimate_neighbour_keys_pass(recorded: tuple[str, str], new: tuple[str, str]) -> None:
    assert ScopeKeys([recorded]).similar(*new) == []


def test_a_recorded_key_is_shown_as_first_recorded_and_is_never_similar() -> None:
    keys = ScopeKeys([("Electricity Bill", "Amount"), ("electricity_bill", "amount"),
                      ("electricity-bill", "due date")])
    assert keys.shown("ELECTRICITY_BILL", "amount") == ("Electricity Bill", "Amount")
    assert keys.shown("electricity bill", "Due-Date") == ("Electricity Bill", "due date")
    assert keys.similar("electricity bill", "amount") == []
    assert keys.shown("electricity_bill", "tariff") is None


def test_a_misspelt_subject_with_a_new_relation_suggests_the_subject() -> None:
    [match] = ScopeKeys([("electricity_bill", "amount")]).similar("electricty_bill",
                                                                   "due_date")
    assert (match.subject, match.relation, match.recorded) == ("electricity_bill",
                                                               "due_date", False)
    assert "electricty_bill" in match.how and "electricity_bill" in match.how


def test_a_word_the_scope_already_uses_is_not_a_typo() -> None:
    keys = ScopeKeys([("konrad_borkowski", "email"), ("piotr_borowski", "email")])
    assert keys.similar("konrad_borowski", "email") == []
    assert ScopeKeys([("konrad_borkowski", "email")]).similar("konrad_borowski", "email")


def test_similar_keys_as_json() -> None:
    [match] = ScopeKeys([("phone", "plan")]).similar("phone", "plans")
    assert match.to_json() == {"subject": "phone", "relation": "plan", "recorded": True,
                               "how": "relation 'plans' looks like 'plan' ('plans' and "
                                      "'plan' are singular and plural)"}


@pytest.mark.parametrize(("a", "b"), [
    ("kowalsky", "kowalski"), ("electricty", "electricity"), ("packagng", "packaging"),
    ("naem", "name"), ("vaat", "vat"), ("phones", "phone"), ("companies", "company"),
    ("taxes", "tax"),
])
def test_word_variants(a: str, b: str) -> None:
    assert word_variant(a, b, KEY_MIN_TYPO_WORD) is not None
    assert word_variant(b, a, KEY_MIN_TYPO_WORD) is not None


@pytest.mark.parametrize(("a", "b"), [
    ("q2", "q3"), ("2025", "2026"), ("v1", "v2"), ("cat", "car"), ("anna", "ania"),
    ("jan", "jana"), ("daniel", "daniela"), ("kowalski", "kowalska"), ("novotny", "novotna"),
    ("grandma", "grandpa"), ("height", "weight"), ("same", "same"),
])
def test_not_word_variants(a: str, b: str) -> None:
    assert word_variant(a, b, NAME_MIN_TYPO_WORD) is None


_WORD = st.text(alphabet="abcdefghijklmnoprstuvwyz", min_size=NAME_MIN_TYPO_WORD, max_size=12)


@given(_WORD, st.integers(0, 11), st.sampled_from("abcdefghijklmnoprstuvwyz"),
       st.sampled_from(["substitute", "delete", "insert", "swap"]))
def test_one_typo_in_a_long_word_is_always_found(word: str, at: int, letter: str,
                                                 edit: str) -> None:
    at %= len(word)
    typo = {"substitute": word[:at] + letter + word[at + 1:],
            "delete": word[:at] + word[at + 1:],
            "insert": word[:at] + letter + word[at:],
            "swap": word[:at] + word[at + 1:at + 2] + word[at:at + 1] + word[at + 2:]}[edit]
    assume(typo != word and len(typo) >= NAME_MIN_TYPO_WORD - 1)
    assume(not (typo.rstrip("a") == word.rstrip("a") and typo[-1:] + word[-1:] != "aa"))
    assume(typo[:-1] != word[:-1] or {typo[-1], word[-1]} not in ({"i", "a"}, {"y", "a"}))
    assert word_variant(word, typo) is not None


@given(st.lists(st.sampled_from(["jan", "kowalski", "kowalsky", "bill", "bills", "q2",
                                 "q3", "anna", "hanna", "electricity"]), min_size=1,
                max_size=3), st.lists(st.sampled_from(["jan", "kowalski", "kowalsky",
                                                       "bill", "bills", "q2", "q3"]),
                                      min_size=1, max_size=3),
       st.sampled_from(["-", "_", " ", "--"]))
def test_label_variants_are_symmetric_and_ignore_separators(a: list[str], b: list[str],
                                                            sep: str) -> None:
    forward = label_variant("-".join(a), "-".join(b))
    assert (forward is None) == (label_variant("_".join(b), "_".join(a)) is None)
    assert (forward is None) == (label_variant(sep.join(a).upper(), "-".join(b)) is None)


# --- notes ---------------------------------------------------------------------------------

EXISTING = [
    ("jan-kowalski", "Accountant at Acme; invoices, VAT questions, prefers email"),
    ("jan-novak", "Accountant at Acme; invoices, VAT questions, prefers phone calls"),
    ("lodz-packaging", "Ordering profile: minimum quantities, lead times, packaging"),
    ("vat-return-q2-2026", "VAT return for Q2 2026: deadlines, amounts, documents"),
    ("car-service-2025", "Car service 2025: booking, cost, mileage at the service"),
]


def names() -> NoteNames:
    return NoteNames([n for n, _ in EXISTING], [d for _, d in EXISTING])


@pytest.mark.parametrize("name", ["anna-kowalska", "jana-novakova", "jana-novak",
                                  "vat-return-q3-2026", "car-service-2026", "daniel-nowak",
                                  "jan-nowicki"])
def test_legitimate_neighbour_notes_pass(name: str) -> None:
    assert names().similar(name, f"Something specific about {name} only") == []


@pytest.mark.parametrize(("name", "aliases", "existing"), [
    ("jan-kowalsky", (), "jan-kowalski"),
    ("lodz-packagng", (), "lodz-packaging"),
    ("lodzpackaging", (), "lodz-packaging"),
    ("kowalski-jan", (), "jan-kowalski"),
    ("opakowania-lodz", ("Łódź Packaging",), "lodz-packaging"),
])
def test_near_duplicate_notes_are_found(name: str, aliases: tuple[str, ...],
                                        existing: str) -> None:
    [match] = names().similar(name, "A description of its own, nothing like the others",
                              aliases)
    assert match.name == existing


def test_same_or_nearly_same_description() -> None:
    [same] = names().similar("new-note", "Accountant at Acme;  invoices, VAT questions, "
                                         "prefers email")
    assert (same.name, same.how) == ("jan-kowalski", "the same description")
    [near] = names().similar("new-note", "Accountant at Acme; invoices, VAT questions, "
                                         "prefers emial")
    assert near.name == "jan-kowalski"
    assert names().similar("new-note", "VAT return for Q3 2026: deadlines, amounts, "
                                       "documents") == []


def test_a_note_is_not_its_own_duplicate() -> None:
    assert names().similar("jan-kowalski", EXISTING[0][1]) == []


RECORDED = [("Electricity Bill", "Amount"), ("electricity_bill", "due date"),
            ("phone", "plan"), ("Konrad Borkowski", "email"), ("piotr_borowski", "email"),
            ("electricity bills", "tariff"), ("elektricity_bill", "amount"), ("car", "plates")]
QUESTIONS = [("ELECTRICITY_BILL", "amount"), ("electricty_bill", "due_date"),
             ("phone", "plans"), ("konrad_borowski", "email"), ("electricity_bill", "tariffs"),
             ("electricity bill", "amount"), ("car", "plate"), ("dog", "name"),
             ("elektricity bills", "amount"), ("electricity_bils", "amount")]


def _on_demand(recorded: list[tuple[str, str]]) -> tuple[ScopeKeys, list[list[str]]]:
    """`ScopeKeys.on_demand` over `recorded` (as the cache answers: subjects in another
    order, a subject's keys in the order first recorded), and the subjects each load asked
    for."""
    rows = [(at, f"id{at}", key_slug(s), key_slug(r), s, r)
            for at, (s, r) in enumerate(recorded)]
    firsts = {}
    for row in rows:
        firsts.setdefault(row[2:4], row)
    asked: list[list[str]] = []

    def load(subjects: object) -> list[tuple[int, str, str, str, str, str]]:
        asked.append(sorted(subjects))  # type: ignore[call-overload]
        return [row for row in firsts.values() if row[2] in asked[-1]]
    subjects = sorted({row[2] for row in rows}, reverse=True)
    return ScopeKeys.on_demand(subjects, load, lambda: {row[3] for row in rows}), asked


@pytest.mark.parametrize("question", QUESTIONS)
def test_keys_loaded_on_demand_answer_as_all_keys_do(question: tuple[str, str]) -> None:
    keys, asked = _on_demand(RECORDED)
    assert keys.resolve(*question) == ScopeKeys(RECORDED).resolve(*question)
    assert keys.shown_subject(question[0]) == ScopeKeys(RECORDED).shown_subject(question[0])
    assert len({subject for subjects in asked for subject in subjects}) <= 4  # of 7


def test_keys_loaded_on_demand_take_new_keys_like_all_keys_do() -> None:
    keys, _ = _on_demand(RECORDED)
    every = ScopeKeys(RECORDED)
    for new in [("electricity_bill", "meter"), ("dog", "name"), ("dogs", "name")]:
        assert keys.add(*new) == every.add(*new)
        assert keys.resolve("dog", "names") == every.resolve("dog", "names")
        assert keys.resolve("electricity bill", "meters") == every.resolve(
            "electricity bill", "meters")
