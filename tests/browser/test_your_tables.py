"""Your tables (issue 26, item 11): a page linked from the lobby lists every table this browser holds a seat at,
with the game, the other players, whose turn it is and how long it has waited, one click back to the table;
a finished table stays listed with its result and its replay link. Desktop and a touch phone; axe finds nothing
serious."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import wait_until
from tests.browser.test_people import play_to_the_end
from tests.live_server import ServerProcess, running_server

SIZES = {"desktop": {"viewport": {"width": 1366, "height": 800}},
         "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}}


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(tmp_path_factory.mktemp("yours"), "--bot-delay", "0.05") as server:
        yield server


def serious_violations(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [f"{v['id']}: {v['help']}" for v in found if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("size", SIZES)
def test_your_tables_lists_your_seats_their_turns_and_results(browser: Any, live: ServerProcess, artifacts: Path,
                                                              size: str) -> None:
    def create(seats: list[dict[str, Any]], options: dict[str, Any] | None = None) -> tuple[str, list[Any]]:
        status, created = live.request("POST", "/api/tables", {"game": "snorkeling", "seats": seats,
                                                               "options": options or {}})
        assert status == 201, created
        return created["table"]["id"], created["tokens"]

    playing, playing_tokens = create([{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}])
    finished, finished_tokens = create([{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}],
                                       {"target_score": 1})
    play_to_the_end(live, finished, finished_tokens)
    page = browser.new_context(**SIZES[size]).new_page()
    for table_id, tokens in ((playing, playing_tokens), (finished, finished_tokens)):
        page.goto(f"{live.url}/table/{table_id}#seat=0&token={tokens[0]}")  # the browser keeps seat 0's token
        wait_until(page, f"localStorage.getItem('divedeck.tokens.{table_id}') !== null", timeout=10)
    page.goto(f"{live.url}/")
    page.get_by_role("link", name="Your tables").click()
    wait_until(page, "document.querySelectorAll('#your-tables [data-table]').length === 2", timeout=10)
    page.screenshot(path=str(artifacts / f"your-tables-{size}.png"), full_page=True)
    first = page.locator(f'#your-tables [data-table="{playing}"]')
    text = first.inner_text()
    assert "Snorkeling" in text and "with Bo" in text and "Your turn" in text, text  # seat 1 starts (SNK-R2)
    done = page.locator(f'#your-tables [data-table="{finished}"]').inner_text()
    assert "Finished ·" in done and "won" in done, done
    assert page.locator(f'#your-tables [data-table="{finished}"] a', has_text="Replay").count() == 1
    assert serious_violations(page) == []
    first.get_by_role("link", name="Back to the table").click()
    page.wait_for_url(f"**/table/{playing}")
    wait_until(page, "document.querySelector('#turn.is-mine')", timeout=10)
    page.context.close()
