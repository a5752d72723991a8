"""The concept table (memrepo.answer.concepts): its file, its index, and how words of a
question and of a key find their concepts."""

from __future__ import annotations

from pathlib import Path

import yaml

from memrepo.answer import concepts
from memrepo.answer.concepts import INDEX_FILE, index_json, read_table, shipped, table_for
from memrepo.core.stems import tokens

HERE = Path(concepts.__file__).resolve().parent
TABLE = (HERE / "concepts.yaml").read_text(encoding="utf-8")


def test_the_line_reader_reads_what_yaml_reads() -> None:
    table = read_table(TABLE)
    entries, within = table.entries, table.within
    loaded = yaml.safe_load(TABLE)["concepts"]
    assert entries == {name: entry["words"] for name, entry in loaded.items()}
    assert sorted(table.roles) == sorted(name for name, entry in loaded.items()
                                         if entry.get("role"))
    assert within == {name: entry["within"] for name, entry in loaded.items()
                      if "within" in entry}
    for narrow, broad in within.items():  # the broader concept lists the narrower's words
        assert set(entries[narrow]) <= set(entries[broad]), narrow
    assert table.together == {name: [[c.strip() for c in pair.split("+")]
                                     for pair in entry["together"]]
                              for name, entry in loaded.items() if "together" in entry}
    for name, pairs in table.together.items():  # each names two concepts of the table
        assert all(len(pair) == 2 and set(pair) <= set(entries) for pair in pairs), name


def test_the_shipped_index_is_built_from_the_table() -> None:
    """After editing concepts.yaml: `python -m memrepo.answer.concepts` rewrites it."""
    assert (HERE / INDEX_FILE).read_bytes() == index_json(TABLE)


def test_a_phrase_is_one_concept_and_its_words_mean_the_phrase() -> None:
    table = shipped()
    [span] = table.spans(["mother", "in", "law"])
    assert "mother_in_law" in span.concepts and "mother" not in span.concepts
    assert any("occupation" in s.concepts for s in table.spans(["do", "for", "a", "living"]))
    assert table.spans(["family", "doctors"])[0].concepts >= {"doctor"}  # a base form


def test_words_find_their_concepts_across_languages_and_inflections() -> None:
    table = shipped()
    for word, concept in (("mieszka", "residence"), ("byvam", "residence"),
                          ("weterynarzem", "vet"), ("telefon", "phone"), ("salary", "salary"),
                          ("placimy", "price")):
        assert concept in table.word_concepts(word), word
    assert "mother" not in table.word_concepts("mamy")  # Polish "we have": too short
    assert "dog" not in table.word_concepts("pesel")  # a short base form is no match


def test_spans_read_again_are_the_same_and_not_shared() -> None:
    """A table remembers the spans of the word sequences it has read (a question reads the
    same names many times); each caller gets its own list."""
    table = table_for({"boat": ["motor boat"]})
    first = table.spans(["our", "motor", "boat"])
    first.clear()
    again = table.spans(("our", "motor", "boat"))
    assert [(s.start, s.end, s.concepts) for s in again] == [(1, 3, frozenset({"boat"}))]
    assert table.spans(["our", "motor", "boat"]) == again


def test_a_memory_adds_its_own_words() -> None:
    table = table_for({"residence": ["chalupa"], "boat": ["boat", "jacht"]})
    assert "residence" in table.word_concepts("chalupa")
    assert "boat" in table.word_concepts("jacht")
    assert "boat" not in shipped().word_concepts("jacht")


def _folded(text: str) -> list[str]:
    return [word for _, word in tokens(text)]


def _concepts(table: concepts.ConceptTable, text: str) -> frozenset[str]:
    """The concepts a question's word or phrase names (folded as a question is)."""
    folded = [word for _, word in tokens(text)]
    if len(folded) == 1:
        return table.word_concepts(folded[0])
    return frozenset().union(*(span.concepts for span in table.spans(folded)))


def test_everyday_relations_are_found_in_the_cases_people_ask_them() -> None:
    table = shipped()
    for text, concept in (
            ("dcérou", "daughter"), ("bráchu", "brother"), ("chrześniak", "godchild"),
            ("kaucja", "security_deposit"), ("deposit", "security_deposit"),
            ("zarządca", "property_manager"), ("kotla", "boiler"), ("awarię", "repair"),
            ("splátku", "payment"), ("úvěru", "loan"), ("hypotéky", "mortgage"),
            ("faktúru", "invoice"), ("rej", "plate"), ("obchodzi", "birth"),
            ("ubezpiecza", "insurance"), ("mailowe", "email"), ("activities", "lessons"),
            ("dlžíme", "balance"), ("zákazníkovi", "customer"), ("hurtowni", "supplier"),
            ("zakázku", "order"), ("przeglądu", "service"),
            ("technickú kontrolu", "vehicle_inspection"),
            ("pneumatiky", "tyres"), ("náhradné diely", "spare_parts"), ("lékaře", "doctor"),
            ("kardiologa", "cardiologist"), ("lekáreň", "pharmacy"), ("rabies shot", "vaccination"),
            ("úľov", "hive"), ("colonies", "hive"), ("słoików", "jar"), ("pohárov", "jar"),
            ("świetlicy", "after_school"), ("kroužku", "lessons"), ("gości", "guest"),
            ("check-in", "check_in"), ("recepturę", "recipe"), ("instalatéra", "plumber"),
            ("cenovú ponuku", "quote"), ("menedżer haseł", "password_manager"),
            ("doménu", "domain"), ("trhoch", "market"), ("e-shop", "eshop"),
            ("o której", "time_of_day"), ("którego dnia", "day"), ("cisza nocna", "quiet_hours"),
            ("od osoby", "per_person"), ("przyczepy", "trailer"), ("chmeľ", "hops"),
            ("w wolnym czasie", "hobby"), ("clear out", "check_out"), ("checkin", "check_in"),
            ("odszedł", "end"), ("last day", "end"), ("w nocy", "night")):
        assert concept in _concepts(table, text), text


def test_everyday_words_of_a_question_name_no_concept() -> None:
    """A form of the table never spells a word every question uses: Polish 'mamę' is
    Slovak 'máme' (we have), Polish 'kółko' is Slovak 'koľko' (how many), Czech 'let' (a
    flight) is English 'let'."""
    table = shipped()
    for text in ("máme", "mamy", "koľko", "kolik", "ile", "gdzie", "kde", "kiedy", "kedy",
                 "kdy", "teraz", "teď", "jeszcze", "ešte", "ještě", "let", "lot", "rat"):
        assert not _concepts(table, text), text


def test_a_form_written_out_keeps_every_concept_its_base_form_found() -> None:
    """A word of the table is matched as written only: its inflected form added to one
    concept must not hide the others its base form names."""
    table = shipped()
    for text, both in (("wizytę", {"appointment", "visit"}),
                       ("manželky", {"spouse", "marriage"}),
                       ("przychodni", {"practice", "hospital"}),
                       ("firmy", {"company", "employer"}),
                       ("koszty", {"price", "budget"})):
        assert both <= _concepts(table, text), text


def test_kinds_of_one_thing_stay_apart() -> None:
    """Specialists, trades, animals are each their own concept: a roofer is no painter."""
    table = shipped()
    for one, other in (("kardiolog", "dermatolog"), ("roofer", "painter"),
                       ("krowy", "kury"), ("hydraulik", "elektryk"), ("ule", "mleko")):
        assert not _concepts(table, one) & _concepts(table, other), (one, other)


def test_a_phrase_with_a_gap_takes_the_words_between_within_one_clause() -> None:
    table = shipped()
    [rent] = [s for s in table.spans(_folded("who do we rent the shop premises from"))
              if s.start == 3]
    assert "landlord" in rent.concepts and rent.phrase == "rent … from"
    assert "supplier" in _concepts(table, "where do we get our eggs from")
    # never across a clause, nor before one: the rent's amounts, a move's dates
    assert "landlord" not in _concepts(table, "when did the rent go up and from how much")
    assert "supplier" not in _concepts(table, "the appointment got moved from when to when")
    assert "landlord" in table_for({"landlord": ["hire … off"]}).spans(
        _folded("who do we hire the hall off"))[0].concepts


def test_a_verb_is_no_meeting() -> None:
    """"kiedy SCHODZI rata" (is debited) says nothing of a meeting ("schôdza")."""
    assert "meeting" not in _concepts(shipped(), "schodzi")


def test_a_rating_is_no_rate_and_older_is_no_rating() -> None:
    """"our RATING on Booking" is no fee (not the commission); "starsza córka" (the older
    daughter) says nothing of a rating."""
    table = shipped()
    assert table.word_concepts("rating") == {"rating"}
    assert not table.word_concepts("rating") & {"fee", "hourly_rate", "interest_rate"}
    for older in ("starsza", "starszy", "starsi", "stars"):
        assert "rating" not in table.word_concepts(older), older
