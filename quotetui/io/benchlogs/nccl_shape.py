"""Which collective an nccl-tests table can be, from its rows alone, and whether its rows agree with the name the
log gives: a name is a line anyone can edit, the rows are what the test computed.

Three things in each row tell the collective (nccl-tests' PERFORMANCE.md, and every real log in
tests/fixtures/benchlogs):

- the op: AllReduce, ReduceScatter and Reduce reduce (``sum`` …); AllGather, AlltoAll, Broadcast do not
  (``none``, or in older layouts no ``redop`` column, or a blank cell for AlltoAll); SendRecv prints ``sum``;
- ``size`` ÷ (``count`` × the type's bytes): 1 for AllReduce, Reduce, Broadcast and SendRecv, the number of ranks
  n for AllGather, ReduceScatter and AlltoAll (``count`` is one rank's share);
- ``busbw`` ÷ ``algbw``: 2(n−1)/n for AllReduce, (n−1)/n for AllGather, ReduceScatter and AlltoAll, 1 for
  Broadcast, Reduce and SendRecv. Both are printed to two places, so a row agrees when
  |busbw − algbw × factor| ≤ 0.005 × (1 + factor); only rows with algbw ≥ 1 are held to it.

A log whose name contradicts its rows is refused (an AllGather table under ``all_reduce_perf``); a log that names
none is read from its rows where they leave one collective, and refused where they leave two.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from quotetui.domain.verification.collectives import PER_RANK, busbw_agrees, busbw_factors, kind
from quotetui.domain.verification.findings import a_or_an
from quotetui.domain.verification.logs import LogError
from quotetui.language import _

TYPE_BYTES = {"float": 4, "half": 2, "bfloat16": 2, "double": 8, "int8": 1, "uint8": 1, "int32": 4, "uint32": 4,
              "int64": 8, "uint64": 8, "f8e4m3": 1, "f8e5m2": 1}  # fmt: skip
OPS = frozenset({"sum", "prod", "max", "min", "avg", "mulsum"})
REDUCING = frozenset({"all_reduce", "reduce_scatter", "reduce"})
NOT_REDUCING = frozenset({"all_gather", "alltoall", "broadcast", "gather", "scatter", "hypercube"})
ONE_TO_ONE = frozenset({"all_reduce", "reduce", "broadcast", "sendrecv"})  # size = count × type


@dataclass(frozen=True, slots=True)
class Shape:
    """One result row as the checks need it (``where``: "line 14" or "result 3", in the language in use)."""

    where: str
    size: int
    count: int | None
    type: str
    redop: str | None  # None: the layout has no redop column; "": a blank cell (older AlltoAll)
    root: str | None  # None: no root column
    bandwidths: tuple[tuple[Decimal, Decimal], ...]  # (algbw, busbw), out of place then in place
    line: int | None = None  # the log's line, where it has lines

    @property
    def ratio(self) -> Fraction | None:
        element = TYPE_BYTES.get(self.type)
        return Fraction(self.size, self.count * element) if element and self.count else None


def contradiction(name: str, row: Shape, ranks: int | None, with_factor: bool = True) -> str:
    """Why ``row`` cannot be a row of ``name`` over ``ranks`` ranks (None: not known): its op, its size ÷ count
    and (``with_factor``) its busbw ÷ algbw; "" when it can be."""
    title = kind(name).title
    if name in REDUCING and row.redop in ("none", ""):
        said = (
            _("its rows reduce nothing (redop {redop}), and {a_collective} reduces")
            if row.redop
            else _("its rows reduce nothing (redop left blank), and {a_collective} reduces")
        )
        return said.format(redop=row.redop, a_collective=a_or_an(title))
    if name in NOT_REDUCING and row.redop in OPS:
        return _("its rows reduce (redop {redop}), and {a_collective} does not").format(
            redop=row.redop, a_collective=a_or_an(title)
        )
    ratio = row.ratio
    if ratio is not None and name in PER_RANK | ONE_TO_ONE:
        expected = (ranks if name in PER_RANK else 1) if ranks else None
        if expected is not None and ratio != expected:
            return _(
                "its size {size} is {ratio} × count × {type} bytes ({where}), and {a_collective} over {ranks} ranks "
                "prints {expected} ×"
            ).format(
                size=f"{row.size:,}",
                ratio=ratio,
                type=row.type,
                where=row.where,
                a_collective=a_or_an(title),
                ranks=ranks,
                expected=expected,
            )
        if expected is None and (ratio == 1) == (name in PER_RANK):
            return _("its size {size} is {ratio} × count × {type} bytes ({where}): not {collective}'s").format(
                size=f"{row.size:,}", ratio=ratio, type=row.type, where=row.where, collective=title
            )
    return scaled(name, row, ranks) if with_factor else ""


def scaled(name: str, row: Shape, ranks: int | None) -> str:
    """Why ``row``'s busbw is not its algbw × ``name``'s factor ("" where it is, or ranks are not known)."""
    for algbw, busbw in row.bandwidths if ranks else ():
        if not busbw_agrees(name, ranks, algbw, busbw, legacy=row.root is None):
            return _(
                "busbw {busbw} ÷ algbw {algbw} ({where}) is not {a_collective}'s {factors} over {ranks} ranks"
            ).format(
                busbw=busbw,
                algbw=algbw,
                where=row.where,
                a_collective=a_or_an(kind(name).title),
                factors="/".join(str(f) for f in sorted(busbw_factors(name, ranks, row.root is None))),
                ranks=ranks,
            )
    return ""


def _ranks_from(rows: list[Shape]) -> int | None:
    ratios = [r.ratio for r in rows if r.ratio is not None]
    if ratios and max(ratios) > 1:
        return int(max(ratios)) if max(ratios).denominator == 1 else None
    big = [(Fraction(a), Fraction(b)) for r in rows for a, b in r.bandwidths if a >= 1]
    if big and all(b > a * Fraction(101, 100) for a, b in big):  # more than algbw: AllReduce's 2(n−1)/n
        f = big[-1][1] / big[-1][0]
        return round(2 / (2 - f)) if f < 2 else None
    return None


def unnamed(rows: list[Shape], columns: list[str], ranks: int | None, where: int | None) -> str:
    """The collective of rows that no line names; refused where the rows leave two. Without a rank list the rows
    still tell the ranks: size = count × type × n for the collectives that count one rank's share, busbw = algbw
    × 2(n−1)/n for AllReduce."""
    ranks = ranks or _ranks_from(rows)
    if ranks is None:
        raise LogError(
            _(
                "no collective named (no '# Collective test starting' line, no binary in a command line) and no "
                "'# Rank' lines: which collective this is, and over how many ranks, cannot be told from its rows; "
                "import it with its command line or its marker lines"
            ),
            where,
        )
    candidates = ["all_reduce", "all_gather", "reduce_scatter", "alltoall", "broadcast", "reduce", "sendrecv"]
    if "redop" not in columns:  # older layouts print only the columns a collective has
        candidates = ["all_gather"] if "root" not in columns else ["broadcast"]
    elif "root" not in columns:
        candidates = [c for c in candidates if c not in ("broadcast", "reduce")]
    if any(row.redop == "" for row in rows):  # a redop column left blank: older nccl-tests' AlltoAll alone
        candidates = ["alltoall"]
    if "root" in columns and rows and rows[-1].root not in (None, "-1"):
        candidates = [c for c in candidates if c in ("broadcast", "reduce")]
    elif "root" in columns:
        candidates = [c for c in candidates if c not in ("broadcast", "reduce")]
    fit = [c for c in candidates if not any(contradiction(c, row, ranks) for row in rows)]
    if not fit:  # a figure edited by hand fits no factor: the collective whose factor the other rows keep
        shaped = [c for c in candidates if not any(contradiction(c, row, ranks, with_factor=False) for row in rows)]
        off = {c: sum(1 for row in rows if scaled(c, row, ranks)) for c in shaped}
        fit = [c for c in shaped if off[c] == min(off.values()) and off[c] < len(rows)]
    if len(fit) == 1:
        return fit[0]
    if not fit:
        first = candidates[0]
        why = contradiction(first, next(r for r in rows if contradiction(first, r, ranks, False)), ranks, False)
        raise LogError(_("names no collective, and its rows fit none nccl-tests prints: {why}").format(why=why), where)
    titles = _(" or ").join(kind(c).title for c in fit)
    raise LogError(
        _(
            "names no collective (no '# Collective test starting' line, no binary in a command line), and its rows "
            "could be {collectives}: import the run with its command line or its marker lines"
        ).format(collectives=titles),
        where,
    )
