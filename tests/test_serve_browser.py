"""``rulebook2game serve`` in a real headless Chromium (Debian's package), driven by Playwright."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, sync_playwright

from rulebook2game.check.report import write_report
from rulebook2game.check.run import run_check
from rulebook2game.trace import read_trace
from rulebook2game.workspace import open_workspace
from tests.play_support import broken_copy, ttt_dir

__all__ = ["ttt_dir"]

pytestmark = pytest.mark.slow
CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
START_WAIT = 120.0
"""Seconds the server may take to compile the game and listen."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def served(game: Path, log: Path) -> Iterator[str]:
    """``rulebook2game serve GAME`` on a free port, until the block ends."""
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "rulebook2game", "serve", str(game), "--port", str(port)]
    with log.open("w") as out:
        server = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + START_WAIT
        while True:
            assert server.poll() is None, log.read_text()
            try:
                urllib.request.urlopen(url + "/review", timeout=5).close()
                break
            except OSError:
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.2)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[BrowserContext]:
    assert Path(CHROMIUM).exists(), "chromium is needed (scripts/setup.sh installs it)"
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=CHROMIUM,
            headless=True,
            args=FLAGS,
            accept_downloads=True,
            viewport={"width": 1100, "height": 700},
        )
        try:
            yield context
        finally:
            context.close()


def _settle(page: Page) -> None:
    page.wait_for_selector("body[data-busy='0']")


def _shot(page: Page, path: Path) -> None:
    page.screenshot(path=str(path), full_page=True)
    print(f"screenshot: {path}")


def test_a_full_game_against_the_bot_through_clicks(
    browser: BrowserContext, ttt_dir: Path, tmp_path: Path
) -> None:
    with served(ttt_dir, tmp_path / "server.log") as url:
        page = browser.new_page()
        page.goto(url + "/")
        page.wait_for_selector("#controls button.choice")
        assert page.inner_text("#status") == "Your move (seat 0)"
        assert page.locator("fieldset.group[data-name='mark'] legend").inner_text() == "mark"

        # Two-step control: choose the row, then the column; then take it back.
        page.click("button.choice[data-arg='row'][data-value='1']")
        page.click("button.choice[data-arg='col'][data-value='1']")
        _settle(page)
        page.wait_for_selector("#log li.bot")
        assert "x" in page.inner_text("#view")
        page.click("#undo")
        _settle(page)
        assert page.locator("#log li").count() == 0 and "x" not in page.inner_text("#view")

        clicks = 0
        while page.get_attribute("#status", "data-over") != "true":
            page.locator("#controls .argrow").last.locator("button.choice").first.click()
            _settle(page)
            clicks += 1
            assert clicks <= 10, "five moves of two clicks each end any game"
        status = page.inner_text("#status")
        assert status.startswith("Game over · seat 0: ")
        assert page.locator("#controls button").count() == 0
        logged = page.locator("#log li").all_inner_texts()
        assert any("(bot:random)" in line for line in logged)
        _shot(page, tmp_path / "table.png")

        with page.expect_download() as info:
            page.click("#download")
        saved = tmp_path / "downloaded.jsonl"
        info.value.save_as(saved)
        trace = read_trace(saved)
        assert trace.end.terminal and len(trace.steps) == len(logged)

        page.click("#new")
        _settle(page)
        page.wait_for_selector("#controls button.choice")
        page.set_input_files("#load", str(saved))
        page.wait_for_selector("#status[data-over='true']")
        assert page.locator("#log li").all_inner_texts()[-1].endswith(trace.actions[-1])
        assert page.inner_text("#status") == status


def test_review_plays_a_findings_counterexample_step_by_step(
    browser: BrowserContext, ttt_dir: Path, tmp_path: Path
) -> None:
    broken = broken_copy(ttt_dir, tmp_path / "broken")
    report = run_check(open_workspace(broken))
    write_report(report, broken / "reports")
    steps = report.findings[0].counterexample or []
    with served(broken, tmp_path / "server.log") as url:
        page = browser.new_page()
        page.goto(url + "/review")
        assert page.locator("#findings li.finding").count() == len(report.findings)
        assert page.locator("li.sentence.uncited").count() > 0
        assert page.locator("li.sentence.cited a.cite").count() > 0
        page.locator("button.play-finding").first.click()
        page.wait_for_selector("#forward:not([hidden])")
        _settle(page)
        assert "returns differs" in page.inner_text("#note")
        assert page.locator("#controls button").count() == 0
        for n in range(1, len(steps) + 1):
            page.click("#forward")
            _settle(page)
            assert page.locator("#log li").count() == n
        assert page.is_disabled("#forward")
        assert page.get_attribute("#status", "data-over") == "true"
        assert "End of the recorded steps." in page.inner_text("#script")
        _shot(page, tmp_path / "counterexample.png")
        page.click("#back")
        _settle(page)
        assert page.locator("#log li").count() == len(steps) - 1

        page.goto(url + "/review")
        page.fill("#diff-form input[name='old']", str(ttt_dir))
        page.click("#diff-form button[type='submit']")
        page.wait_for_selector("text=Rule diff:")
        assert "winner = 1 - current" in page.inner_text("body")
        page.click("text=← review")
        page.wait_for_selector("#findings")
