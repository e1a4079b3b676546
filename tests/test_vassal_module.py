"""Reading a module: maps, boards, pieces with nested prototypes, decks, and bad input."""

from __future__ import annotations

import os
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from vassal_builders import (
    basic,
    basic_state,
    layer,
    marker,
    moduledata,
    prototype_ref,
    prototype_xml,
    slot_xml,
    write_zip,
)

from rulebook2game.errors import ModuleError
from rulebook2game.vassal import extract_vassal, read_module, render_inventory
from rulebook2game.vassal.models import ModuleInventory, PieceModel
from rulebook2game.vassal.traits import parse_chain, resolve_prototypes

P = "VASSAL.build.module"
BOARD = "VASSAL.build.module.map.boardPicker"
INFANTRY = [prototype_ref("Unit"), marker("Side"), basic("Infantry", "inf.png")]
ODD_NAME = "Odd;name/with\\"


def _infantry(side: str) -> list[str]:
    return ["", side, basic_state()]


def build_file(root: str = "VASSAL.build.GameModule", extra: str = "") -> str:
    """A small module touching every modelled element, plus unknown ones."""
    palette = "".join(
        [
            slot_xml("PieceSlot", "Infantry", "1", INFANTRY, _infantry("North")),
            slot_xml(
                "PieceSlot",
                "Odd",
                "2",
                ["MyPkg.CustomTrait;a;b", basic(ODD_NAME, "it's.png")],
                ["state?", basic_state()],
            ),
            slot_xml(
                "PieceSlot",
                "Veteran",
                "3",
                [layer("Step", ["v1.png", "v2.png"], ["", "+ (reduced)"]), basic("Veteran")],
                ["2", basic_state()],
            ),
            slot_xml(
                "PieceSlot",
                "Ghost",
                "4",
                [prototype_ref("Missing"), basic("Ghost")],
                ["", basic_state()],
            ),
        ]
    )
    cards = "".join(
        slot_xml("CardSlot", n, g, [marker("Value"), basic(n, f"{n}.png")], [v, basic_state()])
        for n, g, v in [("Card A", "20", "1"), ("Card A", "21", "1"), ("Card B", "22", "3")]
    )
    prototypes = prototype_xml(
        "Unit",
        [
            prototype_ref("Base"),
            layer("Step", ["front.png", "back.png"], ["", "+ (reduced)"]),
            marker("Type"),
        ],
        ["", "1", "Infantry"],
    ) + prototype_xml("Base", [marker("Movable", "Strength")], ["yes,4"])
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<{root} name="Root Name" version="0.9" VassalVersion="3.2.17" description="root description">
  <{P}.PlayerRoster><entry>North</entry><entry>South</entry></{P}.PlayerRoster>
  <{P}.Map mapName="Main Map">
    <{P}.map.BoardPicker>
      <{BOARD}.Board name="Board A" image="board.png" width="500" height="400">
        <{BOARD}.board.ZonedGrid>
          <{BOARD}.board.mapgrid.Zone name="Track" path="0,0;100,0;100,50;0,50">
            <{BOARD}.board.RegionGrid>
              <{BOARD}.board.Region name="Space 1" originx="10" originy="20"/>
              <{BOARD}.board.Region name="Space 2" originx="30" originy="20"/>
            </{BOARD}.board.RegionGrid>
          </{BOARD}.board.mapgrid.Zone>
          <{BOARD}.board.HexGrid dx="60.0" dy="52.0" sideways="false"/>
        </{BOARD}.board.ZonedGrid>
      </{BOARD}.Board>
    </{P}.map.BoardPicker>
    <{P}.map.SetupStack name="Start A" x="10" y="20" location="Space 1" useGridLocation="true">
      {slot_xml("PieceSlot", "Infantry", "10", INFANTRY, _infantry("South"))}
    </{P}.map.SetupStack>
    <{P}.map.SetupStack name="Start B" x="30" y="20">
      {slot_xml("PieceSlot", "Infantry", "11", INFANTRY, _infantry("South"))}
    </{P}.map.SetupStack>
    <{P}.map.DrawPile name="Event Deck" shuffle="Always" faceDown="Always"
        reshufflable="true">{cards}</{P}.map.DrawPile>
    <{P}.properties.GlobalProperties>
      <{P}.properties.GlobalProperty name="MapProp" initialValue="x"/>
    </{P}.properties.GlobalProperties>
  </{P}.Map>
  <{P}.PieceWindow name="Pieces">
    <VASSAL.build.widget.TabWidget entryName="Units">
      <VASSAL.build.widget.ListWidget entryName="North">{palette}</VASSAL.build.widget.ListWidget>
    </VASSAL.build.widget.TabWidget>
  </{P}.PieceWindow>
  <{P}.PrototypesContainer>{prototypes}</{P}.PrototypesContainer>
  <{P}.properties.GlobalProperties>
    <{P}.properties.GlobalProperty name="Turn" initialValue="1" isNumeric="true" min="1" max="10"/>
  </{P}.properties.GlobalProperties>
  <{P}.DiceButton name="2d6" nDice="2" nSides="6" plus="1"/>
  <{P}.turn.TurnTracker>
    <{P}.turn.ListTurnLevel property="Phase" list="Move,Fight,Supply"/>
  </{P}.turn.TurnTracker>
  <Custom.Unknown.Component foo="bar"><nested x="1">note</nested></Custom.Unknown.Component>
  <{P}.PredefinedSetup name="Scenarios" useFile="false">
    <{P}.PredefinedSetup name="Opening" file="opening.vsav" useFile="true"/>
  </{P}.PredefinedSetup>
  {extra}
</{root}>
"""


@pytest.fixture
def module_file(tmp_path: Path) -> Path:
    return write_zip(
        tmp_path / "game.vmod",
        {
            "buildFile.xml": build_file(),
            "moduledata": moduledata("Test Game", "2.0"),
            "images/x.png": b"\x89PNG",
        },
    )


@pytest.fixture
def inventory(module_file: Path) -> ModuleInventory:
    return read_module(module_file)


def _piece(inventory: ModuleInventory, entry: str, place: str = "palette") -> PieceModel:
    return next(p for p in inventory.pieces if p.entry_name == entry and p.place == place)


def test_header_maps_and_boards(inventory: ModuleInventory) -> None:
    assert (inventory.name, inventory.version, inventory.build_file) == (
        "Test Game",
        "2.0",
        "buildFile.xml",
    )
    assert inventory.sides == ["North", "South"]
    (main,) = inventory.maps
    assert (main.name, main.setup_stacks, main.decks) == ("Main Map", 2, ["Event Deck"])
    (board,) = main.boards
    assert (board.name, board.image, board.width, board.height) == (
        "Board A",
        "board.png",
        500,
        400,
    )
    (zoned,) = board.grids
    assert zoned.kind == "ZonedGrid"
    (zone,) = zoned.zones
    assert zone.name == "Track" and zone.path == [(0, 0), (100, 0), (100, 50), (0, 50)]
    assert zone.grid is not None and [r.name for r in zone.grid.regions] == ["Space 1", "Space 2"]
    assert [g.kind for g in zoned.grids] == ["HexGrid"] and zoned.grids[0].attributes[
        "dx"
    ] == "60.0"


def test_nested_prototypes_are_resolved(inventory: ModuleInventory) -> None:
    infantry = _piece(inventory, "Infantry")
    assert infantry.name == "Infantry"
    assert infantry.prototypes == ["Unit", "Unit > Base"]
    assert infantry.properties == {
        "Side": "North",
        "Type": "Infantry",
        "Movable": "yes",
        "Strength": "4",
    }
    assert infantry.images == ["inf.png", "front.png", "back.png"]
    assert "Flip" in infantry.commands
    assert [t.kind for t in infantry.traits] == ["prototype", "mark", "piece"]
    assert infantry.container == "Pieces > Units > North"
    unit = next(p for p in inventory.prototypes if p.name == "Unit")
    assert unit.uses == ["Base"]


def test_layer_level_names_the_piece(inventory: ModuleInventory) -> None:
    veteran = _piece(inventory, "Veteran")
    assert veteran.name == "Veteran (reduced)"
    step = veteran.traits[0]
    assert step.kind == "emb2" and step.fields["images"] == ["v1.png", "v2.png"]


def test_escapes_in_names_and_unknown_traits_are_kept(inventory: ModuleInventory) -> None:
    odd = _piece(inventory, "Odd")
    assert odd.name == ODD_NAME and odd.image == "it's.png"
    custom = odd.traits[0]
    assert (custom.kind, custom.known, custom.raw, custom.state) == (
        "MyPkg.CustomTrait",
        False,
        "MyPkg.CustomTrait;a;b",
        "state?",
    )


def test_missing_prototype_is_a_warning_not_an_error(inventory: ModuleInventory) -> None:
    ghost = _piece(inventory, "Ghost")
    assert ghost.name == "Ghost"
    assert any("'Missing'" in w and "no such prototype" in w for w in inventory.warnings)


def test_setup_stacks_decks_and_counts(inventory: ModuleInventory) -> None:
    placed = [p for p in inventory.pieces if p.place == "setup"]
    assert [(p.container, p.x, p.y, p.location) for p in placed] == [
        ("Main Map / Start A", 10, 20, "Space 1"),
        ("Main Map / Start B", 30, 20, ""),
    ]
    assert placed[0].properties["Side"] == "South"
    (deck,) = inventory.decks
    assert deck.cards == ["Card A", "Card A", "Card B"]
    assert deck.attributes["shuffle"] == "Always"
    kinds = {(k.slot, k.name): k for k in inventory.kinds}
    assert kinds[("piece", "Infantry")].count == 3
    assert kinds[("piece", "Infantry")].places == {
        "palette: Pieces > Units > North": 1,
        "setup: Main Map": 2,
    }
    assert kinds[("card", "Card A")].count == 2


def test_properties_dice_turns_and_unknown_elements(inventory: ModuleInventory) -> None:
    props = {(p.name, p.scope): p for p in inventory.global_properties}
    assert props[("Turn", "module")].numeric and props[("Turn", "module")].max == "10"
    assert ("MapProp", "Main Map") in props
    (dice,) = inventory.dice
    assert (dice.name, dice.dice, dice.sides, dice.plus) == ("2d6", 2, 6, 1)
    assert [(t.name, t.values) for t in inventory.turn_levels] == [
        ("Phase", ["Move", "Fight", "Supply"])
    ]
    unknown = {c.class_name: c for c in inventory.other_components}
    assert unknown["Custom.Unknown.Component"].attributes == {"foo": "bar"}
    assert unknown["nested"].text == "note"


def test_legacy_build_file_without_moduledata(tmp_path: Path) -> None:
    path = write_zip(
        tmp_path / "old.vmod", {"buildFile": build_file(root="VASSAL.launch.BasicModule")}
    )
    inventory = read_module(path)
    assert (inventory.name, inventory.version, inventory.build_file) == (
        "Root Name",
        "0.9",
        "buildFile",
    )
    assert inventory.vassal_version == "3.2.17"
    assert _piece(inventory, "Infantry").prototypes == ["Unit", "Unit > Base"]


def test_prototype_cycles_do_not_hang() -> None:
    looped = {
        "A": parse_chain("prototype;B\tpiece;;;;"),
        "B": parse_chain("prototype;A\tpiece;;;;"),
    }
    resolved = resolve_prototypes(parse_chain("prototype;A\tpiece;;;;Thing"), looped)
    assert [t.kind for t in resolved] == ["prototype", "prototype", "prototype", "piece"]
    assert resolved[2].fields["unresolved"] == "refers to itself"


def test_render_has_one_line_per_kind(inventory: ModuleInventory) -> None:
    text = render_inventory(inventory)
    assert text.startswith("Vassal module: Test Game 2.0")
    assert "Sides: North, South" in text
    assert "  piece Infantry x3 [inf.png]" in text
    assert (
        "Event Deck on Main Map: 3 cards (shuffle=Always, faceDown=Always, reshufflable=true):"
        " Card A x2, Card B" in text
    )
    assert "Dice 2d6: 2d6+1" in text
    assert "Predefined setups (1): Opening" in text
    assert "Turn level Phase (ListTurnLevel): Move, Fight, Supply" in text
    assert sum(
        1 for line in text.splitlines() if line.startswith("  piece ") or line.startswith("  card ")
    ) == len(inventory.kinds)


def test_extract_writes_json(module_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "out" / "components.json"
    summary = extract_vassal(module_file, out, None)
    assert "Test Game: 1 maps" in summary and "\n" not in summary
    again = ModuleInventory.model_validate_json(out.read_text(encoding="utf-8"))
    assert again.pieces == read_module(module_file).pieces
    assert [p.name for p in out.parent.iterdir()] == ["components.json"]
    mask = os.umask(0)
    os.umask(mask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~mask  # the mode any written file gets


def _truncated(module_file: Path, tmp_path: Path) -> Path:
    data = module_file.read_bytes()
    return _write(tmp_path / "cut.vmod", data[: len(data) // 2])


def _corrupt(module_file: Path, tmp_path: Path) -> Path:
    data = bytearray(module_file.read_bytes())
    with zipfile.ZipFile(module_file) as archive:
        info = archive.getinfo("buildFile.xml")
    start = info.header_offset + 30 + len(info.filename) + 40
    data[start : start + 20] = b"\x00" * 20
    return _write(tmp_path / "corrupt.vmod", bytes(data))


def _write(path: Path, data: bytes | str) -> Path:
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)
    return path


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (
            lambda m, t: write_zip(t / "a.vmod", {"readme.txt": "hi"}),
            "not a Vassal module, no buildFile.xml",
        ),
        (lambda m, t: write_zip(t / "s.vmod", {"savedGame": "x"}), "looks like a saved game"),
        (_truncated, "not a zip archive, or a truncated one"),
        (_corrupt, "corrupt or truncated"),
        (lambda m, t: _write(t / "text.vmod", "just text"), "not a zip archive"),
        (
            lambda m, t: write_zip(
                t / "x.vmod", {"buildFile.xml": "<VASSAL.build.GameModule><a></b>"}
            ),
            "not well-formed XML",
        ),
        (
            lambda m, t: write_zip(t / "h.vmod", {"buildFile.xml": "<html/>"}),
            "not a module definition",
        ),
        (lambda m, t: t / "absent.vmod", "no such file"),
        (lambda m, t: _write(t / "notes.txt", "x"), "not a Vassal file"),
    ],
)
def test_bad_modules_are_one_line_errors_and_write_nothing(
    module_file: Path, tmp_path: Path, make: Callable[[Path, Path], Path], message: str
) -> None:
    bad = make(module_file, tmp_path)
    out = tmp_path / "out.json"
    with pytest.raises(ModuleError) as caught:
        extract_vassal(bad, out, None)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)
    assert not out.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out.json")]
