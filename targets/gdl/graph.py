"""Strongly connected components (Tarjan, iterative), shared by the static checks and the
network's evaluation order."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TypeVar

T = TypeVar("T", str, int)


def strongly_connected(
    graph: Mapping[T, Iterable[T]], follow: Callable[[T], bool] = lambda _: True
) -> list[list[T]]:
    """The components of ``graph`` (node -> successors), each listed after every
    component it reaches (dependencies first). Nodes are visited in sorted order;
    a successor for which ``follow`` is false is left out."""
    index: dict[T, int] = {}
    low: dict[T, int] = {}
    on: set[T] = set()
    stack: list[T] = []
    out: list[list[T]] = []

    def enter(node: T) -> tuple[T, Iterable[T]]:
        index[node] = low[node] = len(index)
        stack.append(node)
        on.add(node)
        return node, iter(sorted(graph.get(node, ())))

    for root in sorted(graph):
        if root in index:
            continue
        work = [enter(root)]
        while work:
            node, successors = work[-1]
            for nxt in successors:
                if not follow(nxt):
                    continue
                if nxt not in index:
                    work.append(enter(nxt))
                    break
                if nxt in on:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component: list[T] = []
                    while True:
                        member = stack.pop()
                        on.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    out.append(component)
    return out
