"""The web app through its HTTP interface (Starlette's test client, the real engine)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from rulebook2game.check.report import write_report
from rulebook2game.check.run import run_check
from rulebook2game.play.game import open_game
from rulebook2game.serve.app import GameSite, create_app
from rulebook2game.serve.pieces import load_piece_images, words_of
from rulebook2game.trace import parse_trace
from rulebook2game.workspace import open_workspace
from tests.play_support import broken_copy, ttt_dir

__all__ = ["ttt_dir"]


def _client(path: Path, engine: Any) -> TestClient:
    ws = open_workspace(path)
    return TestClient(create_app(GameSite(ws, ws.config(), engine)))


@pytest.fixture(scope="module")
def site(ttt_dir: Path) -> Iterator[TestClient]:
    game = open_game(ttt_dir)
    try:
        yield _client(ttt_dir, game.engine)
    finally:
        game.close()


def test_a_game_through_the_api(site: TestClient) -> None:
    state = site.post("/api/sessions", json={"seat": 1, "bots": "random", "seed": 2}).json()
    assert state["viewer"] == 1 and state["bots"] == {"0": "random"}
    assert state["log"][0]["by"] == "bot:random" and state["your_turn"]
    assert {a["name"] for a in state["legal"]} == {"mark"}
    assert state["legal"][0]["args"][0][0] == "row"
    sid = state["id"]
    while not state["over"]:
        state = site.post(f"/api/sessions/{sid}/act", json={"action": state["legal"][-1]["text"]})
        assert state.status_code == 200, state.text
        state = state.json()
    assert sum(state["returns"]) == 0
    response = site.get(f"/api/sessions/{sid}/trace.jsonl")
    assert "attachment" in response.headers["content-disposition"]
    trace = parse_trace(response.text)
    assert trace.end.terminal and [s.action for s in trace.steps] == [
        m["action"] for m in state["log"]
    ]
    half = trace.prefix(3).to_jsonl()
    loaded = site.post("/api/sessions", json={"seat": 1, "trace": half}).json()
    assert [m["action"] for m in loaded["log"]] == trace.actions[:3]
    assert loaded["to_move"] == 1 and loaded["your_turn"]
    bad = site.post("/api/sessions", json={"trace": "nonsense"})
    assert bad.status_code == 400 and "<uploaded trace>:1: not JSON" in bad.json()["error"]


def test_bad_moves_are_errors_not_crashes(site: TestClient) -> None:
    sid = site.post("/api/sessions", json={"seat": 0}).json()["id"]
    bad = site.post(f"/api/sessions/{sid}/act", json={"action": "mark(row=7, col=7)"})
    assert bad.status_code == 400 and "is not legal for seat 0" in bad.json()["error"]
    wrong = site.post(f"/api/sessions/{sid}/act", json={"action": "mark(row=0, col=0)", "seat": 1})
    assert wrong.status_code == 400 and "not your turn" in wrong.json()["error"]
    nothing = site.post(f"/api/sessions/{sid}/undo")
    assert nothing.status_code == 400 and "nothing to undo" in nothing.json()["error"]
    assert site.get("/api/sessions/nope").status_code == 404
    seat = site.post("/api/sessions", json={"seat": 9})
    assert seat.status_code == 400 and "seats 0 to 1" in seat.json()["error"]
    kind = site.post("/api/sessions", json={"bots": "wise"})
    assert kind.status_code == 400 and "unknown bot" in kind.json()["error"]


def test_undo_goes_back_to_the_persons_turn(site: TestClient) -> None:
    state = site.post("/api/sessions", json={"seat": 0}).json()
    sid = state["id"]
    after = site.post(f"/api/sessions/{sid}/act", json={"action": "mark(row=1, col=1)"}).json()
    assert len(after["log"]) == 2 and after["can_undo"]
    undone = site.post(f"/api/sessions/{sid}/undo").json()
    assert undone["log"] == [] and undone["view"] == state["view"] and not undone["can_undo"]


def test_review_shows_rules_with_citing_pages_and_uncited_sentences(site: TestClient) -> None:
    html = site.get("/review").text
    assert "Rule text from rules.md" in html
    assert 'id="r-4.2_1"' in html
    assert '<a class="cite" href="/review/pages/turn">turn</a>' in html
    assert 'class="sentence uncited"' in html
    assert "No check report yet" in html
    page = site.get("/review/pages/turn").text
    assert "act play() -&gt; Game" in page and 'href="/review#r-4.1"' in page
    assert site.get("/review/pages/nothing").status_code == 404


def test_a_findings_counterexample_steps_on_the_table(ttt_dir: Path, tmp_path: Path) -> None:
    broken = broken_copy(ttt_dir, tmp_path / "broken")
    report = run_check(open_workspace(broken))
    write_report(report, broken / "reports")
    assert report.findings and report.findings[0].counterexample
    game = open_game(broken)
    try:
        client = _client(broken, game.engine)
        html = client.get("/review").text
        assert "returns differs" in html and "Play the counterexample" in html
        response = client.post("/review/findings/1/play", follow_redirects=False)
        assert response.status_code == 303
        sid = response.headers["location"].split("session=")[1]
        state = client.get(f"/api/sessions/{sid}").json()
        assert state["replay"] and "returns differs" in state["note"]
        steps = report.findings[0].counterexample
        assert state["script"] == [s.action for s in steps] and not state["your_turn"]
        for _ in steps:
            state = client.post(f"/api/sessions/{sid}/forward").json()
        assert state["over"] and state["returns"] != list(report.findings[0].end.returns or [])
        end = client.post(f"/api/sessions/{sid}/forward")
        assert end.status_code == 400 and "end of the recorded steps" in end.json()["error"]
        back = client.post(f"/api/sessions/{sid}/back").json()
        assert not back["over"] and len(back["script"]) == 1
    finally:
        game.close()


def test_diff_view_renders_the_diff_html(ttt_dir: Path, tmp_path: Path) -> None:
    broken = broken_copy(ttt_dir, tmp_path / "broken")
    client = _client(ttt_dir, None)
    html = client.get("/review/diff", params={"old": str(ttt_dir), "new": str(broken)}).text
    assert "Rule diff:" in html and "winner = 1 - current" in html
    missing = client.get("/review/diff", params={"old": str(tmp_path / "none")})
    assert missing.status_code == 400 and "diff failed" in missing.text


def test_a_game_that_does_not_compile_still_has_its_review(tmp_path: Path, ttt_dir: Path) -> None:
    shutil.copytree(ttt_dir, tmp_path / "g", ignore=shutil.ignore_patterns("build"))
    ws = open_workspace(tmp_path / "g")
    client = TestClient(create_app(GameSite(ws, ws.config(), None, "turn.rl:3: error")))
    assert "The game cannot be played: turn.rl:3: error" in client.get("/").text
    assert client.post("/api/sessions", json={}).status_code == 409
    assert client.get("/review").status_code == 200


def _png() -> bytes:
    """A 1x1 PNG (the module's piece image)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\xff\x00\x00")
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


def test_pieces_of_a_vassal_module_show_as_images(ttt_dir: Path, tmp_path: Path) -> None:
    from tests.vassal_builders import basic, basic_state, moduledata, slot_xml, write_zip

    game = tmp_path / "with_module"
    shutil.copytree(ttt_dir, game, ignore=shutil.ignore_patterns("build", "reports"))
    slots = "".join(
        slot_xml("PieceSlot", name, gpid, [basic(name, image)], [basic_state()])
        for name, gpid, image in [("X", "1", "cross.png"), ("Nought", "2", "nought.png")]
    )
    build = (
        '<?xml version="1.0" encoding="UTF-8"?><VASSAL.build.GameModule name="TTT">'
        '<VASSAL.build.module.PieceWindow name="Pieces">'
        f"<VASSAL.build.widget.ListWidget entryName='All'>{slots}"
        "</VASSAL.build.widget.ListWidget></VASSAL.build.module.PieceWindow>"
        "</VASSAL.build.GameModule>"
    )
    png = _png()
    write_zip(
        game / "ttt.vmod",
        {"buildFile.xml": build, "moduledata": moduledata("TTT"), "images/cross.png": png},
    )
    pieces = load_piece_images(game)
    assert pieces is not None and pieces.images == {"x": "cross.png"}
    opened = open_game(game)
    try:
        ws = open_workspace(game)
        client = TestClient(create_app(GameSite(ws, ws.config(), opened.engine, pieces=pieces)))
        state = client.post("/api/sessions", json={"seat": 0}).json()
        assert state["piece_images"] == {}
        state = client.post(
            f"/api/sessions/{state['id']}/act", json={"action": "mark(row=0, col=0)"}
        ).json()
        assert "x" in words_of(state["view"])  # the seeded bot did not play next to it
        assert state["piece_images"] == {"x": "/pieces/cross.png"}
        image = client.get("/pieces/cross.png")
        assert image.status_code == 200 and image.content == png
        assert image.headers["content-type"] == "image/png"
        assert client.get("/pieces/nought.png").status_code == 404
        assert client.get("/pieces/..%2Fbuild.json").status_code == 404
    finally:
        opened.close()


def test_with_hidden_information_the_page_shows_only_the_seats_share(ttt_dir: Path) -> None:
    from tests.test_play import _Observed

    client = _client(ttt_dir, _Observed())
    state = client.post("/api/sessions", json={"seat": 0, "seed": 2}).json()
    assert state["hidden_information"] and state["view"].startswith("seat 0 sees counter=")
    assert state["log"][0] == {
        "t": 0,
        "player": -1,
        "action": None,
        "by": "chance",
        "text": "chance: (hidden)",
    }
    secret = client.get(f"/api/sessions/{state['id']}/trace.jsonl")
    assert secret.status_code == 403 and "hidden information" in secret.json()["error"]
    while not state["over"]:
        state = client.post(
            f"/api/sessions/{state['id']}/act", json={"action": state["legal"][0]["text"]}
        ).json()
    others = [m for m in state["log"] if m["player"] == 1]
    assert others and all(m["action"] is None and m["text"].endswith(" moved") for m in others)
    assert client.get(f"/api/sessions/{state['id']}/trace.jsonl").status_code == 200


def test_serve_bad_input_is_one_line_and_exit_2(ttt_dir: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from rulebook2game.cli import app

    result = CliRunner().invoke(app, ["serve", str(tmp_path / "nowhere")])
    assert result.exit_code == 2 and "not a directory" in result.output
    result = CliRunner().invoke(app, ["serve", str(ttt_dir), "--port", "70000"])
    assert result.exit_code == 2 and "--port 70000: expected 1 to 65535" in result.output
    assert "Traceback" not in result.output


def test_a_replay_shows_the_reviewer_everything(ttt_dir: Path) -> None:
    from rulebook2game.play.table import Table
    from rulebook2game.serve.app import session_json
    from rulebook2game.serve.sessions import SessionStore
    from tests.test_play import _Observed

    ws = open_workspace(ttt_dir)
    table = Table(_Observed(), game="race", humans={0, 1})
    table.script = ["coin(side=0)", "add(n=2)"]
    table.step_forward()
    session = SessionStore().add(table, 0, replay=True)
    state = session_json(GameSite(ws, ws.config(), table.engine), session)
    assert state["view"] == "counter=0 to_move=0"
    assert state["log"][0]["action"] == "coin(side=0)" and state["script"] == ["add(n=2)"]
