"""A second opinion: another translation of the same game, made independently, walked in
lockstep with the first.

Most games have no reference engine. A second translation made from the same rulebook in
a fresh context, by a translator that never saw the first one's pages, in the other
target when there is one (``rl`` <-> ``rulepage``), misreads the rulebook in other places
than the first; every move where the two engines disagree is a question one of them
answers wrongly. The second game directory sits inside the first (``second/``) with the
same rulebook and the same action interface (the contract both must speak) and its own
brief; the first ``game.toml`` names it (``second_opinion = "second"``), so every
``check`` and ``run_checks`` of the first walks both engines in lockstep
(:mod:`rulebook2game.check.against`) and each difference is a finding with a shrunk
counterexample and both sides' pages and cited rules.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rulebook2game.errors import BadInputError
from rulebook2game.trace import FILE_MODE, write_text_atomic
from rulebook2game.workspace import Workspace, load_game_config

if TYPE_CHECKING:
    from rulebook2game.agent.pages import PageStore
    from rulebook2game.agent.prompts import PromptContext

SECOND_DIR = "second"
"""Where the second translation lives, inside the first game directory."""
_DIR_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


@dataclass(frozen=True)
class SecondOpinion:
    """A prepared second game directory."""

    workspace: Workspace
    target: str
    brief: Path
    """Its ``AGENTS.md``, for a coding agent that makes the second translation."""
    created: bool
    """``False`` when it existed (its pages and scenarios are kept)."""
    derived_interface: bool = False
    """The first translation had no ``interface.toml``: it was written from its pages."""


def other_target(target: str) -> str:
    """The target a second translation is written in: another one when there is one."""
    from rulebook2game.resources import known_targets

    # rl and rulepage first (each the other's second opinion); then the rest by name,
    # gdl last: it needs an optional extra (clingo)
    others = sorted(
        (t for t in known_targets() if t != target),
        key=lambda t: (t not in ("rl", "rulepage"), t == "gdl", t),
    )
    return others[0] if others else target


def _copy(source: Path, target: Path) -> None:
    shutil.copyfile(source, target)
    target.chmod(FILE_MODE)


def set_second_opinion(game_toml: Path, name: str | None) -> None:
    """Write (or, with ``None``, remove) ``second_opinion = "NAME"`` in ``game_toml``."""
    lines = game_toml.read_text(encoding="utf-8").splitlines()
    lines = [line for line in lines if not re.match(r"\s*second_opinion\s*=", line)]
    if name is not None:
        first_table = next((i for i, line in enumerate(lines) if line.startswith("[")), len(lines))
        lines.insert(first_table, f'second_opinion = "{name}"')
    text = "\n".join(lines) + "\n"
    write_text_atomic(game_toml, text)
    load_game_config(game_toml)  # still a valid game.toml


def prepare_second_opinion(
    ws: Workspace, target: str | None = None, dirname: str = SECOND_DIR
) -> SecondOpinion:
    """Make ``ws.root / dirname`` ready for an independent translation, and name it in
    ``ws``'s ``game.toml``.

    It gets the rulebook (PDF and ``rulebook.json``), the action interface and a
    ``game.toml`` in ``target`` (default: :func:`other_target`), with no reference
    engine; pages and scenarios already there are kept. Raises :class:`BadInputError`
    when the first translation has no ``interface.toml`` yet (without it the two could
    not be compared move by move) or ``dirname`` is not a plain folder name.
    """
    from rulebook2game._ingest_workspace import game_toml
    from rulebook2game.agent.backends import workspace_rulebook
    from rulebook2game.resources import known_targets

    if not _DIR_NAME.fullmatch(dirname) or dirname in (".", ".."):
        raise BadInputError(f"{dirname!r}: give a plain folder name for the second translation")
    config = ws.config()
    root = ws.root / dirname
    created = not (root / "game.toml").is_file()
    if not created:  # a second translation is there: keep its game.toml (and target)
        kept = load_game_config(root / "game.toml").target
        if target is not None and target != kept:
            raise BadInputError(
                f"{root} holds a {kept} translation; give another --dir for a {target} one"
            )
        target = kept
    target = target or other_target(config.target)
    if target not in known_targets():
        raise BadInputError(
            f"--target {target}: unknown target (known: {', '.join(known_targets())})"
        )
    interface = ws.root / "interface.toml"
    derived = not interface.is_file()
    if derived:
        # both translations must speak the same actions to be compared move by move:
        # the first one's actions become the contract
        write_text_atomic(interface, derive_interface(ws))
    ws.interface()  # a broken interface fails here, before anything else is written
    rulebook, _ = workspace_rulebook(ws)
    (root / "pages").mkdir(parents=True, exist_ok=True)
    pdf = ws.root / config.rulebook
    if pdf.is_file():
        _copy(pdf, root / "rules.pdf")
    _copy(ws.rulebook_json, root / "rulebook.json")
    _copy(interface, root / "interface.toml")
    if created:
        text = game_toml(config.name, config.title, config.players, target, None)
        write_text_atomic(root / "game.toml", text)
    second = Workspace(root)
    brief = root / "AGENTS.md"
    write_text_atomic(brief, render_brief(second, rulebook.toc_text()))
    set_second_opinion(ws.root / "game.toml", dirname)
    return SecondOpinion(second, target, brief, created, derived)


CHANCE_WALKS = 20
"""Random playouts that find which actions are chance outcomes, for a derived interface."""


def derive_interface(ws: Workspace) -> str:
    """``interface.toml`` text for the actions ``ws``'s pages declare.

    Integer arguments become ranges (or value lists when not contiguous), others
    enumerations; the actions played at chance nodes in a few seeded playouts are
    listed under ``[chance]``. Raises :class:`BadInputError` when the pages do not
    compile or their engine does not list its actions.
    """
    import random

    from rulebook2game.actions import parse_action
    from rulebook2game.engine import CHANCE, random_step
    from rulebook2game.targets.base import compile_and_start

    with compile_and_start(ws) as made:
        engine = made.engine
        texts = getattr(engine, "action_texts", None)
        if engine is None or texts is None:
            raise BadInputError(
                f"{ws.root}: no interface.toml, and none can be written from the pages "
                f"({made.error or 'the engine does not list its actions'})"
            )
        chance: set[str] = set()
        rng = random.Random(0)
        limit = ws.config().max_game_length or 1000
        for _ in range(CHANCE_WALKS):
            state = engine.initial()
            for _ in range(limit):
                if engine.is_terminal(state):
                    break
                player = engine.current_player(state)
                step = random_step(engine, state, rng)
                if player == CHANCE:
                    chance.add(parse_action(step).name)
                state = engine.apply(state, step)
    args: dict[str, list[tuple[str, set[int | str]]]] = {}
    for text in texts:
        action = parse_action(text)
        slots = args.setdefault(action.name, [(k, set()) for k, _ in action.args])
        for (_, values), (_, value) in zip(slots, action.args, strict=False):
            values.add(value)
    lines = [
        "# The action vocabulary, written from the first translation's pages so that a",
        "# second translation speaks the same actions (rulebook2game second-opinion).",
    ]
    for name, slots in args.items():
        lines += ["", "[[actions]]", f"name = {_quoted(name)}"]
        if slots:
            lines.append("args = [" + ", ".join(_arg(k, v) for k, v in slots) + "]")
    if chance:
        lines += [
            "",
            "[chance]",
            "actions = [" + ", ".join(_quoted(c) for c in sorted(chance)) + "]",
        ]
    return "\n".join(lines) + "\n"


def _quoted(text: str) -> str:
    import json

    return json.dumps(text)


def _arg(name: str, values: set[int | str]) -> str:
    ints = sorted(v for v in values if isinstance(v, int))
    if len(ints) == len(values) and ints == list(range(ints[0], ints[-1] + 1)):
        return f"{{ name = {_quoted(name)}, min = {ints[0]}, max = {ints[-1]} }}"
    shown = ", ".join(_quoted(str(v)) for v in sorted(values, key=str))
    return f"{{ name = {_quoted(name)}, values = [{shown}] }}"


def second_pages(ws: Workspace) -> PageStore | None:
    """The pages of the second opinion ``ws``'s ``game.toml`` names (``None``: none)."""
    from rulebook2game.agent.pages import PageStore

    name = ws.config().second_opinion
    if not name or not (ws.root / name / "game.toml").is_file():
        return None
    other = Workspace(ws.root / name)
    return PageStore(other.pages_dir, suffix=other.page_suffix)


def brief_context(ws: Workspace, toc: str, independent: bool) -> PromptContext:
    """What the prompt templates need to speak about ``ws`` (see ``PromptContext``)."""
    from rulebook2game.agent.prompts import PromptContext, target_reference

    config = ws.config()
    interface = ws.root / "interface.toml"
    return PromptContext(
        game=config.title or config.name,
        players=config.players,
        target=config.target,
        reference=target_reference(config.target),
        toc=toc,
        interface=interface.read_text(encoding="utf-8") if interface.is_file() else None,
        oracle=config.oracle,
        page_suffix=ws.page_suffix,
        independent=independent,
    )


def render_brief(ws: Workspace, toc: str) -> str:
    """The ``AGENTS.md`` of a second translation."""
    from rulebook2game.agent.prompts import render

    return render("AGENTS.md.j2", **brief_context(ws, toc, independent=True).as_dict())
