"""Strongly connected components (iterative Tarjan, linear time) and shortest witness cycles."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

N = TypeVar("N", bound=Hashable)


def sccs(starts: Iterable[N], succ: Callable[[N], Iterable[N]]) -> list[list[N]]:
    """Components with a cycle (two or more nodes, or a self-loop) reachable from ``starts``.

    >>> g = {1: [2], 2: [3], 3: [1, 4], 4: []}
    >>> sccs([1], lambda n: g[n])
    [[1, 2, 3]]
    """
    index: dict[N, int] = {}
    low: dict[N, int] = {}
    on_stack: set[N] = set()
    stack: list[N] = []
    out: list[list[N]] = []
    counter = 0
    for root in starts:
        if root in index:
            continue
        work: list[tuple[N, Iterable[N]]] = []
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        work.append((root, iter(succ(root))))
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(succ(nxt))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                comp: list[N] = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                if len(comp) > 1 or node in succ(node):
                    out.append(sorted(comp, key=repr))
    return out


def witness(comp: set[N], start: N, succ: Callable[[N], Iterable[N]]) -> list[N]:
    """A shortest cycle through ``start`` inside ``comp`` (BFS back to start).

    >>> g = {1: [2, 3], 2: [1], 3: [4], 4: [1]}
    >>> witness({1, 2, 3, 4}, 1, lambda n: g[n])
    [1, 2]
    """
    parent: dict[N, N] = {}
    queue = deque([start])
    seen = {start}
    while queue:
        node = queue.popleft()
        for nxt in succ(node):
            if nxt == start:
                path = [node]
                while path[-1] != start:
                    path.append(parent[path[-1]])
                return path[::-1]
            if nxt in comp and nxt not in seen:
                seen.add(nxt)
                parent[nxt] = node
                queue.append(nxt)
    raise ValueError("start is not on a cycle inside the component")
