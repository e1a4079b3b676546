"""Reading a saved game (``.vsav``) or log (``.vlog``) into typed events.

The ``savedGame`` entry, once de-obfuscated, is a sequence of commands joined
by ESC, nested by the sequence encoding. It opens with the saved state
(``begin_save`` ... ``end_save``: players, boards, every piece and stack,
global properties); a log then has one ``LOG`` entry per step a player took,
each wrapping the commands of that step. Piece commands are ``+/id/type/state``
(add), ``-/id`` (remove), ``D/id/new/old`` (change) and
``M/id/map/x/y/under/oldMap/oldX/oldY/oldUnder/player`` (move); ``CHAT`` lines
are what the chat window showed.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from rulebook2game.errors import ModuleError
from rulebook2game.vassal.archive import Archive
from rulebook2game.vassal.changes import describe_change
from rulebook2game.vassal.models import (
    ChatEvent,
    Event,
    GameLog,
    MarkerEvent,
    ModuleInventory,
    OtherEvent,
    PieceEvent,
    PropertyEvent,
    StackEvent,
)
from rulebook2game.vassal.module import parse_add_text
from rulebook2game.vassal.obfuscation import deobfuscate
from rulebook2game.vassal.sequence import SequenceDecoder, decode
from rulebook2game.vassal.traits import Trait, display_name, parse_chain, piece_properties

ESC = "\x1b"
"""The separator of commands."""
SAVED_GAME = "savedGame"
LOG_PREFIX = "LOG\t"
_MARKERS = frozenset({"begin_save", "end_save", "begin_log", "end_log"})
_FIRST_COMMANDS = ("begin_save", "begin_log", LOG_PREFIX, "+/", "-/", "D/", "M/", "CHAT")


def read_log(path: Path, module: ModuleInventory | None = None) -> GameLog:
    """Decode a saved game or log into its events, naming pieces via ``module`` if given.

    Raises:
        ModuleError: the file is not a readable Vassal saved game or log.
    """
    with Archive(path) as archive:
        if SAVED_GAME not in archive.names:
            hint = " (it looks like a module)" if "buildFile.xml" in archive.names else ""
            raise ModuleError(f"{path.name}: not a Vassal saved game or log, no savedGame{hint}")
        text = deobfuscate(archive.read(SAVED_GAME), what=f"{path.name}: savedGame")
        module_data = archive.module_data("moduledata")
        save_data = archive.module_data("savedata")
    if not text.startswith(_FIRST_COMMANDS):
        raise ModuleError(
            f"{path.name}: savedGame does not start with a Vassal command "
            "(wrong key, or not a saved game)"
        )
    decoder = _Decoder(module)
    for command in split_commands(text):
        decoder.command(command)
    log = GameLog(
        source=path.name,
        file_kind="log" if path.suffix.lower() == ".vlog" else "save",
        module_name=module_data.name,
        module_version=module_data.version,
        vassal_version=save_data.vassal_version or module_data.vassal_version,
        description=save_data.description,
        steps=decoder.step,
        pieces=len(decoder.names),
        events=decoder.events,
        warnings=decoder.warnings,
    )
    if module is not None and module_data.name and module.name and module.name != module_data.name:
        log.warnings.append(
            f"the log was saved with module {module_data.name!r}, not {module.name!r}"
        )
    return log


def split_commands(text: str) -> Iterator[str]:
    """The single commands of an encoded command, in order, nesting flattened.

    As in Vassal, a text with no (unescaped) separator is one command; any
    other is split, and each part is split again with one level of escaping removed.
    """
    pending = [text]
    while pending:
        current = pending.pop()
        parts = decode(current, ESC)
        if len(parts) == 1 and parts[0] == current:
            yield current
        else:
            pending.extend(reversed(parts))


@dataclass
class _Piece:
    type_text: str
    traits: list[Trait]
    state: str


@dataclass
class _Decoder:
    """Turns commands into events, remembering each piece's definition and state."""

    module: ModuleInventory | None
    step: int = 0
    events: list[Event] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    pieces: dict[str, _Piece] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    stacks: set[str] = field(default_factory=set)
    slot_names: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.module is not None:
            for piece in self.module.pieces:
                if piece.gpid:
                    self.slot_names.setdefault(piece.gpid, piece.entry_name or piece.name)

    def command(self, text: str) -> None:
        """Decode one command (a ``LOG`` entry opens a new step)."""
        if text.startswith(LOG_PREFIX):
            self.step += 1
            for inner in split_commands(text[len(LOG_PREFIX) :]):
                self.command_in_step(inner)
        else:
            self.command_in_step(text)

    def command_in_step(self, text: str) -> None:
        """Decode one command of the current step."""
        if not text:
            return
        if text.startswith(LOG_PREFIX):
            self.command(text)
        elif text in _MARKERS:
            self.events.append(
                MarkerEvent(step=self.step, summary=text.replace("_", " "), marker=text)
            )
        elif text.startswith("+/"):
            self._add(text)
        elif text.startswith("-/"):
            self._remove(text[2:])
        elif text.startswith("D/"):
            self._change(text[2:])
        elif text.startswith("M/"):
            self._move(text[2:])
        elif text.startswith("CHAT"):
            self.events.append(ChatEvent(step=self.step, summary=text[4:], text=text[4:]))
        elif text.startswith("GlobalProperty\t"):
            self._property(text)
        else:
            self._other(text)

    def _add(self, text: str) -> None:
        piece_id, type_text, state = parse_add_text(text)
        if type_text == "stack":
            self._stack(piece_id, state or "")
            return
        traits = parse_chain(type_text, state)
        name = self._name_of(piece_id, traits)
        self.pieces[piece_id] = _Piece(type_text, traits, state or "")
        self.names[piece_id] = name
        where = decode(traits[-1].state or "", ";") if traits[-1].state else []
        map_name, x, y = _place(where)
        summary = f"add {name}" + (f" at {map_name} ({x},{y})" if map_name else "")
        cards = traits[-1].fields.get("cards")
        if traits[-1].kind == "deck" and isinstance(cards, list):
            summary += f" ({len(cards)} cards)"
        self.events.append(
            PieceEvent(
                step=self.step,
                kind="add",
                summary=summary,
                piece_id=piece_id,
                piece=name,
                map=map_name,
                x=x,
                y=y,
                properties={k: v for k, v in piece_properties(traits).items() if v},
            )
        )

    def _stack(self, stack_id: str, state: str, *, known: bool = False) -> None:
        """A stack set (added, or changed when ``known``); an empty new stack says nothing."""
        self.stacks.add(stack_id)
        parts = decode(state, ";") if state else []
        map_name, x, y = _place(parts)
        members = [p for p in parts[3:] if not p.startswith("@@")]
        if not members and not known:
            return
        names = [self.names.get(m, m) for m in members]
        where = f" at {map_name} ({x},{y})" if map_name else ""
        self.events.append(
            StackEvent(
                step=self.step,
                summary=f"stack{where}: {', '.join(names) or 'empty'}",
                stack_id=stack_id,
                map=map_name,
                x=x,
                y=y,
                pieces=names,
            )
        )

    def _remove(self, piece_id: str) -> None:
        if piece_id in self.stacks:
            self.stacks.discard(piece_id)
            return
        name = self.names.get(piece_id, piece_id)
        self.pieces.pop(piece_id, None)
        self.events.append(
            PieceEvent(
                step=self.step,
                kind="remove",
                summary=f"remove {name}",
                piece_id=piece_id,
                piece=name,
            )
        )

    def _change(self, text: str) -> None:
        decoder = SequenceDecoder(text, "/")
        piece_id = decoder.next("")
        new_state = decoder.next("")
        old_state = decoder.next() if decoder.has_more() else None
        if piece_id in self.stacks:
            self._stack(piece_id, new_state, known=True)
            return
        piece = self.pieces.get(piece_id)
        if piece is None:
            changes = ["state of a piece not seen before"]
            name = self.names.get(piece_id, piece_id)
        else:
            changes = describe_change(piece.traits, old_state or piece.state, new_state)
            piece.state = new_state
            piece.traits = parse_chain(piece.type_text, new_state)
            name = self.names[piece_id] = self._name_of(piece_id, piece.traits)
        self.events.append(
            PieceEvent(
                step=self.step,
                kind="change",
                summary=f"change {name}: {'; '.join(changes) or 'no visible change'}",
                piece_id=piece_id,
                piece=name,
                changes=changes,
            )
        )

    def _move(self, text: str) -> None:
        d = SequenceDecoder(text, "/")
        piece_id = _unwrap(d.next(""))
        new_map, new_x, new_y = _unwrap(d.next("")), d.next_int(0), d.next_int(0)
        d.next("")
        old_map, old_x, old_y = _unwrap(d.next("")), d.next_int(0), d.next_int(0)
        d.next("")
        player = d.next("") or None
        name = self.names.get(piece_id or "", piece_id or "")
        summary = (
            f"move {name}: {old_map or 'off-map'} ({old_x},{old_y})"
            f" -> {new_map or 'off-map'} ({new_x},{new_y})"
        )
        self.events.append(
            PieceEvent(
                step=self.step,
                kind="move",
                summary=summary + (f" by {player}" if player else ""),
                piece_id=piece_id or "",
                piece=name,
                map=new_map,
                x=new_x,
                y=new_y,
                from_map=old_map,
                from_x=old_x,
                from_y=old_y,
                player=player,
            )
        )

    def _property(self, text: str) -> None:
        d = SequenceDecoder(text, ";")
        d.next("")
        name, value, container = d.next(""), d.next(""), d.next("")
        scope = f" ({container})" if container else ""
        self.events.append(
            PropertyEvent(
                step=self.step,
                summary=f"set {name}{scope} = {value!r}",
                name=name,
                value=value,
                container=container,
            )
        )

    def _other(self, text: str) -> None:
        head = text.split("\t", 1)[0].split(";", 1)[0][:40]
        summary = text if len(text) <= 120 else text[:117] + "..."
        self.events.append(
            OtherEvent(step=self.step, summary=summary.replace("\t", " "), command=head, raw=text)
        )

    def _name_of(self, piece_id: str, traits: list[Trait]) -> str:
        name = display_name(traits)
        if name:
            return name
        basic = decode(traits[-1].state or "", ";") if traits and traits[-1].state else []
        gpid = basic[3] if len(basic) > 3 else ""
        return self.slot_names.get(gpid) or piece_id


def _place(parts: list[str]) -> tuple[str | None, int | None, int | None]:
    if not parts or parts[0] in ("", "null"):
        return None, None, None
    try:
        return parts[0], int(parts[1]), int(parts[2])
    except (IndexError, ValueError):
        return parts[0], None, None


def _unwrap(value: str) -> str | None:
    return None if value in ("", "null") else value
