"""WMT ranking files of 2013-2016 in their own shapes."""

from __future__ import annotations

FIVE_WAY = (
    ["srclang", "trglang", "srcIndex", "documentId", "segmentId", "judgeId"]
    + [f"system{i}{part}" for i in range(1, 6) for part in ("Number", "Id")]
    + [f"system{i}rank" for i in range(1, 6)]
)


SYSTEMS = [
    "newstest2013.fr-en.KIT.2658",
    "newstest2013.fr-en.online-B",
    "uedin.2838",
    "JHU.2684",
    "DCU.2828",
]


def five_way(src: str, trg: str, segment: int, judge: str, ranks: list[int]) -> list[str]:
    pairs = [v for system in SYSTEMS for v in ("-1", system)]
    return [src, trg, str(segment), "-1", str(segment), judge, *pairs, *map(str, ranks)]
