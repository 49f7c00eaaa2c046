"""Browser tests: Playwright driving Debian's Chromium against a real server.

Where no Chromium is found these tests skip with the reason; CI sets DIVEDECK_REQUIRE_BROWSER=1 (see .ci/run),
which turns that skip into a failure, so CI never passes by skipping.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.live_server import ServerProcess, running_server

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium_path() -> str | None:
    return os.environ.get("DIVEDECK_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


class CalmBrowser:
    """The launched browser, whose pages ask for reduced motion unless a test says otherwise.

    A card that flies for 260 ms after each update is not "stable" to Playwright, so every click on a board waited
    out a flight (0.3-0.6 s a click). The flights have their own test (test_table_life.py), which passes
    ``reduced_motion`` itself."""

    def __init__(self, launched: Any) -> None:
        self._launched = launched

    def new_context(self, **options: Any) -> Any:
        options.setdefault("reduced_motion", "reduce")
        return self._launched.new_context(**options)

    def new_page(self, **options: Any) -> Any:
        options.setdefault("reduced_motion", "reduce")
        return self._launched.new_page(**options)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._launched, name)


# Module scope: Playwright's sync API keeps an event loop on this thread while it runs, which would break
# asyncio.run() in the tests collected after these.
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = chromium_path()
    if executable is None:
        reason = "no Chromium found (apt-get install chromium, or set DIVEDECK_CHROMIUM)"
        if os.environ.get("DIVEDECK_REQUIRE_BROWSER"):
            pytest.fail(reason)
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
        try:
            yield CalmBrowser(launched)
        finally:
            launched.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    with running_server(tmp_path, "--bot-delay", "0.05") as live:
        yield live


@pytest.fixture
def artifacts(request: pytest.FixtureRequest) -> Path:
    """Where a test saves its screenshots (kept after the run, for people to look at)."""
    folder = ARTIFACTS / request.node.name
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """A failed browser test leaves a screenshot of every page it had open (``failure-N.png`` beside its own
    screenshots), taken before its fixtures close them: what the page showed is most of a flaky failure's story."""
    outcome = yield
    report = outcome.get_result()
    browser = getattr(item, "funcargs", {}).get("browser")
    if report.when != "call" or not report.failed or browser is None:
        return
    folder = ARTIFACTS / item.name
    folder.mkdir(parents=True, exist_ok=True)
    pages = [page for context in browser.contexts for page in context.pages]
    for number, page in enumerate(pages):
        try:
            page.screenshot(path=str(folder / f"failure-{number}.png"), timeout=5000)
        except Exception as error:  # noqa: BLE001 - a closed or crashed page must not hide the test's own failure
            print(f"no failure screenshot of page {number}: {error}")


def wait_until(page: Any, expression: str, timeout: float = 5.0) -> None:
    """Wait until ``expression`` is true in ``page``. Playwright's ``wait_for_function`` evaluates its predicate with
    ``eval``, which the server's Content-Security-Policy forbids (no 'unsafe-eval'); ``evaluate`` is not affected."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(f"() => Boolean({expression})"):
        if time.monotonic() > deadline:
            raise TimeoutError(f"still false after {timeout} s: {expression}")
        time.sleep(0.05)
