"""Helpers for the tests that stop a simulation run with real signals (test_interrupt.py for `simulate`,
test_interrupt_sweep.py for `sweep` and `tune`): a command in a process of its own, its worker processes read from
/proc, waiting for its checkpoint to fill, and stopping it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

STOP_SECONDS = 3.0  # from the signal to the exit, on a loaded 2-core machine (the run itself stops within 1 s)


def kept_games(checkpoint: Path) -> int:
    """Finished games in a checkpoint file."""
    return checkpoint.read_text().count('"game": {')


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def start_command(args: list[str], tmp_path: Path) -> subprocess.Popen[str]:
    """``divedeck ARGS`` in a process of its own (its data folder in ``tmp_path``), as a person runs it."""
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "COLUMNS": "400"}
    return subprocess.Popen([sys.executable, "-m", "divedeck.cli", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)


def wait_for_games(checkpoint: Path, games: int, process: subprocess.Popen[str], limit: float = 60.0) -> None:
    """Until the run has checkpointed ``games`` games (it is well under way, its workers playing)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if checkpoint.exists() and kept_games(checkpoint) >= games:
            return
        assert process.poll() is None, process.communicate()
        time.sleep(0.05)
    raise AssertionError(f"the run did not reach {games} games")


def stop(process: subprocess.Popen[str], *signals: signal.Signals) -> tuple[int, str, float]:
    """Send ``signals`` (50 ms apart); the exit code, stderr and the seconds from the first signal to the exit.
    Every worker the run had must be gone by then."""
    workers = children(process.pid)
    assert workers, "the run has worker processes"
    began = time.monotonic()
    for number, sent in enumerate(signals):
        if number:
            time.sleep(0.05)
        process.send_signal(sent)
    try:
        _, err = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        for pid in workers:
            os.kill(pid, signal.SIGKILL) if alive(pid) else None
        raise AssertionError("the run did not end after the signal") from None
    took = time.monotonic() - began
    time.sleep(0.2)
    assert [pid for pid in workers if alive(pid)] == [], "no worker outlives the run"
    return process.returncode, err, took
