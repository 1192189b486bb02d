"""One declaration per field: its name, type, unit, bounds, whether it is required, its help text, the headers
it is read under, and how an empty value is taken. The forms, the import columns, the export columns, the
demo files' model and the validation are all derived from these declarations (``domain/entities.py``).

:func:`parse_value` is the one conversion of a raw value — the text of a form field or a CLI flag, a
spreadsheet cell, a TOML value — into its typed value; :func:`parse_record` converts a whole record and runs
its entity's cross-field rules, collecting every problem by field name (:class:`FieldErrors`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from decimal import Decimal
from typing import Any, Literal

from quotetui.domain.currency import currency_code
from quotetui.domain.enums import Choice, fill_choices
from quotetui.domain.errors import VALUE, BadInput, FieldErrors, QuotetuiError, unnamed
from quotetui.domain.money import MONEY_PLACES, PERCENT_PLACES, RATE_PLACES, check_places, plain, within_money_limit
from quotetui.domain.numbers import HALF_WIDTH, parse_number, parse_percent_text
from quotetui.domain.text import check_text, clean_name
from quotetui.domain.timeutil import NoTimeZone, as_utc, parse_timestamp, timespec
from quotetui.language import ENGLISH, N_, _, pgettext
from quotetui.language.lists import quoted
from quotetui.language.numbers import percent

Kind = Literal[
    "text",  # free text (one line unless ``multiline``)
    "name",  # an identifying name: normalised (NFKC), no invisible characters
    "ref",  # the name of another record (a provider, an offer, a source)
    "int",
    "decimal",
    "money",  # exact, at most 6 places, below 10^13
    "ratio",  # a fraction (0.15); typed as a percentage everywhere (15 or 15%), see parse_value
    "rate",  # an exchange rate (10 places)
    "date",
    "datetime",  # aware; a bare date is that day's 00:00 UTC
    "bool",
    "choice",  # a closed vocabulary (an enum)
    "currency",  # an ISO 4217 code
    "list",  # comma-separated texts
    "gpu",  # a GPU model's name or alias (resolved against the catalog by the caller)
]

FIRST_DAY = date(1900, 1, 1)
LAST_DAY = date(2199, 12, 31)
"""Every date a user gives lies in these years: far beyond any contract, and far from the calendar's end,
so that adding a term or a notice period can never overflow."""

TRUE = frozenset({"yes", "y", "true", "1", "是", "有", "√", "x", "on"})
FALSE = frozenset({"no", "n", "false", "0", "否", "无", "off"})


@dataclass(frozen=True, slots=True)
class Field:
    name: str  # the record key (the table column where it is one)
    label: str  # what a form shows
    kind: Kind = "text"
    required: bool = False
    minimum: Decimal | None = None
    maximum: Decimal | None = None
    positive: bool = False  # more than zero (a price: zero is not a quote)
    max_length: int | None = None
    places: int | None = None  # decimal places kept exactly ("decimal" kinds; money and ratios have theirs)
    unit: str = ""  # "GPUs", "months", "TB" … shown in forms and notes
    help: str = ""  # the template's note and the form's placeholder (a message id; see ``help_values``)
    #: values the help's placeholders take, as (name, value): a share as typed (``6%``) is the same in every language;
    #: one ending in `` %`` is a share as written, ``10 %`` (``10%`` in Chinese)
    help_values: tuple[tuple[str, str], ...] = ()
    aliases: tuple[str, ...] = ()  # other headers an import reads it under (Chinese first)
    header: str | None = None  # the sheet's header when it is not ``name``
    choices: type[Choice] | None = None
    default: Any = None  # the value of an empty cell or field (and of a new row's absent column)
    multiline: bool = False
    form: bool = True  # shown in the forms
    sheet: bool = True  # a column of the import template and the export
    stored_as: str | None = None  # the table column it is stored in when not ``name`` (a history says it by title)

    @property
    def column(self) -> str:
        """The sheet header."""
        return self.header or self.name

    @property
    def empty(self) -> Any:
        """What an empty value means."""
        if self.default is not None:
            return self.default
        return [] if self.kind == "list" else (False if self.kind == "bool" else None)

    def bounds(self, *, english: bool = False) -> str:
        """The field's bounds in words ("at least 1 and at most 120"; "介于 1 和 120 之间"), one message a
        shape, in the language in use (``english``: as a message id, for a text translated whole later)."""
        say = N_ if english else _
        low = None if self.positive else self.minimum
        if low is None and self.maximum is None:
            return say(_MORE_THAN_ZERO) if self.positive else ""
        if self.maximum is None:
            return say(_AT_LEAST).format(minimum=_show(self, low, english=english))
        if self.positive:
            return say(_MORE_THAN_ZERO_AT_MOST).format(maximum=_show(self, self.maximum, english=english))
        if low is None:
            return say(_AT_MOST).format(maximum=_show(self, self.maximum, english=english))
        return say(_BETWEEN).format(
            minimum=_show(self, low, english=english), maximum=_show(self, self.maximum, english=english)
        )

    @property
    def title(self) -> str:
        """The label without its parenthesised hint ("GPU model (any name or alias)" → "GPU model"), in the
        language in use: how a message names the field."""
        return title_of(self.label)

    def help_text(self, *, english: bool = False, flags: tuple[str, str] | None = None) -> str:
        """The field's help in the language in use (``english``: the English the catalog has it under), its
        placeholders filled (``help_values``: a share as typed, ``6%``, or as written, ``10 %``; a yes/no's
        ``{yes}`` and ``{no}``: what is typed in a form or a cell, or at a command line the ``flags`` given,
        ``--bare-metal`` and ``--no-bare-metal``, which take no value)."""
        if not self.help:
            return ""
        text = self.help if english else _(self.help)
        tag = ENGLISH if english else None
        values = {name: percent(value[:-2], tag) if value.endswith(" %") else value for name, value in self.help_values}
        if self.kind == "bool":
            values |= dict(zip(("yes", "no"), flags or YES_NO, strict=True))
        if values:
            text = text.format_map(_Kept(values))
        return text if english else fill_choices(text)  # a command's help fills a choice's list where it is shown

    def note(self, *, default: bool = True, english: bool = False, flags: tuple[str, str] | None = None) -> str:
        """One line about the field for a template header or a placeholder (in words, not type names), with
        what an empty choice or an empty yes/no means (``default``: an edit form keeps the current value); in the
        language in use, each shape of the line one message (``english``: the English a command's help is
        translated from, as a whole, where it is written out; ``flags``: a yes/no's flags, said for its values
        at a command line: :meth:`help_text`)."""
        say = N_ if english else _
        if self.help:
            text = self.help_text(english=english, flags=flags)
        elif self.choices is not None:
            text = say(_ONE_OF).format(choices=self.choices.placeholder() if english else self.choices.allowed())
        elif self.kind in _KIND_NOTES:
            text = say(_KIND_NOTES[self.kind])
        else:
            unit = (self.unit if english else pgettext("unit", self.unit)) if self.unit else ""
            bounds = self.bounds(english=english)
            template = _MEASURE_NOTES.get((self.kind == "int", bool(unit), bool(bounds)))
            text = say(template).format(unit=unit, bounds=bounds) if template else unit or bounds
        if default and self.kind in ("choice", "bool") and self.default not in (None, False):
            said = shown_value(self, self.default)
            value = (flags[0] if flags else say(N_("yes"))) if said is True else said
            text = (say(_NOTE_DEFAULT) if text else say(_DEFAULT)).format(note=text, value=value)
        return text


class _Kept(dict[str, str]):
    """Values for a help's placeholders that leave any other placeholder as it is (a choice's: ``{Mover}``)."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


YES_NO = ("yes", "no")
"""What a yes/no field's help names its values by (``{yes}``, ``{no}``) in a form and a spreadsheet, typed so in
every language; a flag names them by the flags (:meth:`Field.help_text`)."""

_MORE_THAN_ZERO = N_("more than 0")
_AT_LEAST = N_("at least {minimum}")
_AT_MOST = N_("at most {maximum}")
_BETWEEN = N_("at least {minimum} and at most {maximum}")
_MORE_THAN_ZERO_AT_MOST = N_("more than 0 and at most {maximum}")
_ONE_OF = N_("one of: {choices}")
_NOTE_DEFAULT = N_("{note}; default {value}")
_DEFAULT = N_("default {value}")
_KIND_NOTES = {"date": "YYYY-MM-DD", "list": N_("comma separated"), "currency": "CNY, USD …"}
"""The note of a field of these kinds (the forms a value takes: a date and a currency code are typed so in every
language)."""
_MEASURE_NOTES: dict[tuple[bool, bool, bool], str] = {
    (True, True, True): N_("a whole number, {unit}, {bounds}"),
    (True, True, False): N_("a whole number, {unit}"),
    (True, False, True): N_("a whole number, {bounds}"),
    (True, False, False): N_("a whole number"),
    (False, True, True): N_("{unit}, {bounds}"),
}
"""The note of a number by (whole number, has a unit, has bounds): ``{unit}`` a unit word (declared
``NP_("unit", "months")``), ``{bounds}`` :meth:`Field.bounds`; a unit or bounds alone is the note itself, and a
field of another kind says nothing."""


def title_of(label: str, *, english: bool = False) -> str:
    """A field's label (an English message id) in the language in use (``english``: as it is), without its
    parenthesised hint: "GPU model (any name or alias)" → "GPU model", "GPU 型号（任意名称或别名）" → "GPU 型号"."""
    return (label if english else _(label)).split(" (")[0].split("（")[0]


def _show(field: Field, value: Decimal, *, english: bool = False) -> str:
    """A bound as a message says it: a share as a percentage (``50 %``; ``50%`` in Chinese), a large whole
    number with separators."""
    if field.kind == "ratio":
        return percent(plain(value * 100), ENGLISH if english else None)
    if value == value.to_integral_value() and abs(value) >= 10_000:
        return f"{int(value):,}"
    return f"{value:f}"


Rule = Callable[[Mapping[str, Any]], dict[str, str]]
"""A cross-field rule: given the parsed values of a record, the problems it finds by field name. A rule
looks only at fields present in the record (an import may bring some columns and not others)."""


@dataclass(frozen=True, slots=True)
class Entity:
    key: str
    sheet: str  # the sheet (or CSV file) of the template and the export
    fields: tuple[Field, ...]
    aliases: tuple[str, ...] = ()  # other sheet names an import recognises
    rules: tuple[Rule, ...] = ()
    #: fields read another way by what a record says before them (a share metric's value is a share): given the
    #: values read so far, the field to read each such column with instead
    typed_by: Callable[[Mapping[str, Any]], Mapping[str, Field]] | None = None
    #: the fields that tell an offer's rows apart (a discount, an extra cost): the import matches a sheet's row to a
    #: stored one by them, so the forms refuse a second row with the same ones (it could never be told apart)
    natural_key: tuple[str, ...] = ()
    #: one record in words, for messages ("Delete this extra cost?"); by default the key less its last letter
    noun: str = ""
    #: the members a choice field may take given the record's other values (an extra cost's bases, by its kind), by
    #: field name: a form lists only those; a field it does not name, or a record it cannot tell, takes any member
    choices_by: Callable[[Mapping[str, Any]], Mapping[str, tuple[Choice, ...]]] | None = None

    @property
    def one(self) -> str:
        """One record of this entity in words: ``noun``, else the key's singular (``discounts`` → discount)."""
        return self.noun or self.key.removesuffix("s")

    def field(self, name: str) -> Field:
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)

    def names(self) -> tuple[str, ...]:
        return (self.sheet, self.key, *self.aliases)

    @property
    def sheet_fields(self) -> tuple[Field, ...]:
        return tuple(f for f in self.fields if f.sheet)

    @property
    def form_fields(self) -> tuple[Field, ...]:
        return tuple(f for f in self.fields if f.form)

    def reading(self, f: Field, values: Mapping[str, Any]) -> Field:
        """The field to read ``f``'s value with, given the record's values read before it."""
        return self.typed_by(values).get(f.name, f) if self.typed_by is not None else f

    def check(self, values: Mapping[str, Any]) -> dict[str, str]:
        """The cross-field problems of parsed ``values`` (only rules whose fields are all there run)."""
        problems: dict[str, str] = {}
        for rule in self.rules:
            for name, message in rule(values).items():
                problems.setdefault(name, message)
        return problems


def is_empty(raw: object) -> bool:
    return raw is None or (isinstance(raw, str) and not raw.strip())


def parse_value(field: Field, raw: object, *, percent_input: bool = True) -> Any:
    """The typed value of ``raw`` for ``field``, or :class:`BadInput` saying what is wrong (without the
    field's name: the caller names the place).

    Shares have one convention for people (docs/ECONOMICS.md, "Shares"): text is what a person typed, and a
    bare number in it is a percentage (``60`` and ``60%`` are 60 %); ``0.6`` is refused ("did you mean
    60%?"), and so is a bare ``1`` where 100 % is allowed (1 % or all of it?). A number object (a
    ``Decimal`` from a flag's parser, a stored value, a percent-formatted spreadsheet cell) is a value: a
    fraction. ``percent_input=False`` reads text as a fraction too: text quotetui wrote itself (stored
    settings) and the demo's TOML files, which keep exact fractions as JSON does."""
    if field.kind == "bool" and isinstance(raw, bool):
        return raw
    if is_empty(raw):
        if field.required:
            raise BadInput(_("required"))
        return field.empty
    if field.kind == "list" and isinstance(raw, list | tuple):
        return [_text(field, str(item)) for item in raw if not is_empty(item)]
    return _CONVERT[field.kind](field, raw, percent_input)


def _text(field: Field, raw: object, *_ignored: object) -> str:
    if not isinstance(raw, str):
        raw = str(raw)
    return check_text(raw, what=N_("text"), multiline=field.multiline, max_length=field.max_length).strip()


def _name(field: Field, raw: object, *_ignored: object) -> str:
    text = clean_name(str(raw), what=N_("the name"), max_length=field.max_length)
    if not text:
        raise BadInput(_("required"))
    return text


def _list(field: Field, raw: object, *_ignored: object) -> list[str]:
    text = _text(field, raw)
    return [part.strip() for part in text.replace("，", ",").replace("、", ",").split(",") if part.strip()]


def _number(field: Field, raw: object, percent_input: bool = True) -> Decimal:
    typed_percent = False
    if isinstance(raw, str) and field.kind == "ratio":
        value, typed_percent = parse_percent_text(raw, what=VALUE)
    else:
        value = parse_number(raw, what=VALUE)
    typed = field.kind == "ratio" and isinstance(raw, str)  # text a person typed; a number object is a value
    was_percent = typed and (typed_percent or percent_input)
    if typed and percent_input and not typed_percent:
        _refuse_a_fraction_by_habit(field, value)
    if was_percent:  # its places are counted as typed: 12.34567 %, not 0.1234567
        check_places(value, PERCENT_PLACES, what=VALUE, share=True)
        value = value / 100
    top = field.maximum
    if field.kind == "ratio" and not was_percent and top is not None and top <= 1 and 1 < value <= 100:
        shown = plain(value.normalize())  # a bare 8 where a share is asked: 800 % is never what was meant
        hundredfold = plain((value * 100).normalize())
        most = plain((top * 100).normalize())
        raise BadInput(
            _("must be at most {most}: {value} is {hundredfold}; did you mean {typed}?").format(
                most=percent(most), value=shown, hundredfold=percent(hundredfold), typed=f"{shown}%"
            )
        )
    if field.minimum is not None and value < field.minimum:
        if field.minimum == 0:
            raise BadInput(_("must not be negative"))
        raise BadInput(_("must be at least {minimum}").format(minimum=_show(field, field.minimum)))
    if field.positive and value <= 0:
        raise BadInput(_("must be more than zero"))
    if field.maximum is not None and value > field.maximum:
        raise BadInput(_("must be at most {maximum}").format(maximum=_show(field, field.maximum)))
    return value


def _refuse_a_fraction_by_habit(field: Field, value: Decimal) -> None:
    """Where a person types percentages, a bare 0.05 is a fraction typed by habit and a bare 1 may be 1 % or
    all of it: neither is stored unasked (a form shows such shares with their sign, ``0.05%`` and ``1%``, so
    saving a form again keeps them)."""
    shown = plain(value.normalize())
    if 0 < value < 1:
        hundredfold = plain((value * 100).normalize())
        raise BadInput(
            _("{value} would be {share}: did you mean {hundredfold}? (type {typed} for {share})").format(
                value=shown, share=percent(shown), hundredfold=f"{hundredfold}%", typed=f"{shown}%"
            )
        )
    if value == 1 and (field.maximum is None or field.maximum >= 1):
        raise BadInput(
            _("{value} is ambiguous: type {one} for one percent, or {all} for all of it").format(
                value=shown, one="1%", all="100%"
            )
        )


def _int(field: Field, raw: object, *_ignored: object) -> int:
    value = _number(field, raw)
    if value != value.to_integral_value():
        raise BadInput(_("{value} is not a whole number").format(value=value))
    return int(value)


def _decimal(field: Field, raw: object, percent_input: bool = True) -> Decimal:
    places = {"money": MONEY_PLACES, "ratio": MONEY_PLACES, "rate": RATE_PLACES}.get(field.kind, field.places or 12)
    value = check_places(_number(field, raw, percent_input), places, what=VALUE)
    return within_money_limit(value, what=VALUE) if field.kind == "money" else value


def _day(value: date) -> date:
    if not FIRST_DAY <= value <= LAST_DAY:
        raise BadInput(
            _("{day} is outside the years {first}–{last}").format(
                day=value.isoformat(), first=FIRST_DAY.year, last=LAST_DAY.year
            )
        )
    return value


def _date(field: Field, raw: object, *_ignored: object) -> date:
    if isinstance(raw, datetime):
        return _day(raw.date())
    if isinstance(raw, date):
        return _day(raw)
    day = _calendar_day(raw)
    if day is None:
        raise BadInput(_not_a_day(str(raw).strip()))
    return _day(day)


def _day_parts(raw: object) -> list[str]:
    """``raw``'s year, month and day as typed (``2026/8/31``, ``2026年8月31日``, full-width digits), two digits
    each but the year."""
    text = (
        str(raw).strip().translate(HALF_WIDTH).replace("/", "-").replace("年", "-").replace("月", "-").replace("日", "")
    )
    return [part.zfill(2) for part in text.split("-")]


def _calendar_day(raw: object) -> date | None:
    """``raw`` read as a day (``2026-08-31``, ``2026/8/31``, ``2026年8月31日``, full-width digits), not yet
    checked against :data:`FIRST_DAY` and :data:`LAST_DAY`; None when it is not one."""
    try:
        return date.fromisoformat("-".join(_day_parts(raw)))
    except ValueError:
        return None


def _not_a_day(text: str) -> str:
    """Why ``text`` is not a day: a day its month does not have (``2026-02-30``: February 2026 has 28), else not
    a date at all."""
    import calendar

    from quotetui.language.dates import month_text

    parts = _day_parts(text)
    if len(parts) == 3 and all(p.isascii() and p.isdigit() for p in parts) and len(parts[0]) == 4:
        year, month, day = map(int, parts)
        if year >= 1 and 1 <= month <= 12 and day >= 1:
            days = calendar.monthrange(year, month)[1]
            if day > days:
                return _("{value} is not a day of the calendar: {month} has {days} days").format(
                    value=quoted(text), month=month_text(date(year, month, 1)), days=days
                )
    return _("{value} is not a date (YYYY-MM-DD)").format(value=quoted(text))


def _datetime(field: Field, raw: object, *_ignored: object) -> datetime:
    if isinstance(raw, datetime):  # a spreadsheet cell has no zone: its date-times are UTC, as exported
        value = raw.replace(tzinfo=UTC) if raw.tzinfo is None else as_utc(raw)
    elif isinstance(raw, date):
        value = datetime.combine(raw, time(), tzinfo=UTC)
    else:
        text = str(raw).strip().translate(HALF_WIDTH)
        day = _calendar_day(text)
        if day is not None:  # a day outside the years is refused as such, not read as a date-time
            value = datetime.combine(_day(day), time(), tzinfo=UTC)
        else:
            try:
                value = parse_timestamp(text, what=N_("date-time"))
            except NoTimeZone:
                raise
            except BadInput:
                raise BadInput(
                    _("{value} is not a date (YYYY-MM-DD) or a date-time with an offset").format(value=quoted(text))
                ) from None
    _day(value.date())
    return value


def _bool(field: Field, raw: object, *_ignored: object) -> bool:
    text = str(raw).strip().casefold()
    if text in TRUE:
        return True
    if text in FALSE:
        return False
    raise BadInput(_("{value} is not yes or no").format(value=quoted(str(raw))))


def _choice(field: Field, raw: object, *_ignored: object) -> Choice:
    assert field.choices is not None
    try:
        return field.choices.parse(str(raw))
    except QuotetuiError:
        raise BadInput(
            _("{value} is not one of: {choices}").format(value=quoted(str(raw)), choices=field.choices.allowed())
        ) from None


def _currency(field: Field, raw: object, *_ignored: object) -> str:
    return currency_code(str(raw))


_CONVERT: dict[str, Callable[[Field, Any, bool], Any]] = {
    "text": _text,
    "ref": _name,
    "name": _name,
    "gpu": _text,
    "list": _list,
    "int": _int,
    "decimal": _decimal,
    "money": _decimal,
    "ratio": _decimal,
    "rate": _decimal,
    "date": _date,
    "datetime": _datetime,
    "bool": _bool,
    "choice": _choice,
    "currency": _currency,
}


def parse_record(
    entity: Entity | Iterable[Field],
    raw: Mapping[str, Any],
    *,
    present: Iterable[str] | None = None,
    percent_input: bool = True,
) -> dict[str, Any]:
    """Typed values of a record (every field, or only those ``present``), then the entity's cross-field
    rules; :class:`FieldErrors` lists every problem at once, so nothing is saved from a half-valid record."""
    fields = entity.fields if isinstance(entity, Entity) else tuple(entity)
    wanted = None if present is None else set(present)
    values: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for f in fields:
        if wanted is not None and f.name not in wanted:
            continue
        try:
            read = entity.reading(f, values) if isinstance(entity, Entity) else f
            values[f.name] = parse_value(read, raw.get(f.name), percent_input=percent_input)
        except QuotetuiError as exc:
            errors[f.name] = unnamed(str(exc))
    if isinstance(entity, Entity):
        for name, message in entity.check(values).items():
            if name not in errors:
                errors[name] = message
    if errors:
        raise FieldErrors(errors)
    return values


def shown_value(field: Field, value: Any, *, percent: bool = False) -> str | bool:
    """A stored value as a form or a text cell shows it (the inverse of :func:`parse_value`)."""
    from quotetui.domain.money import plain

    if value is None:
        return ""
    if isinstance(value, bool):
        return value
    if isinstance(value, Decimal):
        if percent and field.kind == "ratio":
            hundredfold = value * 100
            return plain(hundredfold) + ("%" if 0 < hundredfold <= 1 else "")  # a bare 0.05 or 1 is refused
        return plain(value)
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat(timespec=timespec(value)).replace("+00:00", "Z")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(getattr(value, "value", value))
