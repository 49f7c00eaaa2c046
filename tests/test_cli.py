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
    assert names_given and all(names == ["you", "greedy 2"] for names in names_given)


# -- issue 13: nothing lost, nothing leaked at the terminal ------------------------------------------------------


def one_line_error(code: int, err: str, words: str) -> None:
    assert code == 2, err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err, err


def test_save_into_a_missing_folder_is_refused_before_the_game_starts(monkeypatch, capsys, tmp_path):
    code, out, err = run_cli(["play", "snorkeling", "--seed", "1", "--delay", "0",
                              "--save", str(tmp_path / "nowhere" / "game.json")], monkeypatch, capsys, stdin="1\n")
    one_line_error(code, err, "there is no folder")
    assert "Your moves" not in out


def test_tournament_json_into_a_missing_folder_is_refused_before_the_run(monkeypatch, capsys, tmp_path):
    from divedeck.sim import tournament

    monkeypatch.setattr(tournament, "run", lambda *args, **kwargs: pytest.fail("the tournament was played"))
    code, _, err = run_cli(["tournament", "snorkeling", "--bots", "random,greedy", "--games", "2",
                            "--json", str(tmp_path / "nowhere" / "ratings.json")], monkeypatch, capsys)
    one_line_error(code, err, "there is no folder")


@pytest.mark.parametrize("extra", [["--seed", "4"], ["-o", "expert_diving=true"]])
def test_load_refuses_a_seed_or_options_it_would_ignore(extra, monkeypatch, capsys, tmp_path):
    save = tmp_path / "game.json"
    Match.start("snorkeling", {}, 5).save(save)
    code, _, err = run_cli(["play", "snorkeling", "--load", str(save), *extra], monkeypatch, capsys)
    one_line_error(code, err, "leave out --seed and --option")


@pytest.mark.parametrize("delay", ["-1", "nan", "inf", "-inf", "61"])
def test_a_delay_outside_0_to_60_seconds_is_refused_with_the_range(delay, monkeypatch, capsys):
    code, out, err = run_cli(["play", "snorkeling", "--seed", "1", "--delay", delay], monkeypatch, capsys, "1\n")
    assert code == 2 and "from 0 to 60" in err and "Traceback" not in err + out
    assert "Your moves" not in out


def test_a_resumed_game_seats_the_same_people_and_bots(monkeypatch, capsys, tmp_path):
    save = tmp_path / "game.json"
    code, _, _ = run_cli(["play", "snorkeling", "--seats", "you,you,random", "--seed", "3", "--delay", "0",
                          "--save", str(save)], monkeypatch, capsys, stdin="\n1\nquit\n")
    assert code == 1
    assert json.loads(save.read_text())["seats"] == ["you", "you", "random"]
    code, out, _ = run_cli(["play", "snorkeling", "--load", str(save), "--delay", "0"], monkeypatch, capsys,
                           stdin="\n1\nquit\n")
    assert code == 1
    assert "seats you,you,random" in out
    assert "Pass the keyboard to player" in out  # the second person is a person again ...
    assert "random 3" in out and "greedy" not in out  # ... and the random bot is random again


def test_a_version_1_save_still_loads_with_the_seats_defaulted(monkeypatch, capsys, tmp_path):
    record = Match.start("snorkeling", {"num_players": 3}, 5).to_record()
    record["version"] = 1
    del record["seats"]
    save = tmp_path / "old.json"
    save.write_text(json.dumps(record))
    code, out, _ = run_cli(["play", "snorkeling", "--load", str(save), "--delay", "0"], monkeypatch, capsys,
                           stdin="quit\n")
    assert code == 1 and "seats you,greedy,greedy" in out


def test_quit_without_save_keeps_the_game_in_the_data_folder_and_says_how_to_carry_on(
        monkeypatch, capsys, saves_in_a_temporary_folder):
    code, out, _ = run_cli(["play", "snorkeling", "--seats", "you,greedy", "--seed", "5", "--delay", "0"],
                           monkeypatch, capsys, stdin="1\n1\nquit\n")
    assert code == 1
    (kept,) = saves_in_a_temporary_folder.iterdir()
    out = out.replace("\n", "")
    assert f"saved to {kept}" in out
    assert f"Carry on with: divedeck play snorkeling --load {kept}" in out
    moves = len(Match.load(kept).actions)
    code, out, _ = run_cli(["play", "snorkeling", "--load", str(kept), "--delay", "0"], monkeypatch, capsys,
                           stdin="1\n" * 3000)
    assert code == 0 and f"{moves} moves so far" in out and "Game over" in out


def test_ctrl_c_stops_within_a_second_keeps_the_finished_moves_and_says_so(tmp_path: Path):
    """A real Ctrl-C (SIGINT) while two search bots think: the command stops at once and the game is saved."""
    import signal
    import time

    save = tmp_path / "game.json"
    command = [sys.executable, "-m", "divedeck.cli", "play", "snorkeling", "--watch", "--seats", "hard,hard",
               "--seed", "2", "--delay", "0", "--save", str(save)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while not save.exists() and time.monotonic() < deadline:  # saved after every move: it is playing
            time.sleep(0.05)
        assert save.exists(), "no move was played in 30 s"
        process.send_signal(signal.SIGINT)
        interrupted = time.monotonic()
        out, err = process.communicate(timeout=10)
        stopped_after = time.monotonic() - interrupted
    finally:
        process.kill()
    assert stopped_after < 1, stopped_after
    assert process.returncode == 1 and "Traceback" not in err, err
    moves = len(Match.load(save).actions)
    assert f"Stopped (Ctrl-C) after {moves} move" in out.replace("\n", "") and f"saved to {save}" in out


def test_replay_of_a_mistyped_name_creates_no_database(monkeypatch, capsys, tmp_path):
    from divedeck.server import settings

    default = tmp_path / "data" / "divedeck.sqlite3"
    monkeypatch.setattr(settings, "default_database_path", lambda: default)
    code, _, err = run_cli(["replay", "tabel-1234"], monkeypatch, capsys)
    one_line_error(code, err, "neither a saved game file nor a table")
    other = tmp_path / "other.sqlite3"
    code, _, err = run_cli(["replay", "tabel-1234", "--db", f"sqlite:///{other}"], monkeypatch, capsys)
    one_line_error(code, err, "neither a saved game file nor a table")
    assert list(tmp_path.iterdir()) == []


def hold_your_breath_game_with_a_gasp() -> tuple[Match, int, str]:
    """A Hold Your Breath! game played on to a few moves after a seat laid a card face down (a ``gasp``)."""
    import random

    from divedeck.games.hold_your_breath.actions import Gasp

    for seed in range(200):
        match = Match.start("hold-your-breath", {"num_players": 2}, seed)
        rng = random.Random(seed)
        gasp = None
        while not match.over and len(match.actions) < 400:
            seat = min(match.game.actors(match.state))
            action = rng.choice(list(match.game.legal_actions(match.state, seat)))
            match.act(seat, action)
            if isinstance(action, Gasp):
                gasp = (len(match.actions), action.card)
                break
        if gasp is not None:
            return match, *gasp
    raise AssertionError("no gasp in 200 games")


@pytest.mark.parametrize("viewer", [["--seat", "1"], []])
def test_replay_shows_no_face_down_card_to_another_seat_or_a_spectator(viewer, monkeypatch, capsys, tmp_path):
    match, number, card = hold_your_breath_game_with_a_gasp()
    assert match.actions[number - 1][0] == 0  # seat 0 laid it
    save = tmp_path / "game.json"
    match.save(save)
    code, out, _ = run_cli(["replay", str(save), *viewer], monkeypatch, capsys)
    assert code == 0
    assert f"{number:>4}. seat 0: gasp ?" in out
    assert f"gasp {card}" not in out
    shown = out.split(f"{number:>4}. ")[1].split(f"{number + 1:>4}. ")[0]  # the move and its log lines
    assert card not in shown
    code, out, _ = run_cli(["replay", str(save), "--seat", "0"], monkeypatch, capsys)
    assert f"{number:>4}. seat 0: gasp {card}" in out  # its owner reads it


def test_quitting_before_the_first_move_with_save_writes_the_file_it_names(monkeypatch, capsys, tmp_path):
    save = tmp_path / "game.json"
    code, out, _ = run_cli(["play", "snorkeling", "--seed", "1", "--delay", "0", "--save", str(save)],
                           monkeypatch, capsys, stdin="quit\n")
    assert code == 1 and "after 0 moves; saved to" in out
    assert Match.load(save).actions == []


# -- one convention for every command that produces results (issue 17, item 8) --------------------------------------


def test_version(monkeypatch, capsys):
    from divedeck import __version__

    code, out, _ = run_cli(["--version"], monkeypatch, capsys)
    assert code == 0 and out.strip() == f"divedeck {__version__}"


def test_json_and_csv_take_an_optional_file_and_dash_prints(monkeypatch, capsys, tmp_path):
    base = ["simulate", "snorkeling", "--games", "6", "--seats", "greedy,random", "--workers", "1"]
    code, alone, _ = run_cli([*base, "--json"], monkeypatch, capsys)
    assert code == 0 and json.loads(alone)["games"] == 6
    code, dash, _ = run_cli([*base, "--json", "-"], monkeypatch, capsys)
    assert code == 0 and json.loads(dash) == json.loads(alone)
    code, out, err = run_cli([*base, "--json", str(tmp_path / "r.json"), "--csv", str(tmp_path / "r.csv")],
                             monkeypatch, capsys)
    assert code == 0 and json.loads((tmp_path / "r.json").read_text()) == json.loads(alone)
    assert "Per seat" in out  # nothing else printed to standard output, so the tables are
    assert len((tmp_path / "r.csv").read_text().splitlines()) == 7 and "r.csv" in err
    code, csv_out, _ = run_cli([*base, "--csv"], monkeypatch, capsys)
    assert code == 0 and csv_out.startswith("game,seating,winners") and "Per seat" not in csv_out
    code, _, err = run_cli([*base, "--json", "--csv"], monkeypatch, capsys)
    assert code == 2 and "cannot both print" in err


@pytest.mark.parametrize("command", [
    ["simulate", "snorkeling", "--games", "100000"],
    ["tournament", "snorkeling", "--bots", "greedy,random", "--games", "100000"],
    ["report", "snorkeling", "--games", "100000"],
])
def test_an_output_path_is_checked_before_the_run_starts(command, monkeypatch, capsys, tmp_path):
    code, _, err = run_cli([*command, "--json", str(tmp_path / "missing" / "r.json")], monkeypatch, capsys)
    assert code == 2 and "there is no folder" in err


def test_options_print_the_way_they_are_typed(monkeypatch, capsys):
    args = ["-o", "num_players=3", "-o", "expert_diving=true", "--workers", "1"]
    code, out, _ = run_cli(["simulate", "snorkeling", "--games", "3", *args], monkeypatch, capsys)
    assert code == 0 and "options num_players=3 expert_diving=true" in out
    code, out, _ = run_cli(["simulate", "snorkeling", "--games", "3", *args, "--json"], monkeypatch, capsys)
    assert json.loads(out)["options"] == {"num_players": 3, "expert_diving": True}
    code, out, _ = run_cli(["tournament", "snorkeling", "--bots", "greedy,random", "--games", "3", *args],
                           monkeypatch, capsys)
    assert code == 0 and "options num_players=3 expert_diving=true" in out
    code, out, _ = run_cli(["tournament", "snorkeling", "--bots", "greedy,random", "--games", "3", *args,
                            "--json"], monkeypatch, capsys)
    assert json.loads(out)["options"] == {"num_players": 3, "expert_diving": True}
