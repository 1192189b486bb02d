"""CUDA samples' ``p2pBandwidthLatencyTest``: the GPUs, which pairs have peer access, and its matrices.

It prints ``[P2P (Peer-to-Peer) GPU Bandwidth Latency Test]``, a ``Device: 0, NVIDIA H100 80GB HBM3, pciBusID: 19,
…`` line per GPU, ``Device=0 CAN Access Peer Device=1`` (or ``CANNOT``) per pair, the ``P2P Connectivity
Matrix`` (1/0), then square matrices, each a title, a header ``D\\D 0 1 …`` and one row per GPU: unidirectional
and bidirectional bandwidth with P2P disabled and enabled (GB/s; ``--p2p_read`` adds ``(P2P Reads)`` ones), and
latency (us) with a GPU part and a CPU part. Cells are ``%6.02f``: a four-digit diagonal figure (a copy inside
one GPU) runs up to its neighbour but a space always parts them. Between GPUs that cannot reach each other the
``P2P=Enabled`` figures are the normal copy through the host (the sample says so), never a peer-to-peer figure.

Every matrix must have a row of every GPU's figures: one cut short is refused, not judged on what is left.
"""

from __future__ import annotations

import re
from decimal import Decimal

from quotetui.domain.entities import MAX_COUNT
from quotetui.domain.verification.linkfacts import P2pBandwidthLatency, P2pMatrix
from quotetui.domain.verification.logs import LogError
from quotetui.io.benchlogs.common import log_number
from quotetui.language import _
from quotetui.language.lists import listed, quoted

START = re.compile(r"^\[P2P \(Peer-to-Peer\) GPU Bandwidth Latency Test\]", re.M)
"""The line p2pBandwidthLatencyTest's output is known by: its banner."""

_TITLE = re.compile(
    r"^\s*((?:(?:Unidirectional|Bidirectional) P2P=(?:Enabled|Disabled) Bandwidth|P2P=(?:Enabled|Disabled) Latency)"
    r"(?: \(P2P (?:Writes|Reads)\))? Matrix \((?:GB/s|us)\))\s*$"
)
_CONNECTIVITY = re.compile(r"^\s*P2P Connectivity Matrix\s*$")
_HEADER = re.compile(r"^\s*(D\\D|GPU|CPU)\s+(\d+(?:\s+\d+)*)\s*$")
_ROW = re.compile(r"^\s*(\d+)\s+(\S.*?)\s*$")
_DEVICE = re.compile(r"^\s*Device: (\d+), (.+?), pciBusID: ")
_PEER = re.compile(r"^\s*Device=(\d+) (CAN|CANNOT) Access Peer Device=(\d+)\s*$")
_CONNECTIVITY_TITLE = "P2P Connectivity Matrix"


def matches(text: str) -> bool:
    """The sample's banner, or one of its matrix titles."""
    return bool(START.search(text) or re.search(_TITLE.pattern, text, re.M))


def parse(text: str) -> P2pBandwidthLatency:
    lines = text.splitlines()
    devices: dict[int, str] = {}
    peers: dict[tuple[int, int], bool] = {}
    matrices: list[P2pMatrix] = []
    connectivity: P2pMatrix | None = None
    title: tuple[str, int] | None = None  # the matrix title read last, and its line
    n = 0
    while n < len(lines):
        line = lines[n].rstrip()
        n += 1
        if found := _DEVICE.match(line):
            devices.setdefault(int(found.group(1)), found.group(2).strip())
        elif found := _PEER.match(line):
            peers[(int(found.group(1)), int(found.group(3)))] = found.group(2) == "CAN"
        elif _CONNECTIVITY.match(line):
            title = (_CONNECTIVITY_TITLE, n)
        elif found := _TITLE.match(line):
            title = (found.group(1), n)
        elif found := _HEADER.match(line):
            if title is None:
                raise LogError(_("a matrix without its title: {line}").format(line=quoted(line.strip()[:80])), n)
            side = "CPU" if found.group(1) == "CPU" else "GPU"
            matrix, n = _matrix(lines, n, title[0], side, found.group(2).split())
            if any(m.title == matrix.title and m.side == side for m in matrices):
                raise LogError(
                    _("a second {matrix}: two runs in one log; save each to its own file").format(
                        matrix=quoted(matrix.name)
                    ),
                    title[1],
                )
            if title[0] == _CONNECTIVITY_TITLE:
                connectivity = matrix
            else:
                matrices.append(matrix)
        elif title is not None and not line.strip():
            continue
        elif title is not None and title[0] != _CONNECTIVITY_TITLE and not _seen(matrices, title[0]):
            raise LogError(_("{title} and no matrix after it (cut short?)").format(title=quoted(title[0])), title[1])
    if title is not None and not _seen(matrices, title[0]) and title[0] != _CONNECTIVITY_TITLE:
        raise LogError(_("{title} and no matrix after it (cut short?)").format(title=quoted(title[0])), title[1])
    if not any(m.bandwidth for m in matrices):
        raise LogError(_("no bandwidth matrix: the run ended, or the paste was cut, before its results"), len(lines))
    if len(devices) != 1 and not any(m.bandwidth and m.p2p for m in matrices):
        raise LogError(  # the sample always prints them: a paste without them hides the figures that judge NVLink
            _(
                "no P2P=Enabled bandwidth matrix (the sample prints one after each P2P=Disabled one): cut from the "
                "paste?"
            ),
            len(lines),
        )
    if connectivity is not None and peers:
        said = {(r, c) for r, c, v in connectivity.cells() if r != c and v == 0}
        cannot = {pair for pair, can in peers.items() if not can}
        if said != cannot:
            raise LogError(
                _(
                    "the connectivity matrix and the 'Access Peer' lines disagree about which pairs reach each "
                    "other: a garbled or edited paste"
                )
            )
    size = {len(m.rows) for m in matrices}
    if len(size) > 1 or (devices and size != {len(devices)}):
        sizes = listed(map(str, sorted(size)))
        said = (
            _("{listed} GPUs listed, matrices of {sizes} GPUs: a garbled paste").format(
                listed=len(devices), sizes=sizes
            )
            if devices
            else _("matrices of {sizes} GPUs: a garbled paste").format(sizes=sizes)
        )
        raise LogError(said)
    if len(devices) > MAX_COUNT:
        raise LogError(_("{n} devices: more than any machine has").format(n=f"{len(devices):,}"))
    no_peer = [pair for pair, can in peers.items() if not can]
    if not peers and connectivity is not None:
        no_peer = [(r, c) for r, c, v in connectivity.cells() if v == 0]
    return P2pBandwidthLatency(tuple(devices[i] for i in sorted(devices)), tuple(matrices), tuple(sorted(no_peer)))


def _seen(matrices: list[P2pMatrix], title: str) -> bool:
    return any(m.title == title for m in matrices)


def _matrix(lines: list[str], n: int, title: str, side: str, header: list[str]) -> tuple[P2pMatrix, int]:
    """The matrix whose column header is line ``n`` (1-based): a row per column, each with a figure per column;
    the line after its last row."""
    columns = [int(c) for c in header]
    if len(columns) > MAX_COUNT or columns != list(range(len(columns))):
        raise LogError(_("garbled column header of {title}").format(title=quoted(title)), n)
    rows: list[tuple[int, tuple[Decimal, ...]]] = []
    while n < len(lines) and (found := _ROW.match(lines[n])) and not _HEADER.match(lines[n]):
        cells = found.group(2).split()
        if int(found.group(1)) != len(rows) or len(cells) != len(columns):
            raise LogError(
                _("{title}: row {row} of {values} values after {rows} rows of {gpus} GPUs (garbled)").format(
                    title=title, row=found.group(1), values=len(cells), rows=len(rows), gpus=len(columns)
                ),
                n + 1,
            )
        row = _("{matrix} row {row}").format(matrix=title, row=found.group(1))
        rows.append((len(rows), tuple(log_number(c, row, n + 1) for c in cells)))
        n += 1
    if len(rows) != len(columns):
        raise LogError(
            _("{title}: {rows} rows for {gpus} GPUs (cut short?)").format(
                title=title, rows=len(rows), gpus=len(columns)
            ),
            n,
        )
    return P2pMatrix(title, tuple(rows), side), n
