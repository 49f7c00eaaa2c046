"""Bermuda's components BRM-C1..C3, and the treasure data file's validation."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from divedeck.engine import ConfigError, Match
from divedeck.games.bermuda.cards import DIVER_DECK, load_treasures

from .helpers import GAME, config, diving, fields, piles, play

SPEC_TABLE = {  # BRM-C3: depth -> (cards with protection 0, 1, 2)
    5: (2, 1, 0), 6: (1, 4, 0), 7: (0, 5, 1), 8: (0, 4, 2), 9: (0, 2, 3), 10: (0, 1, 2),
}


def test_BRM_C1_the_keeper_card_marks_the_pile_of_failed_treasures() -> None:
    """BRM-C1: the Keeper (Kusalochka) holds the failed treasures; her protection points are those of her pile. In
    the single-breath challenge she is put away: failed treasures go to a lost pile worth nothing."""
    state = diving("1/2", "T05,T14", columns="123456,-")
    play(state, "0 release @1")
    assert piles(state) == (["T05"], ["T14"])
    assert GAME.view(state, None)["protection"] == 2
    challenge = diving("1/2", "T05,T14", columns="123456,-", single_breath_challenge=True,
                       single_breath_mode="one_round")
    play(challenge, "0 release @1")
    assert piles(challenge) == (["T05"], ["T14"])
    assert GAME.view(challenge, None)["protection"] == 0


def test_BRM_C2_sixty_three_diver_cards_values_1_to_9_seven_of_each() -> None:
    """BRM-C2: 63 Diver cards, values 1-9, 7 copies each; every deal uses them all."""
    assert Counter(DIVER_DECK) == {value: 7 for value in range(1, 10)}
    state = GAME.new(config(num_players=5), 1)
    f = fields(state)
    assert Counter(int(c) for c in f["hands"].replace("/", "") + f["aside"]) == Counter(DIVER_DECK)


def test_BRM_C3_the_default_treasures_follow_the_specifications_table() -> None:
    """BRM-C3: 28 treasures with a depth and protection points, from the data file: the proposed default table
    (depths 5-10, protection 0-2, 33 points in all), ids T01-T28 in order."""
    table = config().table
    assert len(table) == 28
    assert [t.id for t in table.treasures] == [f"T{i:02d}" for i in range(1, 29)]
    counts: dict[int, list[int]] = {}
    for t in table.treasures:
        counts.setdefault(t.depth, [0, 0, 0])[t.protection] += 1
    assert {depth: tuple(c) for depth, c in counts.items()} == SPEC_TABLE
    assert sum(t.protection for t in table.treasures) == 33
    assert all(t.name for t in table.treasures)
    assert len(GAME.view(GAME.new(config(), 1), None)["columns"][0]["treasure"]) == 4


def test_BRM_C3_another_treasure_file_can_be_given_as_option_cards(tmp_path: Path) -> None:
    """BRM-C3: the treasures live in a data file, never in code; option cards names another one."""
    path = tmp_path / "two.toml"
    path.write_text('[[treasure]]\nid = "A"\ndepth = 2\nprotection = 3\n\n'
                    '[[treasure]]\nid = "B"\nname = "Bell"\ndepth = 3\nprotection = 0\n', encoding="utf-8")
    match = Match.start("bermuda", {"num_players": 1, "cards": str(path), "countdown_ms": 0}, 4)
    view = GAME.view(match.state, 0)
    assert view["columns"][0]["treasure"]["id"] in ("A", "B")
    match.act(0, "hold @0")
    match.act(0, "release @10")
    match.act(0, "hold @20")
    match.act(0, "release @30")
    outcome = GAME.outcome(match.state)  # BRM-A7: the deck ran out after two rounds, so the game ended
    assert outcome is not None and outcome.details["rounds"] == 2
    assert outcome.details["protection"] == 3


@pytest.mark.parametrize(("text", "words"), [
    ("", "non-empty list"),
    ("not toml [", "not valid TOML"),
    ('[[treasure]]\nid = "T1"\ndepth = 5\n', "protection must be a whole number"),
    ('[[treasure]]\nid = "T1"\ndepth = 0\nprotection = 1\n', "depth must be a whole number from 1 to 63"),
    ('[[treasure]]\nid = "T1"\ndepth = "deep"\nprotection = 1\n', "depth must be"),
    ('[[treasure]]\nid = "T1"\ndepth = 5\nprotection = -1\n', "protection must be"),
    ('[[treasure]]\nid = "T1"\ndepth = 5\nprotection = true\n', "protection must be"),
    ('[[treasure]]\nid = "1 2"\ndepth = 5\nprotection = 1\n', "id must be"),
    ('[[treasure]]\ndepth = 5\nprotection = 1\n', "id must be"),
    ('[[treasure]]\nid = "T1"\ndepth = 5\nprotection = 1\ncolour = "red"\n', "unknown key 'colour'"),
    ('[[treasure]]\nid = "T1"\ndepth = 5\nprotection = 1\n[[treasure]]\nid = "t1"\ndepth = 6\nprotection = 1\n',
     "appears more than once"),
    ('title = "x"\n[[treasure]]\nid = "T1"\ndepth = 5\nprotection = 1\n', "unknown top-level key"),
])
def test_BRM_C3_bad_treasure_data_is_a_clear_config_error(tmp_path: Path, text: str, words: str) -> None:
    """BRM-C3: a data file that is not a valid treasure table is refused with a ConfigError saying what is
    wrong."""
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=words):
        config(cards=str(path))


def test_BRM_C3_an_unreadable_treasure_file_is_a_config_error(tmp_path: Path) -> None:
    """BRM-C3: a missing file is a ConfigError too, naming the file."""
    with pytest.raises(ConfigError, match="cannot read treasure data"):
        load_treasures(str(tmp_path / "missing.toml"))
