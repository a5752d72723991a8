"""Two things asked in one text: each part is cut where a question word follows a joining
word (Czech "a VE KTERÉM městě", "plus when"), keeps whom the part before named when it
names no one, answers a thing's two relations asked side by side ("the dog's name and
breed", "adres i telefon Wiśniewskiego"), and asks where a thing is by its place."""

from __future__ import annotations

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_facts, world_fixtures, world_yaml

NOW = "2026-11-25T12:00:00Z"

WORLD = world_yaml("parts", "A family firm's office", NOW, world_facts("dom", (
    ("ondrej", "employer", "Rohlik.cz"),
    ("ondrej", "city", "Praha"),
    ("house", "address", "Křivánkova 14, Brno"),
    ("van", "plate", "8B4 3172"),
    ("van", "stk_due", "2027-03-14"),
    ("dog", "name", "Biscuit"),
    ("biscuit", "breed", "border terrier"),
    ("firma", "nip", "584-271-39-08"),
    ("firma", "numer_konta", "45 1050 1764 1000 0092 8812 3456"),
    ("fce_exam", "datum", "5. 12. 2026"),
    ("fce_exam", "miesto", "Bratislava, Panenská 17"),
    ("zuzka", "testovanie_9", "18 March 2027"),
    ("zuzka", "school", "ZŠ Limbová"),
    ("workshop_rent", "amount", "3 100 zł miesięcznie"),
    ("parking_lease", "landlord", "Josef Hanuš"),
    ("parking_lease", "end_date", "30. 4. 2028"),
    ("przystan", "telefon", "+48 58 551 40 20"),
    ("ford_transit", "nr_rejestracyjny", "GD 5M903"),
    ("house", "internet", "Orange 1 Gb/s"),
    ("garaz", "internet", "Netia 300 Mb/s"),
    ("dovera", "rate", "0,0296 € per point"),
    ("union", "rate", "0,0290 € per point"),
    ("jakub", "address", "Bubenečská 12, Praha 6"),
    ("jakub", "email", "jakub@fsv.cvut.cz"),
    ("jakub", "university", "ČVUT – Faculty of Civil Engineering"),
))).replace("notes: []", """notes:
  - {category: entities, name: ondrej, aliases: [Ondra],
     description: "Our elder son, works in Prague since 2024"}
  - {category: entities, name: biscuit, aliases: [dog],
     description: "The family dog, a border terrier from 2020"}
  - {category: entities, name: zuzka, aliases: [Zuzka],
     description: "Our daughter, in the ninth grade at ZŠ Limbová"}
  - {category: entities, name: warsztat, aliases: [warsztat],
     description: "The rented workshop in Orunia"}
  - {category: entities, name: przystan, aliases: [Przystań],
     description: "Dad's care home in Sopot"}""").replace(
    "  - {op: assert, scope: dom, subject: przystan", """  - {op: assert, scope: dom, subject: \
tomasz_wisniewski, relation: adres, object: "ul. Kwiatowa 8, Kowale", valid_from: "2026-03-01", \
recorded_at: "2026-03-10T18:00:00Z", quote: "Pan Tomasz Wiśniewski, ul. Kwiatowa 8, telefon \
+48 604 882 190.", source: conversation}
  - {op: assert, scope: dom, subject: tomasz_wisniewski, relation: telefon, object: "+48 604 \
882 190", valid_from: "2026-03-01", recorded_at: "2026-03-10T18:00:00Z", quote: "Pan Tomasz \
Wiśniewski, ul. Kwiatowa 8, telefon +48 604 882 190.", source: conversation}
  - {op: assert, scope: dom, subject: bus, relation: przeglad, object: "do 12.05.2027", \
valid_from: "2026-05-12", recorded_at: "2026-05-13T16:00:00Z", quote: "Master ma przegląd \
zrobiony, następny do 12.05.2027.", source: conversation}
  - {op: assert, scope: dom, subject: przystan""")

world_repo, memory = world_fixtures(WORLD, "dom", NOW)


def test_a_czech_question_word_after_a_preposition_starts_a_part(memory: Memory) -> None:
    """"… a VE KTERÉM městě bydlí?": Ondra's city, not the household's address."""
    assert answered_keys(memory, "dom", "Kde teď Ondra pracuje a ve kterém městě bydlí?") == [
        "ondrej.employer=Rohlik.cz", "ondrej.city=Praha"]


def test_plus_joins_two_questions(memory: Memory) -> None:
    assert answered_keys(memory, "dom", "What's the van's plate number, plus when is its "
                                        "STK due?") == [
        "van.plate=8B4 3172", "van.stk_due=2027-03-14"]


def test_two_relations_of_one_thing_under_two_subjects(memory: Memory) -> None:
    """`dog.name` and `biscuit.breed` are one dog's (its entity note's alias)."""
    assert sorted(answered_keys(memory, "dom", "dog's name and breed?")) == [
        "biscuit.breed=border terrier", "dog.name=Biscuit"]


def test_a_polish_request_joins_two_relations(memory: Memory) -> None:
    assert answered_keys(memory, "dom", "Podaj NIP firmy i numer konta.") == [
        "firma.nip=584-271-39-08", "firma.numer_konta=45 1050 1764 1000 0092 8812 3456"]


def test_a_word_only_a_quote_holds_is_still_asked(memory: Memory) -> None:
    """The quote of his address names his phone: the phone is asked all the same."""
    assert answered_keys(memory, "dom", "Podaj adres i telefon Wiśniewskiego.") == [
        "tomasz_wisniewski.adres=ul. Kwiatowa 8, Kowale",
        "tomasz_wisniewski.telefon=+48 604 882 190"]


def test_where_asks_a_named_things_place(memory: Memory) -> None:
    assert answered_keys(memory, "dom", "where is the exam?") == [
        "fce_exam.miesto=Bratislava, Panenská 17"]
    assert answered_keys(memory, "dom", "Kedy a kde je skúška?") == [
        "fce_exam.datum=5. 12. 2026", "fce_exam.miesto=Bratislava, Panenská 17"]


def test_a_capitalised_word_of_her_key_is_no_second_name(memory: Memory) -> None:
    """"Zuzka TESTOVANIE 9" is not someone called so: her `testovanie_9`; the next part
    (no one named) is hers too."""
    assert answered_keys(memory, "dom", "Kedy má Zuzka Testovanie 9? A akú školu teraz "
                                        "navštevuje?") == [
        "zuzka.testovanie_9=18 March 2027", "zuzka.school=ZŠ Limbová"]


def test_a_thing_named_in_another_language_says_whose_key_it_is(memory: Memory) -> None:
    """"za WARSZTAT" names `workshop_rent` (a word of the same concept): kept as the
    part's answer; the part asking until when has none."""
    assert answered_keys(memory, "dom", "Ile płacimy za warsztat i do kiedy?") == [
        "workshop_rent.amount=3 100 zł miesięcznie"]


def test_it_stands_for_the_thing_named_before(memory: Memory) -> None:
    """"Parkoviště — od koho HO pronajímáme": the parking lot's landlord, not someone
    called "ho"."""
    assert answered_keys(memory, "dom", "Parkoviště — od koho ho pronajímáme a do kdy běží "
                                        "smlouva?") == [
        "parking_lease.landlord=Josef Hanuš", "parking_lease.end_date=30. 4. 2028"]


def test_a_phone_number_answers_no_how_much(memory: Memory) -> None:
    assert answered_keys(memory, "dom", "Ile płacimy za Przystań?") == []


def test_a_name_of_one_thing_is_not_another_of_its_kind(memory: Memory) -> None:
    """"the TRANSIT" is `ford_transit` (a capitalised word of its subject), which has no
    inspection recorded: not the other van's."""
    assert answered_keys(memory, "dom", "Kiedy Transit ma następny przegląd?") == []


def test_a_part_naming_only_another_thing_asks_the_same_of_it(memory: Memory) -> None:
    """"… , a JAKI GARAŻ?", "… and WHAT ABOUT UNION?": what the part before asked, of that
    thing — a relation the part before answered, never a key of the same subject."""
    assert answered_keys(memory, "dom", "Jaki internet ma dom, a jaki garaż?") == [
        "house.internet=Orange 1 Gb/s", "garaz.internet=Netia 300 Mb/s"]
    assert answered_keys(memory, "dom", "What does Dovera pay per point, and what about "
                                        "Union?") == [
        "dovera.rate=0,0296 € per point", "union.rate=0,0290 € per point"]


def test_a_word_before_an_answered_one_is_no_question_of_its_own(memory: Memory) -> None:
    """"his SCHOOL e-mail": which e-mail, not his university asked as well."""
    assert answered_keys(memory, "dom", "Jakub's address and his school e-mail?") == [
        "jakub.address=Bubenečská 12, Praha 6", "jakub.email=jakub@fsv.cvut.cz"]

