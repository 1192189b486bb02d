"""The names the link-bandwidth parsers had when one module held them: nvbandwidth now lives in ``nvbandwidth``,
perftest (``ib_write_bw`` and its siblings) in ``perftest``, p2pBandwidthLatencyTest in ``p2p``."""

from __future__ import annotations

from quotetui.io.benchlogs import nvbandwidth, perftest

NVBANDWIDTH_START = nvbandwidth.START
nvbandwidth_matches = nvbandwidth.matches
parse_nvbandwidth = nvbandwidth.parse
IB_WRITE_BW_START = perftest.START
ib_write_bw_matches = perftest.matches
parse_ib_write_bw = perftest.parse
