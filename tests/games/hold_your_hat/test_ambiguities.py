"""The rulebook's ambiguities as divedeck resolves them, HYH-A1..A28: each default, and its option where there is
one."""

from __future__ import annotations

import pytest

from divedeck.engine import ConfigError

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
    won,
)


def test_HYH_A1_the_same_words_in_every_round_deck_size_words() -> None:
    """HYH-A1: the game's deck_size words (default 40) are reshuffled for every round."""
    state = GAME.new(config(), 9)
    word_set = fields(state)["set"]
    assert len(word_set.split(",")) == 40 and sorted(deck(state)) == word_set.split(",")
    state = GAME.new(config(deck_size=12), 9)
    assert len(fields(state)["set"].split(",")) == 12


def test_HYH_A2_a_round_ends_when_every_word_is_won_and_time_is_not_carried_over() -> None:
    """HYH-A2: the round ends when its last word is won; the turn ends at once, its time is lost."""
    state = started(1, rounds=2)
    events = act(state, 0, "got A", T0 + 5000)
    assert "round_end" in kinds(events)
    assert GAME.deadline(state) is None and fields(state)["timer"] == "-"
    act(state, 2, "start", T0 + 6000)
    assert GAME.deadline(state) == T0 + 6000 + TURN


@pytest.mark.parametrize("how", ["round", "empty_deck", "timeout"])
def test_HYH_A3_every_turn_ends_with_one_special_card(how: str) -> None:
    """HYH-A3: a special card is drawn at the end of every turn: also when the round or the deck ends it."""
    state = started(2 if how == "empty_deck" else 1)
    if how == "round":
        events = act(state, 0, "got A", 2000)
    elif how == "empty_deck":
        act(state, 0, "foul", 2000)
        events = act(state, 0, "foul", 3000)
    else:
        events = tick(state, T0 + TURN)
    assert kinds(events).count("special_draw") == 1 and len(held(state, 0)) == 1


def test_HYH_A4_clue_givers_rotate_every_turn_and_the_rotation_runs_on_across_rounds() -> None:
    """HYH-A4: default per_turn; the pointer is not reset when a round starts."""
    state = started(1, num_players=6)  # team A: 0,1,2
    act(state, 0, "got A", 2000)  # ends round 1 in team A's turn: A's pointer moves to seat 1
    assert fields(state)["round"] == "2" and fields(state)["pointers"] == "1,0"
    act(state, 3, "start", 3000)
    tick(state, 3000 + TURN)
    assert state.clue_giver() == 1


def test_HYH_A5_simultaneous_means_within_the_window_and_fewer_points_win() -> None:
    """HYH-A5: guesses within simultaneous_window_ms of the first count as simultaneous; the team with fewer game
    points (this round's cards included) wins; the window is an option."""
    text = f"set={ids(1, 2, 3, 4)} deck={ids(4, 3, 2, 1)} held=-/T/T scores=3,0,0/0,0,0/0,0,0"
    state = position(text, deck_size=4, num_players=6, teams=3, simultaneous_window_ms=50)
    act(state, 0, "start", T0)
    act(state, 1, 'guess "w001-orange"', 2000)
    act(state, 2, 'theft B "w001-orange"', 2051)  # too late: the claim is resolved first
    assert won(state, 0) == ["W001"] and current(state) == "W002"
    act(state, 1, 'guess "w002-orange"', 3000)
    act(state, 4, 'theft C "w002-orange"', 3050)
    tick(state, 3051)
    assert won(state, 2) == ["W002"]


def test_HYH_A6_a_foul_costs_the_word_nothing_more() -> None:
    """HYH-A6: a foul is an input event: the word is set aside, play continues, no points are lost."""
    state = started(3, "won=-/- scores=4,0,0/0,0,0")
    act(state, 0, "foul", 2000)
    assert fields(state)["phase"] == "main" and fields(state)["scores"] == "4,0,0/0,0,0"
    act(state, 1, 'guess "w002-orange"', 2500)
    assert won(state, 0) == ["W002"]


def test_HYH_A7_one_guess_per_theft_and_play_goes_on_with_the_next_word() -> None:
    """HYH-A7: one guess per THEFT card; after a correct THEFT the clue-giver goes on with the next word."""
    state = started(3, "held=-/T")
    act(state, 2, 'theft B "w001-orange"', 2000)
    tick(state, 2301)
    assert won(state, 1) == ["W001"] and current(state) == "W002" and fields(state)["phase"] == "main"
    assert rejected(state, 2, 'theft B "w002-orange"', 2400).rule == "HYH-R21"


def test_HYH_A8_raids_before_the_turn_one_per_team_for_main_only() -> None:
    """HYH-A8: RAID in PRE_TURN of another team's turn, at most one per team, effective in MAIN only."""
    state = small(5, "held=E/RR")
    act(state, 2, "raid B", 0)
    assert rejected(state, 2, "raid B").rule == "HYH-A8"
    act(state, 0, "start", T0)
    tick(state, T0 + TURN)
    act(state, 0, "extra", T0 + TURN)
    assert rejected(state, 2, 'guess "w002-orange"', T0 + TURN + 1).rule == "HYH-A9"


def test_HYH_A9_no_raid_during_extra_time_unless_the_option() -> None:
    """HYH-A9: during EXTRA TIME no RAID can be played and raiders stop guessing; raid_in_extra_time keeps them."""
    state = small(5, "held=E/R", raid_in_extra_time=True)
    act(state, 2, "raid B", 0)
    act(state, 0, "start", T0)
    tick(state, T0 + TURN)
    act(state, 0, "extra", T0 + TURN)
    assert "guess ?" in legal(state, 3)
    act(state, 3, 'guess "w002-orange"', T0 + TURN + 10)
    tick(state, T0 + TURN + 311)
    assert won(state, 1) == ["W002"]


def test_HYH_A10_extra_time_plays_only_its_own_words_and_needs_a_deck() -> None:
    """HYH-A10: EXTRA TIME plays only the words it draws, in drawn order; the cut-off word is set aside; with an
    empty deck it is not offered."""
    state = started(4, "held=E/-", extra_time_words=2)
    act(state, 1, 'guess "w001-orange"', 2000)
    act(state, 1, 'guess "w002-orange"', 3000)
    tick(state, T0 + TURN)
    act(state, 1, "extra", T0 + TURN)
    assert current(state) == "W004" and fields(state)["aside"] == "W003" and deck(state) == []
    events = act(state, 1, 'guess "w004-orange"', T0 + TURN + 10)
    assert first(events, "turn_end")["reason"] == "no_words"
    assert deck(state) == ["W003"]
    # Every card but the cut-off one won before the timeout: the deck is empty, no decision.
    state = started(2, "held=E/-")
    act(state, 1, 'guess "w001-orange"', 2000)
    tick(state, T0 + TURN)
    assert fields(state)["phase"] == "pre" and held(state, 0).count("E") == 1


def test_HYH_A11_an_empty_deck_mid_turn_ends_the_turn_and_the_next_team_goes_on() -> None:
    """HYH-A11: the deck runs out while set-aside words wait: the turn ends early, they go to the bottom, and the
    next team continues the same round."""
    state = started(2)
    act(state, 0, "foul", 2000)
    act(state, 1, 'guess "w002-orange"', 3000)
    assert fields(state)["active"] == "1" and fields(state)["round"] == "1" and deck(state) == ["W001"]


def test_HYH_A12_binoculars_shows_every_card_when_fewer_than_five() -> None:
    """HYH-A12: the clue-giver alone looks; with fewer than 5 cards in the deck, all of them."""
    state = small(3, "held=B/-")
    act(state, 1, "binoculars", 0)
    assert GAME.view(state, 0)["peek"] == ["w001-orange", "w002-orange", "w003-orange"]
    assert "peek" not in GAME.view(state, 1) and "peek" not in GAME.view(state, None)
    assert rejected(state, 1, "order 3,2,1").rule == "HYH-A12"
    assert rejected(state, 0, "order 1,2", 0).rule == "HYH-R11"


def test_HYH_A13_no_special_card_when_deck_and_discard_are_empty() -> None:
    """HYH-A13: both the special deck and the discard pile empty: no card is drawn."""
    state = started(3, "specials=- discard=- held=BBBSSS/EEETTTTRRRR")
    events = tick(state, T0 + TURN)
    assert "no_special" in kinds(events) and held(state, 0) == "BBBSSS"


def test_HYH_A14_set_aside_cards_go_under_the_deck_in_the_order_they_were_set_aside() -> None:
    """HYH-A14: the first card set aside is placed under the deck first (directly under its bottom card)."""
    state = started(5, "held=S/-")
    act(state, 0, "skip", 2000)  # W001
    act(state, 0, "foul", 3000)  # W002
    tick(state, T0 + TURN)  # W003 cut off
    assert deck(state) == ["W003", "W002", "W001", "W005", "W004"]


def test_HYH_A15_hat_phrases_are_worth_two_points_to_thieves_too() -> None:
    """HYH-A15: the card's points go to whoever wins it."""
    state = position(f"set={ids(26, 27)} deck={ids(27, 26)} held=-/T", deck_size=2)
    act(state, 0, "start", T0)
    act(state, 2, 'theft B "w026-orange hat"', 2000)
    events = tick(state, 2301)
    assert first(events, "won")["points"] == 2
    assert GAME.view(state, None)["teams"][1]["round_points"] == 2


def test_HYH_A16_two_to_six_teams_of_at_least_two() -> None:
    """HYH-A16: the rulebook is silent; divedeck plays 2-6 teams of 2 or more."""
    assert config(num_players=12, teams=6).teams == 6
    with pytest.raises(ConfigError):
        config(num_players=14, teams=7)


def test_HYH_A17_equal_highest_totals_share_the_victory() -> None:
    """HYH-A17: in a tie the victory is shared."""
    state = started(1, "round=2 scores=0,0/1,0", rounds=2)
    act(state, 0, "got A", 2000)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0, 1, 2, 3) and outcome.details["teams"] == [0, 1]


def test_HYH_A18_first_team_is_an_option() -> None:
    """HYH-A18: "the team with the most original name goes first": option first_team."""
    assert fields(GAME.new(config(first_team=1), 1))["active"] == "1"
    with pytest.raises(ConfigError):
        config(first_team=2)


def test_HYH_A19_the_raid_variant_is_for_four_teams_at_most() -> None:
    """HYH-A19: only 4 RAID cards: start_with_raid needs at most 4 teams."""
    assert fields(GAME.new(config(start_with_raid=True, num_players=8, teams=4), 1))["held"] == "R/R/R/R"
    with pytest.raises(ConfigError):
        config(start_with_raid=True, num_players=10, teams=5)


def test_HYH_A20_judging_by_text_or_by_the_clue_giver() -> None:
    """HYH-A20: guess_judging auto (normalized text) or clue_giver (confirmations); party mode is clue_giver."""
    assert config().judging == "auto"
    assert config(guess_judging="clue_giver").judging == "clue_giver"
    assert config(party=True).judging == "clue_giver"
    state = started(3, guess_judging="clue_giver")
    assert rejected(state, 1, 'guess "w001-orange"', 2000).rule == "HYH-R27"
    act(state, 0, "got A", 2000)
    assert won(state, 0) == ["W001"]
    state = started(3, party=True)  # a party table confirms spoken guesses too (and takes typed ones, HYH-A29)
    act(state, 0, "got A", 2000)
    assert won(state, 0) == ["W001"]


def test_HYH_A29_at_a_shared_screen_clues_and_guesses_may_also_be_typed() -> None:
    """HYH-A29: at a party table (one shared screen) typed words are allowed besides spoken ones: the clue-giver
    may type clues (the same check, HYH-R24, HYH-A21), the active team's guessers and raiders may type guesses and
    other teams THEFTs, judged as with auto judging (HYH-R27), and the clue-giver still confirms spoken ones."""
    state = started(5, party=True)
    view = GAME.view(state, 0)
    assert view["clue_allowed"] and "w001-orange" in str(view["word"])
    assert not GAME.view(state, 1)["clue_allowed"] and GAME.view(state, 1).get("word") is None
    assert rejected(state, 0, 'clue "w001-orange thing"', 1500).rule == "HYH-R24"
    act(state, 0, 'clue "a small thing"', 1500)
    assert "guess ?" in legal(state, 1) and "guess ?" not in legal(state, 0)
    assert "guess ?" not in legal(state, 2)  # team B neither guesses nor raids
    act(state, 1, 'guess "nope"', 2000)
    assert won(state, 0) == []
    act(state, 1, 'guess "w001-orange"', 3000)
    assert won(state, 0) == ["W001"]
    act(state, 0, "got A", 3500)  # a spoken guess, confirmed by the clue-giver
    assert won(state, 0) == ["W001", "W002"]
    # round 2: one typed clue per word card (HYH-A21)
    state = started(3, "round=2", party=True)
    act(state, 0, 'clue "ocean"', 2000)
    assert not GAME.view(state, 0)["clue_allowed"]
    assert rejected(state, 0, 'clue "sea"', 2100).rule == "HYH-A21"
    # raiders type guesses, another team types its THEFT; the clue-giver may still judge a spoken THEFT
    state = small(5, "held=-/R", party=True)
    act(state, 2, "raid B", 0)
    act(state, 0, "start", T0)
    act(state, 2, 'guess "w001-orange"', 2000)
    tick(state, 2400)  # the claim window closes (HYH-R28)
    assert won(state, 1) == ["W001"]
    state = started(5, "held=-/TT", party=True)
    assert "theft B ?" in legal(state, 2) and "theft B ok" in legal(state, 0)
    act(state, 2, 'theft B "w001-orange"', 2000)
    tick(state, 2400)
    assert won(state, 1) == ["W001"]
    act(state, 0, "theft B ok", 2500)
    tick(state, 2900)
    assert won(state, 1) == ["W001", "W002"]


def test_HYH_A21_one_one_word_clue_per_card_in_round_two() -> None:
    """HYH-A21: round 2 allows one clue of one word per word card; teammates may still guess repeatedly."""
    state = started(3, "round=2")
    act(state, 0, 'clue "ocean"', 2000)
    assert rejected(state, 0, 'clue "sea"', 2100).rule == "HYH-A21"
    act(state, 1, 'guess "wrong"', 2100)
    act(state, 1, 'guess "still wrong"', 3100)
    act(state, 1, 'guess "w001-orange"', 4100)
    act(state, 0, 'clue "sea"', 4400)  # a new card, a new clue
    assert fields(state)["clued"] == "1"


def test_HYH_A22_skip_during_extra_time_replaces_from_the_deck_first() -> None:
    """HYH-A22: SKIP is allowed in EXTRA TIME; the replacement comes from the word deck, else the next extra card."""
    state = started(5, "held=ESS/-", extra_time_words=1)
    tick(state, T0 + TURN)
    act(state, 0, "extra", T0 + TURN)
    assert current(state) == "W002" and fields(state)["extra"] == "-"
    act(state, 0, "skip", T0 + TURN + 1)
    act(state, 0, "skip", T0 + TURN + 2)
    assert current(state) == "W004" and fields(state)["aside"] == "W001,W002,W003"


def test_HYH_A23_special_cards_are_kept_between_rounds_without_limit() -> None:
    """HYH-A23: held special cards stay from round to round, with no hand limit."""
    state = started(1, "held=BBBEEESS/-")
    act(state, 0, "got A", 2000)
    assert fields(state)["round"] == "2" and len(held(state, 0)) == 9


def test_HYH_A24_theft_is_allowed_during_extra_time() -> None:
    """HYH-A24: THEFT during another team's EXTRA TIME is allowed."""
    state = started(4, "held=E/T")
    tick(state, T0 + TURN)
    act(state, 0, "extra", T0 + TURN)
    act(state, 2, f'theft B "{"w002-orange"}"', T0 + TURN + 100)
    tick(state, T0 + TURN + 401)
    assert won(state, 1) == ["W002"]


def test_HYH_A25_the_clue_giver_does_not_guess_the_others_guess_without_limit() -> None:
    """HYH-A25: every other member of the active team may guess, again and again (at a person's pace, HYH-A26,
    HYH-A27); the clue-giver may not."""
    state = started(3, num_players=6)
    assert "guess ?" in legal(state, 1) and "guess ?" in legal(state, 2) and "guess ?" not in legal(state, 0)
    for n in range(10):
        act(state, 1 + n % 2, 'guess "nope"', 2000 + 500 * n)
    assert rejected(state, 0, 'guess "w001-orange"', 7000).rule == "HYH-A25"


def test_HYH_A26_one_seat_types_one_guess_a_second_by_the_guesses_own_times() -> None:
    """HYH-A26: a seat's typed guesses are at least a second apart, by their own times, however many sockets send
    them; another seat's guesses, blank guesses and THEFTs have their own pace."""
    state = started(5, "held=-/T", num_players=6)  # team A: seats 0 (the clue-giver), 1 and 2
    act(state, 1, 'guess "nope"', 2000)
    assert rejected(state, 1, 'guess "w001-orange"', 2999).rule == "HYH-A26"
    assert "guess ?" in legal(state, 1)  # the seat may still type: a moment later
    act(state, 2, 'guess "nope"', 2500)
    act(state, 1, "guess ?", 2600)
    act(state, 4, 'theft B "nope"', 2700)
    act(state, 1, 'guess "w001-orange"', 3000)
    assert won(state, 0) == ["W001"] and fields(state)["guessed"] == "-,3000,2500,-,-,-"


def test_HYH_A27_five_wrong_guesses_at_a_word_then_the_seat_waits_for_a_clue_or_the_next_word() -> None:
    """HYH-A27: after five wrong typed guesses at the current word a seat guesses no more until the clue-giver
    types a clue or the next word comes; its teammates keep their own five."""
    state = started(5, num_players=6)
    for n in range(5):
        act(state, 1, f'guess "wrong {n}"', 2000 + 1000 * n)
    assert fields(state)["misses"] == "0,5,0,0,0,0"
    assert "guess ?" not in legal(state, 1) and "guess ?" in legal(state, 2)
    assert rejected(state, 1, 'guess "w001-orange"', 9000).rule == "HYH-A27"
    act(state, 0, 'clue "a clue"', 9000)
    assert "guess ?" in legal(state, 1)
    for n in range(5):
        act(state, 1, f'guess "again {n}"', 10_000 + 1000 * n)
    assert rejected(state, 1, 'guess "w001-orange"', 20_000).rule == "HYH-A27"
    act(state, 2, 'guess "w001-orange"', 20_000)
    assert current(state) == "W002" and fields(state)["misses"] == "-" and "guess ?" in legal(state, 1)


def test_HYH_A26_A27_typing_the_word_list_is_no_strategy() -> None:
    """Issue 13 item 6: in round 2 every word in play is public; a guesser who never hears a clue types them all as
    fast as the rules let it. Without HYH-A26/A27 it won every word of the turn (0.06 s a word); now it gets five
    tries at the first word and then waits, so it wins at most that word."""
    words = list(range(1, 17))
    state = position(f"round=2 set={ids(*words)} deck={ids(*reversed(words))}", deck_size=16)
    act(state, 0, "start", T0)
    entries = [f"w{n:03d}-orange" for n in reversed(words)]  # the list in the order least likely to help
    t = T0
    typed = 0
    while fields(state)["phase"] == "main" and t < T0 + TURN - 100:
        t += 60
        left = [entry for entry in entries if entry.upper().replace("-ORANGE", "") not in fields(state)["won"]]
        guess = GAME.at(GAME.parse_action(f'guess "{left[typed % len(left)]}"'), t)
        if GAME.is_legal(state, 1, guess):
            GAME.apply(state, 1, guess)
            typed += 1
    assert typed <= 5 and len(won(state, 0)) <= 1


def test_HYH_A28_a_wrong_guess_one_letter_away_is_close_for_the_guessing_team_and_the_clue_giver() -> None:
    """HYH-A28: the clue-giver's "close!" for a typed guess one letter off the word (changed, missing or added)
    reaches the guessing team and the clue-giver; the other teams read only the wrong guess."""
    state = started(5, num_players=6)  # team A: seats 0 (the clue-giver), 1 and 2; the word is w001-orange
    (close,) = act(state, 1, 'guess "w001 orang"', 2000)
    assert close.result == "wrong" and close.said == "w001 orang"
    assert {seat for seat in range(6) if close.for_seat(seat).get("close")} == {0, 1, 2}
    assert "close" not in close.for_seat(3) and "close" not in close.for_seat(None)
    assert GAME.log_parts(close, 2)[-1] == {"text": " guessed \u201cw001 orang\u201d: close!"}
    assert GAME.log_parts(close, 3)[-1] == {"text": " guessed \u201cw001 orang\u201d: no"}
    (far,) = act(state, 1, 'guess "w002 orange x"', 3000)
    assert far.result == "wrong" and not far.close
