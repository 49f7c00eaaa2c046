"""The session every simulating command runs its games in: workers or Ray, a checkpoint to carry on from, a
progress bar, and what a Ctrl-C or SIGTERM says."""

from __future__ import annotations

import os
import shlex
import signal
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from platformdirs import user_data_path
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from ..engine.errors import ConfigError
from ..sim import Interrupted, SimulationSpec
from ..sim.runner import Session, runs
from .app import err
from .arguments import check_output_file

RayOption = Annotated[str | None, typer.Option(
    "--ray", metavar="auto|ADDRESS",
    help="Play the games on a Ray cluster (the ray extra): 'auto' for the cluster this machine is in (or a Ray of "
         "its own here), or the cluster's address. Same seed, same results as on local processes.")]
ResumeOption = Annotated[Path | None, typer.Option(
    "--resume", metavar="FILE",
    help="Keep every finished game in FILE as it arrives; run again with the same FILE to carry on a stopped run "
         "(the same results as a run never stopped).")]


def runs_folder() -> Path:
    """Where a run's finished games are kept while it runs, when no --resume file was named."""
    return user_data_path("divedeck", appauthor=False) / "runs"


def resume_command(checkpoint: Path) -> str:
    """This command line again, with ``--resume checkpoint`` (in place of any --resume it had)."""
    words, skip = [], False
    for word in sys.argv[1:]:
        if skip:
            skip = False
        elif word == "--resume":
            skip = True
        elif not word.startswith("--resume="):
            words.append(word)
    return shlex.join(["divedeck", *words, "--resume", str(checkpoint)])


@contextmanager
def simulation_run(command: str, workers: int | None = None, ray: str | None = None,
                   resume: Path | None = None, beside: Path | None = None) -> Iterator[Session]:
    """Around a command's simulations: every ``simulate`` call inside the block plays on local processes
    (``workers``) or on Ray (``ray``), keeps its finished games in the ``resume`` file (or else in ``beside``, the
    file next to the command's output, or else in a file of the data folder: either removed when the block ends
    normally), and shows a progress bar with its ETA on stderr (not when stderr is not a terminal; one bar for the
    whole command when it sets ``session.planned``). A Ctrl-C or SIGTERM, in a ``simulate`` call or between two,
    ends the workers within a second, says how many games are kept where and the command that carries on, and
    exits 130 (143 for SIGTERM)."""
    from ..sim.checkpoint import Checkpoint

    if ray is not None and workers is not None:
        raise ConfigError("--workers is for local processes: with --ray the games go to the cluster's CPUs")
    implicit = resume is None and beside is not None and beside.exists()
    if implicit:
        resume = beside  # the checkpoint of a stopped run of this output: carry on from it (same results)
    if resume is not None:
        if resume.exists():
            checkpoint = Checkpoint(resume, keep=not implicit)
            err.print(f"resuming from {resume}: {checkpoint.games} finished games in it", markup=False,
                      soft_wrap=True)
        else:
            check_output_file(resume, "--resume")
            checkpoint = Checkpoint(resume)
    elif beside is not None:
        check_output_file(beside, "--resume")
        checkpoint = Checkpoint(beside, keep=False)
    else:
        checkpoint = None
        folder = runs_folder()
        try:
            folder.mkdir(parents=True, exist_ok=True)
            if os.access(folder, os.W_OK):
                name = f"{command}-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.jsonl"
                checkpoint = Checkpoint(folder / name, keep=False)
        except OSError:
            pass  # no data folder to write in: the run goes on without a checkpoint
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TextColumn("ETA"), TimeRemainingColumn(), console=err, transient=True,
                  disable=not err.is_terminal) as bar:
        sessions: list[Session] = []
        whole: list[Any] = []  # the one task of a command that planned its games

        def track(spec: SimulationSpec, games: int) -> Any:
            planned = sessions[0].planned if sessions else None
            if planned is not None:
                if not whole:
                    whole.append(bar.add_task(f"{command} {spec.game}", total=planned))
                task = whole[0]
            else:
                task = bar.add_task(f"simulating {spec.game}", total=games)

            def advance(done: int) -> None:
                bar.advance(task, done)
                if bar.tasks[bar.task_ids.index(task)].finished:
                    bar.update(task, visible=False)
            return advance

        try:
            with runs(workers, ray, checkpoint, track) as session:
                sessions.append(session)
                yield session
        except Interrupted as stop:
            signal.signal(signal.SIGINT, signal.SIG_DFL)  # a Ctrl-C from here on ends the process at once
            bar.stop()
            what = "terminated" if stop.signal_name == "SIGTERM" else "stopped"
            count = f"{stop.finished} games" if stop.games is None else f"{stop.finished} of {stop.games} games"
            if stop.checkpoint is not None and stop.checkpoint.exists():
                err.print(f"{what}: {count} finished; every finished game is kept in {stop.checkpoint}; carry on "
                          f"with: {resume_command(stop.checkpoint)}", markup=False, soft_wrap=True)
            else:
                err.print(f"{what}: {count} finished", markup=False, soft_wrap=True)
            raise typer.Exit(stop.exit_code) from None


def progress_bar(label: str) -> Progress:
    return Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), console=err,
                    transient=True, disable=not err.is_terminal)
