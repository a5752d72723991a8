"""Dates and periods in questions (core.when)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memrepo.answer.concepts import table_for
from memrepo.answer.question import analyse
from memrepo.answer.reading import read_question
from memrepo.answer.when import Times, dates_in, find_times, numeric_dates_as_iso
from memrepo.core.facts.times import format_valid_time, parse_instant
from memrepo.core.text import words

NOW = parse_instant("2026-08-31T18:00:00Z")


def times(text: str) -> Times:
    return find_times(words(numeric_dates_as_iso(text, NOW)), NOW)


def valid(text: str) -> tuple[str, str | None] | None:
    when = times(text).valid
    if when is None:
        return None
    return (format_valid_time(when.start),
            None if when.end is None else format_valid_time(when.end))


def test_a_month_is_the_whole_month() -> None:
    assert valid("How much did I pay for electricity in April 2026?") == (
        "2026-04-01", "2026-05-01")
    assert valid("Ile płacę za prąd w kwietniu 2025?") == ("2025-04-01", "2025-05-01")
    assert valid("Čo som platil za elektrinu v apríli?") == ("2026-04-01", "2026-05-01")


def test_a_month_without_a_year_is_the_latest_one_begun() -> None:
    assert valid("Where did I live in March?") == ("2026-03-01", "2026-04-01")
    assert valid("What did I pay in December?") == ("2025-12-01", "2026-01-01")
    assert valid("Who was my employer in august?") == ("2026-08-01", "2026-09-01")


def test_years_and_relative_periods() -> None:
    assert valid("What did I pay in 2025?") == ("2025-01-01", "2026-01-01")
    assert valid("Koľko som platil v roku 2024?") == ("2024-01-01", "2025-01-01")
    assert valid("What was my rent last year?") == ("2025-01-01", "2026-01-01")
    assert valid("Ile płaciłem w zeszłym roku?") == ("2025-01-01", "2026-01-01")
    assert valid("Kde som býval vlani?") == ("2025-01-01", "2026-01-01")
    assert valid("What did I pay this month?") == ("2026-08-01", "2026-09-01")
    assert valid("What did I pay yesterday?") == ("2026-08-30", "2026-08-31")
    assert valid("Q2 2026 VAT") == ("2026-04-01", "2026-07-01")
    assert valid("What changed in the first half of the year?") == ("2026-01-01", "2026-07-01")
    assert valid("the second half of 2025") == ("2025-07-01", "2026-01-01")


def test_czech_years_and_the_edges_of_a_year() -> None:
    assert valid("Kolik jsme platili za parkoviště v roce 2025?") == ("2025-01-01", "2026-01-01")
    assert valid("Kde bydlel loni?") == ("2025-01-01", "2026-01-01")
    assert valid("Co jsme platili předloni?") == ("2024-01-01", "2025-01-01")
    assert valid("Kolik platíme letos?") == ("2026-01-01", "2027-01-01")
    assert valid("Kto dostarczał karmę na początku 2026?") == ("2026-01-01", "2026-04-01")
    assert valid("Who was our supplier at the start of 2026?") == ("2026-01-01", "2026-04-01")
    assert valid("Co jsme platili koncem roku 2025?") == ("2025-10-01", "2026-01-01")
    assert valid("Kde jsme byli na jaře 2025?") == ("2025-03-01", "2025-06-01")


def test_instants() -> None:
    assert times("What is my address now?").valid is not None
    assert valid("Where did I live two years ago?") == ("2024-08-31", None)
    assert valid("Gdzie mieszkałem rok temu?") == ("2025-08-31", None)
    assert valid("Kde som býval pred dvoma rokmi?") == ("2024-08-31", None)
    assert valid("What was the mileage at the start of May?") == ("2026-05-01", None)


def test_since_and_between() -> None:
    assert valid("What changed since March?") == ("2026-03-01", "2026-08-31T18:00:00Z")
    assert valid("Did my bill change between February and April?") == (
        "2026-02-01", "2026-05-01")
    assert valid("Did my rent change from January to April?") == ("2026-01-01", "2026-05-01")
    both_years = ("2025-01-01", "2027-01-01")  # "and" is "a" or "i" between two years
    assert valid("Jak zmieniła się emerytura między 2025 a 2026?") == both_years
    assert valid("Ako sa zmenil nájom medzi 2025 a 2026?") == both_years
    assert valid("Did rent change between 2025 and 2026?") == both_years


def test_days() -> None:
    assert valid("What was booked on 2026-05-20?") == ("2026-05-20", "2026-05-21")
    assert valid("What did Caroline do on 7 May 2023?") == ("2023-05-07", "2023-05-08")
    assert valid("May 7, 2023") == ("2023-05-07", "2023-05-08")


def test_days_written_with_numbers() -> None:
    day = ("2026-02-15", "2026-02-16")
    assert valid("How much was electricity on 15.02.2026?") == day
    assert valid("Ile kosztował prąd 15.2.2026?") == day
    assert valid("Wie viel kostete Strom am 15.02.?") == day
    assert valid("What did I pay on 02/15/2026?") == day  # month first: 15 is no month
    assert valid("What did I pay on 15/02/2026?") == day
    assert valid("What did I pay on 03/04/2026?") == ("2026-04-03", "2026-04-04")  # day first
    assert valid("Co platilo 20.12.?") == ("2025-12-20", "2025-12-21")  # latest one begun


def test_amounts_and_versions_are_not_days() -> None:
    for text in ("Did I pay 2.400 zł for the laptop?", "Is the quota 1.5 GB?",
                 "Which bug did v1.2.3 fix?", "Was 1.2.3 released?", "Is it 12.50 zł?",
                 "Was the rate 2.40.?", "What broke on 31.02.2026?", "1.10.2026x"):
        assert valid(text) is None, text


def test_ordinary_questions_name_no_time() -> None:
    for text in ("How much do I pay?", "May I ask what my rent is?", "Ile płacę?",
                 "Kedy sa zmenil nájom?", "How much is 2025 zł?", "Who is my family doctor?",
                 "When was my car last serviced?", "What did Sam do?"):
        assert times(text).valid is None, text


def test_a_date_beside_memory_words_is_the_system_time() -> None:
    found = times("As the memory knew it on 5 June, what did my phone cost in June?")
    assert found.known is not None and format_valid_time(found.known.start) == "2026-06-05"
    assert found.valid is not None and format_valid_time(found.valid.start) == "2026-06-01"
    said = times("What did the memory say in May?")
    assert said.known is not None and said.valid is not None


@pytest.mark.parametrize("text", [
    "According to what you had on 1 May 2026, what was my phone?",
    "What did your records say on 1 May 2026 about my phone?",
    "Według stanu wiedzy na 1 maja 2026, jaki był mój telefon?",
    "Podľa záznamov k 1. 5. 2026, aké bolo moje číslo?",
    "What was on file for my phone on 1 May 2026?",
    "What did the notes say about my phone on 1 May 2026?",
    "What had been recorded about my phone by 1 May 2026?",
    "Back on 1 May 2026, what did we have written down for my phone?",
    "Čo si mal zaznamenané k 1. 5. 2026 o mojom čísle?",
    "Čo sme mali v poznámkach 1. mája 2026 o mojom čísle?",
])
def test_what_the_memory_had_on_a_day_is_the_system_time(text: str) -> None:
    found = times(text)
    assert found.known is not None and format_valid_time(found.known.start) == "2026-05-01"


def test_what_a_person_had_on_a_day_is_the_valid_time() -> None:
    found = times("What car had we on 1 May 2026?")
    assert found.known is None and found.valid is not None


@pytest.mark.parametrize("text", [
    "How has the rent changed since the start of 2025?",
    "Jak się zmieniał czynsz od początku 2025?",
    "Ako sa menil nájom od začiatku roka 2025?",
])
def test_since_the_start_of_a_year_runs_from_its_first_day_to_now(text: str) -> None:
    found = times(text).valid
    assert found is not None and format_valid_time(found.start) == "2025-01-01"
    assert found.end is not None and format_valid_time(found.end) == "2026-08-31T18:00:00Z"


def test_date_words_are_reported_as_used() -> None:
    text = words("How much did I pay in April 2026?")
    assert sorted(text[i] for i in times("How much did I pay in April 2026?").used) == [
        "2026", "april"]


def test_dates_in_stored_text_are_absolute_only() -> None:
    found = dates_in(words("Booked 2026-05-20; in May 2025 and yesterday, in June"))
    assert [(format_valid_time(w.start), w.end is not None) for w in found] == [
        ("2026-05-20", True), ("2025-05-01", True)]


@given(st.lists(st.sampled_from(
    ["in", "w", "v", "since", "between", "and", "may", "april", "kwietniu", "2025", "5",
     "last", "year", "ago", "two", "rok", "temu", "pred", "roku", "q2", "of", "start", "now",
     "x", "paid", "31", "february"]), max_size=12))
def test_any_sequence_of_date_words_is_read_without_error(sequence: list[str]) -> None:
    found = find_times(sequence, NOW)
    for when in (found.valid, found.known):
        assert when is None or when.end is None or when.start <= when.end


def test_last_season_is_the_one_just_over() -> None:
    november = parse_instant("2026-11-25T12:00:00Z")
    july = parse_instant("2026-07-15T12:00:00Z")
    summer = find_times(words("What did we pay last summer?"), november).valid
    assert summer is not None and format_valid_time(summer.start) == "2026-06-01"
    during = find_times(words("What did we pay last summer?"), july).valid
    assert during is not None and format_valid_time(during.start) == "2025-06-01"


def test_the_start_or_end_of_this_or_last_year_is_its_quarter() -> None:
    assert valid("What car did we have at the start of this year?") == (
        "2026-01-01", "2026-04-01")
    assert valid("Who was the landlord at the beginning of the year?") == (
        "2026-01-01", "2026-04-01")
    assert valid("What did we pay late last year?") == ("2025-10-01", "2026-01-01")
    assert valid("Ile płaciliśmy na początku tego roku?") == ("2026-01-01", "2026-04-01")


def test_a_memory_cue_anywhere_before_the_only_date_makes_it_the_system_time() -> None:
    found = times("What did the memory say Booking's commission was on 5 July 2026?")
    assert found.known is not None and format_valid_time(found.known.start) == "2026-07-05"
    stood = times("As your notes stood on 2026-03-01, what was my phone number?")
    assert stood.known is not None and format_valid_time(stood.known.start) == "2026-03-01"
    plain = times("According to our records, what was the rent in May 2026?")
    assert plain.known is None  # a manner of speaking, not a date the memory knew


def test_before_a_period_is_the_moment_just_before_it_began() -> None:
    november = parse_instant("2026-11-25T12:00:00Z")
    for text in ("What was the oven loan rate before September?",
                 "Jaki był czynsz przed wrześniem?", "Aký bol nájom pred septembrom?"):
        when = find_times(words(text), november).valid
        assert when is not None and when.end is None, text
        assert format_valid_time(when.start + 1) == "2026-09-01", text


@pytest.mark.parametrize("text", [
    "If I had asked on 1 March 2026, what was the rent?",
    "Według pamięci z 1 marca 2026, ile wynosi czynsz?",
    "Na dzień 1 marca 2026, ile wynosił czynsz według twojej wiedzy?",
    "Gdybym zapytał 1 marca 2026, ile wynosi czynsz?",
    "Keby som sa spýtal 1. marca 2026, aký je nájom?",
])
def test_more_ways_of_asking_what_the_memory_held_then(text: str) -> None:
    found = times(text)
    assert found.known is not None and format_valid_time(found.known.start) == "2026-03-01"


@pytest.mark.parametrize(("text", "day"), [
    ("As the notebook stood on 10 September 2026, what was our flat rent?", "2026-09-10"),
    ("As of 1 November 2025, what number did you have for Lucia?", "2025-11-01"),
    ("Which meds did you have listed for dad on 20 October 2026?", "2026-10-20"),
    ("Co wiedziałem 10 lipca 2026 o opłacie za dom opieki?", "2026-07-10"),
    ("Jaki numer pokoju taty miałeś zapisany 1 października 2025?", "2025-10-01"),
    ("Na stan wiedzy z 1 grudnia 2025: na jakim oddziale pracuję?", "2025-12-01"),
])
def test_what_the_memory_held_said_in_the_asker_s_words(text: str, day: str) -> None:
    found = times(text)
    assert found.known is not None and format_valid_time(found.known.start) == day, text


@pytest.mark.parametrize(("text", "clause"), [
    ("As the notebook stood on 10 September 2026, what was our flat rent?", {"notebook"}),
    ("Według stanu wiedzy na 30 grudnia 2025, ile kosztował kurs?", {"według", "stanu"}),
    ("Kto był drugim fotografem według tego, co wiedziałeś 1 maja 2026?",
     {"według", "wiedziałeś"}),
    ("Na stan wiedzy z 1 grudnia 2025: na jakim oddziale pracuję?", {"stan", "wiedzy"}),
    ("Kto bol náš rodinný lekár podľa stavu k 1. 6. 2026?", {"podľa", "stavu", "1", "6"}),
    ("Kdo byl mamčin praktik podle paměti z 2. června 2026?", {"podle", "paměti"}),
])
def test_the_clause_of_what_the_memory_held_is_no_word_searched(text: str,
                                                                clause: set[str]) -> None:
    """Its words ("NOTEBOOK", "WEDŁUG STANU wiedzy", a day written "1. 6. 2026") are about
    time, not the thing asked: a key need not hold them."""
    now = parse_instant("2026-11-25T12:00:00Z")
    read = read_question(analyse(text, now), now, table_for({}))
    assert not clause & {read.raw[i].lower() for i in read.salient}, text


@pytest.mark.parametrize("text", [
    "How many children were there in the 2025/26 school year?",
    "Ile dzieci było w roku szkolnym 2025/2026?",
    "Koľko detí sme mali v školskom roku 2025/26?",
])
def test_a_school_year_runs_from_september_to_september(text: str) -> None:
    found = times(text)
    assert found.valid is not None and found.valid.end is not None, text
    assert (format_valid_time(found.valid.start), format_valid_time(found.valid.end)) == (
        "2025-09-01", "2026-09-01"), text


def test_a_year_beside_a_number_too_long_to_read_is_still_a_year() -> None:
    """"2025/999…9" (thousands of digits) is no school year, and no error either."""
    found = times("What was the rent in 2025/" + "9" * 5000 + "?")
    assert found.valid is not None and format_valid_time(found.valid.start) == "2025-01-01"


def test_as_of_one_date_on_record_for_another() -> None:
    """"AS OF 1 October 2025, which van did we have ON RECORD for 2020?": the memory as it
    stood on 1 October 2025, about 2020; a year closing the question after "for" is a
    period, a number before an amount is not."""
    found = times("As of 1 October 2025, which van did we have on record for 2020?")
    assert found.known is not None and format_valid_time(found.known.start) == "2025-10-01"
    assert valid("As of 1 October 2025, which van did we have on record for 2020?") == (
        "2020-01-01", "2021-01-01")
    assert times("we sold it for 2000 zł, when?").valid is None
