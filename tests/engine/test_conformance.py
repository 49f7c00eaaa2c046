"""The generic conformance suite (tests/conformance.py), run for every registered game under each of its configs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from divedeck.engine import get_game

from .. import conformance
from ..conformance import case_id, cases

CASES = cases()
IDS = [case_id(name, options) for name, options in CASES]


def test_every_registered_game_is_checked() -> None:
    names = {name for name, _ in CASES}
    assert "snorkeling" in names
    assert all(conformance.configs_for(name) for name in names)
    # Every listed config is valid (a typo in GAME_CONFIGS must not silently test the defaults).
    for name, options in CASES:
        config = get_game(name).make_config(options)
        assert all(getattr(config, key) == value for key, value in options.items())


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_random_playouts_end_and_every_legal_action_applies(name: str, options: dict[str, Any]) -> None:
    conformance.check_playouts(get_game(name), options)


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_illegal_actions_raise_and_change_nothing(name: str, options: dict[str, Any]) -> None:
    conformance.check_illegal_actions(get_game(name), options)


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_malformed_action_text_raises_malformed_input(name: str, options: dict[str, Any]) -> None:
    conformance.check_malformed_action_text(get_game(name), options)


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_clone_shares_nothing_observable(name: str, options: dict[str, Any]) -> None:
    conformance.check_clone_isolation(get_game(name), options)


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_match_replays_from_its_record_and_is_deterministic(name: str, options: dict[str, Any],
                                                            tmp_path: Path) -> None:
    conformance.check_replay(get_game(name), options, directory=tmp_path)


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_action_and_state_notations_round_trip(name: str, options: dict[str, Any]) -> None:
    conformance.check_notation_roundtrip(get_game(name), options)


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_cards_are_conserved(name: str, options: dict[str, Any]) -> None:
    conformance.check_card_conservation(get_game(name), options)


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_views_and_determinize_depend_only_on_the_seats_information(name: str, options: dict[str, Any]) -> None:
    conformance.check_information(get_game(name), options)


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_events_show_no_seat_another_seats_secret(name: str, options: dict[str, Any]) -> None:
    conformance.check_event_privacy(get_game(name), options)


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_no_text_another_seat_receives_names_its_secrets(name: str, options: dict[str, Any]) -> None:
    conformance.check_received_texts(get_game(name), options)


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_every_seats_work_built_at_once_equals_each_seats_own(name: str, options: dict[str, Any]) -> None:
    conformance.check_shared_per_seat_work(get_game(name), options)


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_move_table_is_a_bijection_holding_every_legal_action(name: str, options: dict[str, Any]) -> None:
    conformance.check_move_table(get_game(name), options)
