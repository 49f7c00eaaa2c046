"""Hold your Hat's components and rules, HYH-C1..C5, HYH-R1..R43 and the variant HYH-V1: positions written in the
state notation (with the generated deck), a few timestamped inputs, and what the rules say must follow."""

from __future__ import annotations

from collections import Counter

import pytest

from divedeck.engine import CLOCK, ConfigError, SeededRng
from divedeck.games.hold_your_hat.words import COLORS, hat_color

from .helpers import (
    GAME,
    T0,
    TURN,
    act,
    config,
    current,
    deck,
    fields,
    first,
    held,
    ids,
    kinds,
    legal,
    position,
    rejected,
    small,
    started,
    tick,
    totals,
    won,
    word_of,
)

# -- components --------------------------------------------------------------------------------------------------


def test_HYH_C1_word_cards_have_six_entries_of_one_or_two_points() -> None:
    """HYH-C1: 147 word cards W001..W147, each with 6 entries, one per colour, worth 1 point or 2 (the hat)."""
    table = config().table
    assert len(table) == 147
    assert [card.id for card in table.cards] == [f"W{n:03d}" for n in range(1, 148)]
    for card in table.cards:
        assert len(card.entries) == 6
        assert sorted(entry.points for entry in card.entries) == [1, 1, 1, 1, 1, 2]


@pytest.mark.parametrize("color", COLORS)
def test_HYH_C2_the_chosen_colour_decides_the_entry_of_every_card(color: str) -> None:
    """HYH-C2: the colour chosen for the game decides which entry of every card is played."""
    state = started(3, color=color)
    assert word_of(state).startswith(f"w001-{color}")
    assert GAME.view(state, None)["color"] == color


def test_HYH_C3_the_sand_timer_runs_turn_seconds() -> None:
    """HYH-C3: the timer runs 60 seconds by default (option turn_seconds)."""
    assert config().turn_seconds == 60
    assert fields(started(3))["timer"] == str(T0 + 60_000)
    assert fields(started(3, turn_seconds=5))["timer"] == str(T0 + 5_000)


def test_HYH_C4_seventeen_special_cards_in_their_numbers() -> None:
    """HYH-C4: 3 BINOCULARS, 3 EXTRA TIME, 3 SKIP, 4 THEFT and 4 RAID."""
    state = GAME.new(config(), 3)
    assert Counter(fields(state)["specials"]) == {"B": 3, "E": 3, "S": 3, "T": 4, "R": 4}


def test_HYH_C5_one_hat_entry_per_card_by_card_number() -> None:
    """HYH-C5: exactly one 2-point hat entry per card, its colour fixed by the card number (W001-W025 red,
    W026-W050 orange, W051-W075 yellow, W076-W099 green, W100-W123 blue, W124-W147 purple)."""
    assert [hat_color(n) for n in (1, 25, 26, 50, 51, 75, 76, 99, 100, 123, 124, 147)] == [
        "red", "red", "orange", "orange", "yellow", "yellow", "green", "green", "blue", "blue", "purple", "purple"]
    table = config().table
    per_color = Counter(COLORS[[e.hat for e in card.entries].index(True)] for card in table.cards)
    assert per_color == {"red": 25, "orange": 25, "yellow": 25, "green": 24, "blue": 24, "purple": 24}
    state = started(30, color="orange")
    points = {entry[0]: entry[1] for entry in state.context.entries[COLORS.index("orange")][:30]}
    assert points["w026-orange hat"] == 2 and points["w001-orange"] == 1


# -- players and setup -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("teams", "players"), [(2, 4), (3, 6), (6, 12), (2, 9)])
def test_HYH_R1_two_to_six_teams_of_at_least_two(teams: int, players: int) -> None:
    """HYH-R1: 2 to 6 teams, each of at least 2 players, in seating order with ordered member lists."""
    cfg = config(teams=teams, num_players=players)
    members = GAME.static_data(cfg)["teams"]
    assert len(members) == teams
    assert sorted(seat for team in members for seat in team["members"]) == list(range(players))
    assert min(len(team["members"]) for team in members) >= 2


@pytest.mark.parametrize("options", [{"teams": 1, "num_players": 4}, {"teams": 7, "num_players": 14},
                                     {"teams": 3, "num_players": 5}, {"team_sizes": "3,1", "num_players": 4},
                                     {"team_sizes": "2,2", "num_players": 5}])
def test_HYH_R1_fewer_teams_or_players_than_the_rules_allow_are_refused(options: dict[str, object]) -> None:
    """HYH-R1: a team count outside 2-6 or a team of fewer than 2 players is a config error."""
    with pytest.raises(ConfigError):
        config(**options)


def test_HYH_R1_team_sizes_and_seating_decide_the_member_lists() -> None:
    """HYH-R1: teams sit together by default (seats 0,1 team A); team_sizes and seating=alternate change that."""
    assert config().members() == ((0, 1), (2, 3))
    assert config(num_players=7, teams=3, team_sizes="3,2,2").members() == ((0, 1, 2), (3, 4), (5, 6))
    assert config(num_players=7, teams=3, team_sizes="3,2,2", seating="alternate").members() == (
        (0, 3, 6), (1, 4), (2, 5))


def test_HYH_R1_a_team_decision_may_come_from_any_member_and_no_one_else() -> None:
    """HYH-R1: team-level decisions (here team B's RAID) may be sent by any member of the team, by nobody else."""
    state = small(5, "held=-/R")
    assert "raid B" in legal(state, 2) and "raid B" in legal(state, 3)
    assert rejected(state, 1, "raid B").rule == "HYH-R1"
    act(state, 3, "raid B", 500)
    assert fields(state)["raiders"] == "B"


def test_HYH_R2_setup_draws_the_word_set_the_colour_and_the_special_deck_from_the_seed() -> None:
    """HYH-R2: shuffle the 147 cards and keep the top deck_size; a random colour; shuffle the 17 specials; every
    score 0; option first_team starts. All from the game's seeded RNG."""
    seed = 77
    state = GAME.new(config(), seed)
    rng = SeededRng(seed)
    cards = list(range(147))
    rng = rng.shuffle(cards)
    assert fields(state)["set"] == ids(*sorted(card + 1 for card in cards[-40:]))
    colors = list(range(6))
    rng = rng.shuffle(colors)
    assert fields(state)["color"] == COLORS[colors[-1]]
    specials = list("BBBEEESSSTTTTRRRR")
    rng.shuffle(specials)
    assert fields(state)["specials"] == "".join(specials)
    assert fields(state)["scores"] == "0,0,0/0,0,0"
    assert fields(state)["active"] == "0" and fields(GAME.new(config(first_team=1), seed))["active"] == "1"
    assert fields(GAME.new(config(color="blue"), seed))["color"] == "blue"
    assert len({fields(GAME.new(config(), s))["set"] for s in range(4)}) == 4


def test_HYH_R3_every_round_shuffles_the_same_words_into_the_deck() -> None:
    """HYH-R3: each round shuffles all the words of the set into the word deck: describe, one word, mime."""
    state = started(2, extra="held=-/-")
    act(state, 1, 'guess "w001-orange"', 2000)
    events = act(state, 1, 'guess "w002-orange"', 3000)
    assert "round_end" in kinds(events)
    assert first(events, "round_start")["type"] == "one word"
    assert sorted(deck(state)) == ["W001", "W002"]
    assert fields(state)["round"] == "2"


def test_HYH_R3_a_new_round_starts_with_the_team_after_the_one_that_ended_the_last() -> None:
    """HYH-R3: round r > 1 starts with the team clockwise after the team whose turn ended round r - 1."""
    state = started(1, num_players=6, teams=3, extra="active=1")
    assert state.active == 1
    act(state, state.clue_giver(), "got B", 2000)
    assert fields(state)["round"] == "2" and fields(state)["active"] == "2"


def test_HYH_R3_rounds_option_plays_one_to_three_rounds() -> None:
    """HYH-R3: option rounds (1 to 3): the game ends after that many rounds."""
    state = started(1, rounds=1)
    events = act(state, 0, "got A", 2000)
    assert kinds(events)[-2:] == ["round_end", "game_over"]
    assert GAME.outcome(state) is not None
    with pytest.raises(ConfigError):
        config(rounds=4)


def test_HYH_R4_the_clue_giver_rotates_every_turn_and_never_resets() -> None:
    """HYH-R4: each team's pointer advances at the end of its turn (wrapping), also across rounds."""
    state = small(5, num_players=6, teams=2)  # team A: seats 0,1,2; team B: 3,4,5
    givers = []
    for _ in range(4):
        givers.append(state.clue_giver())
        act(state, state.clue_giver(), "start", state.now)
        tick(state, state.now + TURN)
    assert givers == [0, 3, 1, 4]
    assert fields(state)["pointers"] == "2,2"


def test_HYH_R4_per_round_rotation_advances_every_pointer_when_a_round_starts() -> None:
    """HYH-R4: with clue_giver_rotation=per_round the pointers move only when rounds 2 and 3 start."""
    state = small(1, clue_giver_rotation="per_round")
    act(state, 0, "start", 0)
    tick(state, TURN)
    assert fields(state)["pointers"] == "0,0"
    act(state, 2, "start", TURN)
    act(state, 2, "got B", TURN + 10)
    assert fields(state)["round"] == "2" and fields(state)["pointers"] == "1,1"


def test_HYH_R5_the_word_only_for_the_clue_giver_won_and_held_cards_for_all() -> None:
    """HYH-R5: the word deck and the special deck are secret; the current word is the clue-giver's alone; won
    cards and held special cards are public."""
    state = started(5, extra="held=S/T")
    act(state, 1, 'guess "w001-orange"', 2000)
    tick(state, 2301)  # team B, holding a THEFT, could have joined the claim until then
    for seat in (None, 1, 2, 3):
        view = GAME.view(state, seat)
        assert "word" not in view
        assert view["teams"][0]["won"] == [{"word": "w001-orange", "points": 1}]
        assert view["teams"][0]["held"] == ["SKIP"] and view["teams"][1]["held"] == ["THEFT"]
        assert "W00" not in GAME.seat_notation(state, seat).split("deck=")[1].split()[0]
    assert GAME.view(state, 0)["word"]["text"] == "w002-orange"
    assert fields(state, 2, masked=True)["specials"] == "?15"


def test_HYH_R6_time_runs_forward_and_equal_times_keep_their_order() -> None:
    """HYH-R6: every input carries a time; an earlier time than the last is refused; equal times are processed in
    the order given."""
    state = started(5, num_players=6)  # team A: seats 0 (the clue-giver), 1 and 2
    act(state, 1, 'guess "nope"', 5000)
    assert rejected(state, 2, 'guess "w001-orange"', 4999).rule == "HYH-R6"
    act(state, 2, 'guess "again"', 5000)
    assert rejected(state, 2, 'guess "w001-orange"', 5000).rule == "HYH-A26"  # one seat, one guess at a time
    act(state, 1, 'guess "w001-orange"', 6000)
    assert won(state, 0) == ["W001"]


def test_HYH_R6_the_engine_exposes_its_deadline_and_tick_fires_it() -> None:
    """HYH-R6: the next deadline is exposed; tick(t) lets deadlines up to t fire and does nothing else."""
    state = started(5)
    assert GAME.deadline(state) == T0 + TURN
    tick(state, T0 + TURN - 1)
    assert fields(state)["phase"] == "main" and fields(state)["now"] == str(T0 + TURN - 1)
    events = tick(state, T0 + TURN)
    assert kinds(events)[0] == "timeout"
    assert GAME.deadline(state) is None and fields(state)["phase"] == "pre"


def test_HYH_R6_an_input_at_the_deadline_is_late_the_deadline_fires_first() -> None:
    """HYH-R6: an input stamped exactly at the deadline finds the deadline already fired (it is late)."""
    state = started(5)
    events = act(state, 1, 'guess "w001-orange"', T0 + TURN - 1)
    assert "won" in kinds(events)
    state = started(5)
    assert rejected(state, 1, 'guess "w001-orange"', T0 + TURN).rule == "HYH-R20"
    assert rejected(state, CLOCK, "start", T0).rule == "HYH-R6"  # the clock only ticks
    assert rejected(state, 0, "tick", T0).rule == "HYH-R6"  # and only the clock ticks


# -- PRE_TURN --------------------------------------------------------------------------------------------------------


def test_HYH_R10_raid_before_another_teams_turn_once_per_team() -> None:
    """HYH-R10: a team that is not the active team plays its RAID before the timer starts, at most once per turn;
    the RAID is discarded and the team guesses during MAIN."""
    state = small(5, "held=-/RR")
    act(state, 2, "raid B", 100)
    assert held(state, 1) == "R" and fields(state)["discard"] == "R"
    assert rejected(state, 3, "raid B").rule == "HYH-A8"
    act(state, 0, "start", 200)
    assert "guess ?" in legal(state, 2)
    act(state, 3, 'guess "w001-orange"', 300)
    tick(state, 601)
    assert won(state, 1) == ["W001"]


def test_HYH_R10_no_raid_on_your_own_turn_nor_after_the_timer_nor_without_the_card() -> None:
    """HYH-R10: not the active team, not once the timer runs, not without a RAID."""
    state = small(5, "held=R/R")
    assert rejected(state, 0, "raid A").rule == "HYH-R10"
    state = small(5, "held=-/-")
    assert rejected(state, 2, "raid B").rule == "HYH-R10"
    state = started(5, "held=-/R")
    assert rejected(state, 2, "raid B").rule == "HYH-R10"


def test_HYH_R11_binoculars_shows_the_top_five_to_the_clue_giver_who_reorders_them() -> None:
    """HYH-R11: the active team plays BINOCULARS before the timer; the clue-giver privately sees the top
    min(5, deck) cards and submits a permutation, which becomes the new top; the card is discarded."""
    state = small(7, "held=B/-")
    events = act(state, 1, "binoculars", 100)
    assert first(events, "binoculars", 0)["cards"] == tuple(f"w00{n}-orange" for n in range(1, 6))
    assert "cards" not in first(events, "binoculars", 1) and "cards" not in first(events, "binoculars", 2)
    assert GAME.view(state, 0)["peek"] == [f"w00{n}-orange" for n in range(1, 6)]
    assert "peek" not in GAME.view(state, 1)
    assert rejected(state, 0, "start").rule == "HYH-R11"
    assert len([m for m in legal(state, 0) if m.startswith("order ")]) == 120
    act(state, 0, "order 5,4,3,2,1", 200)
    assert deck(state) == ["W007", "W006", "W001", "W002", "W003", "W004", "W005"]
    assert held(state, 0) == "" and fields(state)["discard"] == "B"
    act(state, 0, "start", 300)
    assert word_of(state) == "w005-orange"


def test_HYH_R11_one_binoculars_per_turn_and_only_before_the_timer() -> None:
    """HYH-R11: at most one BINOCULARS per turn, before the timer starts, on your own turn."""
    state = small(7, "held=BB/B")
    assert rejected(state, 2, "binoculars").rule == "HYH-R11"
    act(state, 0, "binoculars", 100)
    act(state, 0, "order 1,2,3,4,5", 100)
    assert rejected(state, 0, "binoculars").rule == "HYH-R11"
    act(state, 0, "start", 200)
    assert rejected(state, 1, "binoculars", 300).rule == "HYH-R11"


def test_HYH_R12_start_timer_sets_the_deadline_and_draws_the_first_word() -> None:
    """HYH-R12: the clue-giver starts the timer: deadline = t + turn_seconds; the top card becomes the word; MAIN."""
    state = small(5, "held=B/R")
    assert rejected(state, 1, "start").rule == "HYH-R12"
    events = act(state, 0, "start", 4321)
    assert GAME.deadline(state) == 4321 + TURN
    assert current(state) == "W001" and fields(state)["phase"] == "main"
    assert first(events, "word", 0)["word"] == "w001-orange" and "word" not in first(events, "word", 1)
    assert rejected(state, 2, "raid B").rule == "HYH-R10"
    assert rejected(state, 0, "binoculars").rule == "HYH-R11"


# -- MAIN and EXTRA --------------------------------------------------------------------------------------------------


def test_HYH_R20_teammates_and_raiders_guess_without_limit_others_may_not() -> None:
    """HYH-R20: the active team's members except the clue-giver, and raiders in MAIN, guess as often as they like;
    a wrong guess does nothing; anyone else is refused."""
    state = small(5, "held=-/R/-", num_players=6, teams=3)  # A: 0,1  B: 2,3  C: 4,5
    act(state, 2, "raid B", 0)
    act(state, 0, "start", 100)
    for n in range(5):
        act(state, 1, f'guess "wrong {n}"', 200 + 1000 * n)
    assert current(state) == "W001" and won(state, 0) == []
    assert rejected(state, 4, 'guess "w001-orange"').rule == "HYH-R20"
    assert rejected(state, 0, 'guess "w001-orange"').rule == "HYH-A25"
    act(state, 3, 'guess "w001-orange"', 4300)
    tick(state, 4601)
    assert won(state, 1) == ["W001"]


def test_HYH_R21_theft_during_another_teams_turn_one_guess_per_card() -> None:
    """HYH-R21: another team plays THEFT with a guess at the current word; the card is discarded at once; a wrong
    guess does nothing more, a right one claims the word. Several per turn are allowed."""
    state = started(5, "held=-/TT")
    events = act(state, 2, 'theft B "w009-orange"', 2000)
    assert first(events, "theft")["result"] == "wrong" and held(state, 1) == "T"
    assert fields(state)["discard"] == "T" and current(state) == "W001"
    act(state, 3, 'theft B "w001-orange"', 3000)
    assert fields(state)["claim"] == "B@3000" and held(state, 1) == ""
    tick(state, 3301)  # the window for team A closes
    assert won(state, 1) == ["W001"] and current(state) == "W002"


def test_HYH_R21_no_theft_on_your_own_turn_or_without_the_card_or_before_the_timer() -> None:
    """HYH-R21: not by the active team, not without a THEFT, only while a word is explained."""
    state = started(5, "held=T/-")
    assert rejected(state, 1, 'theft A "w001-orange"', 2000).rule == "HYH-R21"
    assert rejected(state, 2, 'theft B "w001-orange"', 2000).rule == "HYH-R21"
    state = small(5, "held=-/T")
    assert rejected(state, 2, 'theft B "w001-orange"', 10).rule == "HYH-R21"


def test_HYH_R22_skip_sets_the_word_aside_and_draws_the_next() -> None:
    """HYH-R22: the active team plays SKIP: the word goes to the end of the set-aside list, the next is drawn;
    several SKIPs per turn are allowed."""
    state = started(5, "held=SS/-")
    act(state, 1, "skip", 2000)
    act(state, 0, "skip", 3000)
    assert fields(state)["aside"] == "W001,W002" and current(state) == "W003"
    assert held(state, 0) == "" and fields(state)["discard"] == "SS"
    assert rejected(state, 0, "skip").rule == "HYH-R22"


def test_HYH_R23_a_foul_sets_the_word_aside_and_the_timer_runs_on() -> None:
    """HYH-R23: an accepted foul puts the word at the end of the set-aside list and draws the next; no other
    penalty; the timer keeps running."""
    state = started(5)
    events = act(state, 0, "foul", 2000)
    assert fields(state)["aside"] == "W001" and current(state) == "W002"
    assert GAME.deadline(state) == T0 + TURN and totals(state) == [0, 0]
    assert first(events, "foul", 0)["word"] == "w001-orange" and "word" not in first(events, "foul", 2)
    assert rejected(state, 1, "foul").rule == "HYH-R23"


def test_HYH_R24_typed_clues_may_not_use_forms_of_the_entry() -> None:
    """HYH-R24: a typed clue using a root form or a derivative of the entry is refused; a fair clue is shown to
    everyone. For hat phrases the clue-giver may say the word count."""
    state = started(30)
    events = act(state, 0, 'clue "a fine clue, 2 words"', 2000)
    assert first(events, "clue", 3)["text"] == "a fine clue, 2 words"
    assert rejected(state, 0, 'clue "it sounds like orange"', 2100).rule == "HYH-R24"
    assert rejected(state, 1, 'clue "any"', 2100).rule == "HYH-R24"


def test_HYH_R24_round_two_one_word_round_three_none() -> None:
    """HYH-R24: round 2 clues are one word; round 3 (mime) takes no words at all: pictures only."""
    state = started(5, "round=2")
    assert rejected(state, 0, 'clue "two words"', 2000).rule == "HYH-R24"
    state = started(5, "round=3")
    assert rejected(state, 0, 'clue "word"', 2000).rule == "HYH-R24"
    assert rejected(state, 0, 'clue "\U0001f30a 4"', 2000).rule == "HYH-R24"
    assert GAME.view(state, 0)["clue_allowed"] is True
    events = act(state, 0, 'clue "\U0001f30a \U0001f41f"', 2000)
    assert first(events, "clue", 3)["text"] == "\U0001f30a \U0001f41f"
    assert GAME.view(state, 1)["clues"] == ["\U0001f30a \U0001f41f"]


def test_HYH_R25_an_empty_deck_ends_the_turn_early_without_extra_time() -> None:
    """HYH-R25: no card left to draw while set-aside words wait: the turn ends at once, no EXTRA TIME."""
    state = started(2, "held=E/-")
    act(state, 0, "foul", 2000)
    events = act(state, 0, "foul", 3000)
    assert first(events, "turn_end")["reason"] == "no_words"
    assert fields(state)["phase"] == "pre" and fields(state)["active"] == "1"
    assert deck(state) == ["W002", "W001"]
    assert held(state, 0).startswith("E")  # no EXTRA TIME was offered


def test_HYH_R25_the_last_word_won_ends_the_round() -> None:
    """HYH-R25: when no card is available and every pile of the round is empty, the round ends."""
    state = started(1)
    events = act(state, 0, "got A", 2000)
    assert "round_end" in kinds(events)


def test_HYH_R26_timeout_sets_the_cut_off_word_aside_and_ends_the_turn() -> None:
    """HYH-R26: at the deadline the current word goes to the set-aside list (then under the deck), the turn ends."""
    state = started(5)
    act(state, 0, "foul", 2000)
    events = tick(state, T0 + TURN)
    assert kinds(events)[:2] == ["timeout", "turn_end"]
    assert deck(state)[:3] == ["W002", "W001", "W005"]  # W001 (set aside first) directly under the old bottom
    assert fields(state)["phase"] == "pre"


def test_HYH_R26_timeout_resolves_a_pending_claim_first() -> None:
    """HYH-R26: a claim from a guess stamped before the deadline is resolved at the timeout (no next word)."""
    state = started(5, "held=-/T raiders=B")
    act(state, 1, 'guess "w001-orange"', T0 + TURN - 10)
    assert fields(state)["claim"] == f"A@{T0 + TURN - 10}"
    events = tick(state, T0 + TURN)
    assert kinds(events)[:2] == ["timeout", "won"] and "word" not in kinds(events)
    assert won(state, 0) == ["W001"]


def test_HYH_R26_timeout_offers_extra_time_to_a_team_holding_it() -> None:
    """HYH-R26: from MAIN, a team holding EXTRA TIME (not used this turn) with a non-empty deck decides."""
    state = started(5, "held=E/-")
    tick(state, T0 + TURN)
    assert fields(state)["phase"] == "decision"
    assert legal(state, 1) == ["extra", "end"] and legal(state, 2) == []


def test_HYH_R27_auto_judging_normalizes_and_accepts_alternates() -> None:
    """HYH-R27 (auto): case, accents, punctuation, spaces and a leading article do not matter."""
    state = started(5)
    act(state, 1, 'guess "The  W001 — ORANGE!"', 2000)
    assert won(state, 0) == ["W001"]
    act(state, 1, 'guess "w002 orangé"', 3000)
    assert won(state, 0) == ["W001", "W002"]


def test_HYH_R27_clue_giver_judging_confirms_spoken_guesses_and_theft_verdicts() -> None:
    """HYH-R27 (clue_giver): the clue-giver confirms the team that said the entry; THEFT carries a verdict."""
    state = started(5, "held=-/TT", guess_judging="clue_giver")
    assert legal(state, 1) == [] and legal(state, 2) == []
    assert legal(state, 0) == ["got A", "theft B ok", "theft B miss", "foul"]
    assert rejected(state, 1, 'guess "w001-orange"', 2000).rule == "HYH-R27"
    act(state, 0, "theft B miss", 2000)
    assert held(state, 1) == "T" and current(state) == "W001"
    act(state, 0, "got A", 3000)
    act(state, 0, "theft B ok", 4000)  # after the window of A's claim: the theft is on the next word
    tick(state, 4301)
    assert won(state, 0) == ["W001"] and won(state, 1) == ["W002"]


def test_HYH_R28_simultaneous_claims_go_to_the_team_with_fewer_points() -> None:
    """HYH-R28: a correct guess opens a window of W ms; other teams' correct guesses inside it join; the team with
    the fewest points wins the card; the claim is resolved by the first input after the window."""
    state = position("set=W001,W002,W003,W004,W005 deck=W004,W003,W002,W001 won=W005/- held=-/T", deck_size=5)
    act(state, 0, "start", T0)
    act(state, 1, 'guess "w001-orange"', 2000)
    assert fields(state)["claim"] == "A@2000" and GAME.deadline(state) == 2301
    events = act(state, 2, 'theft B "w001-orange"', 2300)  # the last moment of the window
    # Both teams claim: nobody else could join, so the claim is resolved now; B has fewer points than A.
    assert first(events, "won") == {"kind": "won", "team": 1, "word": "w001-orange", "points": 1,
                                    "claimed_by": (0, 1), "round": 1}


def test_HYH_R28_a_theft_after_the_window_meets_the_next_word() -> None:
    """HYH-R28: the claim is resolved before an input stamped after the window; the theft then targets the next
    word."""
    state = started(5, "held=-/T")
    act(state, 1, 'guess "w001-orange"', 2000)
    events = act(state, 2, 'theft B "w001-orange"', 2301)
    assert kinds(events)[:2] == ["won", "word"] and first(events, "theft")["result"] == "wrong"
    assert won(state, 0) == ["W001"] and won(state, 1) == []


def test_HYH_R28_ties_go_to_the_active_team_then_the_earliest_then_clockwise() -> None:
    """HYH-R28.2: equal points: the active team if it claimed; else the earliest claim; else the first team
    clockwise after the active team."""
    # Teams B and C claim with equal points; A does not: the earliest wins.
    state = started(5, "held=-/T/T", num_players=6, teams=3)
    act(state, 2, 'theft B "w001-orange"', 2000)
    act(state, 4, 'theft C "w001-orange"', 2000)
    tick(state, 2301)
    assert won(state, 1) == ["W001"]
    # Same time: clockwise from A, B comes before C even when C claimed first in order.
    state = started(5, "held=-/T/T", num_players=6, teams=3)
    act(state, 4, 'theft C "w001-orange"', 2000)
    act(state, 2, 'theft B "w001-orange"', 2000)
    tick(state, 2301)
    assert won(state, 1) == ["W001"]
    # The active team claims later but equal points: it wins.
    state = started(5, "held=-/T")
    act(state, 2, 'theft B "w001-orange"', 2000)
    act(state, 1, 'guess "w001-orange"', 2100)
    tick(state, 2301)
    assert won(state, 0) == ["W001"]


def test_HYH_R28_no_skip_or_foul_on_a_claimed_word_and_claiming_teams_are_ignored() -> None:
    """HYH-R28.1/R28.4: while a claim is open, skip and foul are refused; further guesses of a claiming team are
    ignored."""
    state = started(5, "held=S/T", num_players=6)  # team A: seats 0 (the clue-giver), 1 and 2
    act(state, 1, 'guess "w001-orange"', 2000)
    assert rejected(state, 0, "skip", 2100).rule == "HYH-R28"
    assert rejected(state, 0, "foul", 2100).rule == "HYH-R28"
    events = act(state, 2, 'guess "w001-orange"', 2100)
    assert first(events, "guess")["result"] == "ignored" and fields(state)["claim"] == "A@2000"


def test_HYH_R28_a_claim_nobody_else_can_join_is_resolved_at_once() -> None:
    """HYH-R28 (interpretation): when no other team could join the claim (no raider, no THEFT), waiting for the
    window changes nothing: the card is won and the next word drawn at once."""
    state = started(5)
    events = act(state, 1, 'guess "w001-orange"', 2000)
    assert kinds(events) == ["guess", "claim", "won", "word"]
    assert GAME.deadline(state) == T0 + TURN


def test_HYH_R30_extra_time_draws_three_words_and_restarts_the_timer() -> None:
    """HYH-R30: EXTRA TIME is discarded; up to extra_time_words cards from the top become the extra set (the first
    is current); the timer restarts; RAIDs stop."""
    state = small(6, "held=E/R")
    act(state, 2, "raid B", 0)
    act(state, 0, "start", T0)
    tick(state, T0 + TURN)
    events = act(state, 1, "extra", T0 + TURN + 500)
    assert fields(state)["phase"] == "extra" and current(state) == "W002"
    assert fields(state)["extra"] == "W003,W004" and deck(state) == ["W006", "W005"]
    assert GAME.deadline(state) == T0 + TURN + 500 + TURN
    assert first(events, "extra_time")["words"] == 3 and fields(state)["raiders"] == "-"
    assert fields(state)["aside"] == "W001"


def test_HYH_R31_skip_in_extra_time_takes_the_deck_top_first() -> None:
    """HYH-R31: SKIP during EXTRA TIME replaces the word with the top deck card if any, else the next extra card;
    when the extra set is used up the turn ends."""
    state = started(6, "held=ES/-", extra_time_words=2)
    tick(state, T0 + TURN)
    act(state, 1, "extra", T0 + TURN)
    assert current(state) == "W002" and fields(state)["extra"] == "W003"
    act(state, 1, "skip", T0 + TURN + 100)
    assert current(state) == "W004" and fields(state)["extra"] == "W003"
    act(state, 1, 'guess "w004-orange"', T0 + TURN + 200)
    assert current(state) == "W003"
    events = act(state, 1, 'guess "w003-orange"', T0 + TURN + 1200)
    assert first(events, "turn_end")["reason"] == "no_words"


def test_HYH_R32_end_declines_extra_time() -> None:
    """HYH-R32: in the decision, end declines EXTRA TIME and the turn ends."""
    state = started(5, "held=E/-")
    tick(state, T0 + TURN)
    events = act(state, 0, "end", T0 + TURN + 100)
    assert "turn_end" in kinds(events) and held(state, 0).count("E") == 1
    assert rejected(state, 0, "end").rule == "HYH-R32"


def test_HYH_R35_end_turn_in_its_order() -> None:
    """HYH-R35: (1) the set-aside list goes under the deck, first card directly under the bottom; (2) the active
    team draws a special; (3) its pointer advances; (4) per-turn limits reset; (5) the next team's turn."""
    state = started(6, "held=SB/R specials=TE discard=BBEESSTTTRRR")
    act(state, 0, "skip", 2000)
    act(state, 0, "foul", 3000)
    events = tick(state, T0 + TURN)
    assert deck(state)[:4] == ["W003", "W002", "W001", "W006"]  # W001, set aside first, under W006
    assert first(events, "special_draw") == {"kind": "special_draw", "team": 0, "card": "EXTRA TIME"}
    assert held(state, 0) == "BE" and fields(state)["specials"] == "T"
    assert fields(state)["pointers"] == "1,0"
    assert fields(state)["active"] == "1" and fields(state)["phase"] == "pre"


def test_HYH_R35_an_empty_special_deck_is_refilled_from_the_discard_pile() -> None:
    """HYH-R35.2: the special deck runs out: the discard pile is shuffled into a new deck, then one is drawn."""
    state = started(5, "specials=- discard=SSSEEEBBB held=TTTTRR/RR")
    events = tick(state, T0 + TURN)
    assert kinds(events)[2:4] == ["special_reshuffle", "special_draw"]
    assert fields(state)["discard"] == "-" and len(fields(state)["specials"]) == 8


# -- end of round, end of game ---------------------------------------------------------------------------------------


def test_HYH_R40_the_round_ends_when_its_last_word_is_won_and_the_turn_with_it() -> None:
    """HYH-R40: the instant the last word is won the turn ends (time left is lost) and END_TURN still runs."""
    state = started(1, "specials=R discard=BBBEEESSSTTTTRRR")
    events = act(state, 0, "got A", 5000)
    assert kinds(events) == ["got", "claim", "won", "turn_end", "special_draw", "round_end", "round_start",
                             "turn_start"]
    assert held(state, 0) == "R"


def test_HYH_R41_round_scores_are_recorded_and_specials_carry_over() -> None:
    """HYH-R41: a team's round score is the points of the cards it won that round (its own guesses, RAIDs and
    THEFTs); held special cards stay for later rounds."""
    state = position(f"set={ids(*range(1, 28))} deck={ids(*range(27, 0, -1))} held=-/T", deck_size=27)
    act(state, 0, "start", T0)
    act(state, 2, 'theft B "w001-orange"', 2000)
    tick(state, 2301)
    for n in range(2, 26):
        act(state, 1, f'guess "w{n:03d}-orange"', 1000 * n + 1000)
    act(state, 1, 'guess "w026-orange hat"', 27_000)
    events = act(state, 1, 'guess "w027-orange hat"', 28_000)
    assert first(events, "round_end")["points"] == (24 + 2 + 2, 1)
    assert fields(state)["scores"] == "28,0,0/1,0,0"
    assert len(held(state, 0)) == 1 and held(state, 1) == ""  # the special drawn at END_TURN is kept


def test_HYH_R42_highest_total_wins_and_ties_share() -> None:
    """HYH-R42: after the last round the highest total wins; equal highest totals share the victory (HYH-A17)."""
    state = started(2, "round=3 scores=5,5,0/6,4,0", rounds=3)
    act(state, 0, "got A", 2000)
    act(state, 0, "got A", 3000)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0, 1) and outcome.termination == "highest_total"
    assert outcome.to_dict()["rule"] == "HYH-R42"
    state = started(2, "round=3 scores=5,5,0/6,4,0", rounds=3)
    act(state, 0, "got A", 2000)
    act(state, 0, "foul", 3000)
    tick(state, T0 + TURN)
    act(state, 2, "start", T0 + TURN)
    act(state, 2, "got B", T0 + TURN + 10)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0, 1, 2, 3) and outcome.scores == (11.0,) * 4
    assert outcome.termination == "shared_victory" and outcome.to_dict()["rule"] == "HYH-A17"


def test_HYH_R43_round_end_sets_up_the_next_round_or_ends_the_game() -> None:
    """HYH-R43: after END_TURN the round is recorded; a next round is set up, or after the last the game is over."""
    state = started(1, rounds=2)
    events = act(state, 0, "got A", 2000)
    assert first(events, "round_end") == {"kind": "round_end", "round": 1, "points": (1, 0), "totals": (1, 0)}
    assert fields(state)["round"] == "2" and fields(state)["phase"] == "pre" and deck(state) == ["W001"]
    act(state, 2, "start", 3000)
    events = act(state, 2, "got B", 4000)
    assert first(events, "game_over") == {"kind": "game_over", "winners": (0, 1), "totals": (1, 1)}
    assert GAME.actors(state) == frozenset()


def test_HYH_V1_start_with_raid_gives_every_team_a_raid() -> None:
    """HYH-V1: with start_with_raid each team starts with one RAID face up; the special deck has 17 - teams
    cards; more than 4 teams is refused."""
    state = GAME.new(config(start_with_raid=True, num_players=6, teams=3), 5)
    assert fields(state)["held"] == "R/R/R" and len(fields(state)["specials"]) == 14
    assert fields(state)["specials"].count("R") == 1
    with pytest.raises(ConfigError, match="HYH-V1"):
        config(start_with_raid=True, num_players=10, teams=5)
