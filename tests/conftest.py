"""Fixtures for the whole suite."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from divedeck.cli import arguments

# Each test worker has one core of its own: JAX's compiler and kernels would otherwise spread over every core and
# starve the browser and server tests that the other worker runs beside them.
os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")


@pytest.fixture(autouse=True)
def saves_in_a_temporary_folder(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A game stopped without --save is saved in the user's data folder: a test's go to a temporary one."""
    folder = tmp_path_factory.mktemp("saved")
    monkeypatch.setattr(arguments, "saves_folder", lambda: folder)
    return folder
