"""Build the example Vassal module and game log of ``examples/vassal/`` (tic-tac-toe).

    python scripts/build_vassal_example.py            # write the two files
    python scripts/build_vassal_example.py --check    # exit 1 if they are stale

The files are made with the test suite's Vassal builders (``tests/vassal_builders.py``,
written from the documented file format, independent of the package's own reader), so a
new user can try ``rulebook2game extract`` on a ``.vmod`` and a ``.vlog`` without Vassal.
Zip entries carry a fixed date: the same script always gives the same bytes.
"""

from __future__ import annotations

import argparse
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from vassal_builders import (  # noqa: E402
    add,
    basic,
    basic_state,
    commands,
    marker,
    moduledata,
    obfuscate,
    slot_xml,
)

OUT = ROOT / "examples" / "vassal"
P = "VASSAL.build.module"
B = f"{P}.map.boardPicker"
MAP = "Board"
CELL = 100
SQUARES = [(f"{col}{row}", c, r) for r, row in enumerate("123") for c, col in enumerate("abc")]
MARKS = {"X": ("1", "x.png"), "O": ("2", "o.png")}
GAME = [("X", "b2"), ("O", "a1"), ("X", "c1"), ("O", "a3"), ("X", "a2"), ("O", "c2"),
        ("X", "b1"), ("O", "b3"), ("X", "c3")]  # fmt: skip
"""A full game, square by square; it ends in a draw."""


def _types(mark: str) -> list[str]:
    return [marker("Player"), basic(mark, MARKS[mark][1])]


def _states(mark: str, square: str | None) -> list[str]:
    if square is None:
        return [MARKS[mark][0], basic_state()]
    _name, col, row = next(s for s in SQUARES if s[0] == square)
    x, y = col * CELL + CELL // 2, row * CELL + CELL // 2
    return [MARKS[mark][0], basic_state(MAP, x, y, "1" if mark == "X" else "2")]


def build_file() -> str:
    """``buildFile.xml``: players, a 3x3 board of named squares, the two marks."""
    regions = "".join(
        f'<{B}.board.Region name="{name}" originx="{c * CELL + CELL // 2}" '
        f'originy="{r * CELL + CELL // 2}"/>'
        for name, c, r in SQUARES
    )
    slots = "".join(
        slot_xml("PieceSlot", mark, MARKS[mark][0], _types(mark), _states(mark, None))
        for mark in MARKS
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>'
        f'<{P}.BasicModule name="Tic-Tac-Toe" version="1.0" VassalVersion="3.7.0" '
        'description="Three in a row on a 3x3 grid">'
        f"<{P}.PlayerRoster><entry>X</entry><entry>O</entry></{P}.PlayerRoster>"
        f'<{P}.Map mapName="{MAP}"><{P}.map.BoardPicker>'
        f'<{B}.Board name="Grid" image="grid.png" width="{3 * CELL}" height="{3 * CELL}">'
        f"<{B}.board.RegionGrid>{regions}</{B}.board.RegionGrid>"
        f"</{B}.Board></{P}.map.BoardPicker></{P}.Map>"
        f'<{P}.PieceWindow name="Marks">{slots}</{P}.PieceWindow>'
        f"<{P}.properties.GlobalProperties>"
        f'<{P}.properties.GlobalProperty name="Turn" initialValue="1" isNumeric="true"/>'
        f"</{P}.properties.GlobalProperties>"
        f"</{P}.BasicModule>"
    )


def saved_game() -> str:
    """The log: an empty board restored, then each mark placed, the turn counter, chat."""
    restore = ["begin_save", "", "GlobalProperty\t;Turn;1;", "PLAYER\tann\tX", "end_save"]
    steps = []
    for turn, (mark, square) in enumerate(GAME, start=1):
        piece = add(f"m{turn}", _types(mark), _states(mark, square))
        steps.append("LOG\t" + commands(piece, f"CHAT* {mark} takes {square}"))
        steps.append("LOG\t" + f"GlobalProperty\t;Turn;{turn + 1};")
    steps.append("LOG\t" + "CHAT<ann> a draw")
    return commands(*restore, *steps)


def _zip(entries: dict[str, str | bytes]) -> bytes:
    import io

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return buffer.getvalue()


def files() -> dict[Path, bytes]:
    """Every example file and its bytes."""
    data = moduledata("Tic-Tac-Toe")
    return {
        OUT / "tic_tac_toe.vmod": _zip({"buildFile.xml": build_file(), "moduledata": data}),
        OUT / "tic_tac_toe.vlog": _zip(
            {"savedGame": obfuscate(saved_game(), 0x5A), "moduledata": data}
        ),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report stale files")
    args = parser.parse_args()
    stale = 0
    for path, data in files().items():
        if args.check:
            if not path.is_file() or path.read_bytes() != data:
                print(f"stale: {path}")
                stale += 1
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            print(f"wrote {path} ({len(data)} bytes)")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
