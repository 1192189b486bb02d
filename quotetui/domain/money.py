"""Exact money: ``Decimal`` amounts that always travel with an ISO currency code.

Storage keeps :data:`MONEY_PLACES` decimal places exactly (cloud catalogs list $/hour to 4-6 places).
An amount with more places is rejected, never rounded; floats are refused everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from quotetui.domain.currency import currency_code, minor_units
from quotetui.domain.errors import BadInput, PrecisionError, noun
from quotetui.language import N_, _
from quotetui.language.numbers import percent

MONEY_PLACES = 6
"""Decimal places every stored money amount keeps exactly."""

PERCENT_PLACES = MONEY_PLACES - 2
"""Decimal places of a ratio typed as a percentage (ratios are stored as fractions to 6 places)."""

RATE_PLACES = 10
"""Decimal places kept for FX rates."""

MAX_MONEY = Decimal(10) ** 12
"""Amounts must be smaller than this in magnitude (a trillion in any currency): what a 64-bit count of
millionths, SQLite's storage of money, holds with room to spare (it ends at 9.2 × 10^12)."""


def to_decimal(value: object, *, what: str = N_("amount")) -> Decimal:
    """Convert user or file input to a finite ``Decimal`` without ever passing through ``float``, through
    the one number parser (:func:`quotetui.domain.numbers.parse_number`): thousands separators only in
    their places, full-width digits read, anything ambiguous refused; floats and booleans are refused."""
    from quotetui.domain.numbers import parse_number

    return parse_number(value, what=what)


def decimal_places(value: Decimal) -> int:
    """Significant decimal places of a finite ``value``: trailing zeros do not count (``1.50`` -> 1)."""
    _sign, digits, exponent = value.as_tuple()
    assert isinstance(exponent, int)
    count = len(digits)
    while exponent < 0 and count > 1 and digits[count - 1] == 0:
        count -= 1
        exponent += 1
    if count == 1 and digits[0] == 0:
        return 0
    return max(-exponent, 0)


def check_places(value: Decimal, places: int, *, what: str = N_("amount"), share: bool = False) -> Decimal:
    """Return ``value`` if it has at most ``places`` decimal places (ignoring trailing zeros); the message
    shows it as it was typed (``share``: a percentage, ``12.3456789 %``)."""
    if decimal_places(value) > places:
        raise PrecisionError(  # plain: 0.0000001 as typed, not 1E-7
            _("{what} {value} has more than {places} decimal places; it would not be stored exactly").format(
                what=noun(what), value=percent(plain(value)) if share else plain(value), places=places
            )
        )
    return value


def within_money_limit(amount: Decimal, *, what: str = N_("amount")) -> Decimal:
    """``amount`` if its magnitude is under :data:`MAX_MONEY` (the bound is exclusive: a trillion is refused)."""
    if abs(amount) >= MAX_MONEY:
        raise BadInput(
            _("{what} {amount} is too large (it must be less than {limit})").format(
                what=noun(what), amount=amount, limit=f"{MAX_MONEY:,}"
            )
        )
    return amount


def exact_money_amount(value: object, *, what: str = N_("amount")) -> Decimal:
    """Validate an amount for storage: exact, at most 6 places, within :data:`MAX_MONEY`."""
    return within_money_limit(check_places(to_decimal(value, what=what), MONEY_PLACES, what=what), what=what)


def plain(value: Decimal, min_places: int = 0) -> str:
    """Exact decimal text without exponent or needless trailing zeros, keeping ``min_places``."""
    return f"{value:.{max(decimal_places(value), min_places)}f}"


@dataclass(frozen=True, slots=True)
class Money:
    """An exact amount in one currency. Arithmetic across currencies is an error, never implicit."""

    amount: Decimal
    currency: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "amount", to_decimal(self.amount))
        object.__setattr__(self, "currency", currency_code(self.currency))

    @classmethod
    def of(cls, amount: object, currency: str) -> Money:
        return cls(exact_money_amount(amount), currency)

    def _same(self, other: Money) -> None:
        if other.currency != self.currency:
            raise BadInput(
                _("cannot combine {first} and {second} without a dated FX rate").format(
                    first=self.currency, second=other.currency
                )
            )

    def __add__(self, other: Money) -> Money:
        self._same(other)
        return Money(self.amount + other.amount, self.currency)

    def __sub__(self, other: Money) -> Money:
        self._same(other)
        return Money(self.amount - other.amount, self.currency)

    def __mul__(self, factor: Decimal | int) -> Money:
        if isinstance(factor, float):
            raise BadInput(_("money cannot be multiplied by a binary float"))
        return Money(self.amount * factor, self.currency)

    def text(self) -> str:
        """Exact text: at least the currency's minor units, more only where the amount has them."""
        return plain(self.amount, minor_units(self.currency))

    def to_json(self) -> dict[str, str]:
        return {"amount": self.text(), "currency": self.currency}

    def __str__(self) -> str:
        return f"{self.text()} {self.currency}"
