"""Prefix GDL (KIF) read into typed sentences, each with its page, line and column.

The syntax is the seed's §6: every expression is a parenthesised list, variables start
with ``?``, names are case-insensitive (read in lower case), ``;`` starts a comment that
runs to the end of the line. A sentence is a fact ``(cell 1 1 b)`` or a rule
``(<= head literal ...)``; a body literal is an atom, ``(not atom)``, ``(distinct a b)``,
``(or literal ...)`` or ``(and literal ...)``. ``or`` is read as written and expanded into
one rule per alternative by :func:`expand_or`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from rulebook2game.errors import Rulebook2GameError


@dataclass(frozen=True)
class Where:
    """A place in a page: workspace-relative file, 1-based line and column."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


class KifError(Rulebook2GameError):
    """A page that is not well-formed prefix GDL (the message names page and line)."""

    def __init__(self, at: Where, message: str) -> None:
        self.at = at
        self.bare = message
        super().__init__(f"{at}: {message}")


@dataclass(frozen=True)
class Var:
    """A variable (``?x``, stored without the ``?``)."""

    name: str

    def __str__(self) -> str:
        return f"?{self.name}"


@dataclass(frozen=True)
class Const:
    """An object constant, or a relation of arity 0 (``terminal``)."""

    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Fn:
    """A compound term or atom: ``(cell 1 1 b)``."""

    name: str
    args: tuple[Term, ...]

    def __str__(self) -> str:
        return f"({self.name} {' '.join(str(a) for a in self.args)})"


Term = Var | Const | Fn


def relation(atom: Term) -> tuple[str, int]:
    """An atom's relation name and arity."""
    if isinstance(atom, Fn):
        return atom.name, len(atom.args)
    return atom.name if isinstance(atom, Const) else f"?{atom.name}", 0


def variables(term: Term) -> set[str]:
    """The variable names in ``term``."""
    if isinstance(term, Var):
        return {term.name}
    if isinstance(term, Fn):
        out: set[str] = set()
        for arg in term.args:
            out |= variables(arg)
        return out
    return set()


@dataclass(frozen=True)
class Pos:
    """A positive body literal."""

    atom: Term

    def __str__(self) -> str:
        return str(self.atom)


@dataclass(frozen=True)
class Neg:
    """``(not atom)``."""

    atom: Term

    def __str__(self) -> str:
        return f"(not {self.atom})"


@dataclass(frozen=True)
class Distinct:
    """``(distinct a b)``."""

    left: Term
    right: Term

    def __str__(self) -> str:
        return f"(distinct {self.left} {self.right})"


@dataclass(frozen=True)
class Or:
    """``(or literal ...)``: one of the alternatives holds."""

    options: tuple[Literal, ...]

    def __str__(self) -> str:
        return f"(or {' '.join(str(o) for o in self.options)})"


Literal = Pos | Neg | Distinct | Or


@dataclass(frozen=True)
class Rule:
    """One sentence: a fact (empty body) or a rule, with where it starts."""

    head: Term
    body: tuple[Literal, ...]
    at: Where

    def __str__(self) -> str:
        if not self.body:
            return str(self.head)
        return f"(<= {self.head} {' '.join(str(b) for b in self.body)})"


@dataclass(frozen=True)
class _Node:
    """A parsed s-expression: a symbol (``items`` is ``None``) or a list."""

    text: str
    items: tuple[_Node, ...] | None
    at: Where


def _tokens(text: str, file: str) -> list[tuple[str, Where]]:
    out: list[tuple[str, Where]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        i, n = 0, len(line)
        while i < n:
            ch = line[i]
            if ch == ";":
                break
            if ch.isspace():
                i += 1
                continue
            if ch in "()":
                out.append((ch, Where(file, number, i + 1)))
                i += 1
                continue
            start = i
            while i < n and not line[i].isspace() and line[i] not in "();":
                i += 1
            out.append((line[start:i].lower(), Where(file, number, start + 1)))
    return out


def _nodes(text: str, file: str) -> list[_Node]:
    stack: list[tuple[Where, list[_Node]]] = []
    top: list[_Node] = []
    for token, at in _tokens(text, file):
        if token == "(":
            stack.append((at, []))
        elif token == ")":
            if not stack:
                raise KifError(at, "unbalanced ')' (no expression is open here)")
            opened, items = stack.pop()
            node = _Node("", tuple(items), opened)
            (stack[-1][1] if stack else top).append(node)
        else:
            (stack[-1][1] if stack else top).append(_Node(token, None, at))
    if stack:
        raise KifError(stack[-1][0], "unbalanced '(' (this expression is never closed)")
    return top


def _term(node: _Node) -> Term:
    if node.items is None:
        if node.text.startswith("?"):
            if len(node.text) == 1:
                raise KifError(node.at, "'?' alone is not a variable (write ?name)")
            return Var(node.text[1:])
        if node.text in {"<=", "not", "or", "and"}:
            raise KifError(node.at, f"'{node.text}' cannot be used as a term")
        return Const(node.text)
    if not node.items:
        raise KifError(node.at, "empty expression '()'")
    first = node.items[0]
    if first.items is not None or first.text.startswith("?"):
        raise KifError(node.at, "an expression must start with a name: (name arg ...)")
    if first.text in {"<=", "not", "or", "and", "distinct"}:
        raise KifError(node.at, f"'{first.text}' cannot be used inside a term")
    return Fn(first.text, tuple(_term(arg) for arg in node.items[1:]))


def _atom(node: _Node) -> Term:
    term = _term(node)
    if isinstance(term, Var):
        raise KifError(node.at, f"a variable ({term}) cannot stand for a sentence")
    if isinstance(term, Const) and term.name.isdigit():
        raise KifError(node.at, f"a number ({term}) cannot stand for a sentence")
    return term


def _literal(node: _Node) -> list[Literal]:
    items = node.items
    if items and items[0].items is None:
        op = items[0].text
        args = items[1:]
        if op == "not":
            if len(args) != 1:
                raise KifError(node.at, "(not ...) takes exactly one sentence")
            return [Neg(_atom(args[0]))]
        if op == "distinct":
            if len(args) != 2:
                raise KifError(node.at, "(distinct a b) takes exactly two terms")
            return [Distinct(_term(args[0]), _term(args[1]))]
        if op == "or":
            if not args:
                raise KifError(node.at, "(or ...) needs at least one alternative")
            options: list[Literal] = []
            for arg in args:
                parts = _literal(arg)
                if len(parts) != 1:
                    raise KifError(arg.at, "an alternative of (or ...) cannot be an (and ...)")
                options.append(parts[0])
            return [Or(tuple(options))]
        if op == "and":
            return [lit for arg in args for lit in _literal(arg)]
    return [Pos(_atom(node))]


def parse_kif(text: str, file: str) -> list[Rule]:
    """Every sentence of one page, in order.

    Raises:
        KifError: the text is not prefix GDL (page, line and column in the message).
    """
    rules: list[Rule] = []
    for node in _nodes(text, file):
        items = node.items
        if items and items[0].items is None and items[0].text == "<=":
            if len(items) < 2:
                raise KifError(node.at, "(<= head body ...) needs a head")
            head = _atom(items[1])
            body = tuple(lit for item in items[2:] for lit in _literal(item))
            rules.append(Rule(head, body, node.at))
        else:
            if items and items[0].items is None and items[0].text in {"not", "or", "distinct"}:
                raise KifError(node.at, f"a fact cannot be a ({items[0].text} ...)")
            rules.append(Rule(_atom(node), (), node.at))
    return rules


def expand_or(rule: Rule) -> list[Rule]:
    """``rule`` with each ``(or ...)`` in its body replaced by one rule per alternative."""
    choices: list[tuple[Literal, ...]] = []
    for lit in rule.body:
        choices.append(lit.options if isinstance(lit, Or) else (lit,))
    if all(len(c) == 1 for c in choices):
        return [rule]
    return [Rule(rule.head, tuple(combo), rule.at) for combo in itertools.product(*choices)]


def format_term(term: Term) -> str:
    """KIF text of a term (``(cell 1 1 b)``, ``noop``)."""
    return str(term)


def parse_term(text: str, file: str = "<text>") -> Term:
    """One ground or non-ground term from its KIF text.

    Raises:
        KifError: not exactly one well-formed term.
    """
    nodes = _nodes(text, file)
    if len(nodes) != 1:
        raise KifError(Where(file, 1, 1), f"expected one term, found {len(nodes)}")
    return _term(nodes[0])


def parse_terms(text: str, file: str = "<text>") -> list[Term]:
    """Every term of a whitespace-separated sequence (a serialized state).

    Raises:
        KifError: a term is not well-formed.
    """
    return [_term(node) for node in _nodes(text, file)]
