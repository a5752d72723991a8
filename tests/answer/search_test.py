"""Search (§7): folding of case, Unicode form and diacritics (ł, Š …), safe queries,
aliases, categories, precedence, quarantine, and "did you mean"."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from memrepo.agent.api import Memory
from memrepo.answer.ranking import Ranked
from memrepo.core.problems import InputError
from tests.support import append_events, assert_event, commit_everything, init_repo, note, write


@pytest.fixture(scope="module")
def memory(tmp_path_factory: pytest.TempPathFactory) -> Memory:
    root = init_repo(tmp_path_factory.mktemp("search") / "repo")
    write(root, "memory/entities/michal-zielinski.md", note(
        "entities", "michal-zielinski", "Service advisor at the Škoda dealer in Kraków",
        "# Michał Zieliński\n\nBooks the inspections; prefers phone calls.\n"))
    write(root, "memory/entities/lodz-packaging.md", note(
        "entities", "lodz-packaging", "Ordering profile: minimum quantities, lead times",
        "# Packaging supplier\n\nCartons from the city of Łódź.\n",
        aliases=["Łódź Packaging", "LP Sp. z o.o."]))
    write(root, "memory/rules/confirm-orders.md", note(
        "rules", "confirm-orders", "Confirm every supplier order in writing before paying",
        "Orders for cartons are confirmed by email.\n"))
    write(root, "memory/project/reorder.md", note(
        "project", "reorder", "Reorder of cartons planned for the spring of 2026",
        "Cartons: 180 boxes left.\n"))
    nfc = unicodedata.normalize("NFC", "Zażółć gęślą jaźń")
    write(root, "memory/references/pangram.md", note(
        "references", "pangram", "Polish pangram used to test the keyboard layout",
        f"{nfc}\n"))
    append_events(root, "memory/facts/michal/2026-01.jsonl", [
        assert_event("f1", "2026-01-05T00:00:00Z", "lodz-packaging", "lead_time",
                     "3 weeks", "2026-01-01"),
        assert_event("f2", "2026-01-06T00:00:00Z", "car", "make", "Škoda Octavia",
                     "2024-05-01"),
    ])
    append_events(root, "memory/facts/quarantine-michal/2026-01.jsonl", [
        assert_event("q1", "2026-01-07T00:00:00Z", "car", "colour", "Škoda green",
                     "2024-05-01", scope="quarantine-michal"),
    ])
    commit_everything(root, "search fixture")
    return Memory(root)


@pytest.fixture(autouse=True)
def pinned_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMREPO_NOW", "2026-11-30")


def _project_notes(tmp_path: Path, notes: dict[str, tuple[str, str]]) -> Memory:
    """A memory of project notes, name → (description, one-line body), committed."""
    root = init_repo(tmp_path / "repo")
    for name, (description, body) in notes.items():
        write(root, f"memory/project/{name}.md", note("project", name, description, body + "\n"))
    commit_everything(root, "project notes")
    return Memory(root)


def _names(memory: Memory, query: str, **options: object) -> list[str]:
    result = memory.search(query, **options)  # type: ignore[arg-type]
    return [hit.name or (hit.fact.id if hit.fact else "") for hit in result.results]


@pytest.mark.parametrize(("query", "expected"), [
    ("Michal", "michal-zielinski"),
    ("michał ZIELIŃSKI", "michal-zielinski"),
    ("Lodz", "lodz-packaging"),
    ("Skoda dealer", "michal-zielinski"),
    ("zazolc gesla jazn", "pangram"),
])
def test_folding_finds_accented_text(memory: Memory, query: str, expected: str) -> None:
    assert expected in _names(memory, query)


def test_nfd_query_finds_nfc_text(memory: Memory) -> None:
    query = unicodedata.normalize("NFD", "Zażółć jaźń")
    assert query != unicodedata.normalize("NFC", query)
    assert _names(memory, query) == ["pangram"]


def test_skoda_finds_facts_too(memory: Memory) -> None:
    result = memory.search("Skoda", category="facts")
    assert [hit.fact.object for hit in result.results if hit.fact] == ["Škoda Octavia"]


def test_aliases_are_searched(memory: Memory) -> None:
    assert _names(memory, "LP Sp") == ["lodz-packaging"]


@pytest.mark.parametrize("query", ["foo-bar", 'a"b', "NEAR(x y)", "*", "-", "AND OR NOT"])
def test_user_text_is_never_fts_syntax(memory: Memory, query: str) -> None:
    assert memory.search(query).status in ("found", "not_recorded")


@pytest.mark.parametrize("query", ["", "   "])
def test_an_empty_question_is_refused_as_recall_refuses_it(memory: Memory,
                                                          query: str) -> None:
    with pytest.raises(InputError, match="query: is empty"):
        memory.search(query)


def test_a_misspelled_word_is_searched_by_its_close_spelling_and_said_so(
        memory: Memory) -> None:
    result = memory.search("Lodz Pakaging")
    assert result.results[0].name == "lodz-packaging"
    assert result.respelled == {"pakaging": "packaging"}
    assert "lodz-packaging" in result.suggestions


def test_a_misspelling_alone_finds_nothing_but_says_what_exists(memory: Memory) -> None:
    result = memory.search("Zielnski")
    assert result.respelled == {"zielnski": "zielinski"}
    assert "michal-zielinski" in result.suggestions


def test_results_carry_category_and_follow_precedence_on_ties(memory: Memory) -> None:
    result = memory.search("cartons", category=None)
    categories = [hit.category for hit in result.results]
    assert set(categories) >= {"rules", "entities", "project"}
    assert all(hit.snippet for hit in result.results)


def test_category_filter(memory: Memory) -> None:
    assert {h.category for h in memory.search("cartons", category="rules").results} == {
        "rules"}


def test_quarantine_is_searched_only_when_named(memory: Memory) -> None:
    assert "q1" not in _names(memory, "green")
    assert _names(memory, "green", scope="quarantine-michal") == ["q1"]


def test_limit(memory: Memory) -> None:
    assert len(memory.search("cartons", limit=1).results) == 1


def test_bad_arguments_are_input_errors(memory: Memory) -> None:
    with pytest.raises(InputError):
        memory.search("x", category="nonsense")
    with pytest.raises(InputError):
        memory.search("x", limit=0)


def test_entity_alias_recall(memory: Memory) -> None:
    result = memory.recall("michal", "Lodz Packaging")
    assert [(f.subject, f.object) for f in result.facts] == [("lodz-packaging", "3 weeks")]
    assert memory.recall("michal", "LP Sp. z o.o.").status == "found"


def test_recall_suggests_close_subjects(memory: Memory) -> None:
    result = memory.recall("michal", subject="lodz-pakaging", relation="lead_time")
    assert result.status == "not_recorded"
    assert "lodz-packaging.lead_time" in result.suggestions or (
        "lodz-packaging" in result.suggestions)


def test_scopes_never_leak(memory: Memory) -> None:
    assert memory.recall("anna", "Lodz Packaging").status == "not_recorded"


def test_search_path_exists(memory: Memory) -> None:
    for hit in memory.search("cartons").results:
        assert (Path(memory.root) / hit.path).is_file()


def _log(lines: list[str]) -> str:
    return "".join(f"{line}\n" for line in lines)


FILLER = [f"Caroline: we talked about the weekend plans, part {n}." for n in range(30)]


def _two_logs(tmp_path: Path, first: list[str], second: list[str]) -> Memory:
    """Two meeting logs (project notes session-1 and session-2, of these lines) among four
    short notes on other topics, committed."""
    root = init_repo(tmp_path / "repo")
    write(root, "memory/project/session-1.md", note(
        "project", "session-1", "Caroline and Melanie, 1 May 2023", _log(first)))
    write(root, "memory/project/session-2.md", note(
        "project", "session-2", "Caroline and Melanie, 8 May 2023", _log(second)))
    for n, topic in enumerate(("rent", "car service", "gym", "garden")):
        write(root, f"memory/project/other-{n}.md", note(
            "project", f"other-{n}", f"Notes on the {topic}", f"About the {topic}.\n"))
    commit_everything(root, "two meeting logs")
    return Memory(root)


def test_a_long_note_is_ranked_by_its_best_passage_too(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Two meeting logs share the question's words; in one they sit together in one
    exchange, in the other they are scattered over the whole log."""
    monkeypatch.setenv("MEMREPO_NOW", "2026-11-30")
    together = [*FILLER[:12], "Melanie: did the pottery class go well?",
                "Caroline: yes, I made a bowl with a blue glaze.", *FILLER[12:]]
    scattered = list(FILLER)  # the same words, one every eight lines
    for line, word in zip((0, 8, 16, 24), ("pottery", "glaze", "class", "glaze"), strict=True):
        scattered[line] = scattered[line].replace("weekend plans", word)
    memory = _two_logs(tmp_path, together, scattered)
    assert _names(memory, "Which glaze did Caroline pick in the pottery class?"
                  )[0] == "session-1"


def test_a_hyphenated_compound_is_found_written_as_one_word(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """"check-up" in a note answers "checkups"; its parts still answer "check"."""
    monkeypatch.setenv("MEMREPO_NOW", "2026-11-30")
    memory = _project_notes(tmp_path, {
        "health": ("Health", "Went for a check-up in May; results came by e-mail."),
        **{f"other-{n}": (f"Notes on the {topic}", f"About the {topic}.")
           for n, topic in enumerate(("rent", "car service", "gym", "garden"))}})
    assert _names(memory, "What were the results of my checkups?")[:1] == ["health"]
    assert _names(memory, "How did the results come, by email?")[:1] == ["health"]
    assert _names(memory, "Where are the check results?")[:1] == ["health"]
    assert _names(memory, "Did the results come by e-mail?")[:1] == ["health"]


def test_a_change_word_ranks_notes_but_never_answers_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """"change" asks for a history of facts, and is a noun in "the next oil change": notes
    are searched by it, but a note holding nothing else of the question is not listed."""
    monkeypatch.setenv("MEMREPO_NOW", "2026-11-30")
    memory = _project_notes(tmp_path, {
        "yaris-service": ("Service plan for the Toyota Yaris",
                          "Next oil change due at 60,000 km or in March 2027."),
        "flat-lease": ("Lease of the flat",
                       "The landlord wants two months' notice before any change.")})
    assert _names(memory, "When do I need to change the oil?") == ["yaris-service"]
    assert _names(memory, "When did the lease change?") == ["flat-lease"]


def test_a_word_over_the_postings_budget_finds_named_then_last_indexed_documents(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """When even the rarest word of a question is in more documents than the budget, no
    BM25 reads its whole posting list: the documents that hold it in a name field come
    first, then the last `budget` documents holding it in index order, of the category or
    scope asked for (the bound taken within them: a category is never left empty)."""
    from memrepo.answer.question import analyse
    from memrepo.answer.ranking import rank_keys, rank_notes
    from memrepo.cache import open_fresh
    from memrepo.cache.fulltext import key_of_row, note_names

    monkeypatch.setenv("MEMREPO_NOW", "2026-11-30")
    root = init_repo(tmp_path / "repo")
    write(root, "memory/entities/carton-supplier.md", note(
        "entities", "carton-supplier", "Who delivers our boxes", "Since 2019.\n"))
    for n in range(4):
        write(root, f"memory/project/box-{n}.md", note(
            "project", f"box-{n}", f"Box order number {n}", "Cartons to order.\n"))
    append_events(root, "memory/facts/michal/2026-01.jsonl", [
        assert_event(f"c{n}", "2026-01-05T00:00:00Z", f"box-{n}", "size", f"{n} cartons",
                     "2026-01-01") for n in range(3)])
    commit_everything(root, "boxes")
    open_fresh(root).close()  # built now: what comes next is synced in, as newer rows
    write(root, "memory/rules/box-rule.md", note(
        "rules", "box-rule", "Box orders are confirmed in writing", "Cartons too.\n"))
    append_events(root, "memory/facts/quarantine-michal/2026-01.jsonl", [
        assert_event("q1", "2026-01-07T00:00:00Z", "box-9", "size", "9 cartons", "2024-05-01",
                     scope="quarantine-michal")])
    commit_everything(root, "a rule and a quarantined key, added last")
    question = analyse("carton", 0)
    conn = open_fresh(root)

    def names(ranked: Ranked) -> list[str]:
        found = note_names(conn, [hit.rowid for hit in ranked.hits])
        return [found[hit.rowid] for hit in ranked.hits]

    try:
        over = rank_notes(conn, question, budget=2)
        assert names(over)[:2] == ["carton-supplier", "box-rule"] and len(over.hits) == 3
        assert all(hit.judgement.answers(rarest_rule=False) for hit in over.hits)
        assert len(rank_notes(conn, question, budget=10**6).hits) == 6
        projects = rank_notes(conn, question, category="project", budget=2)
        assert len(projects.hits) == 2 and names(projects)[0].startswith("box-")
        assert len(rank_notes(conn, question, category="project", budget=10**6).hits) == 4
        hosts = rank_keys(conn, question, None, budget=2).hits  # quarantine left out
        assert len(hosts) == 2
        assert {key_of_row(conn, hit.rowid)[0] for hit in hosts} == {"michal"}
        assert len(rank_keys(conn, question, "quarantine-michal", budget=2).hits) == 1
        assert len(rank_keys(conn, question, "michal", budget=2).hits) == 2
        assert len(rank_keys(conn, question, "michal", budget=10**6).hits) == 3
    finally:
        conn.close()


def test_a_first_name_and_a_surname_both_near_the_budget_find_that_person(
        tmp_path: Path) -> None:
    """Review: with only the rarest form searched, "Michał Lewandowska" ranked the other
    Lewandowskas by the surname alone (at 100k notes: Björn, Jürgen, Łukasz Lewandowska
    first); the two rarest forms were always searched before."""
    from memrepo.answer.question import analyse
    from memrepo.answer.ranking import rank_notes
    from memrepo.cache import open_fresh
    from memrepo.cache.fulltext import note_names

    root = init_repo(tmp_path / "repo")
    for n in range(60):  # more namesakes than the pool BM25 ranks
        write(root, f"memory/entities/bjorn-lewandowska-{n}.md", note(
            "entities", f"bjorn-lewandowska-{n}", f"Bjorn Lewandowska number {n}",
            "Lewandowska from the Lewandowska family.\n"))
    write(root, "memory/entities/michal-lewandowska.md", note(
        "entities", "michal-lewandowska", "Michal Lewandowska, a contact",
        "Orders and invoices. " * 8 + "\n"))
    for n in range(60):
        write(root, f"memory/entities/michal-nowak-{n}.md", note(
            "entities", f"michal-nowak-{n}", f"Michal Nowak number {n}", "Hi.\n"))
    commit_everything(root, "people")
    conn = open_fresh(root)
    try:
        ranked = rank_notes(conn, analyse("Michał Lewandowska", 0), budget=100)
        first = note_names(conn, [ranked.hits[0].rowid])[ranked.hits[0].rowid]
        assert first == "michal-lewandowska"
    finally:
        conn.close()


def _fair_logs(tmp_path: Path) -> Memory:
    """Two meeting logs holding the same words of the question: in one they are found
    together in one exchange; the other says "charity fair" twice in one exchange, and what
    was baked with lemons far from it."""
    together = [*FILLER[:12], "Melanie: what did you bring to the charity fair?",
                "Caroline: I baked lemon cupcakes for it.", *FILLER[12:]]
    repeated = [*FILLER[:24], "Caroline: I baked bread with lemons on Sunday.", *FILLER[24:]]
    for line in (0, 2):
        repeated[line] = "Caroline: the charity fair again."
    return _two_logs(tmp_path, together, repeated)


def test_a_passage_holding_more_of_the_question_outranks_words_repeated(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """BM25 pays for "charity" and "fair" repeated; the share of the question's IDF that a
    note's best passage holds puts the exchange with every word of the question first."""
    import memrepo.answer.ranking as retrieval

    monkeypatch.setenv("MEMREPO_NOW", "2026-11-30")
    memory = _fair_logs(tmp_path)
    question = "What did Caroline bake with lemons for the charity fair?"
    assert _names(memory, question)[:2] == ["session-1", "session-2"]
    monkeypatch.setattr(retrieval, "COVERED", 0.0)
    assert _names(memory, question)[:1] == ["session-2"]


def test_coverage_of_a_passage_reorders_but_never_answers_a_refusal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whether anything answers is judged on the note's own words, as before: a question
    whose rarest words no note holds stays "not recorded"."""
    monkeypatch.setenv("MEMREPO_NOW", "2026-11-30")
    memory = _fair_logs(tmp_path)
    assert _names(memory, "Which bicycle did Caroline repair after the charity fair?") == []
    assert _names(memory, "Who repaired Caroline's bicycle?") == []


def test_a_note_is_found_by_its_tags_and_links_by_the_name_they_resolve_to(
        tmp_path: Path) -> None:
    """Issue 22: tags are searched with the description (its text unchanged); every wiki
    link form is a link row to the note it names, in the build and in a sync alike."""
    from memrepo.cache import open_fresh

    root = init_repo(tmp_path / "repo")
    write(root, "memory/entities/jan-novak.md", note(
        "entities", "jan-novak", "Accountant at Acme: invoices, VAT, prefers email"))
    body = ("Ask [[jan-novak|our accountant]], [[jan-novak#Contact]], "
            "[[jan-novak#Contact|how]].\n![[jan-novak]]\n| a | [[jan-novak\\|Jan]] |\n"
            "See [[#Open points]].\n" + "Filler line about the weather.\n" * 40)
    write(root, "memory/project/vat-return.md", note(
        "project", "vat-return", "VAT return for Q1 2026: documents and filing date", body,
        tags='[bookkeeping, "#quarterly"]'))
    commit_everything(root, "tagged")
    memory = Memory(root)
    for tag in ("bookkeeping", "quarterly", "#quarterly", "Bookkeeping?"):
        result = memory.search(tag)
        assert [hit.name for hit in result.results] == ["vat-return"], tag
        assert result.results[0].snippet == ("VAT return for Q1 2026: documents and filing "
                                             "date")
    assert [n.name for n in memory.recall("michal", "quarterly bookkeeping").notes
            ] == ["vat-return"]
    conn = open_fresh(root)
    assert conn.execute("SELECT target, line FROM links ORDER BY line").fetchall() == [
        ("jan-novak", 7), ("jan-novak", 7), ("jan-novak", 7), ("jan-novak", 8),
        ("jan-novak", 9)]
    conn.close()
    write(root, "memory/project/vat-return.md", note(
        "project", "vat-return", "VAT return for Q1 2026: documents and filing date", body,
        tags="[payroll]"))
    commit_everything(root, "retagged")  # synced in by the next query
    assert [hit.name for hit in memory.search("payroll").results] == ["vat-return"]
    assert memory.search("bookkeeping").status == "not_recorded"
