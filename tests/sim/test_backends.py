"""Where a run's games are played (in this process, local worker processes, a Ray cluster) never changes its
results; the checkpoint gives back exactly the games it holds, and a run resumed from it plays only the rest."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from divedeck.engine.errors import DivedeckError
from divedeck.sim import GameResult, SimulationSpec, runs, simulate
from divedeck.sim.backends import Chunk, InProcess, LocalProcesses, chunked
from divedeck.sim.checkpoint import Checkpoint, decode_result, encode_result

SPEC = SimulationSpec("snorkeling", ("greedy", "random", "random"), {"num_players": 3}, 11, rotate=True)
GAMES = 24


@pytest.fixture(scope="module")
def reference() -> list[GameResult]:
    return simulate(SPEC, GAMES, workers=1)


class Counting(InProcess):
    """Plays in this process and remembers which games it was asked for."""

    def __init__(self) -> None:
        self.asked: list[int] = []

    def play(self, spec: SimulationSpec, chunks: Sequence[Chunk]) -> Iterator[list[GameResult]]:
        self.asked += [index for chunk in chunks for index in chunk]
        yield from super().play(spec, chunks)


def descendants(pid: int) -> set[int]:
    found, parents = set(), {pid}
    while parents:
        new = set()
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                if int(fields[1]) in parents and fields[0] != "Z":
                    new.add(int(entry.name))
        found |= new
        parents = new
    return found


def test_chunks_cover_every_game_once_in_order_and_shrink_to_one_game_at_the_end():
    indices = list(range(3, 1003))
    chunks = chunked(indices, 50, workers=2)
    assert [index for chunk in chunks for index in chunk] == indices
    sizes = [len(chunk) for chunk in chunks]
    assert max(sizes) == 50 and sizes == sorted(sizes, reverse=True) and sizes[-1] == 1
    assert sum(sizes[-4:]) < 10  # the workers' last chunks are short, so neither waits long for the other
    assert chunked([], 50, workers=2) == [] and chunked([7], 50) == [(7,)]


def test_local_processes_give_the_results_of_one_process_in_game_order(reference):
    backend = LocalProcesses(2)
    try:
        assert simulate(SPEC, GAMES, backend=backend) == reference
        assert simulate(SPEC, 10, backend=backend) == reference[:10]  # the same workers, a second run
    finally:
        backend.close()
    assert not backend._processes


def test_a_session_keeps_one_backend_for_every_call_and_closes_it(reference):
    with runs(workers=2) as session:
        assert simulate(SPEC, GAMES) == reference
        backend = session._backend
        assert isinstance(backend, LocalProcesses) and len(backend._processes) == 2
        assert simulate(SPEC, 5) == reference[:5]
        assert session._backend is backend
    assert session._backend is None and not backend._processes


def test_a_game_that_fails_in_a_worker_is_reported_and_no_worker_is_left():
    spec = SimulationSpec("snorkeling", ("random",) * 3, {"num_players": 3, "cards": "/nowhere/cards.toml"}, 1)
    with pytest.raises(DivedeckError):  # refused in this process, before any worker starts
        simulate(spec, 4, workers=2)
    backend = LocalProcesses(2)

    def broken(spec: SimulationSpec, index: int) -> GameResult:
        raise DivedeckError(f"game {index}: broken")

    import divedeck.sim.backends as backends

    original = backends.play_game
    backends.play_game = broken  # the workers are forked with it
    try:
        with pytest.raises(DivedeckError, match="broken"):
            simulate(SPEC, 8, backend=backend)
    finally:
        backends.play_game = original
    assert not backend._processes


def test_results_survive_the_checkpoints_json(reference):
    for result in reference:
        assert decode_result(encode_result(result)) == result
    odd = GameResult(3, ("a",), (0,), (1.5,), 9, {"pair": (1, 2), "list": [1, (2, 3)], "nan": float("inf")})
    assert decode_result(encode_result(odd)) == odd


def test_a_resumed_run_plays_only_the_missing_games_and_gives_the_same_results(tmp_path, reference):
    path = tmp_path / "run.jsonl"
    first = Checkpoint(path)
    simulate(SPEC, 10, checkpoint=first, backend=InProcess())
    first.close(finished=True)
    counting = Counting()
    again = Checkpoint(path)
    assert again.games == 10
    assert simulate(SPEC, GAMES, checkpoint=again, backend=counting) == reference
    again.close(finished=True)
    assert counting.asked == list(range(10, GAMES))
    counting = Counting()
    assert simulate(SPEC, GAMES, checkpoint=Checkpoint(path), backend=counting) == reference
    assert counting.asked == []


def test_a_checkpoint_tells_runs_apart_and_survives_a_line_cut_short(tmp_path, reference):
    path = tmp_path / "run.jsonl"
    checkpoint = Checkpoint(path)
    simulate(SPEC, 6, checkpoint=checkpoint, backend=InProcess())
    checkpoint.close(finished=True)
    with path.open("a") as handle:
        handle.write('{"run": "x", "game": {"ind')  # killed while writing
    other = SimulationSpec(SPEC.game, SPEC.bots, SPEC.options, SPEC.seed + 1, rotate=True)
    counting = Counting()
    checkpoint = Checkpoint(path)
    simulate(other, 3, checkpoint=checkpoint, backend=counting)  # another seed: nothing of it is held
    assert counting.asked == [0, 1, 2]
    assert simulate(SPEC, GAMES, checkpoint=checkpoint, backend=InProcess()) == reference
    checkpoint.close(finished=True)
    reread = Checkpoint(path)
    assert len(reread.finished(SPEC)) == GAMES and len(reread.finished(other)) == 3


def test_a_checkpoint_nobody_asked_for_is_removed_when_the_run_ends(tmp_path):
    path = tmp_path / "run.jsonl"
    with runs(workers=1, checkpoint=Checkpoint(path, keep=False)):
        simulate(SPEC, 3)
        assert path.exists()
    assert not path.exists()


def test_ray_on_a_local_cluster_gives_the_results_of_local_processes(reference):
    """Issue 17 item 5: the same run over a Ray cluster started here (2 CPUs, no dashboard), torn down after."""
    os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")  # read when Ray is imported: see backends.py
    ray = pytest.importorskip("ray")
    assert not ray.is_initialized()
    before = descendants(os.getpid())  # what earlier tests started (a server, a resource tracker) is not Ray's
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    except Exception as error:  # Ray gives its raylet 30 s to register: not enough on a machine far overloaded
        if "timed out during startup" not in str(error) or os.environ.get("CI"):
            raise  # in CI this test must run, never pass by skipping
        ray.shutdown()
        pytest.skip(f"Ray could not start its local node at load average {os.getloadavg()[0]:.1f}: {error}")
    try:
        with runs(ray="auto") as session:
            assert simulate(SPEC, GAMES) == reference
            assert session._backend is not None and session._backend.workers == 2
        started = descendants(os.getpid()) - before
        assert started, "the Ray processes run under this test"
    finally:
        ray.shutdown()
    deadline = time.monotonic() + 60  # Ray's processes take a while to go on a loaded 2-core machine
    while (left := descendants(os.getpid()) & started) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not left, "no Ray process outlives the test"
