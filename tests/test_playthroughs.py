"""The golden playthroughs (tests/playthroughs/*.txt) are what the games do today: each is rebuilt in memory and
compared with its file, so a leak or a rule change fails here and shows as a diff in review.

After a change that is meant to alter play, views or log lines, regenerate them with
``uv run python scripts/write_playthroughs.py`` and review ``git diff tests/playthroughs``.
"""

from __future__ import annotations

import difflib
import re

import pytest

from .playthroughs.transcript import (
    DIRECTORY,
    MAX_FILE_BYTES,
    MAX_TOTAL_BYTES,
    REGENERATE,
    ROOT,
    Playthrough,
    playthroughs,
    transcript,
)

PLAYTHROUGHS = playthroughs()
DIFF_LINES = 40  # a mismatch shows at most this many lines of the diff...
LINE_WIDTH = 240  # ...each cut to this width around its first difference


def _clip(line: str, focus: int) -> str:
    """``line`` cut to ``LINE_WIDTH`` characters around column ``focus``."""
    if len(line) <= LINE_WIDTH:
        return line
    start = max(0, min(focus - LINE_WIDTH // 3, len(line) - LINE_WIDTH))
    return ("…" if start else "") + line[start:start + LINE_WIDTH] + ("…" if start + LINE_WIDTH < len(line) else "")


def short_diff(expected: str, actual: str) -> str:
    """The first ``DIFF_LINES`` lines of a unified diff; a long changed line is cut around where it differs from
    the line it replaces, so a one-value change in a long view line is visible."""
    old, new = expected.splitlines(), actual.splitlines()
    lines: list[str] = []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for group in matcher.get_grouped_opcodes(1):
        first, last = group[0], group[-1]
        lines.append(f"@@ -{first[1] + 1},{last[2] - first[1]} +{first[3] + 1},{last[4] - first[3]} @@")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                lines += [" " + _clip(line, 0) for line in old[i1:i2]]
                continue
            removed, added = old[i1:i2], new[j1:j2]
            focus = [_first_difference(a, b) for a, b in zip(removed, added, strict=False)]
            lines += ["-" + _clip(line, focus[k] if k < len(focus) else 0) for k, line in enumerate(removed)]
            lines += ["+" + _clip(line, focus[k] if k < len(focus) else 0) for k, line in enumerate(added)]
        if len(lines) >= DIFF_LINES:
            break
    more = len(lines) > DIFF_LINES
    return "\n".join(lines[:DIFF_LINES] + (["… (diff cut)"] if more else []))


def _first_difference(a: str, b: str) -> int:
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))


@pytest.mark.parametrize("item", PLAYTHROUGHS, ids=[item.id for item in PLAYTHROUGHS])
def test_playthrough_matches_its_golden_file(item: Playthrough) -> None:
    """The game played from the file's seed gives the file's transcript, line for line."""
    assert item.path.exists(), f"{item.path.name} is missing: write it with `{REGENERATE}`"
    expected = item.path.read_text(encoding="utf-8")
    actual = transcript(item.game, item.options)
    if actual != expected:
        pytest.fail(f"tests/playthroughs/{item.path.name} differs from the game as it plays now. If the change is "
                    f"meant, regenerate with `{REGENERATE}` and review `git diff tests/playthroughs`.\n"
                    + short_diff(expected, actual), pytrace=False)


def test_every_conformance_config_has_a_playthrough_and_nothing_else_is_there() -> None:
    """One file per conformance config (tests/conformance.py's GAME_CONFIGS), and no file for a config that is
    gone."""
    wanted = {item.path.name for item in PLAYTHROUGHS}
    assert len(wanted) == len(PLAYTHROUGHS), "two conformance configs share a playthrough id"
    found = {path.name for path in DIRECTORY.glob("*.txt")}
    missing, stray = sorted(wanted - found), sorted(found - wanted)
    assert not missing and not stray, (
        f"missing playthroughs {missing}, stray files {stray}: run `{REGENERATE}` (it writes and deletes them)")


def test_playthrough_ids_are_filesystem_safe() -> None:
    """Config ids are short enough and use only characters every file system takes."""
    for item in PLAYTHROUGHS:
        assert re.fullmatch(r"[a-z0-9-]+-[A-Za-z0-9._,=+-]+", item.id), item.id
        assert len(item.path.name) <= 200, item.id


def test_playthroughs_stay_small_and_name_no_path_of_this_machine() -> None:
    """Each file stays under 150 KB, all together under 3 MB, and none names a path of this machine."""
    sizes = {path.name: path.stat().st_size for path in DIRECTORY.glob("*.txt")}
    assert {name: size for name, size in sizes.items() if size > MAX_FILE_BYTES} == {}
    assert sum(sizes.values()) <= MAX_TOTAL_BYTES
    for path in DIRECTORY.glob("*.txt"):
        assert str(ROOT) not in path.read_text(encoding="utf-8"), path.name


def test_short_diff_points_at_the_changed_value() -> None:
    """A one-value change deep inside a long line shows in the diff, not cut away."""
    long = '  view 0: {"a":' + ",".join(str(n) for n in range(200)) + "}"
    changed = long.replace(",150,", ",999,")
    diff = short_diff(f"head\n{long}\ntail\n", f"head\n{changed}\ntail\n")
    assert ",150," in diff and ",999," in diff
    assert all(len(line) <= LINE_WIDTH + 3 for line in diff.splitlines())
