"""`divedeck data show GAME` and `divedeck data check FILE` (issue 17 item 4): the shipped file, editable and
valid, and every broken file refused with its line, its field and the reason."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from divedeck.cli import app
from divedeck.engine.data import locate
from divedeck.engine.registry import game_names, get_game

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    """Exit code, stdout, stderr; an error `divedeck` prints (exit 2, in `main`) is returned as stderr."""
    result = runner.invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        return 2, result.stdout, f"error: {result.exception}"
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("game", game_names())
def test_the_shipped_file_is_shown_with_comments_and_checks_ok_by_itself(game: str, tmp_path: Path) -> None:
    code, text, _ = run("data", "show", game)
    assert code == 0 and text.lstrip().startswith("#")
    kind = get_game(game).data_files[0]
    path = tmp_path / f"my-{kind.default}"
    path.write_text(text, encoding="utf-8")
    code, out, err = run("data", "check", str(path))  # the game is told from the file's keys
    assert code == 0, err
    assert out.startswith(f"ok: {kind.what} {path} for {game}: ") and f"-o cards={path}" in out
    code, out, _ = run("data", "check", str(path), "--game", game)
    assert code == 0 and out.startswith("ok: ")


def edited(game: str, tmp_path: Path, old: str, new: str, count: int = 1, name: str = "mine.toml") -> Path:
    text = run("data", "show", game)[1]
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new, count), encoding="utf-8")
    return path


def line_of(path: Path, text: str) -> int:
    """The last line holding ``text`` (an edit that repeats an earlier line is the later one)."""
    return [n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line][-1]


@pytest.mark.parametrize(("game", "old", "new", "field", "reason"), [
    ("hold-your-breath", "count = 4", "count = -4", "cards[1].count", "count must be a whole number of 0 or more"),
    ("hold-your-breath", 'icon = "calm"', 'icon = "clam"', "cards[3].icon", "unknown icon 'clam'"),
    ("hold-your-breath", "step = 5", "step = 0", "board.step", "step must be a whole number of at least 1"),
    ("snorkeling", 'letter = "R"', 'letter = "Y"', "colors[2].letter", "colour names and letters must be unique"),
    ("snorkeling", "copies = 3", "copies = -1", "values[1].copies", "copies must be a whole number"),
    ("snorkeling", "hand_size = 5", "hand_size = 0", "hand_size", "hand_size must be a positive whole number"),
    ("bermuda", "depth = 5", "depth = 99", "treasure[1].depth", "depth must be a whole number from 1 to 63"),
    ("bermuda", 'id = "T02"', 'id = "T01"', "treasure[2].id", "treasure id 'T01' appears more than once"),
    ("hold-your-hat", 'orange = "anchor"', 'orange = "big old anchor"', "card[1].orange",
     "card W001: the orange entry 'big old anchor' must have 1 or 2 words"),
])
def test_a_broken_rule_names_the_line_of_the_key_the_field_and_the_reason(game, old, new, field, reason, tmp_path):
    path = edited(game, tmp_path, old, new)
    code, out, err = run("data", "check", str(path))
    assert code == 1 and out == ""
    assert err.startswith(f"error: {path}:{line_of(path, new)}: {field}: "), err
    assert reason in err


def test_a_missing_key_names_the_line_of_its_table(tmp_path: Path) -> None:
    path = edited("bermuda", tmp_path, "protection = 0\n", "")
    code, _, err = run("data", "check", str(path))
    first = next(n for n, line in enumerate(path.read_text().splitlines(), 1) if line == "[[treasure]]")
    assert code == 1 and f"{path}:{first}: treasure[1].protection: " in err


def test_a_syntax_error_gives_the_parsers_line_whatever_the_game(tmp_path: Path) -> None:
    path = edited("hold-your-breath", tmp_path, "[board]", "[board")
    code, _, err = run("data", "check", str(path))
    assert code == 1 and err.startswith(f"error: {path}:{line_of(path, '[board')}: not valid TOML"), err


def test_a_rule_about_the_whole_file_has_no_line(tmp_path: Path) -> None:
    path = edited("hold-your-breath", tmp_path, "count = 2", "count = 3")
    code, _, err = run("data", "check", str(path))
    assert code == 1 and err.startswith(f"error: {path}: the Dive Deck must hold 68 cards (HYB-C1); these rows "
                                        "give 69"), err


def test_a_plain_text_word_list_is_checked_by_line(tmp_path: Path) -> None:
    path = tmp_path / "words.txt"
    path.write_text("# mine\ntreasure map* | anchor | sand | light | jelly | compass\nx y* | b | c\n")
    code, _, err = run("data", "check", str(path))
    assert code == 1 and err.startswith(f"error: {path}:3: card W002: a line needs 6 entries"), err


def test_a_file_of_no_known_kind_or_no_file_at_all_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.toml"
    path.write_text('title = "x"\n')
    code, _, err = run("data", "check", str(path))
    assert code != 0 and "cannot tell which game's data file this is" in err and "--game" in err
    code, _, err = run("data", "check", str(tmp_path / "missing.toml"))
    assert code != 0 and "cannot read" in err


def test_locate_reads_tables_arrays_of_tables_and_top_level_keys() -> None:
    text = ('n = 1  # top\n[[row]]\na = 1\n[[row]]\n"a" = 2\nb = """x\na = 3\n"""\n[t]\nk = { a = 1 }\n'
            '[[row]]\n')
    assert locate(text, ("n",)) == 1
    assert locate(text, ("row", 0, "a")) == 3
    assert locate(text, ("row", 1, "a")) == 5  # quoted key; the multi-line string's "a = 3" is not a key
    assert locate(text, ("row", 1, "c")) == 4  # missing: its table
    assert locate(text, ("row", 2)) == 11
    assert locate(text, ("t", "k")) == 10
    assert locate(text, ("nowhere", "k")) is None and locate(text, ()) is None
