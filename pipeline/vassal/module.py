"""Reading a ``.vmod`` module into a :class:`ModuleInventory`.

The module's ``buildFile.xml`` (``buildFile`` before Vassal 3.5) is a tree of
elements named after Java classes. Maps, boards, at-start stacks, decks,
piece palettes, prototypes, global properties, dice and turn levels are
modelled; any other element is kept in ``other_components`` with its class
name and attributes, so nothing a module declares goes unseen.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal
from xml.etree import ElementTree as ET

from rulebook2game.errors import ModuleError
from rulebook2game.vassal.archive import Archive, ModuleData
from rulebook2game.vassal.boards import read_board, short_name
from rulebook2game.vassal.models import (
    Component,
    DeckModel,
    DiceModel,
    GlobalPropertyModel,
    MapModel,
    ModuleInventory,
    PieceKind,
    PieceModel,
    PrototypeModel,
    TraitModel,
    TurnLevel,
)
from rulebook2game.vassal.sequence import SequenceDecoder, decode
from rulebook2game.vassal.traits import (
    Trait,
    display_name,
    parse_chain,
    piece_commands,
    piece_images,
    piece_properties,
    resolve_prototypes,
)

BUILD_FILES = ("buildFile.xml", "buildFile")
"""The names of a module's definition, newest first."""

_MODULE_ROOTS = frozenset({"GameModule", "BasicModule", "ModuleExtension"})
_MAPS = frozenset({"Map", "PrivateMap", "PlayerHand"})
_PALETTES = frozenset({"PieceWindow", "TabWidget", "PanelWidget", "ListWidget", "BoxWidget"})
_SLOTS = frozenset({"PieceSlot", "CardSlot"})
_PASS_THROUGH = frozenset(
    {
        "PrototypesContainer",
        "GlobalProperties",
        "PrototypeFolder",
        "MapSubFolder",
        "ModuleSubFolder",
        "GlobalPropertyFolder",
        "BoardPicker",
        "TurnTracker",
    }
)
_DECK_SETTINGS = (
    "shuffle",
    "faceDown",
    "drawFaceUp",
    "reshufflable",
    "reshuffleTarget",
    "allowMultiple",
    "allowSelect",
    "reversible",
    "owningBoard",
    "x",
    "y",
)


@dataclass(frozen=True)
class _Place:
    """Where the walker is: the map, the palette path and the element path."""

    map: str | None = None
    palette: tuple[str, ...] = ()
    path: tuple[str, ...] = ()


@dataclass
class _Slot:
    """A piece or card slot as found, before its definition is decoded."""

    element: ET.Element
    place: Literal["palette", "setup", "deck", "other"]
    container: str
    map: str | None = None
    x: int | None = None
    y: int | None = None
    location: str = ""


@dataclass
class _Collected:
    maps: list[MapModel] = field(default_factory=list)
    decks: list[DeckModel] = field(default_factory=list)
    slots: list[_Slot] = field(default_factory=list)
    prototypes: list[ET.Element] = field(default_factory=list)
    properties: list[GlobalPropertyModel] = field(default_factory=list)
    sides: list[str] = field(default_factory=list)
    dice: list[DiceModel] = field(default_factory=list)
    turn_levels: list[TurnLevel] = field(default_factory=list)
    others: list[Component] = field(default_factory=list)


def read_module(path: Path) -> ModuleInventory:
    """Read a module file into its inventory.

    Raises:
        ModuleError: the file is not a readable Vassal module.
    """
    with Archive(path) as archive:
        build_file = next((n for n in BUILD_FILES if n in archive.names), None)
        if build_file is None:
            hint = " (it looks like a saved game or log)" if "savedGame" in archive.names else ""
            raise ModuleError(f"{path.name}: not a Vassal module, no buildFile.xml{hint}")
        root = archive.read_xml(build_file)
        data = archive.module_data()
    if short_name(root.tag) not in _MODULE_ROOTS:
        raise ModuleError(f"{path.name}: {build_file} is not a module definition (root {root.tag})")
    collected = _Collected()
    for child in root:
        _visit(child, _Place(), collected)
    return _inventory(path, build_file, root, data, collected)


def parse_add_text(text: str) -> tuple[str, str, str | None]:
    """Split a slot's or prototype's text ``+/id/type/state`` into id, type and state.

    Very old modules store the bare type; it is returned with no id and no state.
    """
    if not text.startswith("+/"):
        return "", text, None
    decoder = SequenceDecoder(text[2:], "/")
    piece_id = decoder.next("")
    type_text = decoder.next("")
    state = decoder.next() if decoder.has_more() else None
    return piece_id, type_text, state


def _visit(element: ET.Element, place: _Place, out: _Collected) -> None:
    kind = short_name(element.tag)
    label = element.get("mapName") or element.get("name") or element.get("entryName") or kind
    inner = replace(place, path=(*place.path, label))
    if kind in _MAPS:
        out.maps.append(MapModel(name=element.get("mapName", ""), kind=kind))
        inner = replace(inner, map=element.get("mapName", ""))
    elif kind == "Board":
        _visit_board(element, place, out)
        return
    elif kind == "SetupStack":
        _visit_setup_stack(element, place, out)
        return
    elif kind == "DrawPile":
        _visit_deck(element, place, out)
        return
    elif kind in _SLOTS:
        where: Literal["palette", "other"] = "palette" if place.palette else "other"
        container = " > ".join(place.palette) if place.palette else " > ".join(place.path)
        out.slots.append(_Slot(element, where, container, place.map))
        return
    elif kind in _PALETTES:
        inner = replace(
            inner, palette=(*place.palette, element.get("name") or element.get("entryName") or kind)
        )
    elif kind == "PrototypeDefinition":
        out.prototypes.append(element)
        return
    elif _visit_leaf(element, kind, place, out):
        return
    elif kind not in _PASS_THROUGH and kind not in _PALETTES:
        out.others.append(_component(element, place))
    for child in element:
        _visit(child, inner, out)


def _visit_leaf(element: ET.Element, kind: str, place: _Place, out: _Collected) -> bool:
    """Handle elements read whole; return whether ``element`` was one."""
    if kind == "GlobalProperty":
        out.properties.append(_global_property(element, place.map or "module"))
    elif kind == "PlayerRoster":
        out.sides.extend((e.text or "").strip() for e in element if e.tag == "entry")
        out.others.append(_component(element, place))
    elif kind == "DiceButton":
        out.dice.append(
            DiceModel(
                name=element.get("name", ""),
                dice=_int(element.get("nDice"), 1),
                sides=_int(element.get("nSides"), 6),
                plus=_int(element.get("plus"), 0),
            )
        )
    elif kind == "SpecialDiceButton":
        out.dice.append(_special_dice(element))
    elif kind in ("ListTurnLevel", "CounterTurnLevel"):
        out.turn_levels.append(_turn_level(element, kind))
        for child in element:
            _visit(child, place, out)
    else:
        return False
    return True


def _visit_board(element: ET.Element, place: _Place, out: _Collected) -> None:
    board = read_board(element)
    if out.maps and place.map is not None:
        out.maps[-1].boards.append(board)
    scope = f"{place.map} / {board.name}" if place.map else board.name
    for prop in element.iter():
        if short_name(prop.tag) == "GlobalProperty":
            out.properties.append(_global_property(prop, scope))


def _visit_setup_stack(element: ET.Element, place: _Place, out: _Collected) -> None:
    name = element.get("name", "")
    map_name = place.map or ""
    if out.maps and place.map is not None:
        out.maps[-1].setup_stacks += 1
    for child in element:
        if short_name(child.tag) in _SLOTS:
            out.slots.append(
                _Slot(
                    child,
                    "setup",
                    f"{map_name} / {name}",
                    place.map,
                    _int(element.get("x"), 0),
                    _int(element.get("y"), 0),
                    element.get("location", "") if element.get("useGridLocation") == "true" else "",
                )
            )


def _visit_deck(element: ET.Element, place: _Place, out: _Collected) -> None:
    name = element.get("name", "")
    deck = DeckModel(
        name=name,
        map=place.map or "",
        attributes={k: v for k, v in element.attrib.items() if k in _DECK_SETTINGS},
    )
    out.decks.append(deck)
    if out.maps and place.map is not None:
        out.maps[-1].decks.append(name)
    for child in element:
        if short_name(child.tag) in _SLOTS:
            out.slots.append(_Slot(child, "deck", name, place.map))


def _inventory(
    path: Path, build_file: str, root: ET.Element, data: ModuleData, found: _Collected
) -> ModuleInventory:
    problems: Counter[str] = Counter()
    chains = _read_prototypes(found.prototypes, problems)
    prototypes = [_prototype_model(e, chains.get(e.get("name", ""), [])) for e in found.prototypes]
    pieces = [_piece(slot, chains, problems) for slot in found.slots]
    warnings = [f"{text} (x{n})" if n > 1 else text for text, n in problems.items()]
    for deck in found.decks:
        deck.cards = [p.name for p in pieces if p.place == "deck" and p.container == deck.name]
    return ModuleInventory(
        source=path.name,
        build_file=build_file,
        name=data.name or root.get("name", ""),
        version=data.version or root.get("version", ""),
        vassal_version=data.vassal_version or root.get("VassalVersion", ""),
        description=data.description or root.get("description", ""),
        sides=found.sides,
        maps=found.maps,
        decks=found.decks,
        kinds=_kinds(pieces),
        pieces=pieces,
        prototypes=prototypes,
        global_properties=found.properties,
        dice=found.dice,
        turn_levels=found.turn_levels,
        other_components=found.others,
        warnings=warnings,
    )


def _read_prototypes(elements: list[ET.Element], problems: Counter[str]) -> dict[str, list[Trait]]:
    """Each prototype's own trait chain, by name (a later definition wins, as in Vassal)."""
    chains: dict[str, list[Trait]] = {}
    for element in elements:
        name = element.get("name", "")
        _, type_text, state = parse_add_text(element.text or "")
        chains[name] = parse_chain(type_text, state) if type_text else []
        if not chains[name]:
            problems[f"prototype {name!r} has no definition"] += 1
    return chains


def _prototype_model(element: ET.Element, traits: list[Trait]) -> PrototypeModel:
    return PrototypeModel(
        name=element.get("name", ""),
        description=element.get("description", ""),
        traits=[TraitModel.of(t) for t in traits],
        uses=[str(t.fields.get("name", "")) for t in traits if t.kind == "prototype"],
    )


def _piece(slot: _Slot, prototypes: dict[str, list[Trait]], problems: Counter[str]) -> PieceModel:
    element = slot.element
    entry_name = element.get("entryName", "")
    _, type_text, state = parse_add_text(element.text or "")
    traits = parse_chain(type_text, state) if type_text else []
    if not traits:
        problems[f"slot {entry_name!r} in {slot.container} has no piece definition"] += 1
    resolved = resolve_prototypes(traits, prototypes)
    uses: list[str] = []
    for trait in resolved:
        if trait.kind != "prototype":
            continue
        name = str(trait.fields.get("name", ""))
        uses.append(f"{trait.via} > {name}" if trait.via else name)
        if "unresolved" in trait.fields:
            problems[f"prototype {name!r}: {trait.fields['unresolved']}"] += 1
    images = piece_images(resolved)
    return PieceModel(
        slot="card" if short_name(element.tag) == "CardSlot" else "piece",
        name=display_name(resolved) or entry_name or (f"({images[0]})" if images else "(unnamed)"),
        entry_name=entry_name,
        gpid=element.get("gpid", ""),
        image=images[0] if images else "",
        images=images,
        place=slot.place,
        container=slot.container,
        map=slot.map,
        x=slot.x,
        y=slot.y,
        location=slot.location,
        prototypes=uses,
        properties=piece_properties(resolved),
        commands=piece_commands(resolved),
        traits=[TraitModel.of(t) for t in traits],
    )


def _kinds(pieces: list[PieceModel]) -> list[PieceKind]:
    counts: dict[tuple[Literal["piece", "card"], str], Counter[str]] = {}
    images: dict[tuple[Literal["piece", "card"], str], str] = {}
    for piece in pieces:
        key = (piece.slot, piece.name)
        where = piece.map if piece.place == "setup" else piece.container
        counts.setdefault(key, Counter())[f"{piece.place}: {where}"] += 1
        images.setdefault(key, piece.image)
    return [
        PieceKind(
            name=name,
            slot=slot,
            count=sum(places.values()),
            image=images[(slot, name)],
            places=dict(places),
        )
        for (slot, name), places in counts.items()
    ]


def _global_property(element: ET.Element, scope: str) -> GlobalPropertyModel:
    return GlobalPropertyModel(
        name=element.get("name", ""),
        initial_value=element.get("initialValue", ""),
        scope=scope,
        description=element.get("description", ""),
        numeric=element.get("isNumeric") == "true",
        min=element.get("min", ""),
        max=element.get("max", ""),
    )


def _special_dice(element: ET.Element) -> DiceModel:
    faces: dict[str, list[str]] = {}
    for die in element:
        if short_name(die.tag) == "SpecialDie":
            faces[die.get("name", "")] = [
                face.get("text", "") for face in die if short_name(face.tag) == "SpecialDieFace"
            ]
    return DiceModel(name=element.get("name", ""), dice=len(faces) or 1, faces=faces)


def _turn_level(element: ET.Element, kind: str) -> TurnLevel:
    name = element.get("property") or element.get("name") or kind
    if kind == "ListTurnLevel":
        values = decode(element.get("list", ""), ",") if element.get("list") else []
    else:
        values = [
            f"{k}={element.get(k)}"
            for k in ("start", "incr", "loop", "loopLimit")
            if element.get(k)
        ]
    return TurnLevel(name=name, kind=kind, values=values)


def _component(element: ET.Element, place: _Place) -> Component:
    text = (element.text or "").strip()
    return Component(
        class_name=element.tag,
        path=" > ".join(place.path),
        attributes=dict(element.attrib),
        text=text[:500],
    )


def _int(text: str | None, default: int) -> int:
    try:
        return int(text) if text is not None else default
    except ValueError:
        return default
