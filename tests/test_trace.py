"""Traces: writing and reading round trip, recording, and every validator error."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from rulebook2game.engine import CHANCE, IllegalActionError
from rulebook2game.errors import BadInputError, TraceFormatError
from rulebook2game.trace import (
    Trace,
    TraceEnd,
    TraceHeader,
    TraceStep,
    parse_trace,
    read_trace,
    record_trace,
    traces_in,
    write_text_atomic,
    write_trace,
)

HEADER = {"kind": "header", "format": "rulebook2game-trace/1", "game": "coin", "players": 2}
CHANCE_STEP = {
    "kind": "step",
    "t": 0,
    "player": -1,
    "action": "flip(side=1)",
    "chance": [["flip(side=0)", 0.5], ["flip(side=1)", 0.5]],
}
PLAYER_STEP = {"kind": "step", "t": 1, "player": 1, "action": "take()", "legal": ["take()"]}
END = {"kind": "end", "terminal": True, "returns": [-1.0, 1.0]}


def _text(*records: dict[str, object]) -> str:
    return "\n".join(json.dumps(r) for r in records) + "\n"


@dataclass(frozen=True)
class Coin:
    """A coin decides who moves; that player takes and wins."""

    @property
    def name(self) -> str:
        return "toy:coin"

    @property
    def players(self) -> int:
        return 2

    def initial(self) -> tuple[int, bool]:
        return (-1, False)

    def current_player(self, state: tuple[int, bool]) -> int:
        return state[0] if state[0] >= 0 else CHANCE

    def legal_actions(self, state: tuple[int, bool]) -> list[str]:
        if state[1]:
            return []
        return ["take()"] if state[0] >= 0 else ["flip(side=0)", "flip(side=1)"]

    def chance_outcomes(self, state: tuple[int, bool]) -> list[tuple[str, float]]:
        return [(a, 0.5) for a in self.legal_actions(state)] if state[0] < 0 else []

    def apply(self, state: tuple[int, bool], action: str) -> tuple[int, bool]:
        if action not in self.legal_actions(state):
            raise IllegalActionError(action, self.legal_actions(state))
        return (int(action[-2]), False) if state[0] < 0 else (state[0], True)

    def is_terminal(self, state: tuple[int, bool]) -> bool:
        return state[1]

    def returns(self, state: tuple[int, bool]) -> list[float]:
        if not state[1]:
            return [0.0, 0.0]
        return [1.0, -1.0] if state[0] == 0 else [-1.0, 1.0]

    def serialize(self, state: tuple[int, bool]) -> str:
        return json.dumps(state)

    def deserialize(self, text: str) -> tuple[int, bool]:
        a, b = json.loads(text)
        return (a, b)

    def render(self, state: tuple[int, bool]) -> str:
        return str(state)


def test_parse_and_write_round_trip(tmp_path: Path) -> None:
    trace = parse_trace(_text(HEADER, CHANCE_STEP, PLAYER_STEP, END))
    assert trace.actions == ["flip(side=1)", "take()"]
    assert trace.header.players == 2 and trace.end.returns == (-1.0, 1.0)
    path = tmp_path / "sub" / "t.jsonl"
    write_trace(trace, path)
    again = read_trace(path)
    assert again == trace and again.path == path
    assert path.read_text() == trace.to_jsonl()
    assert [p.name for p in tmp_path.joinpath("sub").iterdir()] == ["t.jsonl"]


def test_optional_fields_are_omitted_and_blank_lines_ignored() -> None:
    step = {"kind": "step", "t": 0, "player": 0, "action": "take()"}
    text = _text(HEADER, step, {"kind": "end", "terminal": False}).replace("\n", "\n\n")
    trace = parse_trace(text)
    assert trace.steps[0].legal is None and trace.end.returns is None
    assert "legal" not in trace.to_jsonl() and "returns" not in trace.to_jsonl()


def test_prefix_keeps_the_header_and_closes_open() -> None:
    trace = parse_trace(_text(HEADER, CHANCE_STEP, PLAYER_STEP, END))
    short = trace.prefix(1)
    assert short.actions == ["flip(side=1)"] and short.end == TraceEnd(terminal=False)
    assert short.header == trace.header


BAD_TRACES = [
    ("", "empty trace"),
    (_text(CHANCE_STEP), "first record must be the header"),
    ("not json\n", "not JSON"),
    ("[1, 2]\n", "must be a JSON object"),
    (_text({**HEADER, "format": "other/1"}), "format"),
    (_text({**HEADER, "players": 0}), "players"),
    (_text({**HEADER, "colour": "red"}), "colour"),
    (_text(HEADER), "no end record"),
    (_text(HEADER, {"kind": "move"}), "unknown record kind"),
    (_text(HEADER, END, PLAYER_STEP), "content after the end record"),
    (_text(HEADER, PLAYER_STEP, END), "expected t=0"),
    (_text(HEADER, {**CHANCE_STEP, "player": 2}, END), "player 2 out of range"),
    (_text(HEADER, {**CHANCE_STEP, "action": "flip"}, END), "not an action"),
    (_text(HEADER, {**CHANCE_STEP, "chance": [["flip(side=)", 1.0]]}, END), "bad argument"),
    (_text(HEADER, {**PLAYER_STEP, "t": 0, "legal": ["pass()"]}, END), "not in its legal list"),
    (_text(HEADER, {**PLAYER_STEP, "t": 0, "chance": [["take()", 1.0]]}, END), "non-chance"),
    (
        _text(HEADER, {**CHANCE_STEP, "chance": [["flip(side=0)", 1.0]]}, END),
        "not a chance outcome",
    ),
    (
        _text(HEADER, {**CHANCE_STEP, "chance": [["flip(side=1)", 0.7]]}, END),
        "sum to 0.700000",
    ),
    (_text(HEADER, {**END, "returns": [1.0]}), "1 returns for 2 players"),
    (_text(HEADER, {"kind": "step", "t": 0, "player": 0}, END), "action"),
]


@pytest.mark.parametrize(("text", "message"), BAD_TRACES, ids=[m for _, m in BAD_TRACES])
def test_validator_rejects(text: str, message: str) -> None:
    with pytest.raises(TraceFormatError, match=message):
        parse_trace(text, "bad.jsonl")


def test_errors_name_the_line() -> None:
    text = _text(HEADER, CHANCE_STEP, {**PLAYER_STEP, "t": 5}, END)
    with pytest.raises(TraceFormatError, match=r"^bad.jsonl:3: step t=5"):
        parse_trace(text, "bad.jsonl")


def test_read_trace_problems_are_format_errors(tmp_path: Path) -> None:
    with pytest.raises(TraceFormatError, match="file not found"):
        read_trace(tmp_path / "missing.jsonl")
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(TraceFormatError, match="cannot read"):
        read_trace(binary)


def test_record_trace_is_deterministic_and_replayable() -> None:
    first = record_trace(Coin(), game="coin", seed=3)
    assert first == record_trace(Coin(), game="coin", seed=3)
    assert first.steps[0].player == CHANCE and first.steps[0].chance is not None
    assert first.steps[1].legal == ("take()",)
    assert first.end.terminal and first.end.returns is not None
    assert parse_trace(first.to_jsonl()) == first
    sides = {record_trace(Coin(), game="coin", seed=s).steps[0].action for s in range(20)}
    assert sides == {"flip(side=0)", "flip(side=1)"}


def test_record_trace_without_legal_and_with_step_bound() -> None:
    trace = record_trace(Coin(), game="coin", seed=1, with_legal=False, max_steps=1)
    assert len(trace.steps) == 1 and trace.end == TraceEnd(terminal=False)
    assert all(s.legal is None for s in trace.steps)


def test_traces_in_reads_files_and_folders(tmp_path: Path) -> None:
    trace = Trace(
        TraceHeader(game="coin", players=2),
        (TraceStep(t=0, player=0, action="take()"),),
        TraceEnd(terminal=True, returns=(1.0, -1.0)),
    )
    write_trace(trace, tmp_path / "b.jsonl")
    write_trace(trace, tmp_path / "a.jsonl")
    (tmp_path / "notes.txt").write_text("not a trace")
    found = traces_in([tmp_path, tmp_path / "a.jsonl"])
    assert [t.path.name for t in found if t.path] == ["a.jsonl", "b.jsonl", "a.jsonl"]


def test_atomic_write_gives_the_usual_file_mode(tmp_path: Path) -> None:
    mask = os.umask(0o022)
    os.umask(mask)
    write_text_atomic(tmp_path / "report.json", "{}\n")
    assert (tmp_path / "report.json").stat().st_mode & 0o777 == 0o666 & ~mask  # not 0600


def test_atomic_write_to_a_folder_is_bad_input_and_leaves_nothing(tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    with pytest.raises(BadInputError, match="out: cannot write"):
        write_text_atomic(tmp_path / "out", "text")
    (tmp_path / "file").write_text("x")
    with pytest.raises(BadInputError, match="cannot write"):
        write_text_atomic(tmp_path / "file" / "out.json", "text")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "out"]
    assert list((tmp_path / "out").iterdir()) == []
