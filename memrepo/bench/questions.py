"""The varied question set of `memrepo bench memory`: questions phrased as people ask them
— paraphrases, misspellings, Polish and Slovak, dates and periods in the question, refusals,
and knowledge that lives only in notes — over four scopes of one memory repository:

- `michal`: the demo memory (notes of every category, the SPEC §5 electricity bill);
- `ola`: the benchmark's eight-month history (memrepo.bench.memory_history);
- `kasia` (Polish) and `zuzana` (Slovak): small histories told in their languages.

Every other question of each kind is held out (`split`): the "dev" half was looked at while
the weights and the "not recorded" threshold were chosen, the "held" half only scored.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace

NR = "not recorded"
NOW = {"ola": "2026-08-31T18:00:00Z", "michal": "2026-10-15T12:00:00Z",
       "kasia": "2026-08-31T18:00:00Z", "zuzana": "2026-08-31T18:00:00Z"}
"""Each scope's "now" (michal: after the worked example's forget and retract)."""
KINDS = ("current", "dated", "period", "change", "refusal", "misspelled", "pl", "sk", "note")


@dataclass(frozen=True, slots=True)
class VQ:
    qid: str
    text: str
    scope: str
    kind: str
    notes: tuple[str, ...] = ()  # gold notes: any of them among the first three
    key: str | None = None  # gold key "subject.relation"
    expect: str | None = None  # the value(s), "a|b" for several; NR for "not recorded"
    split: str = "dev"


Told = tuple[str, str, str, str, str]
"""(recorded day, key, value, valid from, quote)."""

KASIA: list[Told] = [
    ("2026-01-05", "czynsz.kwota", "1 900 zł", "2025-01-01", "Płacę 1 900 zł czynszu miesięcznie."),
    ("2026-03-02", "czynsz.kwota", "2 100 zł", "2026-03-01", "Od marca czynsz wzrósł do 2 100 zł."),
    ("2026-01-10", "prad.rachunek", "160 zł", "2026-01-01", "Za prąd płacę około 160 zł co dwa miesiące."),
    ("2026-05-12", "prad.rachunek", "190 zł", "2026-05-01", "Rachunek za prąd w maju: 190 zł."),
    ("2026-01-15", "samochod.model", "Toyota Yaris", "2022-06-01", "Jeżdżę Toyotą Yaris od 2022 roku."),
    ("2026-01-15", "praca.pracodawca", "Biuro Rachunkowe Lis", "2023-02-01", "Pracuję w Biurze Rachunkowym Lis."),
    ("2026-01-20", "kot.imie", "Filemon", "2018-04-01", "Mój kot ma na imię Filemon."),
    ("2026-02-01", "mieszkanie.adres", "ul. Lipowa 3, Gdańsk", "2024-05-01", "Mieszkam przy ul. Lipowej 3 w Gdańsku."),
]
ZUZANA: list[Told] = [
    ("2026-01-04", "najom.suma", "650 €", "2025-09-01", "Nájom je 650 eur mesačne."),
    ("2026-02-03", "najom.suma", "700 €", "2026-02-01", "Od februára platím za nájom 700 eur."),
    ("2026-01-04", "byvanie.adresa", "Obchodná 12, Bratislava", "2023-01-01", "Bývam na Obchodnej ulici 12 v Bratislave."),
    ("2026-06-02", "byvanie.adresa", "Hlavná 5, Košice", "2026-06-01", "Od júna bývam v Košiciach na Hlavnej 5."),
    ("2026-01-08", "elektrina.platba", "45 €", "2026-01-01", "Za elektrinu platím 45 eur mesačne."),
    ("2026-01-09", "pes.meno", "Bobík", "2020-03-01", "Môj pes sa volá Bobík."),
    ("2026-01-09", "auto.model", "Škoda Octavia", "2021-05-01", "Jazdím na Škode Octavia."),
]


Q = VQ
_QUESTIONS = [
    # --- knowledge only in notes (scope michal) ---------------------------------------
    Q("N01", "What is the minimum order at Lodz Packaging?", "michal", "note", ("lodz-packaging",)),
    Q("N02", "How long is the lead time for boxes from Łódź?", "michal", "note", ("lodz-packaging",)),
    Q("N03", "When does Kowalsky send the VAT draft?", "michal", "misspelled", ("vat-return-q2-2026", "jan-novak")),
    Q("N04", "Who is my accountant?", "michal", "note", ("jan-novak",)),
    Q("N05", "How do I read an electricity bill?", "michal", "note", ("reading-electricity-bill",)),
    Q("N06", "What is the cash method for VAT?", "michal", "note", ("vat-cash-method",)),
    Q("N07", "When is the Octavia inspection booked?", "michal", "note", ("car-service-2026",)),
    Q("N08", "How much will the 60,000 km inspection cost?", "michal", "note", ("car-service-2026",)),
    Q("N09", "Who is the service advisor at Skoda?", "michal", "note", ("michal-zielinski", "skoda-centrum")),
    Q("N10", "When is the Q2 VAT return due?", "michal", "note", ("vat-return-q2-2026",)),
    Q("N11", "What should I do when a supplier changes their bank account?", "michal", "note", ("confirm-bank-details-by-phone",)),
    Q("N12", "What is the customer number on the Tauron bill?", "michal", "note", ("tauron",)),
    Q("N13", "Kiedy dostawa kartonów z Łodzi?", "michal", "pl", ("packaging-reorder-2026", "lodz-packaging")),
    Q("N14", "Where is Škoda Centrum?", "michal", "note", ("skoda-centrum",)),
    Q("N15", "How many boxes fit on a pallet?", "michal", "note", ("lodz-packaging",)),
    Q("N16", "What went wrong with the 20,000 boxes order?", "michal", "note", ("confirm-supplier-orders-in-writing", "packaging-reorder-2026")),
    Q("N17", "How should prices be written in answers?", "michal", "note", ("quote-prices-net-and-gross",)),
    Q("N18", "Until when is the car under warranty?", "michal", "note", ("skoda-centrum",)),
    Q("N19", "Which electricity tariff do I have?", "michal", "note", ("tauron",)),
    Q("N20", "Does Michał Zieliński answer emails?", "michal", "note", ("michal-zielinski",)),
    Q("N21", "What did the spoofed email from Lodz Packaging ask for?", "michal", "note", ("confirm-bank-details-by-phone",)),
    Q("N22", "What are the rules for writing a note?", "michal", "note", ("writing-standard", "write-absolute-dates")),
    Q("N23", "Who is Jan Nowak?", "michal", "misspelled", ("jan-novak",)),
    Q("N24", "minimum order at Lodz Pakaging", "michal", "misspelled", ("lodz-packaging",)),
    Q("N25", "Which tarif does Tauronn bill?", "michal", "misspelled", ("tauron",)),
    Q("N26", "When is the Octvia inspection?", "michal", "misspelled", ("car-service-2026",)),
    Q("N27", "Ile kosztuje przegląd Octavii?", "michal", "pl", ("car-service-2026", "skoda-centrum")),
    Q("N28", "What was booked on 2026-05-20?", "michal", "dated", ("car-service-2026",)),
    Q("N29", "Which invoices are still missing for the VAT return?", "michal", "note", ("vat-return-q2-2026",)),
    Q("N30", "What is the price per box from 1,000 boxes?", "michal", "note", ("lodz-packaging", "packaging-reorder-2026")),
    # --- michal's electricity facts (SPEC §5 worked example; now = 2026-10-15) ---------
    Q("M01", "How much did I pay for electricity in April?", "michal", "dated", key="electricity_bill.amount", expect="280 zł"),
    Q("M02", "How much was the electricity bill in November 2025?", "michal", "dated", key="electricity_bill.amount", expect="200 zł"),
    Q("M03", "How much do I pay for electricity now?", "michal", "current", key="electricity_bill.amount", expect=NR),
    Q("M04", "What was the electricity bill in July 2026?", "michal", "dated", key="electricity_bill.amount", expect="245 zł"),
    Q("M05", "What is my shoe size?", "michal", "refusal", expect=NR),
    Q("M06", "What is the minimum order at Gdansk Paper Mills?", "michal", "refusal", expect=NR),
    Q("M07", "Who is my lawyer?", "michal", "refusal", expect=NR),
    Q("M08", "When did my electricity bill change?", "michal", "change", key="electricity_bill.amount"),
    # --- ola (the bench history; now = 2026-08-31) -----------------------------------
    Q("A01", "Where do I live now?", "ola", "current", key="home.address", expect="ul. Długa 5, Kraków"),
    Q("A02", "How much rent do I pay?", "ola", "current", key="rent.amount", expect="3 100 zł"),
    Q("A03", "What car do I drive?", "ola", "current", key="car.model", expect="Škoda Fabia"),
    Q("A04", "Who do I work for?", "ola", "current", key="job.employer", expect="Nordic Parts"),
    Q("A05", "How much do I earn?", "ola", "current", key="salary.monthly_gross", expect="11 200 zł"),
    Q("A06", "What's my cat called?", "ola", "current", key="cat.name", expect="Mruczek"),
    Q("A07", "How much is my internet?", "ola", "current", key="internet.monthly_price", expect="89 zł"),
    Q("A08", "Which languages do I speak?", "ola", "current", key="ola.speaks", expect="English|German|Polish"),
    Q("A09", "What phone plan am I on?", "ola", "current", key="phone.plan", expect="Play Unlimited 100 GB"),
    Q("A10", "How many km are on the car?", "ola", "current", key="car.mileage", expect="55 300 km"),
    Q("A11", "Who is my family doctor?", "ola", "current", key="family_doctor.name", expect="dr Tomasz Zieliński"),
    Q("A12", "When was the car last serviced?", "ola", "current", key="car.last_service", expect="2026-07-30"),
    Q("A13", "How much is my heating bill?", "ola", "current", key="heating_bill.amount", expect="180 zł"),
    Q("A14", "What does my phone cost a month?", "ola", "current", key="phone.monthly_price", expect="49 zł"),
    Q("A15", "Which gym am I a member of now?", "ola", "current", key="gym.membership", expect=NR),
    Q("B01", "How much did I pay for electricity in April?", "ola", "dated", key="electricity_bill.amount", expect="280 zł"),
    Q("B02", "What was my rent in March 2026?", "ola", "dated", key="rent.amount", expect="2 400 zł"),
    Q("B03", "Who was my doctor in April?", "ola", "dated", key="family_doctor.name", expect="dr Anna Wiśniewska"),
    Q("B04", "Where did I live last year?", "ola", "period", key="home.address", expect="ul. Piotrkowska 12, Łódź"),
    Q("B05", "What was my salary in 2025?", "ola", "period", key="salary.monthly_gross", expect="9 500 zł"),
    Q("B06", "How much was heating in January?", "ola", "dated", key="heating_bill.amount", expect="320 zł"),
    Q("B07", "Which gym was I in during April?", "ola", "dated", key="gym.membership", expect="CityFit, 129 zł a month"),
    Q("B08", "Where did I live in March 2025?", "ola", "dated", key="home.address", expect=NR),
    Q("B09", "What was the mileage at the start of May?", "ola", "dated", key="car.mileage", expect="51 900 km"),
    Q("B10", "Who employed me in March?", "ola", "dated", key="job.employer", expect="Acme Supplies"),
    Q("P01", "How much did I pay for electricity between February and July?", "ola", "period", key="electricity_bill.amount", expect="210 zł|280 zł|245 zł"),
    Q("P02", "Where did I live in 2026?", "ola", "period", key="home.address", expect="ul. Piotrkowska 12, Łódź|ul. Długa 5, Kraków"),
    Q("P03", "What phone plans did I have this year?", "ola", "period", key="phone.plan", expect="Orange Go 40 GB|Play Unlimited 100 GB"),
    Q("P04", "What did my rent look like since March?", "ola", "period", key="rent.amount", expect="2 400 zł|3 100 zł"),
    Q("C01", "When did my rent change?", "ola", "change", key="rent.amount"),
    Q("C02", "Did my employer change this year?", "ola", "change", key="job.employer"),
    Q("C03", "When did I change my phone plan?", "ola", "change", key="phone.plan"),
    Q("C04", "How has my car's mileage changed?", "ola", "change", key="car.mileage"),
    Q("C05", "When did my address change?", "ola", "change", key="home.address"),
    Q("C06", "History of my electricity bill", "ola", "change", key="electricity_bill.amount"),
    Q("D01", "What is my dog's name?", "ola", "refusal", expect=NR),
    Q("D02", "What is my shoe size?", "ola", "refusal", expect=NR),
    Q("D03", "Who is my dentist?", "ola", "refusal", expect=NR),
    Q("D04", "What is my partner's name?", "ola", "refusal", expect=NR),
    Q("D05", "When does my car insurance renew?", "ola", "refusal", expect=NR),
    Q("D06", "How much do I pay for water?", "ola", "refusal", expect=NR),
    Q("D07", "What is my favourite restaurant?", "ola", "refusal", expect=NR),
    Q("D08", "What is my blood type?", "ola", "refusal", expect=NR),
    Q("D09", "Which company is my health insurance with?", "ola", "refusal", expect=NR),
    Q("D10", "What colour is my car?", "ola", "refusal", expect=NR),
    Q("D11", "How much does my gas bill cost?", "ola", "refusal", expect=NR),
    Q("D12", "What is my cat's birthday?", "ola", "refusal", expect=NR),
    Q("S01", "How much is my electrcity bill?", "ola", "misspelled", key="electricity_bill.amount", expect="245 zł"),
    Q("S02", "What's my salery?", "ola", "misspelled", key="salary.monthly_gross", expect="11 200 zł"),
    Q("S03", "Who is my emplyer?", "ola", "misspelled", key="job.employer", expect="Nordic Parts"),
    Q("S04", "whats my cats name", "ola", "misspelled", key="cat.name", expect="Mruczek"),
    # --- kasia (Polish) --------------------------------------------------------------
    Q("K01", "Ile płacę czynszu?", "kasia", "pl", key="czynsz.kwota", expect="2 100 zł"),
    Q("K02", "Ile płaciłam za prąd w lutym?", "kasia", "pl", key="prad.rachunek", expect="160 zł"),
    Q("K03", "Jakim samochodem jeżdżę?", "kasia", "pl", key="samochod.model", expect="Toyota Yaris"),
    Q("K04", "Gdzie mieszkam?", "kasia", "pl", key="mieszkanie.adres", expect="ul. Lipowa 3, Gdańsk"),
    Q("K05", "Jak ma na imię mój pies?", "kasia", "refusal", expect=NR),
    Q("K06", "Kiedy zmienił się czynsz?", "kasia", "change", key="czynsz.kwota"),
    Q("K07", "Ile wynosił czynsz w 2025 roku?", "kasia", "pl", key="czynsz.kwota", expect="1 900 zł"),
    Q("K08", "Gdzie pracuję?", "kasia", "pl", key="praca.pracodawca", expect="Biuro Rachunkowe Lis"),
    Q("K09", "Jak się nazywa mój kot?", "kasia", "pl", key="kot.imie", expect="Filemon"),
    Q("K10", "Ile płacę za wodę?", "kasia", "refusal", expect=NR),
    Q("K11", "Ile kosztował prąd w czerwcu?", "kasia", "pl", key="prad.rachunek", expect="190 zł"),
    Q("K12", "Kto jest moim dentystą?", "kasia", "refusal", expect=NR),
    # --- zuzana (Slovak) -------------------------------------------------------------
    Q("Z01", "Kde bývam?", "zuzana", "sk", key="byvanie.adresa", expect="Hlavná 5, Košice"),
    Q("Z02", "Koľko platím za nájom?", "zuzana", "sk", key="najom.suma", expect="700 €"),
    Q("Z03", "Koľko som platila za nájom v januári?", "zuzana", "sk", key="najom.suma", expect="650 €"),
    Q("Z04", "Ako sa volá môj pes?", "zuzana", "sk", key="pes.meno", expect="Bobík"),
    Q("Z05", "Ako sa volá moja mačka?", "zuzana", "refusal", expect=NR),
    Q("Z06", "Kedy sa zmenila adresa?", "zuzana", "change", key="byvanie.adresa"),
    Q("Z07", "Koľko platím za elektrinu?", "zuzana", "sk", key="elektrina.platba", expect="45 €"),
    Q("Z08", "Kde som bývala v máji?", "zuzana", "sk", key="byvanie.adresa", expect="Obchodná 12, Bratislava"),
    Q("Z09", "Aké auto mám?", "zuzana", "sk", key="auto.model", expect="Škoda Octavia"),
    Q("Z10", "Kto je môj zubár?", "zuzana", "refusal", expect=NR),
]



def _split(questions: list[VQ]) -> tuple[VQ, ...]:
    """Every other question of each kind is held out."""
    out: list[VQ] = []
    by_kind = itertools.groupby(sorted(questions, key=lambda q: q.kind), key=lambda q: q.kind)
    for _, group in by_kind:
        out += [replace(q, split="dev" if n % 2 == 0 else "held") for n, q in enumerate(group)]
    return tuple(sorted(out, key=lambda q: q.qid))


QUESTIONS = _split(_QUESTIONS)
