"""Ctrl-C, SIGTERM and `--resume` on `divedeck report`, `divedeck sweep` and `divedeck tune`, in real processes
with real signals: the same session as `simulate` (cli.simulation_run), its checkpoint beside the report. A stopped
run stops within a second or two, ends its workers, keeps its finished games and says how to carry on; carrying on
gives the report of a run never stopped, byte for byte; a damaged checkpoint is refused in one line and left as it
was.

Before this work, these commands ran outside the session: no checkpoint, no --resume, and a Ctrl-C lost the run.
"""

from __future__ import annotations

import signal
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from divedeck.cli import app

from .interrupting import STOP_SECONDS, kept_games, start_command, stop, wait_for_games

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir() or sys.platform != "linux",
                                reason="reads worker processes from /proc")

# A data field (the deck's Panic count, written as files beside the report) and an option, on fast random bots.
REPORT = ["report", "hold-your-breath", "--seats", "random,random", "--seed", "3"]
SWEEP = ["sweep", "hold-your-breath", "--vary", "deck.panic=2,6", "--seats", "random,random", "--seed", "3"]
TUNE = ["tune", "snorkeling", "--vary", "target_score=2..30", "--points", "4", "--target", "rounds=1..2",
        "--seats", "random,random", "--seed", "3"]
# Enough games that the first run is still playing when it is stopped (HYB random: a few hundred games/s a core).
SIZES = {"report": ["--games", "400"], "sweep": ["--games", "200"], "tune": ["--games", "40", "--budget", "600"]}
LONG = {"report": ["--games", "200000"], "sweep": ["--games", "20000"],
        "tune": ["--games", "20000", "--budget", "1000000"]}
COMMANDS = pytest.mark.parametrize("command", [REPORT, SWEEP, TUNE], ids=["report", "sweep", "tune"])


def reference(command: list[str], folder: Path) -> Path:
    """The report of a run never stopped, played in this process on one worker."""
    folder.mkdir()
    out = folder / "r.html"
    done = CliRunner().invoke(app, [*command, *SIZES[command[0]], "--workers", "1", "--out", str(out)])
    assert done.exit_code == 0, done.output
    assert not (folder / "r.checkpoint.jsonl").exists(), "a run that ends removes the checkpoint nobody named"
    return out


@COMMANDS
def test_a_stopped_run_carried_on_gives_the_report_of_a_run_never_stopped(command, tmp_path):
    folder = tmp_path / "run"
    folder.mkdir()
    out = folder / "r.html"
    checkpoint = folder / "r.checkpoint.jsonl"  # beside the report, without --resume
    args = [*command, *SIZES[command[0]], "--workers", "2", "--out", str(out)]
    first = start_command(args, tmp_path)
    wait_for_games(checkpoint, 20, first)
    code, err, _ = stop(first, signal.SIGINT)
    kept = kept_games(checkpoint)
    assert code == 130 and kept >= 20 and not out.exists(), (code, kept, err)
    assert f"carry on with: divedeck {command[0]} {command[1]}" in err and f"--resume {checkpoint}" in err, err
    # The report and the sweep carry on from the checkpoint beside the report by themselves; the tuning is told
    # --resume.
    again = args if command is not TUNE else [*args, "--resume", str(checkpoint)]
    second = start_command(again, tmp_path)
    _, err = second.communicate(timeout=120)
    assert second.returncode == 0, err
    assert f"resuming from {checkpoint}: {kept} finished games in it" in err, err
    expected = reference(command, tmp_path / "ref")
    assert out.read_text() == expected.read_text()
    assert out.with_suffix(".json").read_text() == expected.with_suffix(".json").read_text()
    assert out.with_suffix(".csv").read_text() == expected.with_suffix(".csv").read_text()
    # Named with --resume, a checkpoint is kept; found beside the report, it goes when the run ends.
    assert checkpoint.exists() == (command is TUNE)


@COMMANDS
def test_a_signal_stops_the_run_within_a_second_keeping_its_finished_games(command, tmp_path):
    out = tmp_path / "r.html"
    checkpoint = tmp_path / "r.checkpoint.jsonl"
    process = start_command([*command, *LONG[command[0]], "--workers", "2", "--out", str(out)], tmp_path)
    wait_for_games(checkpoint, 20, process)
    code, err, took = stop(process, signal.SIGTERM)
    assert code == 143 and took < STOP_SECONDS, (code, took, err)
    kept = kept_games(checkpoint)
    said = err.strip().splitlines()[-1]  # one line: what is kept where, and the command that carries on
    assert said.startswith("terminated: ") and f"; every finished game is kept in {checkpoint}; " in said, err
    if command is not TUNE:  # a report or a sweep knows its games in advance; a tuning drops candidates as it goes
        assert f" of {200000 if command is REPORT else 40000} games finished;" in said
    finished = int(said.split()[1])
    assert 20 <= finished <= kept, (finished, kept)
    assert f"; carry on with: divedeck {command[0]} {command[1]} " in said and said.endswith(f"--resume {checkpoint}")
    assert not out.exists()


@COMMANDS
def test_a_damaged_checkpoint_is_refused_in_one_line_and_left_as_it_was(command, tmp_path):
    checkpoint = tmp_path / "kept.jsonl"
    small = [*command, "--games", "10", "--workers", "1", "--resume", str(checkpoint)]
    if command is TUNE:
        small += ["--budget", "40"]
    done = CliRunner().invoke(app, [*small, "--out", str(tmp_path / "first.html")])
    assert done.exit_code == 0, done.output
    lines = checkpoint.read_text().splitlines(keepends=True)
    assert len(lines) > 4
    lines[3] = lines[3][: len(lines[3]) // 2] + "\n"  # a game's line cut in the middle of the file
    damaged = "".join(lines)
    checkpoint.write_text(damaged)
    out = tmp_path / "second.html"
    process = start_command([*small, "--out", str(out)], tmp_path)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 2, err
    assert err.strip().splitlines() == [f"error: --resume {checkpoint}: line 4 is damaged"], err
    assert checkpoint.read_text() == damaged and not out.exists()


def test_a_ctrl_c_between_two_runs_of_a_session_reports_the_session_s_games(tmp_path):
    from divedeck.sim import Interrupted, SimulationSpec, runs, simulate
    from divedeck.sim.checkpoint import Checkpoint

    spec = SimulationSpec("snorkeling", ("random", "random"), {"num_players": 2}, 1)
    checkpoint = Checkpoint(tmp_path / "c.jsonl")
    with pytest.raises(Interrupted) as stopped, runs(workers=1, checkpoint=checkpoint) as session:
        session.planned = 30
        simulate(spec, 10)
        raise KeyboardInterrupt  # a Ctrl-C while a sweep measures a variant, before the next one plays
    assert (stopped.value.finished, stopped.value.games, stopped.value.signal_name) == (10, 30, "SIGINT")
    assert stopped.value.checkpoint == tmp_path / "c.jsonl" and kept_games(tmp_path / "c.jsonl") == 10
    with pytest.raises(Interrupted) as stopped, runs(workers=1) as session:  # a tuning: no total in advance
        simulate(spec, 5)
        raise KeyboardInterrupt
    assert (stopped.value.finished, stopped.value.games) == (5, None)


@COMMANDS
def test_ray_goes_through_the_same_session_and_is_refused_beside_workers(command, tmp_path):
    out = tmp_path / "r.html"
    done = CliRunner().invoke(app, [*command, *SIZES[command[0]], "--workers", "2", "--ray", "auto",
                                    "--out", str(out)])
    assert done.exit_code != 0 and "--workers is for local processes" in str(done.exception)
    assert not out.exists() and not (tmp_path / "r.checkpoint.jsonl").exists()
