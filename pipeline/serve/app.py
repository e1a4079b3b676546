"""The web app: the table (JSON API + one page) and the review view (server-rendered).

Starlette routes; each handler is a plain function that Starlette runs in its thread
pool, and every use of the engine holds one lock (the engine's worker answers one
request at a time). Errors of the player (an illegal move, not their turn) come back as
``400 {"error": ...}``; the game's own crash as ``500 {"error": ...}``, never a crash
of the server.
"""

from __future__ import annotations

import html
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from rulebook2game.actions import parse_action
from rulebook2game.check.report import counterexample_trace
from rulebook2game.diff import DiffOptions, diff_games, render_html
from rulebook2game.diff.pages import page_cites
from rulebook2game.engine import CHANCE, Engine
from rulebook2game.errors import BadInputError, Rulebook2GameError
from rulebook2game.play.bots import BOTS, make_bot
from rulebook2game.play.resolve import PlayError
from rulebook2game.play.table import Move, Table
from rulebook2game.serve.pieces import PieceImages, words_of
from rulebook2game.serve.review import build_review
from rulebook2game.serve.sessions import Session, SessionStore
from rulebook2game.trace import parse_trace
from rulebook2game.workspace import GameConfig, Workspace

HERE = Path(__file__).resolve().parent


@dataclass
class GameSite:
    """What the app serves: a game directory and, when it compiled, its engine."""

    workspace: Workspace
    config: GameConfig
    engine: Engine[Any] | None
    engine_error: str | None = None
    seed: int = 0
    pieces: PieceImages | None = None
    """Piece images of the game's Vassal module, when it has one."""


def anchor(rule_id: str) -> str:
    """The HTML id of a section or sentence (``4.2#3`` -> ``r-4.2_3``)."""
    return "r-" + rule_id.replace("#", "_")


def _move_json(move: Move, seen: bool) -> dict[str, Any]:
    return {
        "t": move.t,
        "player": move.player,
        "action": move.action if seen else None,
        "by": move.by,
        "text": move.describe(seen),
    }


def _action_words(text: str) -> list[str]:
    action = parse_action(text)
    return [action.name, *(str(v) for _, v in action.args)]


def _error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _action_json(n: int, text: str) -> dict[str, Any]:
    action = parse_action(text)
    return {"n": n, "text": text, "name": action.name, "args": [[k, v] for k, v in action.args]}


def session_json(site: GameSite, session: Session) -> dict[str, Any]:
    """Everything the page needs to draw the table for the session's seat."""
    table = session.table
    over = table.over
    to_move = table.to_move
    your_turn = not session.replay and not over and to_move != CHANCE and to_move in table.humans
    legal = table.legal() if your_turn else []
    returns = table.returns()
    # A replay is a review of a recorded game: the reviewer sees the whole state and
    # reads every move.
    view = table.engine.render(table.state) if session.replay else table.view(session.viewer)
    reader = None if session.replay else session.viewer
    images: dict[str, str] = {}
    if site.pieces is not None:
        words = [w for a in legal for w in _action_words(a)] + words_of(view)
        images = {w: f"/pieces/{name}" for w, name in site.pieces.match(words).items()}
    return {
        "id": session.id,
        "game": site.config.name,
        "title": site.config.title or site.config.name,
        "players": table.engine.players,
        "viewer": session.viewer,
        "humans": sorted(table.humans),
        "bots": {str(s): table.bot_names.get(s, "bot") for s in sorted(table.bots)},
        "to_move": to_move,
        "over": over,
        "returns": returns,
        "view": view,
        "piece_images": images,
        "your_turn": your_turn,
        "legal": [_action_json(i, a) for i, a in enumerate(legal, start=1)],
        "log": [_move_json(m, table.seen(m, reader)) for m in table.moves],
        "can_undo": any(m.by == "human" for m in table.moves) and not session.replay,
        "replay": session.replay,
        "hidden_information": table.hidden,
        "script": list(table.script),
        "note": session.note,
        "failing_step": session.failing_step,
    }


def create_app(site: GameSite) -> Starlette:
    """The Starlette app serving ``site``."""
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    templates.env.filters["anchor"] = anchor
    store = SessionStore()
    engine_lock = threading.Lock()

    def page_context(request: Request, **extra: Any) -> dict[str, Any]:
        return {
            "title": site.config.title or site.config.name,
            "game": site.config.name,
            "players": site.config.players,
            "bot_kinds": list(BOTS),  # random first: the default needs no check
            "engine_error": site.engine_error,
            **extra,
        }

    def table_page(request: Request) -> Response:
        return templates.TemplateResponse(request, "table.html", page_context(request))

    def with_session(request: Request) -> Session | JSONResponse:
        session = store.get(request.path_params["sid"])
        if session is None:
            return _error("no such session (the server may have restarted)", 404)
        return session

    def run(action: Any) -> JSONResponse:
        """Call ``action()`` under the engine lock; package errors become JSON errors."""
        try:
            with engine_lock:
                return JSONResponse(action())
        except BadInputError as exc:
            return _error(str(exc))
        except Rulebook2GameError as exc:
            return _error(f"the game failed: {exc}", 500)

    async def new_session(request: Request) -> Response:
        if site.engine is None:
            return _error(f"the game cannot be played: {site.engine_error}", 409)
        body = await _json_body(request)
        engine = site.engine

        def make() -> dict[str, Any]:
            saved = body.get("trace")
            trace = parse_trace(str(saved), "<uploaded trace>") if saved else None
            seat = _int(body.get("seat", 0), "seat")
            if not 0 <= seat < engine.players:
                raise PlayError(f"seat {seat}: the game has seats 0 to {engine.players - 1}")
            kind = str(body.get("bots", "random"))
            others = [s for s in range(engine.players) if s != seat]
            table = Table(
                engine,
                game=site.config.name,
                humans={seat},
                bots={s: make_bot(kind) for s in others},
                bot_names=dict.fromkeys(others, kind),
                seed=_int(body.get("seed", site.seed), "seed"),
            )
            if trace is not None:
                table.load(trace)
            table.advance()
            return session_json(site, store.add(table, seat))

        return await _threaded(run, make)

    def get_session(request: Request) -> Response:
        found = with_session(request)
        if isinstance(found, JSONResponse):
            return found
        return run(lambda: session_json(site, found))

    async def act(request: Request) -> Response:
        found = with_session(request)
        if isinstance(found, JSONResponse):
            return found
        body = await _json_body(request)

        def move() -> dict[str, Any]:
            if found.replay:
                raise PlayError("a replay: step forward or back instead")
            seat = body.get("seat", found.viewer)
            found.table.play(str(body.get("action", "")), _int(seat, "seat"))
            found.table.advance()
            return session_json(site, found)

        return await _threaded(run, move)

    def undo(request: Request) -> Response:
        found = with_session(request)
        if isinstance(found, JSONResponse):
            return found

        def back() -> dict[str, Any]:
            found.table.undo()
            found.table.advance()
            return session_json(site, found)

        return run(back)

    def step(request: Request) -> Response:
        found = with_session(request)
        if isinstance(found, JSONResponse):
            return found
        where = request.path_params["where"]
        if where not in ("forward", "back"):
            return _error(f"unknown step {where!r}", 404)
        forward = where == "forward"

        def go() -> dict[str, Any]:
            if forward:
                found.table.step_forward()
            else:
                found.table.step_back()
            return session_json(site, found)

        return run(go)

    def trace(request: Request) -> Response:
        found = with_session(request)
        if isinstance(found, JSONResponse):
            return found
        table = found.table
        if table.hidden and not table.over and not found.replay:
            return _error("the trace shows hidden information: download it after the game", 403)
        with engine_lock:
            text = table.to_trace().to_jsonl()
        name = f"{site.config.name}-{found.id[:8]}.jsonl"
        return Response(
            text,
            media_type="application/x-ndjson",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    def review(request: Request) -> Response:
        data = build_review(site.workspace)
        return templates.TemplateResponse(
            request,
            "review.html",
            page_context(request, review=data, review_root=str(site.workspace.root)),
        )

    def page_source(request: Request) -> Response:
        name = request.path_params["name"]
        path = site.workspace.pages_dir / f"{name}{site.workspace.page_suffix}"
        if "/" in name or not path.is_file():
            return HTMLResponse("no such page", status_code=404)
        source = path.read_text(encoding="utf-8", errors="replace")
        cites = page_cites(source)
        return templates.TemplateResponse(
            request, "page.html", page_context(request, name=name, source=source, cites=cites)
        )

    def play_finding(request: Request) -> Response:
        if site.engine is None:
            return HTMLResponse(f"the game cannot be played: {site.engine_error}", 409)
        data = build_review(site.workspace)
        n = int(request.path_params["n"])
        if data.report is None or not 1 <= n <= len(data.report.findings):
            return HTMLResponse("no such finding", status_code=404)
        record = data.report.findings[n - 1]
        counter = counterexample_trace(record, site.config.name, site.engine.players)
        if counter is None:
            return HTMLResponse("this finding has no counterexample", status_code=404)
        table = Table(site.engine, game=site.config.name, humans=set(range(site.engine.players)))
        table.script = list(counter.actions)
        first = next((s.player for s in counter.steps if s.player != CHANCE), 0)
        note = f"Finding {n}: {record.kind} ({record.stage}): {record.message}"
        if (record.expected or record.actual) and record.actual not in record.message:
            note += f" — expected {record.expected}; actual {record.actual}"
        if record.step is not None:
            note += f" (at step {record.step})"
        session = store.add(table, first, replay=True, note=note, failing_step=record.step)
        return RedirectResponse(f"/?session={session.id}", status_code=303)

    def diff_view(request: Request) -> Response:
        old = request.query_params.get("old", "").strip()
        new = request.query_params.get("new", "").strip() or str(site.workspace.root)
        behaviour = request.query_params.get("behaviour", "") in ("1", "on", "true")
        if not old:
            return HTMLResponse("give the old side: ?old=GAME_DIR or GAME_DIR@REV", 400)
        try:
            with engine_lock:
                result = diff_games(old, new, DiffOptions(behaviour=behaviour))
        except Rulebook2GameError as exc:
            return HTMLResponse(f"<p>diff failed: {_escape(str(exc))}</p>", status_code=400)
        back = '<p><a href="/review">← review</a></p>'
        return HTMLResponse(render_html(result).replace("<body>", "<body>" + back, 1))

    def piece_image(request: Request) -> Response:
        found = site.pieces.read(request.path_params["name"]) if site.pieces else None
        if found is None:
            return Response("no such image", status_code=404)
        return Response(found[0], media_type=found[1])

    routes = [
        Route("/pieces/{name}", piece_image),
        Route("/", table_page),
        Route("/review", review),
        Route("/review/pages/{name}", page_source),
        Route("/review/findings/{n:int}/play", play_finding, methods=["POST"]),
        Route("/review/diff", diff_view),
        Route("/api/sessions", new_session, methods=["POST"]),
        Route("/api/sessions/{sid}", get_session),
        Route("/api/sessions/{sid}/act", act, methods=["POST"]),
        Route("/api/sessions/{sid}/undo", undo, methods=["POST"]),
        Route("/api/sessions/{sid}/{where:str}", step, methods=["POST"]),
        Route("/api/sessions/{sid}/trace.jsonl", trace),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    return Starlette(routes=routes)


async def _json_body(request: Request) -> dict[str, Any]:
    try:
        data = await request.json()
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


async def _threaded(run: Any, action: Any) -> Response:
    response: Response = await run_in_threadpool(run, action)
    return response


def _int(value: Any, what: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise PlayError(f"{what} must be a number, not {value!r}") from None


def _escape(text: str) -> str:
    return html.escape(text)
