"""Fixtures for the whole suite."""

from __future__ import annotations

from pathlib import Path

import pytest

from divedeck import cli


@pytest.fixture(autouse=True)
def saves_in_a_temporary_folder(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A game stopped without --save is saved in the user's data folder: a test's go to a temporary one."""
    folder = tmp_path_factory.mktemp("saved")
    monkeypatch.setattr(cli, "saves_folder", lambda: folder)
    return folder
