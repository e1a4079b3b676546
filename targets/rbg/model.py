"""An RBG description as typed records: players, pieces, variables, board and rules.

:func:`describe` parses the macro-expanded sections (:mod:`.syntax`) and checks what the
paper asks of a proper description that can be seen without playing: every name is
declared, patterns contain no switch, the rules switch at all, every variable has a
bound, and no part of the rules can repeat a modifier without moving or switching
(``[x]*``). Anything else (straightness, keeper completions) is bounded at run time and
reported there.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulebook2game.targets.rbg.syntax import (
    TARGET_SECTIONS,
    RbgProblem,
    Span,
    Token,
    read_definitions,
)

KEEPER = "keeper"
"""The name of the keeper player (``->>`` switches to it)."""

# -- the rules expression ----------------------------------------------------------------


@dataclass(frozen=True)
class Arith:
    """An arithmetic expression: ``op`` is ``int``, ``name`` (variable or piece) or ``+-*/``."""

    op: str
    value: int | str = 0
    left: Arith | None = None
    right: Arith | None = None


@dataclass(frozen=True)
class Action:
    """One elementary action.

    ``kind`` is ``shift`` (``name``: the direction), ``on`` (``pieces``), ``off``
    (``name``: the piece), ``assign`` (``name``: the variable, ``expr``), ``compare``
    (``expr`` ``relation`` ``other``), ``switch`` (``name``: the player or ``keeper``)
    or ``pattern`` (``positive``, ``body``).
    """

    kind: str
    at: Span
    text: str
    """The action as written (for messages)."""
    name: str = ""
    pieces: frozenset[str] = frozenset()
    expr: Arith | None = None
    relation: str = ""
    other: Arith | None = None
    positive: bool = True
    body: Node | None = None

    @property
    def modifier(self) -> bool:
        """Offs, assignments and switches change the semi-state (the paper's modifiers)."""
        return self.kind in ("off", "assign", "switch")


@dataclass(frozen=True)
class Seq:
    """Concatenation."""

    items: tuple[Node, ...]


@dataclass(frozen=True)
class Alt:
    """Sum (``+``)."""

    items: tuple[Node, ...]


@dataclass(frozen=True)
class Star:
    """Kleene star."""

    item: Node


Node = Action | Seq | Alt | Star

# -- the description ---------------------------------------------------------------------


@dataclass(frozen=True)
class Board:
    """A rectangle board: ``width`` x ``height`` squares, row 0 on top, and its directions."""

    width: int
    height: int
    cells: tuple[str, ...]
    """Initial piece of each square, row by row."""
    directions: dict[str, tuple[int, int]]
    """Direction name -> (row step, column step)."""


@dataclass(frozen=True)
class Description:
    """A parsed and checked RBG description."""

    players: tuple[str, ...]
    pieces: tuple[str, ...]
    variables: tuple[str, ...]
    """Every variable, the players' score variables first (in player order)."""
    bounds: dict[str, int]
    board: Board
    rules: Node
    spans: dict[str, Span] = field(default_factory=dict)
    """Where each section was defined."""
    extras: dict[str, list[Token]] = field(default_factory=dict)
    """The target's own sections (``#moves``, ``#returns``) as written."""


# -- parsing -----------------------------------------------------------------------------


class _Reader:
    """A cursor over a section's tokens."""

    def __init__(self, tokens: list[Token], end: Span) -> None:
        self.tokens = tokens
        self.i = 0
        self.end = end

    def peek(self, ahead: int = 0) -> Token | None:
        j = self.i + ahead
        return self.tokens[j] if j < len(self.tokens) else None

    def at(self) -> Span:
        tok = self.peek()
        return tok.at if tok is not None else self.end

    def take(self, what: str = "") -> Token:
        tok = self.peek()
        if tok is None:
            raise RbgProblem(self.end, f"unexpected end of the definition{what}")
        self.i += 1
        return tok

    def expect(self, text: str) -> Token:
        tok = self.take(f", expected `{text}`")
        if tok.text != text:
            raise RbgProblem(tok.at, f"expected `{text}`, found `{tok.text}`")
        return tok

    def name(self, what: str) -> Token:
        tok = self.take(f", expected {what}")
        if not tok.is_name:
            raise RbgProblem(tok.at, f"expected {what}, found `{tok.text}`")
        return tok

    def accept(self, text: str) -> bool:
        tok = self.peek()
        if tok is not None and tok.text == text:
            self.i += 1
            return True
        return False

    def done(self) -> bool:
        return self.i >= len(self.tokens)


def _bounded_names(reader: _Reader, what: str) -> list[tuple[Token, int]]:
    """``a(100), b(5)`` (possibly empty)."""
    out: list[tuple[Token, int]] = []
    while not reader.done():
        name = reader.name(what)
        if not reader.accept("("):
            raise RbgProblem(
                name.at, f"{what} `{name.text}` has no bound: write `{name.text}(MAX)`"
            )
        bound = reader.take()
        if not bound.is_int:
            raise RbgProblem(bound.at, f"the bound of `{name.text}` must be an integer")
        reader.expect(")")
        out.append((name, int(bound.text)))
        if not reader.accept(","):
            break
    if not reader.done():
        tok = reader.take()
        raise RbgProblem(tok.at, f"unexpected `{tok.text}` in the list of {what}s")
    return out


def _board(reader: _Reader, pieces: set[str]) -> Board:
    head = reader.name("a board generator (`rectangle`)")
    if head.text != "rectangle":
        raise RbgProblem(
            head.at, f"unknown board generator `{head.text}` (this target has `rectangle`)"
        )
    reader.expect("(")
    dirs = [reader.name("a direction name")]
    for _ in range(3):
        reader.expect(",")
        dirs.append(reader.name("a direction name"))
    names = [d.text for d in dirs]
    if len(set(names)) != 4:
        raise RbgProblem(
            head.at, "rectangle(up, down, left, right, ...): four different directions"
        )
    reader.expect(",")
    rows: list[list[str]] = []
    while reader.accept("["):
        row: list[str] = []
        while True:
            piece = reader.name("a piece")
            if piece.text not in pieces:
                raise RbgProblem(piece.at, f"`{piece.text}` on the board is not in #pieces")
            row.append(piece.text)
            if reader.accept("]"):
                break
            reader.expect(",")
        if rows and len(row) != len(rows[0]):
            raise RbgProblem(
                reader.at(), f"board rows differ in length ({len(rows[0])} and {len(row)})"
            )
        rows.append(row)
        reader.accept(",")
    if not rows:
        raise RbgProblem(reader.at(), "rectangle(...) needs at least one row `[a, b, ...]`")
    reader.expect(")")
    if not reader.done():
        tok = reader.take()
        raise RbgProblem(tok.at, f"unexpected `{tok.text}` after the board")
    steps = [(-1, 0), (1, 0), (0, -1), (0, 1)]
    return Board(
        len(rows[0]),
        len(rows),
        tuple(p for row in rows for p in row),
        dict(zip(names, steps, strict=True)),
    )


class _RulesParser:
    """The rules grammar: sum of concatenations of starred atoms (see ``reference.md``)."""

    def __init__(self, reader: _Reader, names: dict[str, str]) -> None:
        self.r = reader
        self.names = names
        """name -> ``direction``, ``piece``, ``variable`` or ``player``."""

    def parse(self) -> Node:
        node = self.expr(in_pattern=False)
        if not self.r.done():
            tok = self.r.take()
            raise RbgProblem(tok.at, f"unexpected `{tok.text}` in the rules")
        return node

    def expr(self, in_pattern: bool) -> Node:
        items = [self.seq(in_pattern)]
        while self.r.accept("+"):
            items.append(self.seq(in_pattern))
        return items[0] if len(items) == 1 else Alt(tuple(items))

    def seq(self, in_pattern: bool) -> Node:
        items: list[Node] = []
        while True:
            tok = self.r.peek()
            if tok is None or tok.text in ("+", ")", "}"):
                break
            items.append(self.postfix(in_pattern))
        if not items:
            raise RbgProblem(self.r.at(), "an empty expression (RBG has no empty word)")
        return items[0] if len(items) == 1 else Seq(tuple(items))

    def postfix(self, in_pattern: bool) -> Node:
        node = self.atom(in_pattern)
        while True:
            if self.r.accept("*"):
                node = Star(node)
            elif self.r.accept("^"):
                count = self.r.take(", expected a repeat count")
                if not count.is_int or int(count.text) < 1:
                    raise RbgProblem(count.at, "`^` takes a positive repeat count")
                n = int(count.text)
                node = node if n == 1 else Seq(tuple([node] * n))
            else:
                return node

    def atom(self, in_pattern: bool) -> Node:
        tok = self.r.take(", expected an action")
        if tok.text == "(":
            node = self.expr(in_pattern)
            self.r.expect(")")
            return node
        if tok.text == "->":
            player = self.r.name("a player after `->`")
            if self.names.get(player.text) != "player":
                raise RbgProblem(
                    player.at, f"`->{player.text}`: `{player.text}` is not in #players"
                )
            return self._switch(tok, player.text, f"->{player.text}", in_pattern)
        if tok.text == "->>":
            return self._switch(tok, KEEPER, "->>", in_pattern)
        if tok.text == "[":
            return self.off_or_assign(tok)
        if tok.text == "{":
            return self.brace(tok, in_pattern)
        if tok.is_name:
            kind = self.names.get(tok.text)
            if kind != "direction":
                what = f"a {kind}" if kind else "not declared (a macro defined nowhere?)"
                raise RbgProblem(
                    tok.at,
                    f"`{tok.text}` is used as a shift but is {what}; shifts are board directions",
                )
            return Action("shift", tok.at, tok.text, name=tok.text)
        raise RbgProblem(tok.at, f"unexpected `{tok.text}` in the rules")

    def _switch(self, tok: Token, player: str, text: str, in_pattern: bool) -> Action:
        if in_pattern:
            raise RbgProblem(tok.at, f"`{text}` inside a pattern: patterns may not switch players")
        return Action("switch", tok.at, text, name=player)

    def off_or_assign(self, open_tok: Token) -> Action:
        if self.r.accept("$"):
            var = self.r.name("a variable")
            if self.names.get(var.text) not in ("variable", "player"):
                raise RbgProblem(var.at, f"`[$ {var.text} = ...]`: `{var.text}` is not a variable")
            self.r.expect("=")
            expr = self.arith()
            self.r.expect("]")
            return Action("assign", open_tok.at, f"[$ {var.text} = ...]", name=var.text, expr=expr)
        piece = self.r.name("a piece")
        if self.names.get(piece.text) != "piece":
            raise RbgProblem(piece.at, f"`[{piece.text}]`: `{piece.text}` is not in #pieces")
        self.r.expect("]")
        return Action("off", open_tok.at, f"[{piece.text}]", name=piece.text)

    def brace(self, open_tok: Token, in_pattern: bool) -> Action:
        if self.r.accept("$"):
            left = self.arith()
            rel = self.r.take(", expected a comparison")
            if rel.text not in ("==", "!=", "<", "<=", ">", ">="):
                raise RbgProblem(
                    rel.at, f"expected a comparison (== != < <= > >=), found `{rel.text}`"
                )
            right = self.arith()
            self.r.expect("}")
            return Action(
                "compare",
                open_tok.at,
                f"{{$ ... {rel.text} ...}}",
                expr=left,
                relation=rel.text,
                other=right,
            )
        for mark, positive in (("?", True), ("!", False)):
            if self.r.accept(mark):
                body = self.expr(in_pattern=True)
                self.r.expect("}")
                return Action(
                    "pattern", open_tok.at, f"{{{mark} ...}}", positive=positive, body=body
                )
        pieces: list[str] = []
        while not self.r.accept("}"):
            piece = self.r.name("a piece")
            if self.names.get(piece.text) != "piece":
                raise RbgProblem(piece.at, f"`{{{piece.text}}}`: `{piece.text}` is not in #pieces")
            pieces.append(piece.text)
            if not self.r.accept(","):
                self.r.expect("}")
                break
        return Action("on", open_tok.at, "{" + ", ".join(pieces) + "}", pieces=frozenset(pieces))

    def arith(self) -> Arith:
        node = self.term()
        while (tok := self.r.peek()) is not None and tok.text in ("+", "-"):
            self.r.take()
            node = Arith(tok.text, left=node, right=self.term())
        return node

    def term(self) -> Arith:
        node = self.factor()
        while (tok := self.r.peek()) is not None and tok.text in ("*", "/"):
            self.r.take()
            node = Arith(tok.text, left=node, right=self.factor())
        return node

    def factor(self) -> Arith:
        tok = self.r.take(", expected a number, variable or piece")
        if tok.text == "(":
            node = self.arith()
            self.r.expect(")")
            return node
        if tok.is_int:
            return Arith("int", int(tok.text))
        if tok.is_name and self.names.get(tok.text) in ("variable", "player", "piece"):
            return Arith("name", tok.text)
        raise RbgProblem(tok.at, f"`{tok.text}` is not a number, a variable or a piece")


def _walk(node: Node) -> list[Action]:
    if isinstance(node, Action):
        inner = _walk(node.body) if node.body is not None else []
        return [node, *inner]
    if isinstance(node, Star):
        return _walk(node.item)
    return [a for item in node.items for a in _walk(item)]


def _stuck_star(node: Node) -> Action | None:
    """A modifier under a star whose body can repeat it without a shift or switch."""
    if isinstance(node, Star):
        top = _top_actions(node.item)
        if any(a.modifier for a in top) and not any(a.kind in ("shift", "switch") for a in top):
            return next(a for a in top if a.modifier)
        return _stuck_star(node.item)
    if isinstance(node, Action):
        return _stuck_star(node.body) if node.body is not None else None
    for item in node.items:
        found = _stuck_star(item)
        if found is not None:
            return found
    return None


def _top_actions(node: Node) -> list[Action]:
    """Actions of ``node`` not inside a pattern."""
    if isinstance(node, Action):
        return [node]
    if isinstance(node, Star):
        return _top_actions(node.item)
    return [a for item in node.items for a in _top_actions(item)]


def describe(pages: list[tuple[str, str]]) -> Description:
    """Parse and check the description written on ``pages`` ((file, text) in order).

    Raises:
        RbgProblem: the first fault found, at its page and line.
    """
    sections = read_definitions(pages)

    def reader(name: str) -> _Reader:
        d, tokens = sections[name]
        return _Reader(tokens, d.at)

    names: dict[str, str] = {}

    def declare(tok: Token, kind: str) -> None:
        if tok.text in names:
            raise RbgProblem(
                tok.at, f"`{tok.text}` is declared twice (as {names[tok.text]} and {kind})"
            )
        names[tok.text] = kind

    players = _bounded_names(reader("players"), "player")
    if not players:
        raise RbgProblem(sections["players"][0].at, "#players is empty")
    for tok, _ in players:
        if tok.text == KEEPER:
            raise RbgProblem(
                tok.at, "`keeper` is the built-in keeper; give the player another name"
            )
        declare(tok, "player")
    variables = _bounded_names(reader("variables"), "variable")
    for tok, _ in variables:
        declare(tok, "variable")
    pieces_reader = reader("pieces")
    pieces: list[Token] = []
    while not pieces_reader.done():
        pieces.append(pieces_reader.name("a piece"))
        if not pieces_reader.accept(","):
            break
    if not pieces_reader.done():
        tok = pieces_reader.take()
        raise RbgProblem(tok.at, f"unexpected `{tok.text}` in #pieces")
    if not pieces:
        raise RbgProblem(sections["pieces"][0].at, "#pieces is empty")
    for tok in pieces:
        declare(tok, "piece")
    board = _board(reader("board"), {p.text for p in pieces})
    for d in board.directions:
        if d in names:
            raise RbgProblem(sections["board"][0].at, f"direction `{d}` is also a {names[d]}")
        names[d] = "direction"
    rules = _RulesParser(reader("rules"), names).parse()
    actions = _walk(rules)
    if not any(a.kind == "switch" for a in actions):
        raise RbgProblem(
            sections["rules"][0].at,
            "the rules never switch players: no move can ever end (add `->player`)",
        )
    stuck = _stuck_star(rules)
    if stuck is not None:
        raise RbgProblem(
            stuck.at,
            f"`{stuck.text}` repeats under a star with no shift or switch beside it: "
            "play would never end (unbounded straightness)",
        )
    bounds = {tok.text: bound for tok, bound in players}
    bounds.update({tok.text: bound for tok, bound in variables})
    return Description(
        players=tuple(t.text for t, _ in players),
        pieces=tuple(t.text for t in pieces),
        variables=tuple([t.text for t, _ in players] + [t.text for t, _ in variables]),
        bounds=bounds,
        board=board,
        rules=rules,
        spans={name: d.at for name, (d, _) in sections.items()},
        extras={name: tokens for name, (_, tokens) in sections.items() if name in TARGET_SECTIONS},
    )
