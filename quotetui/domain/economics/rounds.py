"""Which negotiation round is the offer's price: one definition for the ranking, the negotiation figures,
signing a contract and the export.

A round is put forward by the provider (a published ``list`` price, a ``provider`` round, the agreed
``final`` price) or by us (a ``counter``-offer). **The current round** is the latest round, by number, that
the provider put forward and that has at least one price option: our counter is what we asked for, never
the price. An offer whose only priced rounds are our counters has no current round (nothing to rank).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import date, datetime, time
from typing import TypeVar

from quotetui.domain.enums import Mover
from quotetui.domain.errors import BadInput
from quotetui.domain.timeutil import after_today, as_utc, local_day, local_text
from quotetui.language import _

R = TypeVar("R")


def is_ours(mover: str) -> bool:
    """Whether a round is our own counter-offer (the only kind that is never the price)."""
    return mover == Mover.COUNTER


def current_round(rounds: Iterable[R], mover: Callable[[R], str], priced: Callable[[R], bool]) -> R | None:
    """The current round of ``rounds`` (in round order): the latest priced one the provider put forward."""
    found = None
    for r in rounds:
        if priced(r) and not is_ours(mover(r)):
            found = r
    return found


def round_to_sign(rounds: Sequence[R], seq_of: Callable[[R], int], mover: Callable[[R], str],
                  priced: Callable[[R], bool], seq: int | None) -> R:  # fmt: skip
    """The round a contract is signed at: ``seq`` if given, else the current round. Our own counter is
    refused either way, naming the rounds: a provider that accepted it records it as a ``final`` round."""
    if not rounds:
        raise BadInput(_("the offer has no rounds to sign"))
    last = rounds[-1]
    if seq is not None:
        chosen = next((r for r in rounds if seq_of(r) == seq), None)
        if chosen is None:
            raise BadInput(
                _("no round {seq} (rounds {first}–{last})").format(seq=seq, first=seq_of(rounds[0]), last=seq_of(last))
            )
        if is_ours(mover(chosen)):
            raise BadInput(
                _(
                    "round {seq} is our counter-offer, not a price the provider gave; if they accepted it, "
                    "record their acceptance as a final round and sign that"
                ).format(seq=seq)
            )
        if not priced(chosen):
            raise BadInput(_("round {seq} has no price option to sign").format(seq=seq))
        return chosen
    current = current_round(rounds, mover, priced)
    if is_ours(mover(last)):
        if current:
            message = _(
                "the last round ({last}) is our counter-offer, waiting for the provider's answer; the provider's "
                "current offer is round {current}. Record their answer first, or name the round to sign (--revision)"
            )
        else:
            message = _(
                "the last round ({last}) is our counter-offer, waiting for the provider's answer; they have no "
                "priced round. Record their answer first, or name the round to sign (--revision)"
            )
        raise BadInput(message.format(last=seq_of(last), current=seq_of(current) if current else None))
    if current is None:
        raise BadInput(_("the offer has no priced round the provider put forward"))
    return current


def quote_day(when: datetime, zone: str) -> date:
    """The day a round was quoted on: a bare date (stored as 00:00 UTC) is the day typed, wherever the user is;
    an instant is its day in the user's zone (``zone``)."""
    utc = as_utc(when)
    if utc.time() == time(0):
        return utc.date()
    return local_day(utc, zone)


def rounds_in_order(
    seq: int,
    quoted_at: datetime,
    neighbours: Iterable[tuple[int, datetime]],
    zone: str = "UTC",
    today: date | None = None,
    now: datetime | None = None,
) -> dict[str, str]:
    """A round is dated on or after every round numbered before it, and on or before every round after it:
    the rounds are the negotiation's history, and savings and the current price are read in their order. The
    days they were quoted on are compared (``quote_day``), so rounds of one day may come in any order of their
    hours. ``neighbours``: the offer's other rounds as (number, when). A round is recorded once it is quoted:
    one dated after ``today`` (the user's day) would become the offer's current price and block every round
    recorded before its day; an instant no later than ``now`` never is. One rule for the round form, ``round
    add``, ``round edit`` and the import; the message names the conflicting round and its date (in ``zone``)."""
    day = quote_day(quoted_at, zone)
    bare = as_utc(quoted_at).time() == time(0)  # a day typed: judged as that day, wherever the user is
    past = now is not None and not bare and as_utc(quoted_at) <= now
    if today is not None and not past and after_today(day, today) is not None:
        return {
            "quoted_at": _("{day} is after today ({today}): record a round once it is quoted").format(
                day=day.isoformat(), today=today.isoformat()
            )
        }
    earlier = [(s, w) for s, w in neighbours if s < seq and quote_day(w, zone) > day]
    later = [(s, w) for s, w in neighbours if s > seq and quote_day(w, zone) < day]
    shown = local_text(quoted_at, zone)
    if earlier:
        s, w = max(earlier, key=lambda r: r[1])
        return {
            "quoted_at": _(
                "{when} is before round {seq} ({then}): a round is dated on or after the rounds before it"
            ).format(when=shown, seq=s, then=local_text(w, zone))
        }
    if later:
        s, w = min(later, key=lambda r: r[1])
        return {
            "quoted_at": _(
                "{when} is after round {seq} ({then}): a round is dated on or before the rounds after it"
            ).format(when=shown, seq=s, then=local_text(w, zone))
        }
    return {}


__all__ = ["current_round", "is_ours", "round_to_sign", "rounds_in_order"]
