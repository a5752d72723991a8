"""`Record` behaves as the frozen dataclass it stands in for (memrepo.core.record_base)."""

from __future__ import annotations

import copy
import pickle
from dataclasses import FrozenInstanceError as DataclassFrozen
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memrepo.core.record_base import FrozenInstanceError, Record, init_field, replace


class Point(Record, order=True):
    __slots__ = ("label", "x")
    x: int
    label: str

    def __init__(self, x: int, label: str = "") -> None:
        init_field(self, "x", x)
        init_field(self, "label", label)


class Other(Record):
    __slots__ = ("label", "x")
    x: int
    label: str

    def __init__(self, x: int, label: str = "") -> None:
        init_field(self, "x", x)
        init_field(self, "label", label)


@dataclass(frozen=True, slots=True, order=True)
class DataPoint:
    x: int
    label: str = ""


@given(st.integers(), st.text(max_size=5), st.integers(), st.text(max_size=5))
def test_equality_order_and_hash_are_the_dataclass_s(a: int, la: str, b: int, lb: str) -> None:
    one, two = Point(a, la), Point(b, lb)
    d_one, d_two = DataPoint(a, la), DataPoint(b, lb)
    assert (one == two) == (d_one == d_two)
    assert (one < two) == (d_one < d_two)
    assert (one <= two) == (d_one <= d_two)
    assert (hash(one) == hash(Point(a, la)))
    assert repr(one) == repr(d_one).replace("DataPoint", "Point")


def test_records_of_two_classes_with_the_same_fields_are_not_equal() -> None:
    assert Point(1, "a") != Other(1, "a")


def test_a_field_is_never_assigned_or_deleted() -> None:
    point = Point(1, "a")
    with pytest.raises(FrozenInstanceError):
        point.x = 2  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del point.label
    assert issubclass(FrozenInstanceError, AttributeError)
    assert not issubclass(DataclassFrozen, FrozenInstanceError)


def test_replace_copy_and_pickle_keep_the_fields() -> None:
    point = Point(1, "a")
    assert replace(point, label="b") == Point(1, "b")
    assert copy.copy(point) == point
    assert copy.deepcopy(point) == point
    assert pickle.loads(pickle.dumps(point)) == point
    assert Point.__match_args__ == ("x", "label")


def test_slots_that_are_not_the_fields_are_refused() -> None:
    with pytest.raises(TypeError, match="are not its fields"):
        class Broken(Record):
            __slots__ = ("x",)
            x: int
            y: int
