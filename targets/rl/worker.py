"""The parent side of the engine worker: a compiled game in a sandboxed subprocess.

Generated code is untrusted, so it never runs in the pipeline's own process. An
:class:`RlWorker` starts ``worker_main`` with a memory limit (``RLIMIT_AS``), gives
every request a CPU-time budget (``RLIMIT_CPU``, set by the child) and a wall-clock
deadline (enforced here), and turns a worker that dies or stops answering into an
:class:`~rulebook2game.errors.EngineFault`:

=========  ==============================================================
kind       when
=========  ==============================================================
abort      SIGABRT: a violated precondition, bound or ``assert`` (checked build),
           or a candidate list out of the action table (``r2g_move_candidates``)
crash      any other signal or exit (segmentation fault, ...)
hang       the CPU budget or the wall-clock deadline ran out
oom        the memory limit was reached
error      the worker answered something that is not the protocol
=========  ==============================================================

The fault message carries rlc's own report when there is one
(``pages/x.rl:28:1 error: function apply called without respecting precondition.``).
After a fault the worker is dead; start a new one (``RlEngine`` does so by itself).

States live in the worker, addressed by integer handles; ``apply`` copies before it
changes anything, so every handle keeps naming the same state until released.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import resource
import select
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rulebook2game.errors import EngineFault, WorkerError
from rulebook2game.targets.rl.compile import RlBuild

GiB = 1 << 30
_RL_ERROR = re.compile(r"\S+\.rl:\d+:\d+:?\s+error:.*")
_STDERR_KEEP = 64 * 1024
_OOM_HINTS = ("MemoryError", "out of memory", "Cannot allocate memory", "bad_alloc")


@dataclass(frozen=True)
class WorkerLimits:
    """Resource limits of one worker."""

    memory_bytes: int = 2 * GiB
    """Address-space limit of the worker process (``RLIMIT_AS``)."""
    cpu_seconds: float = 10.0
    """CPU time one request may use (``RLIMIT_CPU``)."""
    wall_seconds: float = 20.0
    """Wall-clock time the parent waits for one answer."""
    startup_seconds: float = 60.0
    """Wall-clock time to load the library and greet."""


@dataclass(frozen=True)
class StateInfo:
    """What the worker reports about a state after creating it."""

    handle: int
    player: int
    terminal: bool
    legal: tuple[int, ...]
    """Indices into :attr:`RlWorker.actions` of the legal actions (chance ones included)."""
    returns: tuple[float, ...] | None
    """``score(g, p)`` per player, reported for terminal states."""
    weights: tuple[int, ...] | None = None
    """At a chance node of a game whose pages weight its outcomes
    (``chance_weight_NAME``): the weight of each legal outcome, in ``legal``'s order."""
    log: tuple[str, ...] = ()
    """The lines the pages logged while applying the action that led here."""
    listed: tuple[int, ...] | None = None
    """A game that lists its moves (``r2g_moves``): the legal actions in the order the
    pages list them (the order the native loop draws from), when it is not ``legal``'s."""
    candidates: tuple[int, ...] | None = None
    """A game that lists candidate moves (``r2g_move_candidates``): the candidates of a
    state that is not terminal, in the pages' order (the native loop draws among them);
    ``legal`` is then the candidates that pass their test."""


@dataclass(frozen=True)
class PlayoutRecord:
    """One native random playout."""

    length: int
    status: str
    """``terminal``, ``truncated`` (hit ``max_steps``) or ``stuck`` (no legal action)."""
    returns: tuple[float, ...]
    actions: tuple[int, ...] | None
    """Action indices in order, when recorded."""


@dataclass(frozen=True)
class PlayoutStats:
    """Totals of a batch of native playouts (no per-game data)."""

    count: int
    steps: int
    seconds: float
    """Wall-clock time spent inside the native loop, measured by the worker."""
    cpu_seconds: float
    """CPU time of the worker during the native loop (robust to a busy machine)."""
    statuses: dict[str, int]


class _StderrTail:
    """Drains the worker's stderr in a thread and keeps its last bytes."""

    def __init__(self, stream: Any) -> None:
        self._chunks: deque[bytes] = deque()
        self._size = 0
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._drain, args=(stream,), daemon=True)
        self._thread.start()

    def _drain(self, stream: Any) -> None:
        try:
            while chunk := stream.read1(65536):
                with self._lock:
                    self._chunks.append(chunk)
                    self._size += len(chunk)
                    while self._size > _STDERR_KEEP and len(self._chunks) > 1:
                        self._size -= len(self._chunks.popleft())
        finally:
            stream.close()

    def text(self, wait: float = 0.0) -> str:
        """The kept tail; ``wait`` seconds for the writer to finish first."""
        if wait:
            self._thread.join(wait)
        with self._lock:
            data: bytes = b"".join(self._chunks)
        return data.decode("utf-8", errors="replace")


def fault_message(stderr: str) -> str:
    """The most telling line of a dead worker's stderr (rlc's error line if any)."""
    found: list[str] = _RL_ERROR.findall(stderr)
    if found:
        return found[-1].strip()
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    return " / ".join(lines[-3:])


class RlWorker:
    """One worker process serving one compiled game.

    Args:
        build: the compiled game (``compile_workspace(...).require()``).
        limits: memory, CPU and wall-clock limits.

    Raises:
        WorkerError: the worker could not start or could not load the library.
    """

    def __init__(self, build: RlBuild, limits: WorkerLimits | None = None) -> None:
        self.build = build
        self.limits = limits or WorkerLimits()
        self._pending_free: list[int] = []
        self._buffer = b""
        self._dead = False
        # A child started by vfork/exec reports at least the parent's peak memory as its own
        # (Linux keeps the high-water mark of the memory it left); only more than that is
        # the worker's.
        self._inherited_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        self._proc = self._spawn()
        self._stderr = _StderrTail(self._proc.stderr)
        weakref.finalize(self, _shutdown, self._proc)
        hello = self._greeting()
        self.players: int = int(hello["players"])
        self.actions: tuple[str, ...] = tuple(str(a) for a in hello["actions"])
        """Every action in rlc's text form (``mark {row: 0, col: 1}``), by index."""
        self.points: tuple[int, ...] = tuple(int(p) for p in hello.get("points", ()))
        """The resumption point of every action (empty: the native loop tests them all)."""
        self.lists_moves: bool = bool(hello.get("lists_moves", False))
        """Whether the game lists its legal moves (``r2g_moves``): the native loop then
        draws among the listed moves directly."""
        self.lists_candidates: bool = bool(hello.get("lists_candidates", False))
        """Whether the game lists candidate moves (``r2g_move_candidates``): the native
        loop then draws among them, and every state reports them (``candidates``)."""
        self.rebuilds: bool = bool(hello.get("rebuilds", False))
        """Whether the pages make derived state again on request (``r2g_rebuild``)."""
        self.candidate_hook: str = str(hello.get("candidate_hook", "r2g_move_candidates"))
        """The pages' function that gives the candidates (``r2g_move_candidates``, or
        ``r2g_candidate_at`` for slots)."""

    # -- lifecycle ------------------------------------------------------------------

    def _spawn(self) -> subprocess.Popen[bytes]:
        cmd = [
            sys.executable,
            "-m",
            "rulebook2game.targets.rl.worker_main",
            "--wrapper",
            str(self.build.wrapper),
            "--memory",
            str(self.limits.memory_bytes),
        ]
        try:
            return subprocess.Popen(
                cmd,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.build.directory,
                close_fds=True,
            )
        except OSError as exc:
            raise WorkerError(f"cannot start the engine worker: {exc}") from exc

    def _greeting(self) -> dict[str, Any]:
        try:
            hello = self._read_reply(self.limits.startup_seconds, "start")
        except EngineFault as exc:
            raise WorkerError(f"the engine worker did not start: {exc.message}") from None
        if not hello.get("ok"):
            self.close()
            raise WorkerError(f"the engine worker cannot load the game: {hello.get('message')}")
        return hello

    @property
    def alive(self) -> bool:
        """Whether the worker can still answer."""
        return not self._dead and self._proc.poll() is None

    @property
    def pid(self) -> int:
        return self._proc.pid

    def close(self) -> None:
        """Stop the worker (closing its stdin ends it; kill it if it lingers)."""
        if self._proc.poll() is None:
            try:
                if self._proc.stdin:
                    self._proc.stdin.close()
                self._proc.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                self._proc.kill()
                self._proc.wait()
        self._dead = True
        self._close_pipes()

    def _close_pipes(self) -> None:
        for stream in (self._proc.stdin, self._proc.stdout):
            if stream and not stream.closed:
                with contextlib.suppress(OSError):
                    stream.close()

    def __enter__(self) -> RlWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- requests -------------------------------------------------------------------

    def new_state(self) -> StateInfo:
        """The initial state (``play()``)."""
        return _info(self.request("new"))

    def state_info(self, handle: int) -> StateInfo:
        """Player, terminal flag, legal actions (and returns) of a live state."""
        return _info(self.request("info", h=handle))

    def apply(self, handle: int, action: int) -> StateInfo | None:
        """A new state: ``handle``'s state after action index ``action``; ``None`` if illegal."""
        reply = self.request("apply", h=handle, a=action)
        return None if reply.get("illegal") else _info(reply)

    def rebuild(self, handle: int) -> StateInfo:
        """A new state: ``handle``'s with what the pages derive made again."""
        return _info(self.request("rebuild", h=handle))

    def apply_all(self, handle: int, actions: list[int]) -> list[StateInfo]:
        """The states after each action index of ``actions`` in turn, one round trip;
        stops before the first action that is not legal (fewer states than actions)."""
        return [_info(x) for x in self.request("apply_all", h=handle, a=actions)["states"]]

    def returns(self, handle: int) -> tuple[float, ...]:
        """``score(g, p)`` for every player (also for non-terminal states)."""
        return tuple(float(x) for x in self.request("returns", h=handle)["returns"])

    def serialize(self, handle: int) -> str:
        """The state in rl's text form (``{resume_index: 1, board: {...}}``)."""
        return str(self.request("serialize", h=handle)["text"])

    def deserialize(self, text: str) -> StateInfo:
        """A new state from :meth:`serialize`'s text; ``WorkerRequestError`` if it is not one."""
        return _info(self.request("deserialize", text=text))

    def render(self, handle: int) -> str:
        """What the game's ``pretty_print`` prints for the state."""
        return str(self.request("render", h=handle)["text"])

    def observation_string(self, handle: int, player: int) -> str:
        """``pretty_print`` of the state with what ``player`` may not see reset."""
        return str(self.request("observe", h=handle, p=player)["text"])

    def observation_tensor(self, handle: int, player: int) -> list[float]:
        """``player``'s observation tensor, written by rl's ``to_observation_tensor``."""
        return [float(x) for x in self.request("tensor", h=handle, p=player)["tensor"]]

    def views(self, items: list[tuple[int, int]]) -> list[tuple[str, list[float]]]:
        """:meth:`observation_string` and :meth:`observation_tensor` of several
        (handle, player) pairs, one round trip."""
        reply = self.request("views", items=[list(item) for item in items])
        return [(str(text), [float(x) for x in tensor]) for text, tensor in reply["views"]]

    def observation_tensor_size(self) -> int:
        """Length of every observation tensor of the game."""
        return int(self.request("tensor_size")["size"])

    def table_legal(self, handle: int) -> list[int]:
        """The legal action indices found by testing every table entry (a game that
        lists its moves answers ``info`` from its list; the check compares the two)."""
        return [int(i) for i in self.request("table_legal", h=handle)["legal"]]

    def call_bool(self, handle: int, fun: str) -> bool:
        """The value of the pages' ``fun FUN(Game g) -> Bool`` on a state."""
        return bool(self.request("call", h=handle, fun=fun)["value"])

    def coverage(self, reset: bool = True) -> list[int]:
        """Ids of the probes that ran since the table was last cleared (coverage builds)."""
        return [int(i) for i in self.request("coverage", reset=reset)["hit"]]

    def release(self, handles: Iterable[int]) -> None:
        """Forget states (sent along with the next request)."""
        self._pending_free.extend(handles)

    def playouts(
        self,
        seed: int,
        count: int,
        max_steps: int,
        record: bool = False,
        timeout: float | None = None,
    ) -> list[PlayoutRecord]:
        """``count`` seeded uniform-random games played by the native loop, one round trip."""
        reply = self.request(
            "playouts",
            timeout=timeout,
            seed=seed,
            count=count,
            max_steps=max_steps,
            record=record,
        )
        return [
            PlayoutRecord(int(n), str(status), tuple(rets), None if acts is None else tuple(acts))
            for n, status, rets, acts in reply["games"]
        ]

    def playout_stats(
        self, seed: int, count: int, max_steps: int, timeout: float | None = None
    ) -> PlayoutStats:
        """Like :meth:`playouts` but only totals come back (for benchmarks)."""
        reply = self.request(
            "playouts",
            timeout=timeout,
            seed=seed,
            count=count,
            max_steps=max_steps,
            aggregate=True,
        )
        return PlayoutStats(
            int(reply["count"]),
            int(reply["steps"]),
            float(reply["seconds"]),
            float(reply["cpu"]),
            {str(k): int(v) for k, v in reply["statuses"].items()},
        )

    def request(self, op: str, timeout: float | None = None, **args: Any) -> dict[str, Any]:
        """Send one request and wait for its answer (the low-level call).

        ``timeout`` (seconds of wall clock, also the CPU budget) defaults to the limits.

        Raises:
            EngineFault: the worker died, hung or answered garbage.
            WorkerRequestError: the worker refused the request.
            WorkerError: the worker is not running.
        """
        if not self.alive:
            raise WorkerError("the engine worker is not running")
        wall = timeout if timeout is not None else self.limits.wall_seconds
        cpu = timeout if timeout is not None else self.limits.cpu_seconds
        payload: dict[str, Any] = {"op": op, "cpu": cpu, **args}
        if self._pending_free:
            payload["free"], self._pending_free = self._pending_free, []
        try:
            assert self._proc.stdin is not None
            self._proc.stdin.write(json.dumps(payload, separators=(",", ":")).encode() + b"\n")
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._fault(op, timed_out=False) from None
        reply = self._read_reply(wall, op)
        if reply.get("ok"):
            return reply
        if "fault" in reply:
            self._kill()
            raise EngineFault(str(reply["fault"]), f"{reply.get('message')} (during {op})")
        raise WorkerRequestError(str(reply.get("error", "refused")))

    # -- reading and faults ---------------------------------------------------------

    def _read_reply(self, wall: float, op: str) -> dict[str, Any]:
        deadline = time.monotonic() + wall
        assert self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._fault(op, timed_out=True, wall=wall)
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                raise self._fault(op, timed_out=False)
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        try:
            reply = json.loads(line)
        except ValueError:
            self._kill()
            raise EngineFault(
                "error", f"the worker answered garbage during {op}: {line[:200]!r}"
            ) from None
        if not isinstance(reply, dict):
            self._kill()
            raise EngineFault("error", f"the worker answered garbage during {op}: {line[:200]!r}")
        return reply

    def _kill(self) -> None:
        if self._proc.poll() is None:
            self._proc.kill()
        self._reap()

    def _reap(self) -> int:
        """Wait for the dead (or killed) worker; its peak resident memory in bytes (-1 when
        it never went past what it inherited from this process, so is not known)."""
        self._dead = True
        if self._proc.returncode is not None:
            self._close_pipes()
            return 0
        deadline = time.monotonic() + 2.0
        while True:
            try:
                pid, status, usage = os.wait4(self._proc.pid, os.WNOHANG)
            except ChildProcessError:
                self._proc.wait()
                self._close_pipes()
                return 0
            if pid:
                self._proc.returncode = os.waitstatus_to_exitcode(status)
                self._close_pipes()
                peak = int(usage.ru_maxrss) * 1024
                return peak if peak > self._inherited_peak else -1
            if time.monotonic() > deadline:
                self._proc.kill()
                deadline = float("inf")
            time.sleep(0.01)

    def _fault(self, op: str, timed_out: bool, wall: float = 0.0) -> EngineFault:
        if timed_out:
            self._proc.kill()
        peak = self._reap()
        stderr = self._stderr.text(wait=1.0)
        code = self._proc.returncode
        kind = _classify(code, peak, stderr, timed_out, self.limits)
        detail = fault_message(stderr)
        if timed_out:
            detail = f"no answer within {wall:g} s" + (f"; {detail}" if detail else "")
        elif kind == "hang":
            detail = "CPU time limit exceeded" + (f"; {detail}" if detail else "")
        elif kind == "oom":
            limit = self.limits.memory_bytes >> 20
            detail = f"memory limit of {limit} MiB reached" + (f"; {detail}" if detail else "")
        why = _signal_name(code)
        return EngineFault(kind, f"{detail or 'the worker died'} ({why}, during {op})")


class WorkerRequestError(WorkerError):
    """The worker refused a request (unknown handle, a text that is not a state, ...)."""


def _shutdown(proc: subprocess.Popen[bytes]) -> None:
    """Last resort when a worker is dropped without ``close``: end the process."""
    if proc.poll() is None:
        proc.kill()
        proc.wait()
    for stream in (proc.stdin, proc.stdout):
        if stream and not stream.closed:
            with contextlib.suppress(OSError):
                stream.close()


def _info(reply: dict[str, Any]) -> StateInfo:
    returns, weights = reply.get("returns"), reply.get("weights")
    listed, candidates = reply.get("listed"), reply.get("candidates")
    return StateInfo(
        handle=int(reply["h"]),
        player=int(reply["player"]),
        terminal=bool(reply["terminal"]),
        legal=tuple(int(i) for i in reply["legal"]),
        returns=None if returns is None else tuple(float(x) for x in returns),
        weights=None if weights is None else tuple(int(x) for x in weights),
        log=tuple(str(x) for x in reply.get("log", ())),
        listed=None if listed is None else tuple(int(i) for i in listed),
        candidates=None if candidates is None else tuple(int(i) for i in candidates),
    )


def _classify(
    code: int | None, peak: int, stderr: str, timed_out: bool, limits: WorkerLimits
) -> str:
    """The fault's kind. ``peak`` is the worker's peak memory, -1 when not known (a large
    parent hides it): then a segmentation fault with no message counts as the memory
    limit, since the checked runtime reports every other fault it detects, and a failed
    allocation under ``RLIMIT_AS`` (or an exhausted stack) is what dies silently."""
    if timed_out or code == -signal.SIGXCPU:
        return "hang"
    silent_segv = code == -signal.SIGSEGV and not fault_message(stderr)
    if (
        any(hint in stderr for hint in _OOM_HINTS)
        or (code is not None and code < 0 and peak > limits.memory_bytes // 2)
        or (peak < 0 and silent_segv)
    ):
        return "oom"
    if code == -signal.SIGABRT:
        return "abort"
    return "crash"


def _signal_name(code: int | None) -> str:
    if code is None:
        return "still running"
    if code < 0:
        try:
            return signal.Signals(-code).name
        except ValueError:
            return f"signal {-code}"
    return f"exit {code}"
