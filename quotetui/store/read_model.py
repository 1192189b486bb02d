"""One read model: a table's rows as named records, each column read the way its field is declared.

A :class:`Rows` is a record type (a ``NamedTuple``, read by name everywhere), the ``SELECT`` that fills it and
each column's conversion, made once from the column list. A column of a declared field (``domain/entities.py``)
is read by its kind (:func:`declared`): a money or a share as the exact scaled decimal it is stored as, a
measured quantity from its decimal text, a choice as its enum member, a date, a time, a flag, a text. A code
another program wrote that quotetui never writes is a database problem naming the table, the row and the column
(``Choice.stored``), never an internal error. Other columns (ids, a joined name) say how they are read.

Rows are read through ``store/reader.py`` (the stdlib ``sqlite3`` on SQLite: no ORM on the read path) with one
generated function per record type, so reading 400,000 price rows by name costs what unpacking them by position
did. Adding a field the engine reads is its declaration, its column (a migration) and the rule that uses it:
the record, the query and the conversion follow from the declaration.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

from quotetui.domain.enums import Choice
from quotetui.domain.fields import Entity, Field
from quotetui.domain.money import RATE_PLACES
from quotetui.store.reader import Reader

Read = Literal["raw", "bool", "money", "rate", "decimal", "text", "day", "when", "choice"]
"""How a stored value becomes the record's: as it is, a flag, an exact scaled decimal (6 places; a rate 10), a
decimal from its text, a shared text, a day, a time, a choice's member."""

_BY_KIND: dict[str, Read] = {
    "int": "raw",
    "bool": "bool",
    "money": "money",
    "ratio": "money",
    "rate": "rate",
    "decimal": "decimal",
    "date": "day",
    "datetime": "when",
    "choice": "choice",
}  # every other kind (text, name, currency, a reference's name) is text


@dataclass(frozen=True, slots=True)
class Column:
    name: str  # the record's attribute: a declared field's own name where it is one
    sql: str  # what the query selects
    read: Read = "raw"
    choices: type[Choice] | None = None  # for ``read="choice"``
    where: str | None = None  # how a problem names it, ``{row}`` the row (default: ``{row}, column``)


def declared(field: Field, sql: str | None = None) -> Column:
    """The column of a declared field, read by its kind (``sql``: the expression, by default its name)."""
    read = _BY_KIND.get(field.kind, "text")
    return Column(field.name, sql or field.name, read, field.choices if read == "choice" else None)


def fields_of(entity: Entity, names: Iterable[str], prefix: str = "") -> tuple[Column, ...]:
    """The columns of ``entity``'s fields named, in that order (``prefix``: the table's alias, ``o.``)."""
    return tuple(declared(entity.field(name), prefix + name) for name in names)


class Rows:
    """A table's rows as ``NamedTuple`` records of ``columns``: ``SELECT`` them from ``source`` (a table, or a
    join), each converted as its column says. ``label`` and ``key``: how a problem names a row (``offer #3``)."""

    def __init__(self, name: str, source: str, columns: Iterable[Column], label: str, key: str = "id") -> None:
        self.columns = tuple(columns)
        self.record: type[Any] = namedtuple(name, [c.name for c in self.columns])  # type: ignore[misc]
        self.sql = f"SELECT {', '.join(c.sql for c in self.columns)} FROM {source}"
        self.label = label
        names = [c.name for c in self.columns]
        self._key = names.index(key) if key in names else None
        self._factory = self._compile()

    def each(self, reader: Reader, where: str = "", params: dict[str, Any] | None = None) -> Iterator[Any]:
        """The records, one at a time from the cursor (``where``: the rest of the query, ``WHERE … ORDER BY …``)."""
        make = self._factory(reader)
        for raw in reader.each(f"{self.sql}{where}", params):
            yield make(raw)

    def _compile(self) -> Callable[[Reader], Callable[[Any], Any]]:
        """A function per record type, made once: ``Record(r[0], money(r[1]), …)`` with each conversion inline."""
        key = "None" if self._key is None else f"r[{self._key}]"
        cells, bound = [], {"Record": self.record, "bad": self._bad}
        for i, c in enumerate(self.columns):
            value = f"r[{i}]"
            if c.read == "raw":
                cells.append(value)
            elif c.read == "bool":
                cells.append(f"bool({value})")
            elif c.read == "choice":
                assert c.choices is not None, c.name
                bound[f"m{i}"] = c.choices._value2member_map_
                cells.append(f"(m{i}[{value}] if {value} in m{i} else bad({i}, {value}, {key}))")  # None: None
            else:
                cells.append(f"{c.read}({value})")
        source = (
            "def factory(reader):\n"
            "    money, text, decimal, day, when = reader.money, reader.text, reader.text_decimal, reader.day, "
            "reader.when\n"
            "    rate = lambda v: reader.money(v, RATE_PLACES)\n"
            f"    return lambda r: Record({', '.join(cells)})\n"
        )
        bound["RATE_PLACES"] = RATE_PLACES
        exec(compile(source, f"<read model {self.record.__name__}>", "exec"), bound)
        return bound["factory"]  # type: ignore[no-any-return]

    def _bad(self, index: int, value: object, key: object) -> Any:
        """A stored code that is not one of its choice's: the database problem, naming where it is (NULL, in a
        column that may hold it or from an outer join, is None)."""
        if value is None:
            return None
        column = self.columns[index]
        assert column.choices is not None
        row = f"{self.label} #{key}" if key is not None else self.label
        where = column.where or "{row}, " + column.sql.rsplit(".", 1)[-1]
        return column.choices.stored(value, where.format(row=row))
