"""Jobs on a local pool and on Ray: order, retries of lost and failed jobs, resume."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulebook2game.evals import mutants as mutant_runner
from rulebook2game.jobs import JobJournal, JobsFailed, LocalPool, RayRunner
from rulebook2game.resources import CORPORA_DIR


def square(x: int) -> int:
    return x * x


def die_once(marker_and_value: tuple[str, int]) -> int:
    """Kill the worker process the first time it is called for a marker, then work."""
    marker, value = marker_and_value
    if not os.path.exists(marker):
        Path(marker).write_text("died")
        os._exit(3)
    return value


def fail_on_two(x: int) -> int:
    if x == 2:
        raise ValueError("two is not allowed")
    return x


@pytest.mark.parametrize("workers", [1, 2])
def test_results_come_back_in_item_order(workers: int) -> None:
    seen: list[int] = []
    pool = LocalPool(workers)
    out = pool.map(square, list(range(7)), [str(i) for i in range(7)], lambda i, r: seen.append(i))
    assert out == [0, 1, 4, 9, 16, 25, 36] and sorted(seen) == list(range(7))
    assert pool.retried == []


def test_a_lost_worker_is_retried_and_noted(tmp_path: Path) -> None:
    items = [(str(tmp_path / "m1"), 1), (str(tmp_path / "m2"), 2)]
    pool = LocalPool(2)
    assert pool.map(die_once, items, ["first", "second"]) == [1, 2]
    assert pool.retried and all("worker process lost" in line for line in pool.retried)


def test_a_failing_job_is_reported_after_the_others_finish() -> None:
    finished: list[int] = []
    pool = LocalPool(2, retries=1)
    with pytest.raises(JobsFailed) as caught:
        pool.map(fail_on_two, [1, 2, 3], ["a", "b", "c"], lambda i, r: finished.append(r))
    (failure,) = caught.value.failures
    assert failure.key == "b" and failure.attempts == 2 and "two is not allowed" in failure.error
    assert sorted(finished) == [1, 3] and pool.retried == ["b: ValueError: two is not allowed"]


def test_journal_keeps_results_and_clears(tmp_path: Path) -> None:
    journal = JobJournal(tmp_path / "j")
    assert journal.get("k") is None
    journal.put("k", "result")
    assert journal.get("k") == "result" and JobJournal(tmp_path / "j").get("k") == "result"
    journal.clear()
    assert journal.get("k") is None and not (tmp_path / "j").exists()


@pytest.fixture
def ttt(tmp_path: Path) -> Path:
    skip = shutil.ignore_patterns("build", "reports")
    return Path(shutil.copytree(CORPORA_DIR / "tic_tac_toe", tmp_path / "ttt", ignore=skip))


def test_an_interrupted_mutant_run_resumes_without_redoing_finished_mutants(
    ttt: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checked: list[str] = []
    real = mutant_runner.check_mutant

    def counting(game_dir: Path, mutant: mutant_runner.Mutant, profile: object) -> object:
        checked.append(mutant.id)
        return real(game_dir, mutant, profile)  # type: ignore[arg-type]

    monkeypatch.setattr(mutant_runner, "check_mutant", counting)

    def interrupt(outcome: object) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        mutant_runner.run_mutants(ttt, max_mutants=3, workers=1, on_mutant=interrupt)
    assert len(checked) == 1
    run = mutant_runner.run_mutants(ttt, max_mutants=3, workers=1)
    assert len(run.outcomes) == 3 and len(checked) == 3  # the first one came from the journal
    assert checked[0] not in checked[1:]
    assert not (ttt / "build" / "mutant-jobs").exists() or not any(
        (ttt / "build" / "mutant-jobs").iterdir()
    )


@pytest.fixture
def ray_head() -> Iterator[str]:
    """A Ray head started here on the loopback address, stopped after the test."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_USAGE_STATS_ENABLED": "0"}
    # Ray's unix sockets live under --temp-dir, whose path must stay short (107 bytes).
    temp = tempfile.mkdtemp(prefix="r2g-ray-", dir="/tmp")
    log = Path(temp) / "head.log"
    with log.open("w") as out:
        head = subprocess.Popen(
            [str(Path(sys.executable).parent / "ray"), "start", "--head", "--block",
             "--node-ip-address", "127.0.0.1", "--port", str(port), "--num-cpus", "2",
             "--include-dashboard", "false", "--disable-usage-stats", "--temp-dir", temp],
            env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while "Ray runtime started" not in log.read_text():
            assert head.poll() is None, f"ray start failed:\n{log.read_text()[-2000:]}"
            assert time.monotonic() < deadline, "the Ray head did not start within 120 s"
            time.sleep(0.5)
        yield f"127.0.0.1:{port}"
    finally:
        import ray

        ray.shutdown()
        head.terminate()
        head.wait(timeout=60)
        shutil.rmtree(temp, ignore_errors=True)


@pytest.mark.slow
def test_mutants_on_a_ray_head_give_the_pool_s_report(ttt: Path, ray_head: str) -> None:
    pooled = mutant_runner.run_mutants(ttt, max_mutants=4, seed=2, runner=LocalPool(2))
    runner = RayRunner(ray_head)
    on_ray = mutant_runner.run_mutants(ttt, max_mutants=4, seed=2, runner=runner)

    def summary(run: mutant_runner.MutantRun) -> list[tuple[str, str, str | None]]:
        return [(o.id, o.status, o.stage) for o in run.outcomes]

    assert summary(on_ray) == summary(pooled) and len(pooled.outcomes) == 4
    assert (on_ray.killed, on_ray.total) == (pooled.killed, pooled.total)
    assert runner.retried == []


def test_eval_with_no_ray_cluster_at_the_address_is_bad_input(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    game = CORPORA_DIR / "tic_tac_toe"
    result = subprocess.run(
        [sys.executable, "-m", "rulebook2game", "eval", str(game), "--out", str(tmp_path),
         "--ray", f"127.0.0.1:{port}", "--fuzz", "1", "--oracle-runs", "0", "--trajectories", "0"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1 and f"--ray 127.0.0.1:{port}: no Ray cluster" in (
        result.stderr
    )
    assert not list(tmp_path.glob("*.json"))
