"""ECN whose thresholds the switch sets itself: Huawei CloudEngine's AI ECN.

'ai-service' / ' ai-ecn' / '  ai-ecn enable' / '  assign queue <q> [ model <m> ]': "the AI ECN
component intelligently sets the optimal ECN thresholds for lossless queues", and "identifies
lossless queues based on the PFC priority configured on an interface" ([HW-CG] Configuring AI
ECN for Lossless Queues; [HW-CR] ai-ecn enable, assign queue (AI ECN View)). So the assigned
queue marks ECN on every PFC port, at thresholds no config states: read as an ECN queue of
unit 'device' (rules that compare thresholds do not judge it). AI ECN assigned but not enabled
marks nothing. The templates give the AI service's views as ``ai_service`` entries
(``feature``, ``enabled``, ``queues``: each 'assign queue' line's words).
"""

from __future__ import annotations

from typing import Any

from roce_cfg.model import numbers
from roce_cfg.parse.reader import LineReader

FEATURE = "ai-ecn"


def queues(ctx: LineReader, raw: dict[str, Any]) -> tuple[int, ...]:
    """The queues AI ECN marks; a line whose queue is no queue is unread."""
    entries = raw.get("ai_service")
    found: set[int] = set()
    for entry in entries if isinstance(entries, list) else [entries] if entries else []:
        if not isinstance(entry, dict) or entry.get("feature") != FEATURE:
            continue
        lines = entry.get("queues") or []
        for line in lines if isinstance(lines, list) else [lines]:
            words = str(line.get("words", "")).split() if isinstance(line, dict) else []
            queue = words[0] if words else ""
            read = ctx.values(queue, numbers.QUEUE, "@ecn") if queue.isdigit() else ()
            if not read:
                ctx.unreadable(f"AI ECN queue '{queue}' is no queue", queue or "assign", "@ecn")
            elif entry.get("enabled"):
                found.update(read)
    return tuple(sorted(found))
