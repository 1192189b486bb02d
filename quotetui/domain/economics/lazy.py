"""Figures computed once, on first use, in classes with ``__slots__`` (``functools.cached_property`` needs an
instance ``__dict__``: at 100,000 offers the dictionaries of the evaluations alone weigh ~70 MiB)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")


class slot_cached(Generic[T]):
    """Like ``cached_property``, stored in the slot ``_<name>``: a dataclass field
    ``field(default=None, init=False, repr=False, compare=False)``. The figure must never be None."""

    def __init__(self, compute: Callable[[Any], T]) -> None:
        self.compute = compute
        self.slot = "_" + compute.__name__
        self.__doc__ = compute.__doc__

    @overload
    def __get__(self, instance: None, owner: type) -> slot_cached[T]: ...

    @overload
    def __get__(self, instance: object, owner: type) -> T: ...

    def __get__(self, instance: object | None, owner: type) -> T | slot_cached[T]:
        if instance is None:
            return self
        value = getattr(instance, self.slot)
        if value is None:
            value = self.compute(instance)
            object.__setattr__(instance, self.slot, value)
        return value  # type: ignore[no-any-return]
