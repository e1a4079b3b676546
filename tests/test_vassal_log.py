"""Reading saved games and logs: commands, nesting, moves and changes, naming, bad input."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from vassal_builders import (
    add,
    basic,
    basic_state,
    chain,
    commands,
    enc,
    layer,
    marker,
    moduledata,
    obfuscate,
    slot_xml,
    write_zip,
)

from rulebook2game.errors import ModuleError
from rulebook2game.vassal import extract_vassal, read_log, read_module
from rulebook2game.vassal.models import ChatEvent, GameLog, PieceEvent, PropertyEvent, StackEvent

UNIT = [
    layer("Step", ["u1.png", "u2.png"], ["", "+ (reduced)"]),
    marker("Side", "Fuel"),
    basic("Tank", "t.png"),
]
SUPPLY = [basic("", "supply.png")]  # nameless: the module names it through its slot id


def _unit_state(level: str, fuel: str, x: int) -> str:
    return chain([level, f"North,{fuel}", basic_state("Main Map", x, 20, "1")])


def _move(piece_id: str, to: tuple[str, int, int], frm: tuple[str, int, int], player: str) -> str:
    fields = [
        piece_id,
        to[0],
        str(to[1]),
        str(to[2]),
        "null",
        frm[0],
        str(frm[1]),
        str(frm[2]),
        "null",
        player,
    ]
    return "M/" + enc(fields, "/")


def saved_game(with_steps: bool = True) -> str:
    pieces = commands(
        add("p1", UNIT, ["1", "North,full", basic_state("Main Map", 10, 20, "1")]),
        add("p2", SUPPLY, [basic_state("Main Map", 10, 20, "7")]),
        "+/s1/stack/" + enc(["Main Map", "10", "20", "p1", "p2", "@@1"], ";"),
        "+/s2/stack/" + enc(["null", "0", "0", "@@-1"], ";"),  # empty: no event
    )
    restore = ["begin_save", "", pieces, "GlobalProperty\t;Turn;1;", "PLAYER\tann\tbob", "end_save"]
    if not with_steps:
        return commands(*restore)
    steps = [
        "LOG\t"
        + commands(
            _move("p1", ("Main Map", 30, 20), ("Main Map", 10, 20), "ann"),
            "CHAT* Tank moves A -> B",
        ),
        "LOG\t"
        + "D/"
        + enc(["p1", _unit_state("2", "full", 30), _unit_state("1", "full", 30)], "/"),
        "LOG\t" + "D/" + enc(["p1", _unit_state("2", "empty", 30)], "/"),
        "LOG\t" + "CHAT<ann> odd; chars / \\ 'here'",
        "LOG\t" + "-/p2",
        "LOG\t" + "GlobalProperty\t;Turn;2;",
        "LOG\t" + "D/" + enc(["s1", enc(["Main Map", "10", "20", "p1", "@@1"], ";")], "/"),
    ]
    return commands(*restore, *steps)


@pytest.fixture
def log_file(tmp_path: Path) -> Path:
    return write_zip(
        tmp_path / "game.vlog",
        {"savedGame": obfuscate(saved_game(), 0xA7), "moduledata": moduledata("Test Game")},
    )


@pytest.fixture
def module_file(tmp_path: Path) -> Path:
    build = (
        '<?xml version="1.0"?><VASSAL.build.GameModule name="Test Game" version="1.0">'
        '<VASSAL.build.module.PieceWindow name="P">'
        + slot_xml("PieceSlot", "Supply", "7", SUPPLY, [basic_state()])
        + "</VASSAL.build.module.PieceWindow></VASSAL.build.GameModule>"
    )
    return write_zip(
        tmp_path / "game.vmod", {"buildFile.xml": build, "moduledata": moduledata("Test Game")}
    )


def _pieces(log: GameLog) -> list[PieceEvent]:
    return [e for e in log.events if isinstance(e, PieceEvent)]


def test_setup_and_steps(log_file: Path) -> None:
    log = read_log(log_file)
    assert (log.file_kind, log.module_name, log.steps, log.pieces) == ("log", "Test Game", 7, 2)
    assert [e.kind for e in log.events if e.step == 0][:1] == ["setup"]
    adds = [e for e in _pieces(log) if e.kind == "add"]
    assert [(e.piece, e.map, e.x, e.y, e.step) for e in adds] == [
        ("Tank", "Main Map", 10, 20, 0),
        ("p2", "Main Map", 10, 20, 0),
    ]
    assert adds[0].properties == {"Side": "North", "Fuel": "full"}
    stack, changed = [e for e in log.events if isinstance(e, StackEvent)]
    assert stack.pieces == ["Tank", "p2"] and stack.summary == "stack at Main Map (10,20): Tank, p2"
    assert (changed.step, changed.stack_id, changed.pieces) == (7, "s1", ["Tank (reduced)"])
    props = [e for e in log.events if isinstance(e, PropertyEvent)]
    assert [(p.name, p.value, p.step) for p in props] == [("Turn", "1", 0), ("Turn", "2", 6)]


def test_moves_changes_and_removals(log_file: Path) -> None:
    events = [e for e in _pieces(read_log(log_file)) if e.step > 0]
    move, flip, refuel, remove = events
    assert (move.kind, move.step, move.map, move.x, move.from_x, move.player) == (
        "move",
        1,
        "Main Map",
        30,
        10,
        "ann",
    )
    assert move.summary == "move Tank: Main Map (10,20) -> Main Map (30,20) by ann"
    assert flip.kind == "change" and flip.piece == "Tank (reduced)"
    assert flip.changes == ["Step: level 1 -> 2 [(reduced)]"]
    # A change without the old state is compared with the last known one.
    assert refuel.changes == ["Fuel: 'full' -> 'empty'"]
    assert (remove.kind, remove.piece, remove.step) == ("remove", "p2", 5)


def test_chat_lines_keep_their_text(log_file: Path) -> None:
    chats = [e for e in read_log(log_file).events if isinstance(e, ChatEvent)]
    assert [(c.step, c.text) for c in chats] == [
        (1, "* Tank moves A -> B"),
        (4, "<ann> odd; chars / \\ 'here'"),
    ]


def test_module_names_nameless_pieces(log_file: Path, module_file: Path) -> None:
    log = read_log(log_file, read_module(module_file))
    assert [e.piece for e in _pieces(log) if e.kind in ("add", "remove")] == [
        "Tank",
        "Supply",
        "Supply",
    ]
    assert log.warnings == []


def test_saved_game_without_steps(tmp_path: Path) -> None:
    path = write_zip(
        tmp_path / "start.vsav", {"savedGame": obfuscate(saved_game(with_steps=False), 3)}
    )
    log = read_log(path)
    assert (log.file_kind, log.steps, log.pieces) == ("save", 0, 2)


def test_unobfuscated_text_is_read_too(tmp_path: Path) -> None:
    path = write_zip(tmp_path / "plain.vlog", {"savedGame": saved_game()})
    assert read_log(path).steps == 7


def test_extract_log_with_module(log_file: Path, module_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "events.json"
    summary = extract_vassal(log_file, out, module_file)
    assert summary.startswith("game.vlog: ") and "7 steps" in summary and "1 moves" in summary
    log = GameLog.model_validate_json(out.read_text(encoding="utf-8"))
    assert any(isinstance(e, PieceEvent) and e.piece == "Supply" for e in log.events)


def _with_key_digits(data: bytes, digits: bytes) -> bytes:
    return data[:5] + digits + data[7:]


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ({"savedGame": _with_key_digits(obfuscate(saved_game(), 0xA7), b"a6")}, "wrong key"),
        ({"savedGame": _with_key_digits(obfuscate(saved_game(), 0xA7), b"27")}, "wrong key"),
        ({"savedGame": bytes(range(256)) * 4}, "not readable text"),
        ({"savedGame": b"hello, this is not a game"}, "does not start with a Vassal command"),
        ({"savedGame": b"!VCSK1"}, "odd number of hex digits"),
        ({"moduledata": "x"}, "no savedGame"),
        ({"buildFile.xml": "<x/>"}, "it looks like a module"),
    ],
)
def test_bad_logs_are_one_line_errors_and_write_nothing(
    tmp_path: Path, entries: dict[str, str | bytes], message: str
) -> None:
    path = write_zip(tmp_path / "bad.vlog", entries)
    out = tmp_path / "out.json"
    with pytest.raises(ModuleError) as caught:
        extract_vassal(path, out, None)
    assert message in str(caught.value) and "\n" not in str(caught.value)
    assert not out.exists()


def test_bad_module_for_a_log_is_reported(log_file: Path, tmp_path: Path) -> None:
    junk = tmp_path / "junk.vmod"
    junk.write_text("no zip", encoding="utf-8")
    with pytest.raises(ModuleError, match=r"junk\.vmod: not a zip"):
        extract_vassal(log_file, tmp_path / "out.json", junk)


def test_a_deck_is_named_with_its_card_count(tmp_path: Path) -> None:
    options = ["true", "255,0,0", "88", "120", "Always", "Always", *[""] * 6, "Draw"]
    deck_state = enc(["Main Map", "5", "6", "true", "c1,c2,c3"], ";")
    deck = "+/d1/" + enc(["deck;" + enc(options, ";"), deck_state], "/")
    path = write_zip(
        tmp_path / "deck.vsav", {"savedGame": commands("begin_save", deck, "end_save")}
    )
    (event,) = _pieces(read_log(path))
    assert (event.piece, event.summary) == ("Draw", "add Draw at Main Map (5,6) (3 cards)")


PREFIXES = ("+/", "-/", "D/", "M/", "LOG\t", "CHAT", "GlobalProperty\t", "stack", "deck;", "piece;")
PIECES_OF_TEXT = ("emb2;", "mark;", "/", ";", ",", "\t", "\\", "'", "\x1b", "null", "7", "x")
COMMAND_BITS = st.sampled_from(PREFIXES + PIECES_OF_TEXT)


@settings(max_examples=150, deadline=None)
@given(st.lists(COMMAND_BITS, max_size=40).map("".join))
def test_any_command_text_decodes_without_crashing(garbage: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        text = "begin_save\x1b" + garbage
        path = write_zip(Path(folder) / "fuzz.vlog", {"savedGame": obfuscate(text, 0x5C)})
        log = read_log(path)
    assert log.events[0].kind == "setup"
