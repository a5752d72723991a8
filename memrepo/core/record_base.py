"""`Record`: the base of memrepo's small records, a frozen dataclass's behaviour with
nothing compiled when a module is imported.

`@dataclass(frozen=True, slots=True)` writes the source of its class's `__init__`,
`__repr__`, `__eq__`, `__hash__`, `__setattr__` and `__delattr__` and compiles it when the
module is imported: ≈0.5 ms a class, 31 of them on the path of the refresh after a checkout
(issue 24). A `Record` gets the same behaviour from the methods below, compiled once into
this module's bytecode: a subclass annotates its fields (in the dataclass's order), names
them in `__slots__`, and writes its own `__init__` (each field set with `init_field`, as a
frozen dataclass sets it). Equality and hashing (the fields as a tuple, only between instances of
the same class), `repr`, `__match_args__`, copying and pickling are the dataclass's, and so
is the refusal to assign a field; `order=True` adds the comparisons, `frozen=False` makes
the fields assignable (and the instances unhashable, unless the class defines `__hash__`).
`replace` is `dataclasses.replace` for a record. The type checker sees a frozen dataclass
(`dataclass_transform`).
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any, ClassVar, TypeVar, dataclass_transform

init_field = object.__setattr__
"""Set a field of a frozen record in its `__init__` (the record refuses `self.x = …`)."""

R = TypeVar("R", bound="Record")


class FrozenInstanceError(AttributeError):
    """A field of a frozen record assigned or deleted (as `dataclasses.FrozenInstanceError`)."""


@dataclass_transform(frozen_default=True)
class Record:
    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()
    _values: ClassVar[Callable[[Any], tuple[Any, ...]]]

    def __init_subclass__(cls, *, frozen: bool = True, order: bool = False,
                          **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        annotations = cls.__dict__.get("__annotations__", {})  # noqa: RUF063 (not inspect: ≈5 ms)
        own = tuple(name for name, kind in annotations.items()
                    if not str(kind).startswith("ClassVar"))
        slots = cls.__dict__.get("__slots__")
        if slots is not None and sorted(slots) != sorted(own):
            raise TypeError(f"{cls.__qualname__}: __slots__ {slots!r} are not its fields")
        fields = (*cls._fields, *(name for name in own if name not in cls._fields))
        cls._fields = fields  # a subclass's: its base's, then its own (as a dataclass's)
        cls._values = staticmethod(_getter(fields))
        special: dict[str, Any] = {"__match_args__": fields}
        if not frozen:
            special.update(__setattr__=object.__setattr__, __delattr__=object.__delattr__)
            if "__hash__" not in cls.__dict__:
                special["__hash__"] = None
        if order:
            special.update(_ORDER)
        for name, value in special.items():
            setattr(cls, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self.__class__._values(self) == self.__class__._values(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.__class__._values(self))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{self.__class__.__qualname__}({shown})"

    def __getstate__(self) -> list[Any]:
        return list(self.__class__._values(self))

    def __setstate__(self, state: list[Any]) -> None:
        for name, value in zip(self._fields, state, strict=True):
            object.__setattr__(self, name, value)


def _getter(fields: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The fields of a record as a tuple (what a dataclass compares and hashes)."""
    if len(fields) > 1:
        return attrgetter(*fields)
    if fields:
        name = fields[0]
        return lambda record: (getattr(record, name),)
    return lambda record: ()


class _Ordered(Record):
    """The comparisons `order=True` gives a record (a dataclass's: its fields as a tuple)."""

    __slots__ = ()

    def __lt__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self.__class__._values(self) < self.__class__._values(other)
        return NotImplemented

    def __le__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self.__class__._values(self) <= self.__class__._values(other)
        return NotImplemented

    def __gt__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self.__class__._values(self) > self.__class__._values(other)
        return NotImplemented

    def __ge__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self.__class__._values(self) >= self.__class__._values(other)
        return NotImplemented


_ORDER = {name: _Ordered.__dict__[name] for name in ("__lt__", "__le__", "__gt__", "__ge__")}


def fields_of(record: Record | type[Record]) -> tuple[str, ...]:
    """The names of a record's fields, in order (`dataclasses.fields`)."""
    return record._fields


def replace(record: R, **changes: Any) -> R:
    """A copy of `record` with `changes` (`dataclasses.replace`)."""
    values = {name: getattr(record, name) for name in record._fields}
    values.update(changes)
    return record.__class__(**values)
