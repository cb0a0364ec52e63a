"""A config as a tree of views and statements: one node, a line with the lines under it."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Node:
    line: str
    children: list[Node] = field(default_factory=list)

    def find(self, line: str) -> Node | None:
        return next((c for c in self.children if c.line == line), None)

    def __deepcopy__(self, memo: dict[int, object]) -> Node:
        # A tree of lines shares nothing: copied directly, 10 times faster than deepcopy's
        # generic walk, which was a sixth of push's CPU per switch (a diff copies the running
        # tree twice) and the emulators' on every VRP commit.
        return Node(self.line, [c.__deepcopy__(memo) for c in self.children])
