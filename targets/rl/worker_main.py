"""The engine worker process: loads one compiled game and answers requests on pipes.

Started by :class:`rulebook2game.targets.rl.worker.RlWorker` as
``python -m rulebook2game.targets.rl.worker_main --wrapper BUILD/wrapper.py``.

Protocol: one JSON object per line. Requests arrive on stdin; answers leave on the
process's original stdout, which is moved to a private descriptor at start so that
anything the game prints (``print`` in rl, rlc's abort messages) lands on stderr,
where the parent keeps the tail for its fault reports. The first line written is the
greeting (players and the action table) or a load failure.

Each request may carry ``free`` (state handles to drop) and ``cpu`` (seconds of CPU
time it may use; enforced with ``RLIMIT_CPU``, so a runaway loop is killed by
``SIGXCPU``). Memory is bounded once, with ``RLIMIT_AS``. Answers are
``{"ok": true, ...}`` or ``{"ok": false, "error": "..."}`` for a bad request.
This module uses the standard library only: it runs next to untrusted code.
"""

from __future__ import annotations

import argparse
import ctypes
import importlib.util
import json
import os
import re
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

STATUS_NAMES = ("terminal", "truncated", "stuck")
INT64_MASK = (1 << 63) - 1
COVERAGE_TABLE_SIZE = 1 << 16
"""Bytes of a coverage build's probe table (``targets/rl/coverage.py``'s ``TABLE_SIZE``)."""


class RequestError(Exception):
    """A request the worker cannot serve (unknown handle, bad arguments)."""


FINISHED_PLAYER = -4
"""What ``get_current_player`` answers for a finished game (``g.is_done()``)."""


class GameFault(Exception):
    """The game's own code broke the runtime's contract (a candidate list out of the
    action table): answered as a fault of kind ``abort``, as a failed bound check would
    be, and the worker ends."""


_ACTION_TEXT = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\{(.*)\})?\s*$", re.DOTALL)

Odds = dict[int, tuple[Callable[..., Any], tuple[int, ...]]]


def chance_weights(module: Any, texts: list[str]) -> Odds:
    """Per action index, the pages' ``chance_weight_NAME(Game, Int...) -> Int`` and the
    action's argument values, for every action whose pages weight its outcomes (an
    action without one is weighted 1: outcomes are equally likely)."""
    odds: Odds = {}
    for index, text in enumerate(texts):
        match = _ACTION_TEXT.match(text)
        if match is None:
            continue
        found = module.wrappers.get(f"chance_weight_{match.group(1)}", [])
        body = (match.group(2) or "").strip()
        values = [part.partition(":")[2].strip() for part in body.split(",")] if body else []
        if len(found) != 1 or not all(v.lstrip("-").isdigit() for v in values):
            continue
        odds[index] = (found[0], tuple(int(v) for v in values))
    return odds


def chance_weight(odds: Odds, game: Any, index: int) -> int:
    """The weight of outcome ``index`` in ``game`` (1 when the pages do not weight it)."""
    entry = odds.get(index)
    return 1 if entry is None else int(entry[0](game, *entry[1]))


def log_lines(module: Any, game: Any) -> list[str]:
    """The lines the pages logged while the action that led to ``game`` was applied
    (``r2g_log_size``/``r2g_log_line``, written by a target that has a ``log``
    statement); none when the build has no log."""
    size = module.wrappers.get("r2g_log_size", [])
    line = module.wrappers.get("r2g_log_line", [])
    if len(size) != 1 or len(line) != 1:
        return []
    out = []
    for i in range(int(size[0](game))):
        vector = line[0](game, i)._data
        raw = ctypes.string_at(vector._data, int(vector._size)) if int(vector._size) else b""
        out.append(raw.rstrip(b"\0").decode("utf-8", errors="replace"))
    return out


NO_OBSERVER = -2
"""An observer who is no player: sees only what every player sees."""


def _load_module(wrapper: Path) -> Any:
    spec = importlib.util.spec_from_file_location(f"r2g_game_{os.getpid()}", wrapper)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {wrapper}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _int_list(vector: Any) -> list[int]:
    size = int(vector._size)
    return list(vector._data[:size]) if size else []


def _float_list(vector: Any) -> list[float]:
    size = int(vector._size)
    return list(vector._data[:size]) if size else []


def table_points(path: Path, texts: list[str]) -> list[int]:
    """The resumption point of every action-table entry (``[]``: no map, test them all).

    ``path`` is the build's ``resume_points.json`` (see ``resume_points.py``, which this
    module does not import: it uses the standard library only).
    """
    try:
        points = json.loads(path.read_text(encoding="utf-8")).get("points")
    except (OSError, ValueError, AttributeError):
        return []
    if not isinstance(points, dict):
        return []
    names = [t.strip().split("{", 1)[0].strip() for t in texts]
    out = [points.get(name, -1) for name in names]
    if any(not isinstance(p, int) or p < 0 for p in out):
        return []
    return [int(p) for p in out]


class LoadedGame:
    """The compiled game and a table of live states, addressed by integer handles."""

    def __init__(self, wrapper: Path) -> None:
        self.wrapper = wrapper
        self._table: Any = None
        self.m = _load_module(wrapper)
        self.all = self.m.enumerate(self.m.AnyGameAction())
        self.texts = [str(self.all.get(i).contents).strip() for i in range(self.all.size())]
        self.players = int(self.m.get_num_players())
        self._odds = chance_weights(self.m, self.texts)
        self.states: dict[int, Any] = {}
        self.next_handle = 1
        self.libc = ctypes.CDLL(None)
        self._legal = self._fn("r2g_legal")
        self._table_legal = self._fn("r2g_table_legal")
        self._listed = self._fn("r2g_listed")
        self.lists_moves = bool(self._fn("r2g_lists_moves")())
        self._candidate_list = self._fn("r2g_candidate_list")
        self.lists_candidates = bool(self._fn("r2g_lists_candidates")())
        self.candidate_hook = (
            "r2g_move_candidates"
            if "r2g_move_candidates" in self.m.wrappers
            else "r2g_candidate_at"
        )
        self._apply = self._fn("r2g_apply")
        self._copy = self._fn("r2g_copy")
        self._rebuilt = self._fn("r2g_rebuilt")
        self.rebuilds = bool(self._fn("r2g_rebuilds")())
        self._buffer = self._fn("r2g_byte_buffer")
        self._playouts = self._fn("r2g_playouts")
        self._masked = self._fn("r2g_masked")
        self._tensor = self._fn("r2g_observation_tensor")
        self._tensor_size = self._fn("r2g_observation_size")
        self.points = table_points(wrapper.parent / "resume_points.json", self.texts)
        self._points = self._fn("r2g_int_buffer")(len(self.points))
        for i, point in enumerate(self.points):
            self._points._data[i] = point
        # The checked build's legal sets test the whole table (``r2g_candidates`` of no
        # map): they stay the witness that the lockstep test and the fuzzer's replay
        # hold the point map (the native loop's and ``load``'s) against.
        self._whole = self._fn("r2g_candidates")(self.all, self._fn("r2g_int_buffer")(0))

    def _fn(self, name: str) -> Callable[..., Any]:
        found: list[Callable[..., Any]] = self.m.wrappers.get(name, [])
        if len(found) != 1:
            raise ImportError(f"the build lacks the runtime function {name}")
        return found[0]

    def _state(self, handle: object) -> Any:
        if not isinstance(handle, int) or handle not in self.states:
            raise RequestError(f"no state with handle {handle!r}")
        return self.states[handle]

    def _store(self, game: Any) -> int:
        handle = self.next_handle
        self.next_handle += 1
        self.states[handle] = game
        return handle

    def info(self, handle: int) -> dict[str, Any]:
        """Player, terminal flag, legal action indices (and returns when terminal)."""
        game = self.states[handle]
        terminal = bool(game.is_done())
        player = int(self.m.get_current_player(game))
        if terminal and player != FINISHED_PLAYER:
            raise GameFault(
                f"get_current_player returned {player} at a finished game; the contract "
                f"says {FINISHED_PLAYER} (reference.md, the engine contract)"
            )
        out: dict[str, Any] = {"h": handle, "player": player, "terminal": terminal}
        if terminal:
            out["legal"] = []
        elif self.lists_moves:
            # the native loop draws in the lister's order: the replay needs it
            listed = _int_list(self._listed(game, self.all, self._whole))
            out["legal"] = sorted(listed)
            if listed != out["legal"]:
                out["listed"] = listed
        else:
            if self.lists_candidates:
                # the native loop draws among the candidates, in their order
                out["candidates"] = self.candidates(game)
            out["legal"] = _int_list(self._legal(game, self.all, self._whole))
        if terminal:
            out["returns"] = self.returns(game)
        elif out["player"] == -1 and self._odds:
            out["weights"] = [chance_weight(self._odds, game, i) for i in out["legal"]]
        lines = log_lines(self.m, game)
        if lines:
            out["log"] = lines
        return out

    def candidates(self, game: Any) -> list[int]:
        """The game's candidate moves (``r2g_move_candidates``) in its order; a count or
        an index out of the action table is a fault of the game (:class:`GameFault`)."""
        listed = _int_list(self._candidate_list(game, self.all))
        size = len(self.texts)
        if not listed or not 0 <= listed[-1] <= size or len(listed) != listed[-1] + 1:
            count = listed[-1] if listed else None
            raise GameFault(
                f"r2g_move_candidates (or r2g_candidate_slots) returned {count}, not a count "
                f"of 0 to {size} candidates"
            )
        wrong = [i for i in listed[:-1] if not -1 <= i < size]  # -1: an empty slot
        if wrong:
            raise GameFault(
                f"a candidate (r2g_move_candidates or r2g_candidate_at) is {wrong[0]}, "
                f"not an index of the action table "
                f"(0 to {size - 1}) nor -1 (an empty slot)"
            )
        return listed[:-1]

    def returns(self, game: Any) -> list[float]:
        return [float(self.m.score(game, p)) for p in range(self.players)]

    # -- requests -------------------------------------------------------------------

    def op_new(self, req: dict[str, Any]) -> dict[str, Any]:
        return self.info(self._store(self.m.play()))

    def op_info(self, req: dict[str, Any]) -> dict[str, Any]:
        self._state(req.get("h"))
        return self.info(req["h"])

    def op_table_legal(self, req: dict[str, Any]) -> dict[str, Any]:
        """The legal actions found by testing every table entry (not the game's list)."""
        game = self._state(req.get("h"))
        return {"legal": _int_list(self._table_legal(game, self.all))}

    def op_rebuild(self, req: dict[str, Any]) -> dict[str, Any]:
        """A new state: ``h``'s with what the pages derive made again (``r2g_rebuild``)."""
        return self.info(self._store(self._rebuilt(self._state(req.get("h")))))

    def op_apply(self, req: dict[str, Any]) -> dict[str, Any]:
        game = self._copy(self._state(req.get("h")))
        index = req.get("a")
        if not isinstance(index, int):
            raise RequestError("apply needs an integer action index 'a'")
        if not self._apply(game, self.all, index):
            return {"illegal": True}
        return self.info(self._store(game))

    def op_apply_all(self, req: dict[str, Any]) -> dict[str, Any]:
        """Apply the indices ``a`` in turn from state ``h``: every state on the way, up to
        the first action that is not legal there (as ``apply`` one at a time would)."""
        game = self._state(req.get("h"))
        indices = req.get("a")
        if not isinstance(indices, list) or not all(isinstance(i, int) for i in indices):
            raise RequestError("apply_all needs a list of integer action indices 'a'")
        legal = self.info(req["h"])["legal"]
        states: list[dict[str, Any]] = []
        for index in indices:
            if index not in legal:
                break
            game = self._copy(game)
            if not self._apply(game, self.all, index):
                break
            info = self.info(self._store(game))
            states.append(info)
            legal = info["legal"]
        return {"states": states}

    def op_returns(self, req: dict[str, Any]) -> dict[str, Any]:
        return {"returns": self.returns(self._state(req.get("h")))}

    def op_serialize(self, req: dict[str, Any]) -> dict[str, Any]:
        return {"text": str(self._state(req.get("h"))).strip()}

    def op_deserialize(self, req: dict[str, Any]) -> dict[str, Any]:
        text = str(req.get("text", "")).strip()
        game = self.m.play()
        if not self.m.from_string(game, self.m.rl_s__strlit_r_String(text)):
            raise RequestError("not a state of this game (rl's text form does not parse)")
        if str(game).strip() != text:
            raise RequestError("not a state of this game (it does not print back the same)")
        return self.info(self._store(game))

    def op_render(self, req: dict[str, Any]) -> dict[str, Any]:
        game = self._state(req.get("h"))
        return {"text": self._captured(lambda: self.m.pretty_print(game))}

    def op_playouts(self, req: dict[str, Any]) -> dict[str, Any]:
        seed = int(req.get("seed", 0)) & INT64_MASK
        count, max_steps = int(req.get("count", 1)), int(req.get("max_steps", 10_000))
        record, aggregate = bool(req.get("record", False)), bool(req.get("aggregate", False))
        ints, floats = self.m.VectorTint64_tT(), self.m.VectorTdoubleT()
        started, cpu_started = time.perf_counter(), time.process_time()
        self._playouts(
            self.all, self._points, seed, count, max_steps, record and not aggregate, ints, floats
        )
        seconds = time.perf_counter() - started
        cpu = time.process_time() - cpu_started
        flat, rets = _int_list(ints), _float_list(floats)
        if aggregate:
            statuses = [0, 0, 0]
            for k in range(1, len(flat), 2):
                statuses[flat[k]] += 1
            steps = sum(flat[0::2])
            return {
                "count": count,
                "steps": steps,
                "seconds": seconds,
                "cpu": cpu,
                "statuses": dict(zip(STATUS_NAMES, statuses, strict=True)),
            }
        games, pos = [], 0
        for n in range(count):
            length, status = flat[pos], flat[pos + 1]
            pos += 2
            actions = flat[pos : pos + length] if record else None
            pos += length if record else 0
            game_returns = rets[n * self.players : (n + 1) * self.players]
            games.append([length, STATUS_NAMES[status], game_returns, actions])
        return {"games": games, "seconds": seconds, "cpu": cpu}

    def op_call(self, req: dict[str, Any]) -> dict[str, Any]:
        """Evaluate a page's ``fun NAME(Game g) -> Bool`` on a state."""
        game = self._state(req.get("h"))
        name = str(req.get("fun", ""))
        for fn in self.m.wrappers.get(name, []):
            if self.m.signatures.get(fn) == [bool, self.m.Game]:
                return {"value": bool(fn(game))}
        raise RequestError(f"no function `fun {name}(Game g) -> Bool` in the pages")

    def _observer(self, req: dict[str, Any]) -> int:
        player = req.get("p")
        if not isinstance(player, int) or not 0 <= player < self.players:
            raise RequestError(f"no player {player!r} (players are 0..{self.players - 1})")
        return player

    def op_observe(self, req: dict[str, Any]) -> dict[str, Any]:
        """What player ``p`` sees: ``pretty_print`` of the state with hidden values reset."""
        game = self._state(req.get("h"))
        masked = self._masked(game, self._observer(req))
        return {"text": self._captured(lambda: self.m.pretty_print(masked))}

    def op_tensor(self, req: dict[str, Any]) -> dict[str, Any]:
        """Player ``p``'s observation tensor (the standard library's writer); ``p = -2``
        (no player): only what every player sees."""
        game = self._state(req.get("h"))
        observer = NO_OBSERVER if req.get("p") == NO_OBSERVER else self._observer(req)
        return {"tensor": _float_list(self._tensor(game, observer))}

    def op_views(self, req: dict[str, Any]) -> dict[str, Any]:
        """``observe`` and ``tensor`` of several (state ``h``, player ``p``) pairs at once."""
        pairs = req.get("items")
        if not isinstance(pairs, list):
            raise RequestError("views needs a list of [handle, player] items")
        views = []
        for pair in pairs:
            if not isinstance(pair, list) or len(pair) != 2:
                raise RequestError("views needs a list of [handle, player] items")
            one = {"h": pair[0], "p": pair[1]}
            views.append([self.op_observe(one)["text"], self.op_tensor(one)["tensor"]])
        return {"views": views}

    def op_tensor_size(self, req: dict[str, Any]) -> dict[str, Any]:
        return {"size": int(self._tensor_size())}

    def op_ping(self, req: dict[str, Any]) -> dict[str, Any]:
        return {}

    def op_coverage(self, req: dict[str, Any]) -> dict[str, Any]:
        """Probes that ran since the last request (coverage builds); clears the table."""
        table = self._coverage_table()
        data = bytes(table)
        hit, at = [], data.find(1)
        while at != -1:
            hit.append(at)
            at = data.find(1, at + 1)
        if req.get("reset", True):
            ctypes.memset(table, 0, len(data))
        return {"hit": hit}

    def _coverage_table(self) -> Any:
        if self._table is None:
            library = ctypes.CDLL(str(self.wrapper.parent / "lib.so"))
            try:
                self._table = (ctypes.c_ubyte * COVERAGE_TABLE_SIZE).in_dll(
                    library, "r2g_cov_table"
                )
            except ValueError:
                raise RequestError("not a coverage build (no probe table)") from None
        return self._table

    def _captured(self, call: Callable[[], object]) -> str:
        """What ``call`` prints on the C stdout (pretty_print writes there)."""
        self.libc.fflush(None)
        saved = os.dup(1)
        sink = os.memfd_create("r2g-render")
        os.dup2(sink, 1)
        try:
            call()
        finally:
            self.libc.fflush(None)
            os.dup2(saved, 1)
            os.close(saved)
        os.lseek(sink, 0, os.SEEK_SET)
        chunks = []
        while chunk := os.read(sink, 65536):
            chunks.append(chunk)
        os.close(sink)
        return b"".join(chunks).decode("utf-8", errors="replace")

    def handle(self, req: dict[str, Any]) -> dict[str, Any]:
        for handle in req.get("free", ()):
            self.states.pop(handle, None)
        op = req.get("op")
        method = getattr(self, f"op_{op}", None)
        if not isinstance(op, str) or method is None:
            raise RequestError(f"unknown request {op!r}")
        reply: dict[str, Any] = method(req)
        return reply


def _limit_cpu(seconds: float) -> None:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    used = usage.ru_utime + usage.ru_stime
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = int(used + seconds) + 1
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def _limit_memory(limit: int) -> None:
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if limit > 0:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _protocol_stream() -> BinaryIO:
    """Keep the original stdout for answers; send fd 1 (game prints) to stderr."""
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return out


def _send(out: BinaryIO, reply: dict[str, Any]) -> None:
    out.write(json.dumps(reply, separators=(",", ":")).encode() + b"\n")
    out.flush()


def _serve(game: LoadedGame, out: BinaryIO) -> int:
    for line in sys.stdin.buffer:
        try:
            req = json.loads(line)
            if not isinstance(req, dict):
                raise RequestError("a request must be a JSON object")
            _limit_cpu(float(req.get("cpu", 60.0)))
            reply = {"ok": True, **game.handle(req)}
        except MemoryError:
            _send(out, {"ok": False, "fault": "oom", "message": "out of memory"})
            return 4
        except GameFault as exc:
            _send(out, {"ok": False, "fault": "abort", "message": str(exc)})
            return 5
        except (RequestError, ValueError, TypeError, KeyError) as exc:
            reply = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
        _send(out, reply)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Serve requests until stdin closes."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--wrapper", type=Path, required=True)
    parser.add_argument("--memory", type=int, default=0, help="address-space limit, bytes")
    args = parser.parse_args(argv)
    out = _protocol_stream()
    _limit_memory(args.memory)
    try:
        game = LoadedGame(args.wrapper)
    except Exception as exc:  # the greeting reports any load failure
        _send(out, {"ok": False, "fault": "load", "message": f"{type(exc).__name__}: {exc}"})
        return 3
    _send(
        out,
        {
            "ok": True,
            "players": game.players,
            "actions": game.texts,
            "points": game.points,
            "lists_moves": game.lists_moves,
            "lists_candidates": game.lists_candidates,
            "candidate_hook": game.candidate_hook,
            "rebuilds": game.rebuilds,
        },
    )
    return _serve(game, out)


if __name__ == "__main__":
    sys.exit(main())
