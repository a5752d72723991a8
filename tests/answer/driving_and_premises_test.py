"""What we drive is the car's model, "privately" too; a Slovak "akým" asks nothing of its
own; a phrase of the table holds with a possessive inside it ("właściciel NASZEGO lokalu"
is the landlord, as "owner of OUR flat" is), and "our" landlord is the firm's, described as
a workshop; how many there are answers neither what was paid nor where."""

from __future__ import annotations

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_event, world_fixtures, world_yaml

NOW = "2026-11-20T12:00:00Z"

WORLD = world_yaml("driving", "A bookbinder's household in Trnava", NOW, "".join((
    world_event("zofia", "car", "model", "Kia Ceed kombi (2021)", "2024-05-01"),
    world_event("zofia", "car", "registration", "TT 482 KM", "2024-05-01"),
    world_event("zofia", "car", "mileage", "84 100 km", "2026-10-01"),
    world_event("zofia", "introligatornia", "landlord", "Ryszard Zając", "2022-01-01"),
    world_event("zofia", "introligatornia", "address", "ul. Długa 7, Kraków", "2022-01-01"),
    world_event("zofia", "introligatornia", "liczba_stanowisk", "4", "2022-01-01"),
))).replace("notes: []", """notes:
  - {category: entities, name: introligatornia, aliases: [Introligatornia Zofii],
     description: "Zofia's bookbinding workshop and shop on Długa street"}""")

world_repo, memory = world_fixtures(WORLD, "zofia", NOW)


def test_what_we_drive_is_the_cars_model(memory: Memory) -> None:
    for asked in ("Czym teraz jeździmy prywatnie?", "Akým autom teraz jazdíme?"):
        assert answered_keys(memory, "zofia", asked) == ["car.model=Kia Ceed kombi (2021)"], asked


def test_a_phrase_with_a_possessive_inside(memory: Memory) -> None:
    assert answered_keys(memory, "zofia", "Kto jest właścicielem naszego lokalu?") == [
        "introligatornia.landlord=Ryszard Zając"]


def test_a_count_is_no_payment_and_no_place(memory: Memory) -> None:
    assert answered_keys(memory, "zofia", "Ile płaciliśmy za stanowiska w 2023?") == []
    assert answered_keys(memory, "zofia", "Gdzie mamy stanowiska?") == []
    assert answered_keys(memory, "zofia", "Ile mamy stanowisk?") == [
        "introligatornia.liczba_stanowisk=4"]
    assert answered_keys(memory, "zofia", "How many km are on the car?") == [
        "car.mileage=84 100 km"]  # "how many" asks no count of its own
