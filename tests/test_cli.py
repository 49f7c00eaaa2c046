"""The divedeck command as a person uses it: play to the end, bad input, simulate, save, load and replay."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from divedeck import cli
from divedeck.engine import Match


def run_cli(args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
            stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["divedeck", *args])
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    with pytest.raises(SystemExit) as stopped:
        cli.main()
    captured = capsys.readouterr()
    return int(stopped.value.code or 0), captured.out, captured.err


def test_play_a_whole_game_against_bots_by_always_taking_the_first_move(monkeypatch, capsys, tmp_path):
    save = tmp_path / "game.json"
    code, out, _ = run_cli(["play", "snorkeling", "--seats", "you,greedy,random", "--seed", "11", "--delay", "0",
                            "--save", str(save)], monkeypatch, capsys, stdin="1\n" * 3000)
    assert code == 0
    assert "Game over. Winner:" in out
    assert "Your moves:" in out and "Your hand" in out
    record = json.loads(save.read_text())
    assert record["game"] == "snorkeling" and record["seed"] == 11 and len(record["actions"]) > 20


def first_seed_where_seat_0_holds_a_4() -> tuple[int, str]:
    """A seed whose first deal gives seat 0 a card of value 4, found through the contract (deals change with
    the shuffle, so the test does not hard-code one)."""
    for seed in range(1000):
        match = Match.start("snorkeling", {}, seed)
        fours = [card for card in match.game.view(match.state, 0)["hand"] if card.endswith("4")]
        if fours:
            return seed, fours[0]
    raise AssertionError("no deal with a 4 for seat 0")


def test_play_refuses_malformed_and_illegal_moves_with_the_reason_and_asks_again(monkeypatch, capsys):
    seed, four = first_seed_where_seat_0_holds_a_4()
    code, out, _ = run_cli(["play", "snorkeling", "--seed", str(seed), "--delay", "0"], monkeypatch, capsys,
                           stdin=f"c Z9\nfly away\n99\np {four}>1\npass\nquit\n")
    assert code == 1
    assert "there is no card Z9" in out
    assert "Not understood" in out
    assert "No move 99" in out
    assert "Not allowed: you may play onto a personal pile only after playing to the centre (rule SNK-R8)" in out
    assert "you passed" in out
    assert "Stopped" in out


def test_play_watch_runs_bots_only_to_the_end(monkeypatch, capsys):
    code, out, _ = run_cli(["play", "snorkeling", "--watch", "--delay", "0", "--seed", "2",
                            "--seats", "greedy,random"], monkeypatch, capsys)
    assert code == 0
    assert "Game over. Winner:" in out


def test_saved_game_can_be_continued_and_replayed(monkeypatch, capsys, tmp_path):
    save = tmp_path / "game.json"
    code, _, _ = run_cli(["play", "snorkeling", "--seats", "you,greedy", "--seed", "5", "--delay", "0",
                          "--save", str(save)], monkeypatch, capsys, stdin="1\n1\n1\nquit\n")
    assert code == 1
    moves_before = len(json.loads(save.read_text())["actions"])
    code, out, _ = run_cli(["play", "snorkeling", "--seats", "you,greedy", "--load", str(save), "--delay", "0"],
                           monkeypatch, capsys, stdin="1\n" * 3000)
    assert code == 0 and f"{moves_before} moves so far" in out and "Game over" in out
    code, out, _ = run_cli(["replay", str(save), "--seat", "1"], monkeypatch, capsys)
    assert code == 0 and "as seen by seat 1" in out and "Winner: seat" in out
    assert "you drew" in out  # seat 1's own draws are shown to seat 1 ...
    assert "seat 0 drew ??" in out  # ... and seat 0's are not


def test_simulate_json_reports_every_seat(monkeypatch, capsys):
    code, out, _ = run_cli(["simulate", "snorkeling", "--games", "40", "--seats", "greedy,random,random",
                            "--workers", "1", "--seed", "3", "--json"], monkeypatch, capsys)
    assert code == 0
    summary = json.loads(out)
    assert summary["games"] == 40
    assert [row["bot"] for row in summary["seats"]] == ["greedy", "random", "random"]
    assert sum(row["wins"] for row in summary["seats"]) >= 40
    for row in summary["seats"]:
        assert row["ci95_low"] <= row["win_rate"] <= row["ci95_high"]
    assert {"decisions", "rounds", "turns"} <= set(summary["length"])


def test_simulate_gives_the_same_results_with_one_or_two_workers(monkeypatch, capsys):
    args = ["simulate", "snorkeling", "--games", "24", "--seats", "greedy,random", "--seed", "9", "--json"]
    _, one, _ = run_cli([*args, "--workers", "1"], monkeypatch, capsys)
    _, two, _ = run_cli([*args, "--workers", "2"], monkeypatch, capsys)
    assert json.loads(one) == json.loads(two)


def test_simulate_rotate_adds_a_seat_balanced_table_per_bot(monkeypatch, capsys):
    code, out, _ = run_cli(["simulate", "snorkeling", "--games", "20", "--seats", "greedy,random", "--rotate",
                            "--workers", "1", "--json"], monkeypatch, capsys)
    summary = json.loads(out)
    assert code == 0
    assert [row["bot"] for row in summary["bots_summary"]] == ["greedy", "random"]
    assert all(row["games"] == 20 for row in summary["bots_summary"])


@pytest.mark.parametrize(("args", "message"), [
    (["play", "chess"], "unknown game 'chess'"),
    (["play", "snorkeling", "--option", "num_players=9"], "2 to 6 players"),
    (["play", "snorkeling", "--option", "num_players=1"], "2 to 6 players"),
    (["play", "snorkeling", "--option", "wings=2"], "unknown option 'wings'"),
    (["play", "snorkeling", "--option", "expert_diving=maybe"], "must be true or false"),
    (["play", "snorkeling", "--option", "expert_diving"], "--option needs name=value"),
    (["play", "snorkeling", "--seats", "you,dragon"], "unknown seat 'dragon'"),
    (["play", "snorkeling", "--seats", "greedy,greedy"], "no seat is yours"),
    (["simulate", "snorkeling", "--seats", "greedy,you"], "bots only"),
])
def test_bad_input_is_one_line_and_a_nonzero_exit(args, message, monkeypatch, capsys):
    code, _, err = run_cli(args, monkeypatch, capsys)
    assert code == 2
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_corrupted_save_is_refused_in_one_line(monkeypatch, capsys, tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "divedeck-game", "version": 1, "game": "snorkeling", "seed": 1, '
                      '"actions": [[0, "p Y4>3"]]}')
    code, _, err = run_cli(["play", "snorkeling", "--load", str(broken)], monkeypatch, capsys)
    assert code == 2 and "cannot be replayed" in err and err.count("\n") == 1


def test_the_installed_command_exits_nonzero_without_a_traceback(tmp_path: Path):
    garbage = tmp_path / "garbage.json"
    garbage.write_bytes(b"\xff\xfe not json")
    result = subprocess.run([sys.executable, "-m", "divedeck.cli", "replay", str(garbage)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.startswith("error: ") and "Traceback" not in result.stderr


def test_the_terminal_lists_each_moves_label_and_writes_the_log_with_seat_names(monkeypatch, capsys):
    """The labels come from the game's action records, the log lines from its one log writer (``format_event``
    with the seats' names), never from the terminal's own wording."""
    game = Match.start("snorkeling", {}, 1).game
    original = type(game).action_record

    def labelled(self, state, seat, action):
        return {**original(self, state, seat, action), "label": "LABEL " + self.format_action(action)}

    writer = type(game).format_event
    names_given = []

    def written(self, event, seat=None, names=None):
        names_given.append(names)
        return writer(self, event, seat, names)

    monkeypatch.setattr(type(game), "action_record", labelled)
    monkeypatch.setattr(type(game), "format_event", written)
    code, out, _ = run_cli(["play", "snorkeling", "--seats", "you,greedy", "--seed", "3", "--delay", "0"],
                           monkeypatch, capsys, stdin="1\n1\nquit\n")
    assert code == 1
    assert "LABEL " in out
    assert names_given and all(names == ["you", "greedy 1"] for names in names_given)
