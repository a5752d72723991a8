"""A family car dealership: the mechanic named by a note's alias ("nasz mechanik") is the
firm's `mechanik` value; the mechanics over the years are every value it held; "idę" (I
go) makes the asker the subject; "kde všade" asks every place lived; the second part of a
question that names nobody is asked of whom the first part named, recorded or not."""

from __future__ import annotations

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_event, world_fixtures, world_yaml

NOW = "2026-11-18T12:00:00Z"

_MECHANICS = """\
  - {op: assert, scope: komis, subject: auto_wisniewski, relation: mechanik,
     object: "Paweł Zając", valid_from: "2015-03-01", recorded_at: "2025-05-01T08:00:00Z",
     source: manual}
  - {op: end, scope: komis, subject: auto_wisniewski, relation: mechanik,
     valid_to: "2025-07-31", recorded_at: "2025-08-02T08:00:00Z", source: manual}
  - {op: assert, scope: komis, subject: auto_wisniewski, relation: mechanik,
     object: "Juraj Hudák", valid_from: "2025-08-01", recorded_at: "2025-08-02T08:01:00Z",
     source: manual}
  - {op: assert, scope: juraj, subject: juraj, relation: bydlisko,
     object: "ul. Lwowska 25/8, Rzeszów", valid_from: "2025-08-01",
     recorded_at: "2025-08-03T19:05:00Z", source: manual}
  - {op: assert, scope: juraj, subject: juraj, relation: bydlisko,
     object: "ul. Dąbrowskiego 60/12, Rzeszów", valid_from: "2026-06-01",
     recorded_at: "2026-06-02T20:00:00Z", source: manual}
"""

WORLD = world_yaml("dealership", "A Rzeszów family's used-car dealership", NOW, "".join((
    _MECHANICS,
    world_event("komis", "auto_wisniewski", "telefon", "+48 17 862 40 11", "2012-01-01"),
    world_event("komis", "juraj_hudak", "telefon", "+421 905 118 204", "2025-08-01"),
    world_event("agnieszka", "agnieszka", "dentysta", "dr Ewa Lis", "2019-01-01"),
    world_event("agnieszka", "agnieszka", "wizyta_dentysta", "27 listopada 2026, 16:00",
                "2026-10-20"),
    world_event("agnieszka", "agnieszka", "telefon", "+48 601 220 330", "2015-01-01"),
    world_event("marek", "jakub", "data_urodzenia", "2006-04-03", "2006-04-03"),
    world_event("marek", "marek", "zona", "Agnieszka Wiśniewska", "2003-07-12"),
    world_event("marek", "marek", "mother", "Halina Wiśniewska", "1979-01-01"),
    world_event("marek", "halina_wisniewska", "gp", "dr Adam Kruk, Łańcut", "2015-01-01"),
    world_event("marek", "halina_wisniewska", "telefon", "+48 17 225 11 02", "2010-01-01"),
    world_event("marek", "zona", "data_urodzenia", "1979-08-22", "1979-08-22"),
    world_event("marek", "zona", "telefon", "+48 601 220 330", "2015-01-01"),
    world_event("komis", "auto_wisniewski", "wulkanizator", "Bartek Sowa", "2023-03-01"),
    world_event("komis", "cennik", "mycie_podstawowe", "40 zł", "2025-01-01"),
    world_event("komis", "cennik", "roboczogodzina_mechanika", "140 zł netto", "2025-01-01"),
    world_event("komis", "kamila_rusin", "telefon", "+48 530 118 404", "2022-03-01"),
    world_event("komis", "ksiegowa", "imie", "Beata Lis", "2020-01-01"),
    world_event("komis", "supervisor", "name", "Sandra Okafor", "2024-09-01"),
    world_event("komis", "auto_wisniewski", "director", "Marek Wiśniewski", "2012-01-01"),
    world_event("komis", "cennik", "mycie_premium", "70 zł", "2025-01-01"),
    world_event("komis", "cennik", "przechowywanie_opon", "150 zł/sezon", "2025-01-01"),
    world_event("marek", "jakub", "telefon", "+48 512 004 118", "2020-01-01"),
    world_event("marek", "tomasz_nowak", "email", "tomasz.nowak.el@gmail.com", "2024-01-01"),
    world_event("agnieszka", "sprzataczka", "imie", "pani Beata", "2025-01-10"),
    world_event("agnieszka", "sprzataczka", "stawka", "200 zł", "2025-01-10"),
    world_event("agnieszka", "zosia", "wizyta_dentysta", "3 grudnia 2026, 15:30", "2026-10-20"),
))).replace("notes: []", """notes:
  - {category: entities, name: juraj-hudak, aliases: ["Juraj Hudák", "Jurko", "nasz mechanik"],
     description: "Nasz mechanik od sierpnia 2025, Słowak ze Sniny"}
  - {category: entities, name: jakub-wisniewski, aliases: ["Jakub Wiśniewski", "Kuba"],
     description: "Nasz starszy syn, student politechniki w Rzeszowie"}
  - {category: entities, name: tomasz-nowak, aliases: ["Tomasz Nowak", "Tomek"],
     description: "Szwagier Marka, elektryk w Krośnie"}
  - {category: entities, name: agnieszka-wisniewska, aliases: ["Agnieszka Wiśniewska", "Aga",
     "żona"], description: "Żona Marka, prowadzi biuro komisu od 2020"}
  - {category: entities, name: kamila-rusin, aliases: ["Kamila Rusin", "Kamila"],
     description: "Sprzedawczyni komisu od marca 2022; prowadzi klientów anglojęzycznych"}
  - {category: entities, name: halina-wisniewska, aliases: ["Halina Wiśniewska", "mama"],
     description: "Marek's mother, retired teacher in Łańcut"}
  - {category: entities, name: beata-lis, aliases: ["Beata Lis", "księgowa"],
     description: "The dealership's accountant (księgowa) in Rzeszów: payroll, VAT and ZUS"}
  - {category: entities, name: sandra-okafor, aliases: ["Sandra Okafor", "supervisor"],
     description: "Our supervisor: Sandra Okafor, checks the lot and the wash bay weekly"}
  - {category: entities, name: pawel-zajac, aliases: ["Paweł Zając"],
     description: "Dawny mechanik komisu, na emeryturze od lipca 2025"}""")

world_repo, memory = world_fixtures(WORLD, "komis", NOW)


def test_the_role_said_by_a_notes_alias_is_the_firms_value(memory: Memory) -> None:
    assert answered_keys(memory, "komis", "Kto jest teraz naszym mechanikiem?") == [
        "auto_wisniewski.mechanik=Juraj Hudák"]


def test_the_role_over_the_years_is_every_value_it_held(memory: Memory) -> None:
    assert answered_keys(memory, "komis", "Kto był u nas mechanikiem na przestrzeni lat?") == [
        "auto_wisniewski.mechanik=Paweł Zając", "auto_wisniewski.mechanik=Juraj Hudák"]


def test_i_go_makes_the_asker_the_subject(memory: Memory) -> None:
    assert answered_keys(memory, "agnieszka", "Kiedy idę do stomatologa?") == [
        "agnieszka.wizyta_dentysta=27 listopada 2026, 16:00"]


def test_everywhere_asks_every_place(memory: Memory) -> None:
    assert answered_keys(memory, "juraj", "Kde všade som v Rzeszowe býval?") == [
        "juraj.bydlisko=ul. Lwowska 25/8, Rzeszów",
        "juraj.bydlisko=ul. Dąbrowskiego 60/12, Rzeszów"]


def test_a_part_naming_nobody_is_of_whom_the_part_before_named(memory: Memory) -> None:
    """Kuba has no e-mail recorded: the brother-in-law's one e-mail is no answer."""
    assert answered_keys(memory, "marek", "Kiedy urodził się Kuba i jaki ma maila?") == [
        "jakub.data_urodzenia=2006-04-03"]


def test_a_name_in_its_dative_is_the_name_a_value_holds(memory: Memory) -> None:
    assert answered_keys(memory, "agnieszka", "Ile płacimy pani Beacie?") == [
        "sprzataczka.stawka=200 zł"]


def test_a_person_named_is_not_named_again_by_a_word_of_their_subject(memory: Memory) -> None:
    """`zona` (wife) is Aga's subject: "ślub" (wedding) is no word of her birthday's; the
    day she became the asker's `zona` is when they married."""
    assert answered_keys(memory, "marek", "Kiedy braliśmy ślub z Agą?") == [
        "marek.zona=Agnieszka Wiśniewska"]


def test_a_tyre_fitter_is_no_mechanic(memory: Memory) -> None:
    assert answered_keys(memory, "komis", "Kto jest naszym wulkanizatorem?") == [
        "auto_wisniewski.wulkanizator=Bartek Sowa"]
    assert answered_keys(memory, "komis", "Who was your mechanic in 2020?") == [
        "auto_wisniewski.mechanik=Paweł Zając"]


def test_a_basic_wash_is_the_plain_tier_in_another_language(memory: Memory) -> None:
    assert answered_keys(memory, "komis", "How much is a basic wash?") == [
        "cennik.mycie_podstawowe=40 zł"]
    assert answered_keys(memory, "komis", "Koľko stojí základné umývanie?") == [
        "cennik.mycie_podstawowe=40 zł"]


def test_keeping_tyres_is_their_storage(memory: Memory) -> None:
    assert answered_keys(memory, "komis", "How much is tyre storage?") == [
        "cennik.przechowywanie_opon=150 zł/sezon"]


def test_a_role_word_after_the_notes_own_role_is_no_role_of_the_note(memory: Memory) -> None:
    """Kamila is a saleswoman who looks after customers: "klient" asks of any customer."""
    assert answered_keys(memory, "komis", "Ile klient płaci za godzinę pracy w warsztacie?") == [
        "cennik.roboczogodzina_mechanika=140 zł netto"]


def test_a_role_asked_of_a_person_named_by_their_role(memory: Memory) -> None:
    """"Mum's doctor" is her GP — never the key that says who mum is."""
    for asked in ("Kto jest lekarzem mojej mamy?", "Who is my mum's doctor?"):
        assert answered_keys(memory, "marek", asked) == [
            "halina_wisniewska.gp=dr Adam Kruk, Łańcut"]


def test_a_role_said_again_in_brackets_is_still_the_notes(memory: Memory) -> None:
    assert answered_keys(memory, "komis", "Who's the accountant?") == ["ksiegowa.imie=Beata Lis"]


def test_a_role_of_ours_is_not_asked_of_the_firm(memory: Memory) -> None:
    """The director is a boss too; "our supervisor" is the one the notes call so."""
    assert answered_keys(memory, "komis", "who's our supervisor?") == [
        "supervisor.name=Sandra Okafor"]
