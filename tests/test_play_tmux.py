"""``rulebook2game play`` in a real terminal: tmux sends the keys and reads the screen."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from rulebook2game.trace import read_trace
from tests.play_support import ttt_dir

__all__ = ["ttt_dir"]

pytestmark = pytest.mark.slow
WAIT = 60.0
"""Seconds to wait for the screen to show something before the test gives up."""
TERMINAL_ENV = {
    key: os.environ[key]
    for key in ("PATH", "HOME", "LANG", "LC_ALL", "VIRTUAL_ENV", "TMPDIR")
    if key in os.environ
} | {"TERM": "xterm-256color"}
"""The environment of the terminal: a user's basics, nothing earlier tests set."""


class Tmux:
    """One tmux server on a private socket, one window."""

    def __init__(self, socket: Path) -> None:
        self.socket = socket

    def __call__(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-S", str(self.socket), *args],
            capture_output=True,
            text=True,
            check=True,
            env=TERMINAL_ENV,  # a user's shell, not what earlier tests left in os.environ
        )
        return done.stdout

    def processes(self) -> str:
        """What the pane's processes are doing (for a failure message)."""
        pid = self("display-message", "-p", "-t", "play", "#{pane_pid}").strip()
        done = subprocess.run(
            ["ps", "-o", "pid,ppid,stat,wchan:24,etime,args", "--forest", "-g", pid],
            capture_output=True,
            text=True,
            check=False,
        )
        return done.stdout

    def exit_status(self) -> str:
        """The pane's program's exit status once it has ended, else "": tmux's, or, while
        tmux has not yet reaped it (a busy machine left it a zombie for a minute), the
        zombie's own exit code from /proc (its stat's last field, a wait status)."""
        status = self("display-message", "-p", "-t", "play", "#{pane_dead_status}").strip()
        if status:
            return status
        pid = self("display-message", "-p", "-t", "play", "#{pane_pid}").strip()
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            return ""
        if not fields or fields[0] != "Z":
            return ""
        return str(int(fields[-1]) >> 8)

    def screen(self) -> str:
        return self("capture-pane", "-p", "-J", "-S", "-200", "-t", "play")

    def wait_for(self, test: Callable[[str], bool], what: str) -> str:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            text = self.screen()
            if test(text):
                return text
            time.sleep(0.1)
        raise AssertionError(
            f"the terminal never showed {what}:\n{self.screen()}\n{self.processes()}"
        )

    def type(self, line: str) -> None:
        self("send-keys", "-t", "play", "-l", line)
        self("send-keys", "-t", "play", "Enter")


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Tmux]:
    assert shutil.which("tmux"), "tmux is needed (scripts/setup.sh installs it)"
    t = Tmux(tmp_path / "tmux.sock")
    yield t
    subprocess.run(["tmux", "-S", str(t.socket), "kill-server"], capture_output=True)


def _last_prompt(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1].strip() if lines else ""


def test_a_whole_game_against_the_random_bot_in_tmux(
    tmux: Tmux, ttt_dir: Path, tmp_path: Path
) -> None:
    saved = tmp_path / "played.jsonl"
    command = [sys.executable, "-m", "rulebook2game", "play", str(ttt_dir), "--seed", "7"]
    tmux("new-session", "-d", "-s", "play", "-x", "100", "-y", "50", shlex.join(command))
    tmux("set-option", "-t", "play", "remain-on-exit", "on")
    tmux.wait_for(lambda s: _last_prompt(s).startswith("seat 0>"), "the first prompt")
    screen = tmux.screen()
    assert "seat 0 to move · legal actions:" in screen
    assert "9. mark(row=2, col=2)" in screen

    tmux.type("nonsense")
    tmux.wait_for(lambda s: "'nonsense' is not a legal action here" in s, "the bad-input line")
    tmux.type("mark(row=0")
    tmux.wait_for(lambda s: "is ambiguous: 3 actions match" in s, "the ambiguity line")
    tmux("clear-history", "-t", "play")

    tmux.type("5")
    tmux.wait_for(lambda s: "(bot:random)" in s and _last_prompt(s) == "seat 0>", "a bot's move")
    tmux.type("undo")
    tmux.wait_for(lambda s: "took back 2 step(s)" in s, "the undo")

    moves = 0
    while True:
        screen = tmux.wait_for(lambda s: _last_prompt(s) in ("seat 0>", "game over>"), "a prompt")
        if _last_prompt(screen) == "game over>":
            break
        tmux.type("1")
        # The person moves at steps 0, 2, 4, ... (the bot answers in between).
        logged = f"{2 * moves:>3}. seat 0 (human): "
        moves += 1
        assert moves <= 5, "tic-tac-toe lasts at most five moves of the first player"
        tmux.wait_for(lambda s, line=logged: line in s, "the move in the log")
    assert "game over · returns" in screen

    tmux.type(f"save {saved}")
    tmux.wait_for(lambda s: f"to {saved}" in s, "the save")
    tmux.wait_for(lambda s: s.rstrip().endswith("game over>"), "the prompt after the save")

    def ended(_: str) -> bool:
        # tmux marks the pane dead when the terminal closes and fills in the exit status
        # once it has reaped the process: on a busy machine the two can be read apart.
        if tmux.exit_status():
            return True
        # A key typed while the prompt is still being set up can be flushed with the
        # terminal's pending input on a busy machine: Ctrl-D again until it lands.
        tmux("send-keys", "-t", "play", "C-d")
        time.sleep(1.0)
        return False

    tmux.wait_for(ended, "the program ending")
    assert tmux.exit_status() == "0"
    assert "Traceback" not in tmux.screen()

    trace = read_trace(saved)
    assert trace.end.terminal and trace.end.returns is not None
    people = [s for s in trace.steps if s.player == 0]
    assert len(people) == moves
    assert all(s.action == s.legal[0] for s in people if s.legal is not None)
