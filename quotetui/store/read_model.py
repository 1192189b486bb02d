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
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from typing import Any, Literal

from quotetui.domain.currency import MINOR_UNITS
from quotetui.domain.enums import Choice, shown_stored
from quotetui.domain.errors import DatabaseProblem
from quotetui.domain.fields import Entity, Field
from quotetui.domain.money import RATE_PLACES
from quotetui.language import N_, _
from quotetui.language.lists import aside, filled
from quotetui.store.reader import Reader, stored_json

Read = Literal[
    "raw", "int", "bool", "money", "rate", "decimal", "positive", "text", "currency", "day", "when", "choice", "json"
]
"""How a stored value becomes the record's: as it is, a whole number, a flag, an exact scaled decimal (6 places;
a rate 10), a decimal from its text (``positive``: one above zero, as a peak every figure divides by), a shared
text, an ISO 4217 code (``domain/currency.py``'s, as every entry parses it), a day, a time, a choice's member, a
JSON column's value."""

_WORDS: dict[str, str] = {
    "int": N_("a whole number"),
    "money": N_("an exact amount"),
    "rate": N_("an exact rate"),
    "decimal": N_("a number"),
    "positive": N_("a number above zero"),
    "currency": N_("an ISO 4217 currency code"),
    "day": N_("a date"),
    "when": N_("a time"),
    "bool": N_("a flag"),
    "json": N_("a JSON object"),
}
"""What a value of each kind must be, as a problem says it (``_()`` where it is said)."""

_BY_KIND: dict[str, Read] = {
    "int": "int",
    "bool": "bool",
    "money": "money",
    "ratio": "money",
    "rate": "rate",
    "decimal": "decimal",
    "date": "day",
    "datetime": "when",
    "choice": "choice",
    "currency": "currency",
}  # every other kind (text, name, a reference's name) is text


@dataclass(frozen=True, slots=True)
class Column:
    name: str  # the record's attribute: a declared field's own name where it is one
    sql: str  # what the query selects
    read: Read = "raw"
    choices: type[Choice] | None = None  # for ``read="choice"``
    where: str | None = None  # how a problem names it, ``{row}`` the row (default: ``{row}, column``); marked N_


def declared(field: Field, sql: str | None = None) -> Column:
    """The column of a declared field, read by its kind (``sql``: the expression, by default its name)."""
    read = _BY_KIND.get(field.kind, "text")
    return Column(field.name, sql or field.name, read, field.choices if read == "choice" else None)


def fields_of(entity: Entity, names: Iterable[str], prefix: str = "") -> tuple[Column, ...]:
    """The columns of ``entity``'s fields named, in that order (``prefix``: the table's alias, ``o.``)."""
    return tuple(declared(entity.field(name), prefix + name) for name in names)


class Rows:
    """A table's rows as ``NamedTuple`` records of ``columns``: ``SELECT`` them from ``source`` (a table, or a
    join), each converted as its column says. ``label`` and ``key``: how a problem names a row (``offer #3``);
    ``row``: how it names one the user knows by other columns, beside the table (a template marked N_, filled by
    the row's columns by name: an amendment is ``amendment 2 of contract #1``, as every message numbers it).
    ``record``: a typed record class of its own (a dataclass or a NamedTuple) whose fields are the columns'
    names in order, instead of one made here."""

    def __init__(
        self,
        name: str,
        source: str,
        columns: Iterable[Column],
        label: str,
        key: str = "id",
        record: type | None = None,
        row: str | None = None,
    ) -> None:
        self.columns = tuple(columns)
        names = [c.name for c in self.columns]
        if record is not None:
            held = getattr(record, "_fields", None) or tuple(f.name for f in dataclass_fields(record))
            assert tuple(held) == tuple(names), f"{record.__name__}'s fields are not the columns of {name}"
        self.record: type[Any] = record or namedtuple(name, names)  # type: ignore[misc]
        self.sql = f"SELECT {', '.join(c.sql for c in self.columns)} FROM {source}"
        self.label = label
        self._key = names.index(key) if key in names else None
        self._named = row
        self._factory = self._compile()

    def position(self, name: str) -> int:
        """Where column ``name`` sits in a row as read, for a ``keep`` test on the stored values."""
        return [c.name for c in self.columns].index(name)

    def each(
        self,
        reader: Reader,
        where: str = "",
        params: dict[str, Any] | None = None,
        keep: Callable[[Sequence[Any]], bool] | None = None,
    ) -> Iterator[Any]:
        """The records, one at a time from the cursor (``where``: the rest of the query, ``WHERE … ORDER BY …``).
        ``keep``: asked of each row as stored (:meth:`position`); a row it refuses is not even converted, so a
        strange value in a row no one reads stops nothing. A value that cannot be what its column holds (a date
        that is not one, text in a number) is a database problem naming the table, the row and the column."""
        make = self._factory(reader)
        for raw in reader.each(f"{self.sql}{where}", params):
            if keep is not None and not keep(raw):
                continue
            try:
                record = make(raw)
            except (ValueError, TypeError, ArithmeticError) as exc:
                raise self._unreadable(make, raw, exc) from None
            yield record

    def _compile(self) -> Callable[[Reader], Callable[[Any], Any]]:
        """A function per record type, made once: ``Record(r[0], money(r[1]), …)`` with each conversion inline."""
        cells, bound = [], {"Record": self.record, "bad": self._bad, "notint": _not_int, "notflag": _not_flag}
        bound["FLAGS"] = (0, 1, None)  # True == 1 and False == 0 are in it too
        bound["CODES"], bound["notcode"] = MINOR_UNITS, _not_code
        for i, c in enumerate(self.columns):
            value = f"r[{i}]"
            if c.read == "raw":
                cells.append(value)
            elif c.read == "int":  # a whole number, or NULL (bool, a subclass, is not one: SQLite stores 0/1)
                cells.append(f"({value} if {value}.__class__ is int or {value} is None else notint({value}))")
            elif c.read == "bool":  # 0/1 (SQLite), a boolean (PostgreSQL), NULL: never the text 'false'
                cells.append(f"({value} is True or {value} == 1 if {value} in FLAGS else notflag({value}))")
            elif c.read == "currency":  # a code entry would take (NULL where the column may hold it)
                cells.append(f"({value} if {value} in CODES or {value} is None else notcode({value}))")
            elif c.read == "choice":
                assert c.choices is not None, c.name
                bound[f"m{i}"] = c.choices._value2member_map_
                cells.append(f"(m{i}[{value}] if {value} in m{i} else bad({i}, {value}, r))")  # None: None
            else:
                cells.append(f"{c.read}({value})")
        source = (
            "def factory(reader):\n"
            "    money, text, decimal, day, when = reader.money, reader.text, reader.text_decimal, reader.day, "
            "reader.when\n"
            "    rate = lambda v: reader.money(v, RATE_PLACES)\n"
            "    positive = lambda v: above_zero(reader.text_decimal(v))\n"
            "    json = object_json\n"
            f"    return lambda r: Record({', '.join(cells)})\n"
        )
        bound["RATE_PLACES"], bound["object_json"], bound["above_zero"] = RATE_PLACES, _object_json, _above_zero
        exec(compile(source, f"<read model {self.record.__name__}>", "exec"), bound)
        return bound["factory"]  # type: ignore[no-any-return]

    def _unreadable(self, make: Callable[[Any], Any], raw: Sequence[Any], exc: BaseException) -> DatabaseProblem:
        """The problem with the first column of ``raw`` that cannot be read as its column says."""
        for i, column in enumerate(self.columns):
            probe = list(raw)
            for j in range(len(probe)):
                if j != i:
                    probe[j] = None if self.columns[j].read != "choice" else probe[j]
            try:
                make(probe)
            except (ValueError, TypeError, ArithmeticError):
                return DatabaseProblem(
                    filled(
                        _(
                            "the database holds {value} in {row}, {column}, which is not {kind}: another program "
                            "wrote it; correct it there, or restore a backup, and try again"
                        ),
                        value=shown_stored(raw[i]),
                        row=self._row(raw),
                        column=column.sql.rsplit(".", 1)[-1],
                        kind=_(_WORDS.get(column.read, N_("readable"))),
                    )
                )
        return DatabaseProblem(
            _("a row of {table} cannot be read ({error}: {problem})").format(
                table=self.label, error=type(exc).__name__, problem=exc
            )
        )

    def _row(self, raw: Sequence[Any]) -> str:
        """How a problem names the row ``raw``: ``offer #3``, or the table beside the row's ``row`` words."""
        if self._named is not None:
            return aside(self.label, _(self._named).format(**{c.name: raw[i] for i, c in enumerate(self.columns)}))
        key = raw[self._key] if self._key is not None else None
        return f"{self.label} #{key}" if key is not None else self.label

    def _bad(self, index: int, value: object, raw: Sequence[Any]) -> Any:
        """A stored code that is not one of its choice's: the database problem, naming where it is (NULL, in a
        column that may hold it or from an outer join, is None)."""
        if value is None:
            return None
        column = self.columns[index]
        assert column.choices is not None
        row = self._row(raw)
        where = _(column.where) if column.where else "{row}, " + column.sql.rsplit(".", 1)[-1]
        return column.choices.stored(value, where.format(row=row))


def _above_zero(value: Any) -> Any:
    """``value`` (None stays None) when above zero; else the column's problem."""
    if value is not None and value <= 0:
        raise ValueError(f"not above zero: {value!r}")
    return value


def _not_code(value: object) -> str:
    raise ValueError(f"not a currency code: {value!r}")


def _not_flag(value: object) -> bool:
    raise TypeError(f"not a flag: {value!r}")


def _object_json(value: object) -> object:
    """A JSON column holding an object (a contract's snapshot, an amendment's changes, a claim's conditions):
    NULL is None; anything else that is not an object is unreadable."""
    out = stored_json(value)
    if out is not None and not isinstance(out, dict):
        raise TypeError(f"not a JSON object: {value!r}")
    return out


def _not_int(value: object) -> int:
    raise TypeError(f"not a whole number: {value!r}")
