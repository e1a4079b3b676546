"""Golden traces chosen for coverage: ending signatures, greedy cover, walks, coverage report."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulebook2game.check.replay import replay
from rulebook2game.cli import app
from rulebook2game.errors import BadInputError
from rulebook2game.mutate import read_pages
from rulebook2game.mutate.listed import listed_mutants
from rulebook2game.oracle import load_oracle
from rulebook2game.trace import Trace, TraceEnd, TraceHeader, TraceStep, read_trace
from rulebook2game.traces.adequacy import kill_sets
from rulebook2game.traces.coverage import game_coverage
from rulebook2game.traces.search import SELECTION_FILE, oracle_candidates, walk_of
from rulebook2game.traces.select import (
    Candidate,
    ending_features,
    ending_of,
    greedy_cover,
    trace_features,
)
from rulebook2game.traces.walks import WalkSpec, record_walk
from rulebook2game.workspace import open_workspace

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT / "corpora"
LISTED = ROOT / "evals" / "mutants" / "semantic.toml"
GAMES = sorted(p.name for p in CORPORA.iterdir() if (p / "game.toml").is_file())


def test_ending_signatures_tell_draws_wins_and_moon_shots_apart() -> None:
    assert ending_of([0.0, 0.0]) == "draw (sum 0)"
    assert ending_of([1.0, -1.0]) == "seat 0 best (sum 0)"
    assert ending_of([-1.0, 1.0]) == "seat 1 best (sum 0)"
    assert ending_of(None) == "unfinished"
    # Hearts: an ordinary hand sums to 78, a moon shot to 26; a shared first place
    # covers each of its seats.
    assert ending_of([26.0, 13.0, 26.0, 13.0]) == "seat 0+2 best (sum 78)"
    assert ending_features([0.0, 26.0, 0.0, 0.0]) == {"ending: seat 1 best (sum 26)"}
    assert ending_features([26.0, 13.0, 26.0, 13.0]) == {
        "ending: seat 0 best (sum 78)",
        "ending: seat 2 best (sum 78)",
    }


def _toy(name: str, steps: int, features: set[str]) -> Candidate:
    header = TraceHeader(game="toy", players=2)
    body = tuple(TraceStep(t=t, player=0, action="go()") for t in range(steps))
    return Candidate(name, Trace(header, body, TraceEnd(terminal=True)), frozenset(features))


def test_greedy_cover_keeps_few_covers_all_and_prefers_short_traces() -> None:
    candidates = [
        _toy("a", 5, {"x", "y"}),
        _toy("b", 9, {"y", "z"}),
        _toy("c", 3, {"y", "z"}),
        _toy("d", 4, {"x"}),
        _toy("e", 4, {"w", "x", "y"}),
    ]
    chosen = greedy_cover(candidates)
    names = [p.candidate.name for p in chosen.picks]
    assert names == ["e", "c"]  # e covers most; c ties b on z and is shorter
    assert chosen.covered == chosen.universe == {"w", "x", "y", "z"}
    assert chosen.picks[1].new == {"z"}
    capped = greedy_cover(candidates, max_traces=1)
    assert capped.uncovered == {"z"}


def test_a_walk_is_byte_reproducible_and_replays_against_its_oracle() -> None:
    engine = load_oracle("openspiel:hearts")
    spec = WalkSpec("seat1_high", 4)
    trace = record_walk(engine, spec, game="hearts", max_steps=117)
    assert record_walk(engine, spec, game="hearts", max_steps=117).to_jsonl() == trace.to_jsonl()
    assert trace.end.terminal and trace.header.seed == 4
    assert replay(engine, trace).ok
    assert {"action: deal", "action: play", "arg: play.card=43"} <= trace_features(trace)


def test_the_search_finds_the_connect_four_draw_that_seeded_play_missed() -> None:
    engine = load_oracle("openspiel:connect_four")
    candidates = oracle_candidates(engine, game="connect_four", walks=3000, max_steps=42)
    universe = frozenset().union(*(c.features for c in candidates))
    assert "ending: draw (sum 0)" in universe
    chosen = greedy_cover(candidates)
    endings = {f for f in chosen.covered if f.startswith("ending: ")}
    assert endings == {
        "ending: draw (sum 0)",
        "ending: seat 0 best (sum 0)",
        "ending: seat 1 best (sum 0)",
    }


@pytest.mark.parametrize("game", GAMES)
def test_golden_traces_rerecord_from_their_walk_and_cover_every_ending_found(game: str) -> None:
    folder = CORPORA / game / "traces"
    record = json.loads((folder / SELECTION_FILE).read_text())
    engine = load_oracle(record["source"])
    limit = open_workspace(CORPORA / game).config().max_game_length or 10_000
    files = sorted(folder.glob("*.jsonl"))
    assert 1 <= len(files) <= 16
    assert {t["file"] for t in record["traces"]} == {f.name for f in files}
    # the cap did not cut the cover short: every mutant some walk kills, a kept trace kills
    assert record["uncovered"] == []
    for path in files:
        again = record_walk(engine, walk_of(path.stem), game=game, max_steps=limit)
        assert again.to_jsonl() == path.read_text(), path.name
    coverage = game_coverage(CORPORA / game)
    assert coverage.endings_missing == () and coverage.actions_missing == ()
    assert coverage.mutants is not None, coverage.note


def test_corpus_traces_close_the_known_holes() -> None:
    c4 = game_coverage(CORPORA / "connect_four")
    assert "draw (sum 0)" in c4.endings
    hearts = game_coverage(CORPORA / "hearts")
    assert {f"seat {s} best (sum 26)" for s in range(4)} <= set(hearts.endings)


def test_coverage_says_when_the_traces_are_not_the_measured_ones(tmp_path: Path) -> None:
    game = shutil.copytree(CORPORA / "tic_tac_toe", tmp_path / "ttt", ignore=_no_build)
    first = sorted((game / "traces").glob("*.jsonl"))[0]
    first.unlink()
    coverage = game_coverage(game)
    assert coverage.mutants is None and "differ" in coverage.note
    assert any("not measured" in line for line in coverage.lines())


def _no_build(_dir: str, names: list[str]) -> list[str]:
    return [n for n in names if n in ("build", "reports")]


def test_listed_mutants_apply_once_and_reject_ambiguous_entries(tmp_path: Path) -> None:
    pages = read_pages(CORPORA / "connect_four" / "pages")
    mutants = {m.id.rsplit(":", 1)[-1]: m for m in listed_mutants(LISTED, "connect_four", pages)}
    draw = mutants["draw-scores-loss"]
    assert draw.page == "win" and "g.winner == -1" not in draw.source
    assert "-    if !g.is_done() or g.winner == -1:" in draw.diff
    assert len(mutants) >= 5
    bad = tmp_path / "bad.toml"
    bad.write_text(
        '[[connect_four]]\nid = "x"\npage = "win"\nbefore = "return"\nafter = "x"\nwhy = "y"\n'
    )
    with pytest.raises(BadInputError, match="occurs"):
        listed_mutants(bad, "connect_four", pages)


def test_traces_command_selects_from_played_games_and_writes_them(tmp_path: Path) -> None:
    game = shutil.copytree(CORPORA / "tic_tac_toe", tmp_path / "ttt", ignore=_no_build)
    played = tmp_path / "played"
    played.mkdir()
    engine = load_oracle("openspiel:tic_tac_toe")
    for seed in range(40):
        trace = record_walk(engine, WalkSpec("uniform", seed), game="tic_tac_toe", max_steps=9)
        (played / f"game{seed:02d}.jsonl").write_text(trace.to_jsonl())
    result = CliRunner().invoke(
        app, ["traces", str(game), "--select", "--from", str(played), "--write"]
    )
    assert result.exit_code == 0, result.output
    kept = sorted((game / "traces").glob("*.jsonl"))
    assert 1 <= len(kept) < 40 and all(p.stem.startswith("game") for p in kept)
    endings = {e for p in kept for e in trace_features(read_trace(p)) if e.startswith("ending")}
    assert endings == {
        e
        for p in played.glob("*.jsonl")
        for e in trace_features(read_trace(p))
        if e.startswith("ending")
    }
    shown = CliRunner().invoke(app, ["traces", str(game)])
    assert shown.exit_code == 0 and "endings" in shown.output


def test_traces_command_rejects_a_missing_source(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["traces", str(CORPORA / "pig"), "--select", "--from", str(tmp_path / "nope")]
    )
    assert result.exit_code == 2
    assert "no such file" in result.output


@pytest.mark.slow
def test_kill_sets_replay_each_candidate_through_the_mutant_and_cache_the_answers(
    tmp_path: Path,
) -> None:
    game = shutil.copytree(CORPORA / "connect_four", tmp_path / "c4", ignore=_no_build)
    pages = read_pages(game / "pages")
    draw_rule = [
        m
        for m in listed_mutants(LISTED, "connect_four", pages)
        if m.id.endswith("draw-scores-loss")
    ]
    engine = load_oracle("openspiel:connect_four")
    candidates = oracle_candidates(engine, game="connect_four", walks=3000, max_steps=42)
    drawn = next(c for c in candidates if "ending: draw (sum 0)" in c.features)
    won = next(c for c in candidates if "ending: seat 0 best (sum 0)" in c.features)
    traces = {"won": won.trace, "drawn": drawn.trace}
    cache = tmp_path / "cache.json"
    kills = kill_sets(game, pages, draw_rule, traces, first=["won"], cache=cache)
    result = kills[draw_rule[0].id]
    # The win does not kill it, so every other candidate is replayed: the draw does.
    assert result.compiled and result.killers == {"drawn"} and result.complete
    assert not (game / "build" / "adequacy").exists() or not any(
        (game / "build" / "adequacy").iterdir()
    )
    # Answered from the cache: without the pages on disk nothing could be compiled.
    shutil.rmtree(game / "pages")
    again = kill_sets(game, pages, draw_rule, traces, first=["won"], cache=cache)
    assert again[draw_rule[0].id] == result


def test_every_hand_written_mutant_still_edits_its_gold_page_once() -> None:
    # The second mutant set quotes gold-page lines; a quote that moved measures nothing.
    import tomllib

    from rulebook2game.resources import CORPORA_DIR

    semantic = CORPORA_DIR.parent / "evals" / "mutants" / "semantic.toml"
    stale = [
        f"{game}/{m['id']}"
        for game, mutants in tomllib.loads(semantic.read_text()).items()
        for m in mutants
        if (CORPORA_DIR / game / "pages" / f"{m['page']}.rl").read_text().count(m["before"]) != 1
    ]
    assert stale == []
