"""Option values out of range, huge or not numbers at all are refused in one line when a table is created, and a
welcome that cannot be built leaves no connection in its seat (issue 13, item 3)."""

from __future__ import annotations

from typing import Any

import pytest

from divedeck.engine.registry import game_names, get_game

from .conftest import Harness

WHOLE_NUMBER_OPTIONS = [(name, option) for name in game_names() for option in get_game(name).options()
                        if option["type"] == "int" and option["name"] not in get_game(name).with_players({}, 2)]
HUGE = [2 ** 63, 2 ** 64, 2 ** 70, -(2 ** 64), 10 ** 30, "1" + "0" * 30, "9" * 200, "9" * 1000, "²", "1e9"]


def humans(game_name: str) -> list[dict[str, str]]:
    return [{"kind": "human"}] * get_game(game_name).default_players()


@pytest.mark.parametrize(("game_name", "option"), WHOLE_NUMBER_OPTIONS,
                         ids=[f"{g}-{o['name']}" for g, o in WHOLE_NUMBER_OPTIONS])
def test_out_of_range_and_huge_values_are_refused_naming_the_range(app: Harness, game_name: str,
                                                                    option: dict[str, Any]) -> None:
    for value in [option["low"] - 1, option["high"] + 1, *HUGE]:
        response = app.client.post("/api/tables", json={"game": game_name, "options": {option["name"]: value},
                                                        "seats": humans(game_name)})
        assert response.status_code == 400, (value, response.text)
        error = response.json()["error"]
        assert error["code"] in ("bad_config", "malformed"), error
        assert "\n" not in error["message"], error
        if isinstance(value, int):
            assert f"from {option['low']} to {option['high']}" in error["message"]
    assert app.client.get("/api/tables").json()["tables"] == []


def test_a_welcome_that_cannot_be_sent_leaves_the_seat_unconnected(app: Harness, monkeypatch: Any) -> None:
    table_id, tokens, _ = app.create()
    table = app.live(table_id)

    def broken(seat: int | None) -> dict[str, Any]:
        raise OverflowError("Integer exceeds 64-bit range")

    monkeypatch.setattr(table, "welcome", broken)
    socket_ = app.open(table_id)
    socket_.send({"type": "hello", "protocol": 3, "token": tokens[0]})
    refusal = socket_.next("error")
    assert refusal["code"] == "server_error"
    assert socket_.next("_closed")["code"] == 1011
    monkeypatch.undo()
    assert not table.seats[0].connections
    assert app.client.get(f"/api/tables/{table_id}").json()["table"]["seats"][0]["connected"] is False
    assert app.connect(table_id, tokens[0]).welcome is not None  # the seat still opens
