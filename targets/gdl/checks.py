"""The static checks a GDL description must pass (seed 003, §2 and §5).

Each problem names the page, line and rule:

- every rule is *safe*: a variable of the head, of a negated literal or of a
  ``distinct`` also occurs in a positive literal of the body;
- negation is *stratified*: no relation depends on itself through a ``not``;
- recursion is *restricted* (GDL's rule): in a rule whose head is in the same
  recursive cycle as a body atom, each argument of that atom is ground, is an argument
  of the head, or has its variables in a positive body atom outside the cycle;
- the reserved relations are used as GDL allows: nothing defines ``true``, ``does`` or
  ``distinct``; ``role``, ``init``, ``base`` and ``input`` do not depend on ``true`` or
  ``does``; ``legal``, ``terminal`` and ``goal`` do not depend on ``does``; each has its
  arity; ``role``, ``legal``, ``next``, ``terminal`` and ``goal`` are defined;
- a goal value written in a ``goal`` head is an integer in 0..100 (a value bound by a
  variable is checked after grounding, and so is ``init`` against ``base`` when the
  description defines ``base``: :mod:`~rulebook2game.targets.gdl.probe`);
- one relation is used with one arity.

GDL-II's ``random`` role is the chance player (its moves are uniform chance outcomes);
``sees`` (hidden information) is refused with :data:`CHANCE_REFUSAL`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from rulebook2game.targets.gdl.graph import strongly_connected
from rulebook2game.targets.gdl.kif import (
    Const,
    Distinct,
    Fn,
    Neg,
    Pos,
    Rule,
    Term,
    Where,
    relation,
    variables,
)

ARITY = {
    "role": 1,
    "base": 1,
    "input": 2,
    "init": 1,
    "true": 1,
    "does": 2,
    "next": 1,
    "legal": 2,
    "goal": 2,
    "terminal": 0,
}
"""The reserved relations of GDL and their arities."""

REQUIRED = ("role", "legal", "next", "terminal", "goal")
INPUTS = frozenset({"true", "does"})
STATIC = ("role", "init", "base", "input")
NO_DOES = ("legal", "terminal", "goal")
CHANCE_REFUSAL = (
    "GDL-II's hidden information is not supported (only its random role is), and {what} needs it"
)
CHANCE_ROLE = "random"
"""GDL-II's chance player: its legal moves are drawn uniformly."""


@dataclass(frozen=True)
class Problem:
    """One static error at a rule."""

    at: Where
    message: str
    rule: str
    """The rule's text (as read), for the message."""

    def __str__(self) -> str:
        return f"{self.at}: {self.message}: {self.rule}"


def _body_atoms(rule: Rule) -> list[tuple[Term, bool]]:
    """(atom, negated) for every atom of the body (``distinct`` excluded)."""
    out: list[tuple[Term, bool]] = []
    for lit in rule.body:
        if isinstance(lit, Pos):
            out.append((lit.atom, False))
        elif isinstance(lit, Neg):
            out.append((lit.atom, True))
    return out


def _safety(rule: Rule) -> Problem | None:
    bound: set[str] = set()
    for lit in rule.body:
        if isinstance(lit, Pos):
            bound |= variables(lit.atom)
    need = variables(rule.head)
    for lit in rule.body:
        if isinstance(lit, Neg):
            need |= variables(lit.atom)
        elif isinstance(lit, Distinct):
            need |= variables(lit.left) | variables(lit.right)
    unbound = sorted(need - bound)
    if not unbound:
        return None
    names = ", ".join(f"?{v}" for v in unbound)
    return Problem(
        rule.at,
        f"unsafe rule: {names} must occur in a positive literal of the body",
        str(rule),
    )


def _sccs(graph: dict[str, set[str]]) -> dict[str, int]:
    """Strongly connected components: node -> component id."""
    components = strongly_connected(graph)
    return {member: i for i, members in enumerate(components) for member in members}


def _depends(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        node = todo.pop()
        for nxt in graph.get(node, ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def _is_ground(term: Term) -> bool:
    return not variables(term)


def check_rules(rules: list[Rule]) -> list[Problem]:
    """Every static problem of a description (rules with ``or`` already expanded)."""
    problems: list[Problem] = []
    arity: dict[str, tuple[int, Rule]] = {}
    heads: set[str] = set()
    graph: dict[str, set[str]] = defaultdict(set)
    for rule in rules:
        atoms = [(rule.head, False), *_body_atoms(rule)]
        for atom, _ in atoms:
            name, n = relation(atom)
            want = ARITY.get(name)
            if want is not None and want != n:
                problems.append(
                    Problem(rule.at, f"'{name}' takes {want} argument(s), not {n}", str(rule))
                )
                continue
            seen = arity.setdefault(name, (n, rule))
            if seen[0] != n:
                problems.append(
                    Problem(
                        rule.at,
                        f"'{name}' is used with {n} argument(s) here and {seen[0]} at {seen[1].at}",
                        str(rule),
                    )
                )
        head, _ = relation(rule.head)
        heads.add(head)
        if head in INPUTS or head in {"distinct", "sees"}:
            if head == "sees":
                problems.append(Problem(rule.at, CHANCE_REFUSAL.format(what="'sees'"), str(rule)))
            else:
                problems.append(
                    Problem(
                        rule.at,
                        f"'{head}' is an input of the game and cannot be defined",
                        str(rule),
                    )
                )
        if head == "goal" and isinstance(rule.head, Fn) and len(rule.head.args) == 2:
            value = rule.head.args[1]
            if isinstance(value, Fn) or (
                isinstance(value, Const)
                and not (value.name.isdigit() and 0 <= int(value.name) <= 100)
            ):
                problems.append(
                    Problem(rule.at, f"goal value {value} is not an integer in 0..100", str(rule))
                )
        unsafe = _safety(rule)
        if unsafe is not None:
            problems.append(unsafe)
        for atom, _ in _body_atoms(rule):
            graph[head].add(relation(atom)[0])
    for name in REQUIRED:
        if name not in heads:
            problems.append(
                Problem(Where("pages", 0, 0), f"no rule defines '{name}' (GDL requires it)", "")
            )
    problems += _strata(rules, graph)
    problems += _recursion(rules, graph)
    for name in STATIC:
        bad = _depends(graph, name) & INPUTS
        if bad and name in heads:
            rule = next(r for r in rules if relation(r.head)[0] == name)
            problems.append(
                Problem(
                    rule.at,
                    f"'{name}' must not depend on {' or '.join(sorted(bad))} "
                    "(it describes the game, not a state)",
                    str(rule),
                )
            )
    for name in NO_DOES:
        if name in heads and "does" in _depends(graph, name):
            rule = next(r for r in rules if relation(r.head)[0] == name)
            problems.append(
                Problem(
                    rule.at,
                    f"'{name}' must not depend on 'does' (only 'next' may)",
                    str(rule),
                )
            )
    return problems


def _strata(rules: list[Rule], graph: dict[str, set[str]]) -> list[Problem]:
    comp = _sccs(graph)
    problems: list[Problem] = []
    for rule in rules:
        head = relation(rule.head)[0]
        for atom, negated in _body_atoms(rule):
            name = relation(atom)[0]
            if negated and name in comp and comp.get(head) == comp[name]:
                problems.append(
                    Problem(
                        rule.at,
                        f"negation is not stratified: '{head}' depends on itself through "
                        f"(not {atom})",
                        str(rule),
                    )
                )
    return problems


def _recursion(rules: list[Rule], graph: dict[str, set[str]]) -> list[Problem]:
    comp = _sccs(graph)
    problems: list[Problem] = []
    for rule in rules:
        head = relation(rule.head)[0]
        if head not in comp:
            continue
        head_args = rule.head.args if isinstance(rule.head, Fn) else ()
        outside: set[str] = set()
        for lit in rule.body:
            if isinstance(lit, Pos) and comp.get(relation(lit.atom)[0]) != comp[head]:
                outside |= variables(lit.atom)
        for lit in rule.body:
            if not isinstance(lit, Pos) or not isinstance(lit.atom, Fn):
                continue
            if comp.get(lit.atom.name) != comp[head]:
                continue
            for arg in lit.atom.args:
                if not _is_ground(arg) and arg not in head_args and not variables(arg) <= outside:
                    problems.append(
                        Problem(
                            rule.at,
                            f"recursion is not restricted: argument {arg} of the recursive "
                            f"{lit.atom} is neither ground nor bound by the head or a "
                            "non-recursive literal",
                            str(rule),
                        )
                    )
                    break
    return problems
