"""A checked GDL description written as one clingo program, grounded once for every state.

Relation ``r`` becomes predicate ``g_r``; object and function constants stay as they
are when they are valid clingo names (``cell``, ``x``, ``1``) and become strings
otherwise. Beside the game itself the program holds a *relaxed* copy (relation ``r``
as ``x_r``, negative literals dropped, ``x_true`` fed by ``init`` and ``next``,
``x_does`` by ``legal``): a positive program whose model over-approximates every
proposition that can ever be true and every move that can ever be made. It bounds the
two inputs, declared as free externals::

    #external g_true(F) : x_true(F). [free]
    #external g_does(R, M) : x_does(R, M). [free]

so one grounding answers every state: a state is a set of assumptions on ``g_true``,
a joint move one on ``g_does``, and the (unique, the program being stratified) stable
model holds ``legal``, ``next``, ``terminal`` and ``goal``.
"""

from __future__ import annotations

import re

from rulebook2game.targets.gdl.kif import Const, Distinct, Fn, Neg, Pos, Rule, Term, Var

_NAME = re.compile(r"[a-z][A-Za-z0-9_]*")
_NUMBER = re.compile(r"0|[1-9][0-9]{0,8}")
_RESERVED_ASP = frozenset({"not"})

SHOWN = ("role", "init", "legal", "next", "terminal", "goal")
"""Relations the engine reads from a model."""


def constant(name: str) -> str:
    """A GDL constant as clingo text."""
    if _NUMBER.fullmatch(name):
        return name
    if _NAME.fullmatch(name) and name not in _RESERVED_ASP:
        return name
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def function(name: str) -> str:
    """A GDL function constant as a clingo function name."""
    if _NAME.fullmatch(name) and name not in _RESERVED_ASP:
        return name
    return "f_" + "".join(c if c.isalnum() else f"_{ord(c):x}_" for c in name)


def term(t: Term) -> str:
    """A GDL term as clingo text (variables ``?x`` become ``V_x``)."""
    if isinstance(t, Var):
        return "V_" + "".join(c if c.isalnum() else f"_{ord(c):x}" for c in t.name)
    if isinstance(t, Const):
        return constant(t.name)
    return f"{function(t.name)}({','.join(term(a) for a in t.args)})"


def atom(t: Term, prefix: str) -> str:
    """A GDL atom as a clingo atom of predicate ``prefix + name``."""
    name = prefix + function(t.name) if isinstance(t, (Const, Fn)) else prefix
    if isinstance(t, Fn):
        return f"{name}({','.join(term(a) for a in t.args)})"
    return name


def _rule(rule: Rule, prefix: str, relaxed: bool) -> str:
    body: list[str] = []
    for lit in rule.body:
        if isinstance(lit, Pos):
            body.append(atom(lit.atom, prefix))
        elif isinstance(lit, Neg):
            if not relaxed:
                body.append("not " + atom(lit.atom, prefix))
        elif isinstance(lit, Distinct):
            body.append(f"{term(lit.left)} != {term(lit.right)}")
    head = atom(rule.head, prefix)
    return f"{head} :- {', '.join(body)}." if body else f"{head}."


def program(rules: list[Rule]) -> str:
    """The clingo program of a checked description (``or`` already expanded)."""
    lines = ["% the game"]
    lines += [_rule(r, "g_", relaxed=False) for r in rules]
    lines.append("% its relaxation: what can ever be true, what can ever be done")
    lines += [_rule(r, "x_", relaxed=True) for r in rules]
    lines += [
        "x_true(F) :- x_init(F).",
        "x_true(F) :- x_next(F).",
        "x_does(R, M) :- x_legal(R, M).",
        "#external g_true(F) : x_true(F). [free]",
        "#external g_does(R, M) : x_does(R, M). [free]",
        "#show.",
    ]
    for name in SHOWN:
        arity = {"role": 1, "init": 1, "legal": 2, "next": 1, "terminal": 0, "goal": 2}[name]
        lines.append(f"#show g_{name}/{arity}.")
    return "\n".join(lines) + "\n"
