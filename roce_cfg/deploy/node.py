"""A config as a tree of views and statements: one node, a line with the lines under it."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Node:
    line: str
    children: list[Node] = field(default_factory=list)

    def find(self, line: str) -> Node | None:
        return next((c for c in self.children if c.line == line), None)
