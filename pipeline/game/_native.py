"""The optimized build of a game loaded into this process, and direct calls into it.

``rlc`` writes a Python wrapper (``wrapper.py``) around the shared library; its
functions convert arguments on every call. The hot calls (one step, many steps) go
straight to the library's symbols through ``ctypes`` with pointer arguments prepared
once, and without releasing the GIL (a step takes well under a microsecond; releasing
and taking the lock back cost about as much), which is what makes per-step stepping
from Python cheap.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rulebook2game.errors import WorkerError
from rulebook2game.targets.rl.worker_main import Odds, table_points

_LOADED: dict[Path, NativeGame] = {}
_LOCK = threading.Lock()
_CAPTURE = threading.Lock()


class NativeGame:
    """One compiled game loaded in-process (shared by every ``Game`` of the same build)."""

    def __init__(self, wrapper: Path) -> None:
        self.m = _load_module(wrapper)
        self.all = self.m.enumerate(self.m.AnyGameAction())
        self.texts = [str(self.all.get(i).contents).strip() for i in range(self.all.size())]
        self.players = int(self.m.get_num_players())
        self.size = len(self.texts)
        self.all_ref = ctypes.byref(self.all)
        self.points = table_points(wrapper.parent / "resume_points.json", self.texts)
        """The resumption point of every action-table entry (``[]``: no map), from the
        build's ``resume_points.json``."""
        points = self.call("r2g_int_buffer", len(self.points))
        for i, point in enumerate(self.points):
            points._data[i] = point
        self.candidates = self.call("r2g_candidates", self.all, points)
        """The table's entries grouped by resumption point (``r2g_candidates``): the
        steps test only the entries of the point a game is suspended at."""
        self.candidates_ref = ctypes.byref(self.candidates)
        self._held = ctypes.PyDLL(self.m.lib._name)
        self._step = self._raw("r2g_step")
        self.step_io = self._raw("r2g_step_io")
        """``r2g_step_io`` (see ``r2g_play.rl``): call with ``ctypes.byref`` of a game,
        the action table, :attr:`candidates` and the io buffer."""
        self._step_many = self._raw("r2g_step_many")
        self._copy = self._raw("r2g_copy")
        self._new = self.m.Game.__new__
        self._game_type = self.m.Game
        self.initial = self.m.play()
        """The state ``play()`` starts in, kept to copy new games from."""
        self.initial_ref = ctypes.byref(self.initial)
        self._libc = ctypes.CDLL(None)
        self._tensor_size: int | None = None

    def _wrapped(self, name: str) -> Callable[..., Any]:
        found: list[Callable[..., Any]] = self.m.wrappers.get(name, [])
        if len(found) != 1:
            raise WorkerError(f"the build lacks the runtime function {name}; rebuild the game")
        return found[0]

    def _raw(self, name: str) -> Any:
        """The library symbol behind a wrapper function, called with ``ctypes.byref``
        arguments and no declared argument types (the cheapest ctypes call; a new
        function object, so the wrapper's own is left as it is), holding the GIL."""
        symbol = self._held[self._wrapped(name).__name__]
        symbol.restype = None
        return symbol

    def weight_calls(self, odds: Odds) -> dict[int, tuple[Any, tuple[Any, ...]]]:
        """Per weighted action index (``odds``, from ``chance_weights``), the library
        symbol behind its ``chance_weight_NAME`` and its argument values as
        ``ctypes.byref`` words: call ``symbol(byref(result), byref(game), *args)``,
        the result an ``int64``. Cheaper than the wrapper, which converts every call."""
        calls = {}
        for index, (function, values) in odds.items():
            symbol = self._held[function.__name__]
            symbol.restype = None
            calls[index] = (symbol, tuple(ctypes.byref(ctypes.c_longlong(v)) for v in values))
        return calls

    def copy(self, source: Any) -> Any:
        """A deep copy of the game struct behind ``source`` (a ``ctypes.byref``).

        Cheaper than the wrapper's ``clone``: the struct is allocated without the
        wrapper's ``__init__`` (zeroed memory, which ``r2g_copy`` assigns over) and is
        still dropped by the wrapper's ``__del__`` when collected. A game that owns no
        heap memory (:attr:`plain`) is better copied byte for byte with
        :meth:`copy_plain`.
        """
        game = self._new(self._game_type)
        game.to_erase = True
        self._copy(ctypes.byref(game), source)
        return game

    @property
    def plain(self) -> bool:
        """Whether a game state is plain data (no pointers, nothing to drop), so that a
        byte copy is a deep copy."""
        return _plain(self._game_type)

    def copy_plain(self, source: Any) -> Any:
        """A byte copy of the game struct ``source`` (only when :attr:`plain`)."""
        return self._game_type.from_buffer_copy(source)

    def call(self, name: str, *args: Any) -> Any:
        """A runtime or page function through the wrapper (the slow, convenient path)."""
        return self._wrapped(name)(*args)

    def step(self, result: Any, game: Any, index: Any, out: Any) -> None:
        """``r2g_step`` (see the runtime); every argument a ``ctypes.byref``."""
        self._step(result, game, self.all_ref, self.candidates_ref, index, out)

    def step_many(self, games: Any, chosen: Any, out: Any, tensors: Any, width: Any) -> None:
        """``r2g_step_many``; every argument a ``ctypes.byref`` (``width`` too)."""
        self._step_many(games, self.all_ref, self.candidates_ref, chosen, out, tensors, width)

    @property
    def tensor_size(self) -> int:
        """Length of every observation tensor."""
        if self._tensor_size is None:
            self._tensor_size = int(self.call("r2g_observation_size"))
        return self._tensor_size

    def captured(self, call: Callable[[], object]) -> str:
        """What ``call`` prints on the C stdout (``pretty_print`` writes there)."""
        with _CAPTURE:
            self._libc.fflush(None)
            saved = os.dup(1)
            sink = os.memfd_create("r2g-render")
            os.dup2(sink, 1)
            try:
                call()
            finally:
                self._libc.fflush(None)
                os.dup2(saved, 1)
                os.close(saved)
            os.lseek(sink, 0, os.SEEK_SET)
            chunks = []
            while chunk := os.read(sink, 65536):
                chunks.append(chunk)
            os.close(sink)
        return b"".join(chunks).decode("utf-8", errors="replace")


def _plain(kind: Any) -> bool:
    """Whether a ctypes type is plain data: scalars, and arrays and structs of them,
    with no pointer and no ``__del__`` (the wrapper's mark of owned memory)."""
    if hasattr(kind, "__del__") or issubclass(kind, ctypes._Pointer | ctypes.c_void_p):
        return False
    if issubclass(kind, ctypes.c_char_p | ctypes.c_wchar_p):
        return False
    if issubclass(kind, ctypes.Array):
        return _plain(kind._type_)
    if issubclass(kind, ctypes.Structure | ctypes.Union):
        return all(_plain(field[1]) for field in kind._fields_)
    return issubclass(kind, ctypes._SimpleCData)


def native_game(wrapper: Path) -> NativeGame:
    """The loaded build at ``wrapper`` (loaded once per process)."""
    key = wrapper.resolve()
    with _LOCK:
        if key not in _LOADED:
            _LOADED[key] = NativeGame(key)
        return _LOADED[key]


def _load_module(wrapper: Path) -> Any:
    name = f"r2g_native_{abs(hash(str(wrapper)))}"
    spec = importlib.util.spec_from_file_location(name, wrapper)
    if spec is None or spec.loader is None:
        raise WorkerError(f"cannot load {wrapper}")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except OSError as exc:
        raise WorkerError(f"cannot load {wrapper.parent / 'lib.so'}: {exc}") from exc
    return module
