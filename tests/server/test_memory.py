"""Finished tables leave memory after a while, and come back from storage when someone opens them again."""

from __future__ import annotations

import random

from .conftest import Harness, drive


def test_a_finished_table_is_forgotten_then_rebuilt_from_storage_on_demand(app: Harness) -> None:
    table_id, tokens, _ = app.create(["human", "greedy"], {"target_score": 3})
    sockets = {0: app.connect(table_id, tokens[0])}
    drive(sockets, random.Random(5))
    outcome = sockets[0].last["outcome"]
    version = sockets[0].last["version"]
    assert outcome is not None
    app.close(sockets[0])
    manager = app.manager
    finished_at = app.live(table_id).finished_at
    assert finished_at is not None
    manager.evict_finished(finished_at + 1)  # just finished: kept for people still looking
    assert table_id in manager.tables
    manager.evict_finished(finished_at + 10_000)
    assert table_id not in manager.tables
    late = app.connect(table_id, spectator=True)  # a page opened later still shows the result
    assert late.welcome["outcome"] == outcome and late.welcome["version"] == version
    assert table_id in manager.tables
