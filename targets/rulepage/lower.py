"""Compose RulePage pages (oapply and bonding) and lower them to one rl program.

The program keeps the algebra's shape (see ``reference.md`` for the semantics):

- ``cls State`` gathers every page's ``state:`` fields; ``g`` is the state everywhere.
- Each action of ``interface.toml`` is one alternative of an ``actions:`` block in the
  game loop; it is legal when the active tier (priority > chance > ordinary) has a page
  offering it whose page condition, offer condition and every bonded modifier's
  ``require`` hold.
- The actions are grouped by their *guard*, the part of their legality that reads no
  argument (tier, page ``when``, argument-free offer conditions), and each group waits
  in an ``actions:`` block of its own, entered when its guard is the only one that
  holds: the native playout loop then draws only among that group's entries (rl
  resumption points, ``targets/rl/resume_points.py``), as it does for an rl game with
  phases. When several groups' guards hold and more than one of them has a legal
  action (or none has), the loop waits in one block offering every action.
- Applying an action runs its owner's ``on`` block, then the bonded modifiers' ``on``
  blocks in bond order, then the auto rules to a fixpoint, then each follow-up the
  same way (depth first, in the order they were emitted), within fixed bounds.
- The game ends when an ``end when`` condition holds; ``returns(p)`` scores it.

Composition errors (two owners of one action, a modifier bonded twice, ...) are found
here and reported at every page line involved.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rulebook2game.targets.rl.names import rl_name
from rulebook2game.targets.rulepage.sourcemap import Emitter, Origin, SourceMap
from rulebook2game.targets.rulepage.syntax import (
    ActionRef,
    Block,
    Offer,
    Page,
    PageProblem,
    Span,
    Text,
)
from rulebook2game.workspace import ActionSpec, Interface

FOLLOW_BOUND = 10_000
"""Most reductions (the action and its follow-ups) one action may cause."""
AUTO_BOUND = 1_000
"""Most rounds of auto rules after one reduction."""
STACK_SIZE = 16
"""Most follow-up actions pending at once."""
TIERS = {"ordinary": 0, "chance": 1, "priority": 2}

_PAGE_NAME = re.compile(r"[a-z][a-z0-9_]*")
_RESERVED = re.compile(
    r"^(?:fun|act|cls)\s+(get_current_player|get_num_players|score|pretty_print|play|State"
    r"|Game|r2gp?_\w*|R2gp\w*)\b"
)
"""Names the generated program defines itself."""
_FOLLOW = re.compile(r"^follow\s+([A-Za-z_][A-Za-z0-9_]*)\s*\((.*)\)\s*$")
_LOG = re.compile(r"^(log\s+)(\S.*)$")
"""``log TEXT`` in a reducer: a line (an rl ``String``) for the move log of the action."""


@dataclass(frozen=True)
class Lowered:
    """The generated program and its source map."""

    source: str
    source_map: SourceMap
    groups: tuple[tuple[str, ...], ...] = ()
    """The interface actions by group (see :meth:`Composer.groups`), each group waiting
    at a resumption point of its own in ``play()``; empty when there is one group."""
    slot_draw: str = ""
    """rl for the library only, beside the program (it names the runtime's loop types,
    so it is not type-checked with the program alone): the playout loop's draw among the
    candidate slots (:meth:`Composer._slot_draw`); empty when no page gives slots."""


class _Problems:
    def __init__(self) -> None:
        self.found: list[PageProblem] = []

    def add(self, at: Span, message: str) -> None:
        self.found.append(PageProblem(at, message))


_AND_OR = re.compile(r"\b(and|or)\b")


def _conjuncts(text: Text) -> list[Text]:
    """The top-level ``and`` parts of the condition ``text`` (each with its own column),
    or ``text`` itself when an ``or`` is at the top level or a string is in it."""
    if '"' in text.text or "'" in text.text:
        return [text]
    parts: list[Text] = []
    depth, start = 0, 0
    for i, ch in enumerate(text.text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and ch in "ao":
            word = _AND_OR.match(text.text, i)
            if word is None or (i > 0 and (text.text[i - 1].isalnum() or text.text[i - 1] == "_")):
                continue
            if word.group(1) == "or":
                return [text]
            parts.append(_part(text, start, i))
            start = word.end()
    parts.append(_part(text, start, len(text.text)))
    return [p for p in parts if p.text]


def _part(text: Text, start: int, end: int) -> Text:
    piece = text.text[start:end]
    lead = len(piece) - len(piece.lstrip())
    at = Span(text.at.file, text.at.line, text.at.column + start + lead)
    return Text(piece.strip(), at)


def _split_args(text: str) -> list[str]:
    """Top-level comma-separated parts of ``text`` (brackets respected)."""
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current)
    return [p.strip() for p in parts]


@dataclass(frozen=True)
class _Kind:
    """An action of the interface or an internal event, and its number in ``R2gpStep``."""

    number: int
    name: str
    arity: int
    interface: bool


_Term = tuple[int, tuple[Text, ...]]
"""One offer's argument-free conditions: its tier and the conditions that must all hold."""
_Group = tuple[list[_Term], list[_Kind]]
"""Actions of one guard (any of the terms holds) and the guard's terms."""


class Composer:
    """Checks the composition of ``pages`` and writes the rl program."""

    def __init__(self, pages: Sequence[Page], interface: Interface, players: int) -> None:
        self.pages = sorted(pages, key=lambda p: p.name)
        self.by_name = {p.name: p for p in self.pages}
        self.interface = interface
        self.players = players
        self.problems = _Problems()
        first = self.pages[0].file if self.pages else "pages"
        self.out = Emitter(Origin(first, 1))
        self.draw = Emitter(Origin(first, 1))
        self.kinds: dict[str, _Kind] = {}
        self.owner: dict[str, tuple[Page, ActionRef]] = {}
        self.bonded_to: dict[str, tuple[Page, Span]] = {}
        self.follows: list[Span] = []
        """Where ``follow`` statements were written (a runaway chain is reported there)."""
        self.logs = False
        """Whether some reducer writes ``log`` lines (the state then keeps them)."""

    # -- composition checks -----------------------------------------------------------

    def check(self) -> list[PageProblem]:
        """Every composition problem (empty: the pages compose)."""
        for page in self.pages:
            for problem in page.problems:
                self.problems.add(problem.at, problem.message)
            for line in page.code.lines if page.code else ():
                fun = _RESERVED.match(line.text)
                if fun:
                    self.problems.add(
                        line.at,
                        f"`{fun.group(1)}` is written by the rulepage target; give this "
                        "function another name (the game's own clauses say it: player:, "
                        "returns(p):, show:, slots, rebuild:)",
                    )
            if not _PAGE_NAME.fullmatch(page.name):
                self.problems.add(
                    Span(page.file, 1, 1),
                    f"page name `{page.name}`: use lowercase letters, digits and underscores",
                )
        for spec in self.interface.actions:
            for arg in spec.args:
                if arg.values is not None:
                    self.problems.add(
                        Span("interface.toml", 0, 0),
                        f"action {spec.name}: argument {arg.name} has named values; "
                        "the rulepage target takes integer arguments (min/max) only",
                    )
            self.kinds[spec.name] = _Kind(len(self.kinds), spec.name, len(spec.args), True)
        self._check_owners()
        self._check_bonds()
        self._check_singletons()
        self._check_refs()
        return self.problems.found

    def _check_owners(self) -> None:
        owners: dict[str, list[tuple[Page, ActionRef]]] = {}
        for page in self.pages:
            if page.modifier is None:
                for reducer in page.reducers:
                    owners.setdefault(reducer.action.name, []).append((page, reducer.action))
        for name, claims in owners.items():
            if len(claims) > 1:
                where = ", ".join(f"{p.file}:{ref.at.line}" for p, ref in claims)
                for _page, ref in claims:
                    self.problems.add(
                        ref.at, f"two pages reduce `{name}`; an action has one owner ({where})"
                    )
            self.owner[name] = claims[0]
            if name not in self.kinds:
                arity = len(claims[0][1].params)
                self.kinds[name] = _Kind(len(self.kinds), name, arity, False)

    def _check_bonds(self) -> None:
        for page in self.pages:
            for bond in page.bonds:
                other = self.by_name.get(bond.name)
                if other is None:
                    self.problems.add(bond.at, f"bonds `{bond.name}`, but there is no such page")
                elif other.modifier is None:
                    self.problems.add(
                        bond.at, f"bonds `{bond.name}`, which is not a `modifier` page"
                    )
                elif bond.name in self.bonded_to:
                    earlier = self.bonded_to[bond.name]
                    message = f"modifier `{bond.name}` is bonded twice"
                    self.problems.add(bond.at, message)
                    self.problems.add(earlier[1], message)
                else:
                    self.bonded_to[bond.name] = (page, bond.at)
        for page in self.pages:
            if page.modifier is not None:
                if page.name not in self.bonded_to:
                    self.problems.add(
                        page.modifier,
                        f"modifier `{page.name}` is bonded to no page (add it to a page's `bonds`)",
                    )
                if page.offers or page.when is not None or page.bonds:
                    self.problems.add(
                        page.modifier,
                        "a modifier only requires and amends: no `offer`, `when` or `bonds`",
                    )
            elif page.requires:
                self.problems.add(
                    page.requires[0].action.at, "`require` belongs on a `modifier` page"
                )

    def _check_singletons(self) -> None:
        for key in ("player", "returns"):
            having = [p for p in self.pages if getattr(p, key) is not None]
            if not having:
                at = Span(self.pages[0].file if self.pages else "pages", 1, 1)
                self.problems.add(at, f"no page gives `{key}` (exactly one page must)")
            for page in having[1:] if len(having) > 1 else ():
                for other in (having[0], page):
                    value = getattr(other, key)
                    text = value if isinstance(value, Text) else value.value
                    self.problems.add(text.at, f"`{key}` is given on two pages")
        rebuilds = [p.rebuild for p in self.pages if p.rebuild is not None]
        for later in rebuilds[1:] if len(rebuilds) > 1 else ():
            for block in (rebuilds[0], later):
                self.problems.add(block.at, "`rebuild:` is given on two pages")
        if not any(p.ends for p in self.pages):
            at = Span(self.pages[0].file if self.pages else "pages", 1, 1)
            self.problems.add(at, "no page says when the game ends (`end when COND`)")
        fields: dict[str, Text] = {}
        for page in self.pages:
            for line in page.state.lines if page.state else ():
                name = line.text.split("#", 1)[0].split()
                if not name:
                    continue
                if name[-1] in fields:
                    message = f"state field `{name[-1]}` is declared twice"
                    self.problems.add(line.at, message)
                    self.problems.add(fields[name[-1]].at, message)
                fields[name[-1]] = line
        for page in self.pages:
            if page.tier != "ordinary" and page.modifier is not None:
                self.problems.add(page.modifier, "a modifier cannot be a priority or chance page")

    def _check_refs(self) -> None:
        for page in self.pages:
            for offer in page.offers:
                self._check_ref(offer.action, interface_only=True)
                if offer.action.name in self.kinds and offer.action.name not in self.owner:
                    self.problems.add(
                        offer.action.at, f"`{offer.action.name}` is offered but no page reduces it"
                    )
                chance = offer.action.name in self.interface.chance.actions
                if offer.weight is not None and page.tier != "chance":
                    self.problems.add(
                        offer.weight.at,
                        "`weight` gives a chance outcome its odds: chance pages only",
                    )
                if chance != (page.tier == "chance"):
                    why = "a chance action" if chance else "not a chance action"
                    self.problems.add(
                        offer.action.at,
                        f"`{offer.action.name}` is {why}: offer chance actions on a "
                        "`chance when` page only",
                    )
            for require in page.requires:
                self._check_ref(require.action, interface_only=True)
                base = self.bonded_to.get(page.name)
                if base is not None and not any(
                    o.action.name == require.action.name for o in base[0].offers
                ):
                    self.problems.add(
                        require.action.at,
                        f"`{base[0].name}` (which this modifier bonds to) does not offer "
                        f"`{require.action.name}`",
                    )
            for reducer in page.reducers:
                self._check_ref(reducer.action, interface_only=False)
                if page.modifier is not None:
                    base = self.bonded_to.get(page.name)
                    owner = self.owner.get(reducer.action.name)
                    if base is not None and (owner is None or owner[0].name != base[0].name):
                        self.problems.add(
                            reducer.action.at,
                            f"`{reducer.action.name}` is not reduced by `{base[0].name}`, the "
                            "page this modifier bonds to",
                        )
                for line in reducer.body.lines:
                    self._check_follow(line)
        self._check_slots()

    def _check_slots(self) -> None:
        seen: dict[str, Span] = {}
        for page in self.pages:
            for slots in page.slots:
                ref = slots.action
                self._check_ref(ref, interface_only=True)
                if slots.index in ref.params:
                    self.problems.add(
                        ref.at, f"the slot number `{slots.index}` is also an argument's name"
                    )
                if ref.name in seen:
                    message = f"`{ref.name}` has two `slots` clauses; give it one"
                    self.problems.add(ref.at, message)
                    self.problems.add(seen[ref.name], message)
                seen.setdefault(ref.name, ref.at)

    def _check_ref(self, ref: ActionRef, *, interface_only: bool) -> None:
        kind = self.kinds.get(ref.name)
        if kind is None or (interface_only and not kind.interface):
            known = ", ".join(k.name for k in self.kinds.values() if k.interface)
            self.problems.add(ref.at, f"`{ref.name}` is not an action of interface.toml ({known})")
        elif len(ref.params) != kind.arity:
            self.problems.add(
                ref.at, f"`{ref.name}` takes {kind.arity} argument(s), not {len(ref.params)}"
            )

    def _check_follow(self, line: Text) -> None:
        match = _FOLLOW.match(line.text.strip())
        if match is None:
            return
        kind = self.kinds.get(match.group(1))
        args = _split_args(match.group(2))
        if kind is None or match.group(1) not in self.owner:
            self.problems.add(line.at, f"follow-up `{match.group(1)}` is reduced by no page")
        elif len(args) != kind.arity:
            self.problems.add(
                line.at, f"`{kind.name}` takes {kind.arity} argument(s), not {len(args)}"
            )

    # -- the program ------------------------------------------------------------------

    def lower(self) -> Lowered:
        """The rl program (call after :meth:`check` found nothing)."""
        width = max([1, *(k.arity for k in self.kinds.values())])
        self.width = width
        self.logs = any(
            _LOG.match(line.text.strip())
            for page in self.pages
            for reducer in page.reducers
            for line in reducer.body.lines
        )
        o = self.out
        o.line("# Generated from the RulePage pages; edit the pages, not this file.")
        for name in ("serialization.print", "bounded_arg", "collections.vector"):
            o.line(f"import {name}")
        seen_imports = set()
        for page in self.pages:
            for imp in page.imports:
                if imp.text not in seen_imports:
                    seen_imports.add(imp.text)
                    o.user("", imp.text, imp.at.file, imp.at.line, imp.at.column)
        o.line("")
        o.line(f"const R2GP_FOLLOW_BOUND = {FOLLOW_BOUND}")
        o.line(f"const R2GP_AUTO_BOUND = {AUTO_BOUND}")
        o.line("")
        self._state()
        self._step_class()
        for page in self.pages:
            if page.code is not None:
                self._block("", page.code)
                o.line("")
        self._setup()
        self._simple_fun("r2gp_player", "Int", next(p.player for p in self.pages if p.player))
        self._tier()
        self._over()
        self._offers()
        self._legal()
        self._weights()
        self._reducers()
        self._autos()
        self._apply()
        groups = self.groups()
        if any(page.slots for page in self.pages):
            # the loop draws among the slots, never among a group's entries: one block
            groups = [([], [self.kinds[s.name] for s in self.interface.actions])]
        if len(groups) > 1:
            self._choose_group(groups)
        self._play(groups)
        self._hooks()
        self._slots()
        names = tuple(tuple(k.name for k in kinds) for _, kinds in groups)
        draw = self.draw.source() if self.draw.lines else ""
        return Lowered(o.source(), o.map(), names if len(groups) > 1 else (), draw)

    def _origin(self, at: Span) -> Origin:
        return Origin(at.file, at.line)

    def _block(self, indent: str, block: Block, *, follow: bool = False) -> None:
        if not block.lines:
            self.out.line(f"{indent}return", self._origin(block.at))
            return
        for line in block.lines:
            text = line.text
            logged = _LOG.match(text.strip()) if follow else None
            if logged is not None:
                lead = text[: len(text) - len(text.lstrip())]
                column = line.at.column + len(lead) + len(logged.group(1))
                where = (line.at.file, line.at.line, column)
                self.out.user(indent + lead + "g.r2gp_log.append(", logged.group(2) + ")", *where)
                continue
            match = _FOLLOW.match(text.strip()) if follow else None
            if match is not None:
                lead = text[: len(text) - len(text.lstrip())]
                args = _split_args(match.group(2))
                args += ["0"] * (self.width - len(args))
                kind = self.kinds[match.group(1)].number
                call = f"r2gp_out.append(r2gp_step({kind}, {', '.join(args)}))"
                self.follows.append(line.at)
                self.out.line(indent + lead + call, self._origin(line.at))
                continue
            self.out.user(indent, text, line.at.file, line.at.line, line.at.column)

    def _state(self) -> None:
        o = self.out
        o.line("cls State:")
        count = 0
        for page in self.pages:
            for line in page.state.lines if page.state else ():
                o.user("    ", line.text, line.at.file, line.at.line, line.at.column)
                count += 1
        if self.logs:
            o.line("    Vector<String> r2gp_log")
        elif count == 0:
            o.line("    Bool r2gp_unused")
        o.line("")

    def _step_class(self) -> None:
        o, width = self.out, self.width
        o.line("cls R2gpStep:")
        o.line("    Int kind")
        o.line(f"    Int[{width}] args")
        o.line("")
        params = ", ".join(f"Int a{i}" for i in range(width))
        o.line(f"fun r2gp_step(Int kind, {params}) -> R2gpStep:")
        o.line("    let step : R2gpStep")
        o.line("    step.kind = kind")
        for i in range(width):
            o.line(f"    step.args[{i}] = a{i}")
        o.line("    return step")
        o.line("")

    def _setup(self) -> None:
        o = self.out
        calls = []
        for page in self.pages:
            if page.setup is not None:
                o.line(f"fun r2gp_setup__{page.name}(State g):", self._origin(page.setup.at))
                self._block("    ", page.setup)
                o.line("")
                calls.append(f"r2gp_setup__{page.name}(g)")
        o.line("fun r2gp_setup(State g):")
        for call in calls:
            o.line(f"    {call}")
        o.line("    return")
        o.line("")

    def _simple_fun(self, name: str, result: str, text: Text | None, params: str = "") -> None:
        assert text is not None
        o = self.out
        o.line(f"fun {name}(State g{params}) -> {result}:", self._origin(text.at))
        o.user("    return ", text.text, text.at.file, text.at.line, text.at.column)
        o.line("")

    def _tier(self) -> None:
        o = self.out
        o.line("fun r2gp_tier(State g) -> Int:")
        for tier in ("priority", "chance"):
            for page in self.pages:
                if page.tier == tier and page.when is not None:
                    w = page.when
                    o.user("    if ", w.text + ":", w.at.file, w.at.line, w.at.column)
                    o.line(f"        return {TIERS[tier]}")
        o.line("    return 0")
        o.line("")

    def _over(self) -> None:
        o = self.out
        o.line("fun r2gp_over(State g) -> Bool:")
        for page in self.pages:
            for end in page.ends:
                o.user("    if ", end.text + ":", end.at.file, end.at.line, end.at.column)
                o.line("        return true")
        o.line("    return false")
        o.line("")

    def _params(self, ref: ActionRef) -> str:
        return "".join(f", Int {p}" for p in ref.params)

    def _offers(self) -> None:
        o = self.out
        for page in self.pages:
            for index, require in enumerate(page.requires):
                ref, cond = require.action, require.condition
                name = f"r2gp_require__{page.name}__{index}"
                o.line(f"fun {name}(State g{self._params(ref)}) -> Bool:", self._origin(ref.at))
                o.user("    return ", cond.text, cond.at.file, cond.at.line, cond.at.column)
                o.line("")
        for page in self.pages:
            for index, offer in enumerate(page.offers):
                ref = offer.action
                name = f"r2gp_offer__{page.name}__{index}"
                o.line(f"fun {name}(State g{self._params(ref)}) -> Bool:", self._origin(ref.at))
                for when in (page.when, offer.condition):
                    if when is not None:
                        o.user(
                            "    if !(",
                            when.text + "):",
                            when.at.file,
                            when.at.line,
                            when.at.column,
                        )
                        o.line("        return false")
                args = "".join(f", {p}" for p in ref.params)
                for bond in page.bonds:
                    modifier = self.by_name[bond.name]
                    for j, require in enumerate(modifier.requires):
                        if require.action.name == ref.name:
                            o.line(
                                f"    if !r2gp_require__{modifier.name}__{j}(g{args}):",
                                self._origin(require.action.at),
                            )
                            o.line("        return false")
                o.line("    return true", self._origin(ref.at))
                o.line("")

    def _legal(self) -> None:
        o = self.out
        for kind in self.kinds.values():
            if not kind.interface:
                continue
            params = "".join(f", Int a{i}" for i in range(kind.arity))
            args = "".join(f", a{i}" for i in range(kind.arity))
            o.line(f"fun r2gp_legal__{kind.name}(State g{params}) -> Bool:")
            o.line("    let tier = r2gp_tier(g)")
            for page, index, offer in self._offers_of(kind.name):
                o.line(
                    f"    if tier == {TIERS[page.tier]} and "
                    f"r2gp_offer__{page.name}__{index}(g{args}):",
                    self._origin(offer.action.at),
                )
                o.line("        return true")
            o.line("    return false")
            o.line("")

    def _offers_of(self, name: str) -> list[tuple[Page, int, Offer]]:
        """The offers of action ``name`` in page order, each with its page and its
        number on that page (``r2gp_offer__PAGE__NUMBER``)."""
        return [
            (page, index, offer)
            for page in self.pages
            for index, offer in enumerate(page.offers)
            if offer.action.name == name
        ]

    def _weights(self) -> None:
        """``chance_weight_NAME(Game, Int...) -> Int`` for every chance action that some
        offer weights: the engines read the odds of an outcome from it (the weight of
        the first chance offer of the outcome whose conditions hold; 1 if none says)."""
        o = self.out
        weighted = {
            offer.action.name
            for page in self.pages
            for offer in page.offers
            if page.tier == "chance" and offer.weight is not None
        }
        for page in self.pages:
            for index, offer in enumerate(page.offers):
                if offer.action.name in weighted and offer.weight is not None:
                    ref, weight = offer.action, offer.weight
                    name = f"r2gp_weight__{page.name}__{index}"
                    o.line(f"fun {name}(State g{self._params(ref)}) -> Int:", self._origin(ref.at))
                    o.user(
                        "    return ", weight.text, weight.at.file, weight.at.line, weight.at.column
                    )
                    o.line("")
        for kind in self.kinds.values():
            if kind.name not in weighted:
                continue
            params = "".join(f", Int a{i}" for i in range(kind.arity))
            args = "".join(f", a{i}" for i in range(kind.arity))
            o.line(f"fun chance_weight_{kind.name}(Game game{params}) -> Int:")
            for page, index, offer in self._offers_of(kind.name):
                if page.tier != "chance":
                    continue
                origin = self._origin(offer.action.at)
                o.line(f"    if r2gp_offer__{page.name}__{index}(game.g{args}):", origin)
                if offer.weight is None:
                    o.line("        return 1", origin)
                else:
                    o.line(
                        f"        return r2gp_weight__{page.name}__{index}(game.g{args})",
                        origin,
                    )
            o.line("    return 1")
            o.line("")

    def _chain(self, name: str) -> list[tuple[Page, ActionRef]]:
        """The owner's reducer of ``name`` and its bonded modifiers' steps, in order."""
        owner = self.owner.get(name)
        if owner is None:
            return []
        chain = [owner]
        for bond in owner[0].bonds:
            modifier = self.by_name[bond.name]
            chain += [(modifier, r.action) for r in modifier.reducers if r.action.name == name]
        return chain

    def _reducers(self) -> None:
        o = self.out
        for page in self.pages:
            for reducer in page.reducers:
                ref = reducer.action
                o.line(
                    f"fun r2gp_on__{page.name}__{ref.name}(State g, "
                    f"R2gpSteps r2gp_out{self._params(ref)}):",
                    self._origin(ref.at),
                )
                self._block("    ", reducer.body, follow=True)
                o.line("")
        o.line("fun r2gp_reduce(State g, R2gpStep step, R2gpSteps r2gp_out):")
        for kind in self.kinds.values():
            chain = self._chain(kind.name)
            if not chain:
                continue
            o.line(f"    if step.kind == {kind.number}:", self._origin(chain[0][1].at))
            args = "".join(f", step.args[{i}]" for i in range(kind.arity))
            for page, ref in chain:
                o.line(
                    f"        r2gp_on__{page.name}__{ref.name}(g, r2gp_out{args})",
                    self._origin(ref.at),
                )
            o.line("        return")
        o.line("    return")
        o.line("")

    def _autos(self) -> None:
        o = self.out
        autos = [(p, i, a) for p in self.pages for i, a in enumerate(p.autos)]
        for page, index, auto in autos:
            self._simple_fun(f"r2gp_auto_when__{page.name}__{index}", "Bool", auto.condition)
            o.line(f"fun r2gp_auto__{page.name}__{index}(State g):", self._origin(auto.body.at))
            self._block("    ", auto.body)
            o.line("")
        o.line("fun r2gp_settle(State g):")
        if not autos:
            o.line("    return")
            o.line("")
            return
        # most actions fire no auto rule: then one test of each condition, without the
        # rounds (a rule that holds sends the conditions to the rounds below, tested
        # again from the first: the same rules fire in the same order)
        indent = "    "
        for page, index, auto in autos:
            origin = self._origin(auto.condition.at)
            o.line(f"{indent}if !r2gp_auto_when__{page.name}__{index}(g):", origin)
            indent += "    "
        o.line(f"{indent}return")
        o.line("    let rounds = 0")
        o.line("    let fired = true")
        o.line("    while fired:")
        o.line("        fired = false")
        for page, index, auto in autos:
            origin = self._origin(auto.condition.at)
            o.line(f"        if r2gp_auto_when__{page.name}__{index}(g):", origin)
            o.line(f"            r2gp_auto__{page.name}__{index}(g)")
            o.line("            fired = true")
        o.line("        rounds = rounds + 1")
        o.line(
            '        assert(rounds < R2GP_AUTO_BOUND, "auto rules did not settle: one keeps '
            'firing (its body must make its condition false)")',
            self._origin(autos[0][2].condition.at),
        )
        o.line("")

    def _apply(self) -> None:
        o = self.out
        # no page follows up: nothing is ever pending, and one blank item keeps the
        # stack that the play coroutine carries (and every playout copies) small
        o.line("cls R2gpSteps:")
        o.line(f"    R2gpStep[{STACK_SIZE if self.follows else 1}] items")
        o.line("    Int size")
        o.line("")
        o.line("    fun append(R2gpStep step):")
        o.line(
            f'        assert(self.size < {STACK_SIZE}, "more than {STACK_SIZE} follow-up actions '
            'are pending at once")',
            self._origin(self.follows[0]) if self.follows else None,
        )
        o.line("        self.items[self.size] = step")
        o.line("        self.size = self.size + 1")
        o.line("")
        # The follow-up stack lives in the play coroutine (`frm r2gp_out`), so no action
        # clears a buffer; every slot a follow-up leaves is cleared again as it is
        # taken, so the stack is blank between actions (it takes no part in the
        # observation tensor: r2g_size 0).
        o.line("fun r2g_write(R2gpSteps obj, Int observer, Vector<Float> out, Int index):")
        o.line("    return")
        o.line("")
        o.line("fun r2g_size(R2gpSteps obj) -> Int:")
        o.line("    return 0")
        o.line("")
        if self.follows:
            self._follow()
        # One entry per action: its reductions called directly (no step record, no
        # dispatch on its kind), then the auto rules, then the follow-ups it left.
        for kind in self.kinds.values():
            if not kind.interface:
                continue
            params = "".join(f", Int a{i}" for i in range(kind.arity))
            o.line(f"fun r2gp_act__{kind.number}(State g, R2gpSteps out{params}):")
            if self.logs:  # each action's log starts empty
                o.line("    let no_lines : Vector<String>")
                o.line("    g.r2gp_log = no_lines")
            args = "".join(f", a{i}" for i in range(kind.arity))
            for page, ref in self._chain(kind.name):
                o.line(f"    r2gp_on__{page.name}__{ref.name}(g, out{args})", self._origin(ref.at))
            o.line("    r2gp_settle(g)")
            if self.follows:
                o.line("    if out.size != 0:")
                o.line("        r2gp_follow(g, out)")
            o.line("")

    def _follow(self) -> None:
        """The follow-ups pending in ``out`` applied depth first, each with the auto rules."""
        o = self.out
        # A reduction appends its follow-ups in the order written; they are reversed in
        # place so that the first is applied next.
        o.line("fun r2gp_follow(State g, R2gpSteps out):")
        o.line("    let count = 0")
        o.line("    let base = 0")
        o.line("    while true:")
        o.line("        let lo = base")
        o.line("        let hi = out.size - 1")
        o.line("        while lo < hi:")
        o.line("            let swap = out.items[lo]")
        o.line("            out.items[lo] = out.items[hi]")
        o.line("            out.items[hi] = swap")
        o.line("            lo = lo + 1")
        o.line("            hi = hi - 1")
        o.line("        if out.size == 0:")
        o.line("            return")
        o.line("        out.size = out.size - 1")
        o.line("        base = out.size")
        o.line("        let step = out.items[base]  # a copy: its slot takes the next follow-ups")
        o.line("        let blank : R2gpStep")
        o.line("        out.items[base] = blank")
        o.line("        r2gp_reduce(g, step, out)")
        o.line("        r2gp_settle(g)")
        o.line("        count = count + 1")
        o.line(
            '        assert(count < R2GP_FOLLOW_BOUND, "follow-up actions did not end: a '
            'chain of follow-ups keeps going")',
            self._origin(self.follows[0]),
        )
        o.line("")

    # -- groups: one resumption point per guard -----------------------------------

    def _guard_terms(self, kind: _Kind) -> list[_Term]:
        """The argument-free part of each offer of ``kind``: its tier and the conjuncts
        of its page's ``when`` and of its own condition that name no argument."""
        terms: list[_Term] = []
        seen: set[tuple[int, tuple[str, ...]]] = set()
        for page in self.pages:
            for offer in page.offers:
                if offer.action.name != kind.name:
                    continue
                names = [re.escape(p) for p in offer.action.params]
                mentions = re.compile(r"\b(?:" + "|".join(names) + r")\b") if names else None
                texts = tuple(
                    part
                    for text in (page.when, offer.condition)
                    if text is not None
                    for part in _conjuncts(text)
                    if mentions is None or not mentions.search(part.text)
                )
                key = (TIERS[page.tier], tuple(t.text for t in texts))
                if key not in seen:
                    seen.add(key)
                    terms.append((TIERS[page.tier], texts))
        return terms

    def groups(self) -> list[_Group]:
        """The interface actions grouped by guard (the same argument-free conditions),
        in the order of their first action; each with its guard's terms (an action is
        possible only while one of its terms holds)."""
        found: dict[tuple[tuple[int, tuple[str, ...]], ...], int] = {}
        out: list[_Group] = []
        for spec in self.interface.actions:
            kind = self.kinds[spec.name]
            terms = self._guard_terms(kind)
            key = tuple(sorted(((t, tuple(x.text for x in texts)) for t, texts in terms), key=repr))
            if key not in found:
                found[key] = len(out)
                out.append((terms, []))
            out[found[key]][1].append(kind)
        return out

    def _choose_group(self, groups: list[_Group]) -> None:
        """``r2gp_group(g)``: the group whose actions are the only possible ones, or -1
        (every action) when the legal actions are in several groups or in none."""
        o = self.out
        for number, (terms, _kinds) in enumerate(groups):
            self._guard_fun(f"r2gp_guard__{number}", terms)
        for number, (_terms, kinds) in enumerate(groups):
            o.line(f"fun r2gp_any__{number}(State g) -> Bool:")
            for kind in kinds:
                spec = next(a for a in self.interface.actions if a.name == kind.name)
                indent = "    "
                for i, arg in enumerate(spec.args):
                    o.line(f"{indent}let a{i} = {arg.min}")
                    o.line(f"{indent}while a{i} <= {arg.max or 0}:")
                    indent += "    "
                args = "".join(f", a{i}" for i in range(kind.arity))
                o.line(f"{indent}if r2gp_legal__{kind.name}(g{args}):")
                o.line(f"{indent}    return true")
                for i in reversed(range(kind.arity)):
                    o.line(f"{indent}a{i} = a{i} + 1")
                    indent = indent[:-4]
            o.line("    return false")
            o.line("")
        o.line("fun r2gp_group(State g) -> Int:")
        o.line("    let tier = r2gp_tier(g)")
        o.line("    let found = -1")
        o.line("    let count = 0")
        for number in range(len(groups)):
            o.line(f"    if r2gp_guard__{number}(g, tier):")
            o.line(f"        found = {number}")
            o.line("        count = count + 1")
        o.line("    if count < 2:")
        o.line("        return found")
        o.line("    # several guards hold: the one group that has a legal action, if one has")
        o.line("    found = -1")
        o.line("    count = 0")
        for number in range(len(groups)):
            o.line(f"    if r2gp_guard__{number}(g, tier) and r2gp_any__{number}(g):")
            o.line(f"        found = {number}")
            o.line("        count = count + 1")
        o.line("    if count == 1:")
        o.line("        return found")
        o.line("    return -1")
        o.line("")
        o.line("# The loop waits at a point offering every action only when the legal actions")
        o.line("# are in several groups or in none (targets/rl/resume_points.py).")
        o.line("fun r2g_mixed_point() -> Bool:")
        o.line("    return true")
        o.line("")

    def _guard_fun(self, name: str, terms: list[_Term]) -> None:
        """``fun NAME(State g, Int tier) -> Bool``: whether one of ``terms`` holds."""
        o = self.out
        o.line(f"fun {name}(State g, Int tier) -> Bool:")
        for tier, texts in terms:
            o.line(f"    if tier == {tier}:")
            indent = "        "
            for text in texts:
                o.user(f"{indent}if (", text.text + "):", *self._where(text))
                indent += "    "
            o.line(f"{indent}return true")
        o.line("    return false")
        o.line("")

    def _where(self, text: Text) -> tuple[str, int, int]:
        return text.at.file, text.at.line, text.at.column

    def _play(self, groups: list[_Group]) -> None:
        o = self.out
        o.line("@classes")
        o.line("act play() -> Game:")
        o.line("    frm g : State")
        o.line("    frm r2gp_out : R2gpSteps")
        o.line("    r2gp_setup(g)")
        o.line("    r2gp_settle(g)")
        o.line("    while !r2gp_over(g):")
        if len(groups) < 2:
            self._actions("        ", [self.kinds[s.name] for s in self.interface.actions])
            o.line("")
            return
        o.line("        let group = r2gp_group(g)")
        # the block of every action comes first: the action table keeps the interface's order
        o.line("        if group == -1:")
        self._actions("            ", [self.kinds[s.name] for s in self.interface.actions])
        for number, (_terms, kinds) in enumerate(groups):
            o.line(f"        else if group == {number}:")
            self._actions("            ", kinds)
        o.line("")

    def _actions(self, indent: str, kinds: list[_Kind]) -> None:
        o = self.out
        o.line(f"{indent}actions:")
        for kind in kinds:
            spec = next(a for a in self.interface.actions if a.name == kind.name)
            # an action or argument named as an rl keyword (`pass`) is written `pass_` in rl
            args = ", ".join(
                f"BInt<{a.min}, {(a.max or 0) + 1}> {rl_name(a.name)}" for a in spec.args
            )
            values = [f"{rl_name(a.name)}.value" for a in spec.args]
            cond = ", ".join(["g", *values])
            call = ", ".join(["g", "r2gp_out", *values])
            owner = self.owner.get(spec.name)
            origin = self._origin(owner[1].at) if owner else None
            o.line(
                f"{indent}    act {rl_name(spec.name)}({args}) "
                f"{{ r2gp_legal__{spec.name}({cond}) }}",
                origin,
            )
            o.line(f"{indent}        r2gp_act__{kind.number}({call})")

    def _hooks(self) -> None:
        o = self.out
        returns = next(p.returns for p in self.pages if p.returns is not None)
        self._simple_fun("r2gp_returns", "Float", returns.value, f", Int {returns.player}")
        show = next((p.show for p in self.pages if p.show is not None), None)
        if show is not None:
            o.line("fun r2gp_show(State g):", self._origin(show.at))
            self._block("    ", show)
        else:
            o.line("fun r2gp_show(State g):")
            o.line("    print(g)")
        o.line("")
        o.line("fun get_current_player(Game game) -> Int:")
        o.line("    if game.is_done():")
        o.line("        return -4")
        o.line("    if r2gp_tier(game.g) == 1:")
        o.line("        return -1")
        o.line("    return r2gp_player(game.g)")
        o.line("")
        o.line("fun get_num_players() -> Int:")
        o.line(f"    return {self.players}")
        o.line("")
        o.line("fun score(Game game, Int player) -> Float:")
        o.line("    if !game.is_done():")
        o.line("        return 0.0")
        o.line("    return r2gp_returns(game.g, player)")
        o.line("")
        o.line("fun pretty_print(Game game):")
        o.line("    r2gp_show(game.g)")
        rebuild = next((p.rebuild for p in self.pages if p.rebuild is not None), None)
        if rebuild is not None:  # after a `set`, and on a copy a search bot dealt anew
            o.line("")
            o.line("fun r2gp_rebuild(State g):", self._origin(rebuild.at))
            self._block("    ", rebuild)
            o.line("")
            o.line("fun r2g_rebuild(Game game):")
            o.line("    r2gp_rebuild(game.g)")
            o.line("")
        if self.logs:  # the lines `log` wrote while the last action was applied
            o.line("")
            o.line("fun r2g_log_size(Game game) -> Int:")
            o.line("    return game.g.r2gp_log.size()")
            o.line("")
            o.line("fun r2g_log_line(Game game, Int i) -> String:")
            o.line("    return game.g.r2gp_log.get(i)")

    # -- candidate slots: where the legal moves can be ------------------------------

    def _slots(self) -> None:
        """``r2g_candidate_slots``/``r2g_candidate_at`` (targets/rl/reference.md,
        "Candidate slots") when some page gives an action ``slots``: the actions in table
        order, each while its guard holds, contributing its clause's slots, or one slot
        per table entry when it has no clause. Every legal action is in exactly one slot
        as long as each clause holds every legal move of its action once (the fuzz stage
        compares them with testing the whole table)."""
        clauses = {s.action.name: s for page in self.pages for s in page.slots}
        if not clauses:
            return
        o = self.out
        actions = []
        offset = 0
        for spec in self.interface.actions:
            sizes = [(a.max or 0) - (a.min or 0) + 1 for a in spec.args]
            size = 1
            for n in sizes:
                size *= n
            actions.append((spec, offset, size))
            offset += size
        for spec, base, size in actions:
            kind = self.kinds[spec.name]
            self._guard_fun(f"r2gp_may__{spec.name}", self._guard_terms(kind))
            if spec.name not in clauses:
                continue
            clause = clauses[spec.name]
            at = self._origin(clause.action.at)
            count = clause.count
            # the count as the page writes it: r2g_candidate_at reads it unchecked, since
            # it draws among the slots r2g_candidate_slots counted (and checked, below) on
            # the same state
            o.line(f"fun r2gp_count__{spec.name}(State g) -> Int:", at)
            o.user("    return ", count.text, *self._where(count))
            o.line("")
            o.line(f"fun r2gp_slots__{spec.name}(State g) -> Int:", at)
            o.line(f"    let count = r2gp_count__{spec.name}(g)", at)
            o.line(
                f'    assert(count >= 0 and count <= {size}, "the slots of {spec.name} '
                f'number less than 0 or more than its {size} table entries")',
                at,
            )
            o.line("    return count", at)
            o.line("")
            # the clause's arguments in slot k (each below its range when the clause gives
            # none), then the table index they name (-1: none, the slot is empty)
            width = max(1, len(spec.args))
            o.line(
                f"fun r2gp_slot_args__{spec.name}(State g, Int {clause.index}, "
                f"Int[{width}] r2gp_args):",
                at,
            )
            for arg, param in zip(spec.args, clause.action.params, strict=True):
                o.line(f"    let {param} = {(arg.min or 0) - 1}", at)
            for line in clause.body.lines:
                o.user("    ", line.text, line.at.file, line.at.line, line.at.column)
            for i, param in enumerate(clause.action.params):
                o.line(f"    r2gp_args[{i}] = {param}", at)
            o.line("")
            o.line(f"fun r2gp_slot__{spec.name}(State g, Int r2gp_k) -> Int:", at)
            o.line(f"    let r2gp_args : Int[{width}]", at)
            o.line(f"    r2gp_slot_args__{spec.name}(g, r2gp_k, r2gp_args)", at)
            values = [f"r2gp_args[{i}]" for i in range(len(spec.args))]
            if values:
                o.line(f"    if !({_in_range(spec, values)}):", at)
                o.line("        return -1", at)
            o.line(f"    return {_table_index(spec, base, values)}", at)
            o.line("")
        o.line("fun r2g_candidate_slots(Game game) -> Int:")
        o.line("    let tier = r2gp_tier(game.g)")
        o.line("    let n = 0")
        for spec, _base, size in actions:
            o.line(f"    if r2gp_may__{spec.name}(game.g, tier):")
            counted = f"r2gp_slots__{spec.name}(game.g)" if spec.name in clauses else str(size)
            o.line(f"        n = n + {counted}")
        o.line("    return n")
        o.line("")
        o.line("fun r2g_candidate_at(Game game, Int k) -> Int:")
        o.line("    let tier = r2gp_tier(game.g)")
        o.line("    let rest = k")
        for spec, base, size in actions:
            o.line(f"    if r2gp_may__{spec.name}(game.g, tier):")
            if spec.name in clauses:
                o.line(f"        let count = r2gp_count__{spec.name}(game.g)")
                o.line("        if rest < count:")
                o.line(f"            return r2gp_slot__{spec.name}(game.g, rest)")
            else:
                o.line(f"        let count = {size}")
                o.line("        if rest < count:")
                o.line(f"            return {base} + rest")
            o.line("        rest = rest - count")
        o.line("    return -1")
        o.line("")
        self._slot_draw(actions, set(clauses))

    def _slot_draw(self, actions: list[tuple[ActionSpec, int, int]], clauses: set[str]) -> None:
        """``r2g_slot_play`` (targets/rl/runtime, ``R2GSlotPlay``): the playout loop's
        steps, each a draw among the slots, made here where each slot's action type and
        the guard that opened it are known. The tier is found once a step (not again in
        every drawn action's guard), a slot's arguments are read from its clause and
        tested with its action's offers at that tier, and a legal drawn one is applied
        with its action's own method: no look-up in the action table, no dispatch over
        every action type. When every draw missed, the slots are tested in order the same
        way and one of the legal ones drawn. The draws are ``r2g_slot_step``'s one for one
        (the same counts, slots and legality), so recorded playouts do not change.

        The steps loop here, not in the runtime's loop, and the drawn action is applied
        after the draws, not where it was found: the whole step is one function with no
        call in it, so LLVM compiles each action's method into it (a method called from
        inside the draws' nested tests was too cold a call to inline, and a draw called
        once a step was too big to inline into the loop)."""
        o = self.draw
        o.line("# Generated from the RulePage pages with the program beside it: the playout")
        o.line("# loop's steps, each a draw among the candidate slots. Edit the pages, not")
        o.line("# this file.")
        o.line("")
        o.line(
            "fun r2g_slot_play(Game game, R2GRandom rng, Int max_steps, Bool record, "
            "Vector<Int> out, Int size, Vector<Int> legal, Int status) -> Int:"
        )
        o.line("    let r2gp_steps = 0")
        o.line("    while !game.is_done():")
        o.line("        if r2gp_steps == max_steps:")
        o.line("            status = R2G_TRUNCATED")
        o.line("            return r2gp_steps")
        o.line("        let r2gp_tier_now = r2gp_tier(game.g)")
        ends = [f"r2gp_end_{n}" for n in range(len(actions))]
        previous = "0"
        for (spec, _base, size), end in zip(actions, ends, strict=True):
            counted = f"r2gp_slots__{spec.name}(game.g)" if spec.name in clauses else str(size)
            o.line(f"        let {end} = {previous}")
            o.line(f"        if r2gp_may__{spec.name}(game.g, r2gp_tier_now):")
            o.line(f"            {end} = {end} + {counted}")
            previous = end
        o.line(f"        let r2gp_m = {previous}")
        o.line("        if r2gp_m <= 0 or r2gp_m > size:")
        o.line("            status = R2G_STUCK")
        o.line("            return r2gp_steps")
        o.line("        let r2gp_saved = rng.state")
        o.line("        let r2gp_tries = r2gp_m / 4 + 8")
        # the drawn action (its number among `actions`), its arguments and table index
        width = max([1, *(len(spec.args) for spec, _base, _size in actions)])
        o.line("        let r2gp_hit = -1")
        for i in range(width):
            o.line(f"        let r2gp_h{i} = 0")
        o.line("        let r2gp_index = -1")
        numbers = {spec.name: number for number, (spec, _b, _s) in enumerate(actions)}

        def found(then: list[str]) -> Callable[[ActionSpec, str], list[str]]:
            def lines(spec: ActionSpec, index: str) -> list[str]:
                kept = [f"r2gp_h{i} = r2gp_v{i}" for i in range(len(spec.args))]
                hit = f"r2gp_hit = {numbers[spec.name]}"
                return [hit, *kept, f"r2gp_index = {index}", *then]

            return lines

        o.line("        while r2gp_tries != 0:")
        o.line("            let r2gp_k = rng.below(r2gp_m)")
        self._slot_tests(actions, clauses, ends, "r2gp_k", found(["break"]), 3)
        o.line("            r2gp_tries = r2gp_tries - 1")
        o.line("        if r2gp_hit < 0:")
        o.line("            # every draw missed: the legal slots in order, one of them drawn")
        o.line("            let r2gp_n = 0")
        o.line("            let r2gp_s = 0")
        o.line("            while r2gp_s != r2gp_m:")

        def listed(_spec: ActionSpec, _index: str) -> list[str]:
            return ["legal.set(r2gp_n, r2gp_s)", "r2gp_n = r2gp_n + 1"]

        self._slot_tests(actions, clauses, ends, "r2gp_s", listed, 4)
        o.line("                r2gp_s = r2gp_s + 1")
        o.line("            if r2gp_n == 0:")
        o.line("                rng.state = r2gp_saved")
        o.line("                status = R2G_STUCK")
        o.line("                return r2gp_steps")
        o.line("            let r2gp_k = legal.get(rng.below(r2gp_n))")
        o.line("            if true:")
        self._slot_tests(actions, clauses, ends, "r2gp_k", found([]), 4)
        o.line("        if record:")
        o.line("            out.append(r2gp_index)")
        self._apply_drawn(actions, 0, len(actions), "        ")
        o.line("        r2gp_steps = r2gp_steps + 1")
        o.line("    return r2gp_steps")
        o.line("")

    def _apply_drawn(
        self, actions: list[tuple[ActionSpec, int, int]], low: int, high: int, indent: str
    ) -> None:
        """The drawn action ``r2gp_hit`` (one of ``actions[low:high]``) applied with its
        own method: a tree of tests on its number, so that no method's call is much rarer
        than another's (LLVM does not inline a call it finds cold)."""
        o = self.draw
        if high - low == 1:
            spec = actions[low][0]
            for i, arg in enumerate(spec.args):
                o.line(f"{indent}let r2gp_a{i} : BInt<{arg.min}, {(arg.max or 0) + 1}>")
                o.line(f"{indent}r2gp_a{i}.value = r2gp_h{i}")
            calls = ", ".join(f"r2gp_a{i}" for i in range(len(spec.args)))
            o.line(f"{indent}game.{rl_name(spec.name)}({calls})")
            return
        middle = (low + high) // 2
        o.line(f"{indent}if r2gp_hit < {middle}:")
        self._apply_drawn(actions, low, middle, indent + "    ")
        o.line(f"{indent}else:")
        self._apply_drawn(actions, middle, high, indent + "    ")

    def _slot_tests(
        self,
        actions: list[tuple[ActionSpec, int, int]],
        clauses: set[str],
        ends: list[str],
        slot: str,
        on_legal: Callable[[ActionSpec, str], list[str]],
        depth: int,
    ) -> None:
        """Inside a block ``depth`` levels deep: slot ``slot``'s action (the first whose
        slots reach past it), its arguments, its legality at the step's tier, and
        ``on_legal(spec, table index)`` when it is legal."""
        o = self.draw
        at = "    " * depth
        start = "0"
        for number, ((spec, base, _size), end) in enumerate(zip(actions, ends, strict=True)):
            # the last action's slots are the rest: the slot is below r2gp_m
            if number == len(actions) - 1:
                o.line(f"{at}else:" if number else f"{at}if true:")
            else:
                o.line(f"{at}{'if' if number == 0 else 'else if'} {slot} < {end}:")
            values = [f"r2gp_v{i}" for i in range(len(spec.args))]
            if spec.name in clauses:
                width = max(1, len(spec.args))
                o.line(f"{at}    let r2gp_args : Int[{width}]")
                o.line(f"{at}    r2gp_slot_args__{spec.name}(game.g, {slot} - {start}, r2gp_args)")
                for i, value in enumerate(values):
                    o.line(f"{at}    let {value} = r2gp_args[{i}]")
                o.line(f"{at}    if {_in_range(spec, values) if values else 'true'}:")
                index = _table_index(spec, base, values)
            else:
                o.line(f"{at}    let r2gp_rest = {slot} - {start}")
                for i, arg in reversed(list(enumerate(spec.args))):
                    lo, hi = arg.min or 0, arg.max or 0
                    if i == 0:  # the first argument has the largest stride
                        o.line(f"{at}    let r2gp_v0 = r2gp_rest + {lo}")
                    else:
                        o.line(f"{at}    let r2gp_v{i} = r2gp_rest % {hi - lo + 1} + {lo}")
                        o.line(f"{at}    r2gp_rest = r2gp_rest / {hi - lo + 1}")
                o.line(f"{at}    if true:")
                index = f"{base} + ({slot} - {start})"
            self._legal_test(spec, f"{at}        ")
            for line in on_legal(spec, index):
                o.line(f"{at}            {line}")
            start = end

    def _legal_test(self, spec: ActionSpec, indent: str) -> None:
        """``if`` the entry of ``spec`` with arguments ``r2gp_v0...`` is legal at the
        step's tier. The tier is tested only when the action's offers are at several (its
        ``r2gp_may__`` already held at one of theirs)."""
        o = self.draw
        args = "".join(f", r2gp_v{i}" for i in range(len(spec.args)))
        offers = [
            (TIERS[page.tier], f"r2gp_offer__{page.name}__{number}(game.g{args})")
            for page, number, _offer in self._offers_of(spec.name)
        ]
        several = len({tier for tier, _ in offers}) > 1
        tests = [
            f"r2gp_tier_now == {tier} and {call}" if several else call for tier, call in offers
        ]
        if len(tests) == 1:
            o.line(f"{indent}if {tests[0]}:")
            return
        o.line(f"{indent}let r2gp_legal = false")
        for number, test in enumerate(tests):  # the first offer that holds decides
            o.line(f"{indent}{'if' if number == 0 else 'else if'} {test}:")
            o.line(f"{indent}    r2gp_legal = true")
        o.line(f"{indent}if r2gp_legal:")


def _in_range(spec: ActionSpec, values: list[str]) -> str:
    """rl: each of ``values`` within its argument's range."""
    return " and ".join(
        f"{value} >= {arg.min or 0} and {value} <= {arg.max or 0}"
        for arg, value in zip(spec.args, values, strict=True)
    )


def _table_index(spec: ActionSpec, base: int, values: list[str]) -> str:
    """rl: the action-table index of ``spec`` with arguments ``values`` (in range)."""
    index, stride = [], 1
    for arg, value in reversed(list(zip(spec.args, values, strict=True))):
        lo, hi = arg.min or 0, arg.max or 0
        index.append(f"({value} - {lo}) * {stride}")
        stride *= hi - lo + 1
    return " + ".join([str(base), *reversed(index)])


def compose(
    pages: Sequence[Page], interface: Interface, players: int
) -> Lowered | list[PageProblem]:
    """The lowered program, or every composition problem found."""
    composer = Composer(pages, interface, players)
    problems = composer.check()
    if problems:
        return problems
    return composer.lower()
