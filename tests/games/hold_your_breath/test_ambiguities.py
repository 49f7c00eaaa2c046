"""Hold Your Breath!'s resolved ambiguities, HYB-A3..A34 (A1 and A2 are in test_components): each reading the rules
specification chose, with the option for the other reading where there is one."""

from __future__ import annotations

from collections import Counter

from divedeck.engine import SeededRng
from divedeck.games.hold_your_breath.events import Calmed, Discarded, DrewCard, Gasped, KrakenDiscards, KrakenStruck

from .helpers import (
    DEFAULT_DECK,
    GAME,
    act,
    actor,
    all_cards,
    config,
    deck,
    discard,
    fields,
    first,
    hand,
    kinds,
    legal,
    number,
    numbers,
    pile,
    position,
    rejected,
    with_deck,
)


def outcome_of(state: object) -> tuple[tuple[int, ...], tuple[float, ...]]:
    outcome = GAME.outcome(state)
    assert outcome is not None
    return outcome.winners, outcome.scores


def test_HYB_A3_movement_is_the_lesser_total_over_the_whole_turn_not_card_by_card() -> None:
    """HYB-A3: m = min(total Air, total Swim) for the whole turn: Air 10 with Swim 5 + 5 moves 10 (pairing card
    by card would move 5)."""
    state = position("hands=A10D,S5D,S5X/?5 deck=?")
    act(state, "air A10D", "swim S5D", "swim S5X", "end")
    assert numbers(state, "depths") == [10, 0]


def test_HYB_A4_a_diver_who_plays_no_air_takes_the_penalty_even_without_air_in_hand() -> None:
    """HYB-A4: the face-down Panic follows any turn a diver ends with A = 0, whether or not they held Air; with
    forced_breath off a diver holding Air may choose to skip breathing and take the penalty."""
    state = position("hands=S5C,S10D/?5 deck=?")
    act(state, "swim S10D", "end")
    assert fields(state)["phase"] == "breath"
    relaxed = position("hands=A5D,S10D/?5 deck=?", forced_breath=False)
    act(relaxed, "end")
    assert fields(relaxed)["phase"] == "breath"
    act(relaxed, "gasp A5D")
    assert pile(relaxed, 0) == ["dA5D"]


def test_HYB_A5_the_face_down_card_is_chosen_and_is_a_panic_in_every_respect() -> None:
    """HYB-A5: the player picks the card; face down it blocks Swim, is removed by Calm (its face then shows),
    blocks an opponent's Panic and costs 10 at the end, and only its owner knows its face while it lies there."""
    state = position("hands=S5C,S10D,S10P/A5P,S10C,S5C,A5D,A10D deck=?")
    act(state, "end")
    assert legal(state) == ["gasp S5C", "gasp S10D", "gasp S10P"]
    act(state, "gasp S10D", "keep")
    assert pile(state, 0) == ["dS10D"]
    assert fields(state, 0, masked=True)["piles"] == "dS10D/-"
    assert fields(state, 1, masked=True)["piles"] == "d?/-"
    assert rejected(state, "panic A5P>0").rule == "HYB-R12"  # seat 1 cannot add a Panic over it
    act(state, "air A5D", "end", "keep")
    assert rejected(state, "swim S5C").rule == "HYB-R11"
    events = act(state, "calm S5C 0")
    assert first(events, Calmed).removed == "S10D"  # leaving the pile, it is shown
    assert discard(state)[-1] == "S10D"


def test_HYB_A6_an_empty_hand_penalty_takes_the_deck_top_or_nothing_with_option_none() -> None:
    """HYB-A6: by default a breathless diver with an empty hand gets the deck's top card face down, unseen (this
    closes the loophole of playing every card as an action); empty_hand_panic=none skips it."""
    assert config().empty_hand_panic == "deck_top"
    state = position("hands=-/?5 deck=?,KR")
    events = act(state, "end")
    assert pile(state, 0) == ["bKR"]
    assert first(events, Gasped) == Gasped(0, True, {})
    lenient = position("hands=-/?5 deck=?,KR", empty_hand_panic="none")
    act(lenient, "end")
    assert pile(lenient, 0) == []
    assert "KR" in hand(lenient, 0)  # the turn ended and the hand was replenished


def test_HYB_A7_all_hindrances_go_before_swim_but_earlier_air_still_counts() -> None:
    """HYB-A7: every Panic and the Shark must be cleared before any Swim play; Air may be played while hindered
    and still counts once the player is clear and swims."""
    state = position("hands=A10D,S5C,KR,S10D/?5 piles=pA5P,hSH/- deck=?")
    act(state, "air A10D", "calm S5C 0")
    assert pile(state, 0) == ["hSH"]
    assert rejected(state, "swim S10D").rule == "HYB-R11"
    act(state, "kraken KR>0", "swim S10D", "end")
    assert numbers(state, "depths") == [10, 0]


def test_HYB_A8_the_descent_stops_at_the_bottom_with_the_excess_lost() -> None:
    """HYB-A8: the Descent stops at max_depth (option, default the board's 150); the Ascent stops at 0."""
    state = position("hands=A10D,S10C/?5 depths=55,0 deck=?", max_depth=60)
    act(state, "air A10D", "swim S10C", "end")
    assert numbers(state, "depths") == [60, 0]


def test_HYB_A9_the_pirate_moves_once_at_the_end_of_play_not_card_by_card() -> None:
    """HYB-A9: no move happens while cards are played; one move at end_play."""
    state = position("hands=A5D,S5D,A5X,S5X/?5 deck=?")
    events = act(state, "air A5D", "swim S5D", "air A5X", "swim S5X")
    assert "move" not in kinds(events)
    assert numbers(state, "depths") == [0, 0]
    events = act(state, "end")
    assert kinds(events).count("move") == 1
    assert numbers(state, "depths") == [10, 0]


def test_HYB_A10_a_deck_emptied_by_a_draw_action_triggers_the_final_turns() -> None:
    """HYB-A10: the trigger is the first turn that ends with the deck empty, however it was emptied (a Draw here);
    then each player gets exactly one more turn, the trigger player last."""
    state = with_deck("hands=A5D,A10D,S5C/?5", ["SH"])
    act(state, "draw A5D")
    assert deck(state) == []
    act(state, "air A10D", "end", "keep")
    assert fields(state)["final"] == "0:2"


def test_HYB_A11_the_ascent_deals_everyone_a_fresh_hand_from_the_reshuffled_discards() -> None:
    """HYB-A11: Descent hands go to the Discard Pile before the reshuffle, so every hand in the Ascent is fresh."""
    state = with_deck("hands=A5D,S5C,S10C,SH,KR/A10D,S10D,DO active=1 depths=20,10 final=0:1", [])
    act(state, "air A10D", "swim S10D", "end", "keep")
    assert fields(state)["round"] == "ascent"
    assert [len(hand(state, seat)) for seat in (0, 1)] == [5, 5]
    assert all_cards(state) == DEFAULT_DECK
    assert discard(state) == []


def test_HYB_A12_the_shallowest_starts_the_ascent_ties_random_or_by_seat_order() -> None:
    """HYB-A12: the smallest anchor starts the Ascent; a tie is settled by the seeded RNG (rock-paper-scissors) or,
    with ascent_tie_break=seat_order, by the first tied seat clockwise from the Descent's first player."""
    text = "hands=?5/?5/A5D,S5C active=2 first=2 phase=discard depths=20,20,30 final=2:1"
    starters = set()
    for seed in range(12):
        state = with_deck(f"{text} rng={seed}:0", [], num_players=3)
        act(state, "keep")
        starters.add(actor(state))
    assert starters == {0, 1}
    ordered = with_deck(text, [], num_players=3, ascent_tie_break="seat_order")
    act(ordered, "keep")
    assert actor(ordered) == 0  # clockwise from seat 2: seat 0 comes before seat 1
    single = with_deck(text.replace("depths=20,20,30", "depths=25,20,30"), [], num_players=3)
    act(single, "keep")
    assert actor(single) == 1


def test_HYB_A13_a_shallow_diver_who_surfaced_beats_deeper_divers_who_did_not() -> None:
    """HYB-A13: with winner_rule=surfaced_first (default) a surfaced player beats every diver still under water,
    whatever their distance (the rulebook's shallow-diver hint); winner_rule=distance ranks by distance only."""
    text = ("round=ascent hands=?1/A5D active=1 phase=discard anchors=5,100 depths=0,20 surfaced=0 final=1:1")
    state = with_deck(text, [])
    act(state, "keep")
    assert outcome_of(state) == ((0,), (10.0, 180.0))
    by_distance = with_deck(text, [], winner_rule="distance")
    act(by_distance, "keep")
    assert outcome_of(by_distance)[0] == (1,)


def test_HYB_A14_each_hindrance_card_counts_minus_ten_face_down_included() -> None:
    """HYB-A14: the end-of-game penalty is per hindrance card: a face-up Panic, a face-down Panic and the Shark
    are -30 together."""
    state = with_deck("round=ascent hands=?1/A5D active=1 phase=discard anchors=50,50 depths=10,10 "
                      "piles=pA5P,dS5C,hSH/- final=1:1", [], winner_rule="distance")
    act(state, "keep")
    assert outcome_of(state) == ((1,), (60.0, 90.0))


def test_HYB_A15_ties_among_surfaced_go_to_the_greatest_anchor_then_the_earliest() -> None:
    """HYB-A15: among surfaced players the greatest anchor wins, then the earliest to surface; equal distances
    share the victory."""
    text = ("round=ascent hands=?1/?1/A5D active=2 phase=discard anchors=30,30,60 depths=0,0,10 surfaced=1,0 "
            "final=2:1")
    state = with_deck(text, [], num_players=3)
    act(state, "keep")
    assert outcome_of(state)[0] == (1,)
    shared = with_deck("round=ascent hands=?1/A5D active=1 phase=discard anchors=30,40 depths=10,30 final=1:1", [])
    act(shared, "keep")
    assert outcome_of(shared) == ((0, 1), (50.0, 50.0))


def test_HYB_A16_a_player_who_never_dived_is_not_counted_as_surfaced() -> None:
    """HYB-A16: anchor 0 is not a surfacing (else a 0-ft dive would win): such a player ranks by distance."""
    state = with_deck("round=ascent hands=?1/A5D active=1 phase=discard anchors=0,40 depths=0,35 final=1:1", [])
    act(state, "keep")
    assert fields(state)["surfaced"] == "-"
    assert outcome_of(state) == ((1,), (0.0, 45.0))


def test_HYB_A17_a_discard_needs_an_opponent_holding_five_and_four_is_not_enough() -> None:
    """HYB-A17: 'holding 5 cards' reads as at least 5; after one Discard the target holds 4 and is safe."""
    state = position("hands=A5X,A10X/?5/?4 deck=?")
    assert [m for m in legal(state) if m.startswith("discard")] == ["discard A5X>1", "discard A10X>1"]
    act(state, "discard A5X>1")
    assert rejected(state, "discard A10X>1").rule == "HYB-A17"
    assert rejected(state, "discard A10X>2").rule == "HYB-A17"


def test_HYB_A18_the_discarded_card_is_uniformly_random_from_the_engines_rng() -> None:
    """HYB-A18: the card is picked uniformly over the target's hand with the game's seeded RNG: the same rng
    state picks the same card, and over many rng states every card is picked about as often."""
    picks: Counter[str] = Counter()
    for seed in range(400):
        state = position(f"hands=A5X/A5D,A10D,S5C,S10P,DO deck=? rng={seed}:0")
        picks[first(act(state, "discard A5X>1"), Discarded).lost] += 1
    assert set(picks) == {"A5D", "A10D", "S5C", "S10P", "DO"}
    assert all(50 <= count <= 110 for count in picks.values()), picks
    again = [first(act(position("hands=A5X/A5D,A10D,S5C,S10P,DO deck=? rng=3:0"), "discard A5X>1"), Discarded).lost
             for _ in range(2)]
    assert again[0] == again[1]
    order = list(range(5))
    SeededRng(3, 0).shuffle(order)
    assert again[0] == ["A5D", "A10D", "S5C", "S10P", "DO"][order[0]]


def test_HYB_A19_the_kraken_player_is_a_victim_too_and_each_victim_picks_or_random() -> None:
    """HYB-A19: the mass discard includes the Kraken's player if they still hold 5; each victim picks their card
    (kraken_discard=owner_choice) or the engine picks at random (kraken_discard=random, no decision)."""
    text = "hands=KR,A5D,A5X,S5C,S5D,A10D/?5/?4 deck=?"
    state = position(text)
    act(state, "mass KR")
    assert GAME.actors(state) == {0, 1}
    randomly = position(text, kraken_discard="random")
    events = act(randomly, "mass KR")
    losses = first(events, KrakenDiscards).losses
    assert [seat for seat, _ in losses] == [0, 1]
    assert fields(randomly)["phase"] == "play"
    assert len(hand(randomly, 0)) == 4 and len(hand(randomly, 1)) == 4 and len(hand(randomly, 2)) == 4
    nobody = position("hands=KR,A5D/?4/?4 deck=?")
    events = act(nobody, "mass KR")
    assert first(events, KrakenStruck).victims == ()
    assert fields(nobody)["phase"] == "play"


def test_HYB_A20_the_kraken_may_remove_the_shark_from_its_own_player() -> None:
    """HYB-A20: 'remove the Shark from any player' includes the Kraken's player."""
    state = position("hands=KR/?5 piles=hSH/- deck=?")
    assert "kraken KR>0" in legal(state)
    act(state, "kraken KR>0")
    assert pile(state, 0) == []


def test_HYB_A21_a_shark_does_not_block_a_panic() -> None:
    """HYB-A21: only a Panic (face up or down) blocks a new Panic; a Shark does not."""
    state = position("hands=A5P/?5 piles=-/hSH deck=?")
    act(state, "panic A5P>1")
    assert pile(state, 1) == ["hSH", "pA5P"]


def test_HYB_A22_a_swim_pile_holds_at_most_one_shark() -> None:
    """HYB-A22: a Dolphin played as a Shark cannot join a Shark already there."""
    state = position("hands=DO/?5/?5 piles=-/hSH/- deck=?")
    assert rejected(state, "shark DO>1").rule == "HYB-A22"
    assert "shark DO>2" in legal(state)


def test_HYB_A23_the_calmed_shark_goes_where_its_victim_chooses() -> None:
    """HYB-A23: the afflicted player picks any other diver without a Shark to receive it."""
    state = position("hands=S5C/?5/?5/?5 piles=hSH/-/-/- deck=?")
    assert [m for m in legal(state) if m.startswith("calm")] == ["calm S5C 0>1", "calm S5C 0>2", "calm S5C 0>3"]
    act(state, "calm S5C 0>3")
    assert pile(state, 3) == ["hSH"]


def test_HYB_A24_one_calm_removes_one_hindrance_of_the_players_choice() -> None:
    """HYB-A24: with a Panic and a Shark, one Calm removes either one, chosen by the player."""
    state = position("hands=S5C,A5C/?5 piles=dS10D,hSH/- deck=?")
    calms = [m for m in legal(state) if m.startswith("calm S5C")]
    assert calms == ["calm S5C 0", "calm S5C 1>1"]
    act(state, "calm S5C 1>1")
    assert pile(state, 0) == ["dS10D"]
    assert pile(state, 1) == ["hSH"]


def test_HYB_A25_a_dolphin_is_declared_when_it_is_played() -> None:
    """HYB-A25: a Dolphin's type is part of its play (``air DO 10``, ``calm DO 0``...), not fixed in the hand."""
    state = position("hands=DO,DO/?5 piles=pA5P/- deck=?")
    act(state, "calm DO 0")
    assert pile(state, 0) == []
    act(state, "air DO 5")
    assert number(state, "air") == 5


def test_HYB_A26_surfaced_players_act_on_others_but_cannot_be_hindered_or_made_to_breathe() -> None:
    """HYB-A26: HYB-R34 applies: a surfaced player may panic a diver, is no target, and owes no breath."""
    state = position("round=ascent hands=A5P,S5D/?5 anchors=20,40 depths=0,25 surfaced=0 deck=?")
    act(state, "panic A5P>1", "end")
    assert pile(state, 1) == ["pA5P"]
    assert pile(state, 0) == []
    assert fields(state)["phase"] == "discard"


def test_HYB_A27_a_draw_with_an_empty_deck_is_legal_and_does_nothing() -> None:
    """HYB-A27: a Draw card may be played with the deck empty; it simply draws nothing."""
    state = with_deck("hands=A5D,S5C/?5", [])
    assert "draw A5D" in legal(state)
    events = act(state, "draw A5D")
    assert events == [DrewCard(0, "A5D", False, 0, {})]
    assert hand(state, 0) == ["S5C"]


def test_HYB_A28_replenishing_stops_at_five_and_nothing_forces_a_discard() -> None:
    """HYB-A28: replenish only up to 5; a player may keep a full hand (no forced discard)."""
    state = position("hands=A5D,A5X,A5C,A5P,A10D/?5 deck=?")
    act(state, "draw A5D")
    assert len(hand(state, 0)) == 5  # the Draw card left as the drawn card came
    act(state, "air A5X", "end", "keep")
    assert len(hand(state, 0)) == 5
    assert "keep" in legal(position("hands=?5/?5 phase=discard deck=?"))


def test_HYB_A29_the_discard_step_comes_after_the_move_and_the_breath_penalty() -> None:
    """HYB-A29: any subset may be discarded, after movement and after the breath penalty."""
    state = position("hands=S5C,S10D,S5D/?5 deck=?")
    act(state, "swim S5D", "end")
    assert fields(state)["phase"] == "breath"
    assert rejected(state, "drop S5C").rule == "HYB-R23"
    act(state, "gasp S10D")
    assert legal(state) == ["keep", "drop S5C"]


def test_HYB_A30_air_or_swim_may_be_played_without_a_counterpart() -> None:
    """HYB-A30: Swim with no Air (or the reverse) is legal; the value is simply wasted."""
    state = position("hands=S10D,S10C,A5D/?5 deck=?")
    act(state, "swim S10D", "swim S10C", "air A5D", "end")
    assert numbers(state, "depths") == [5, 0]


def test_HYB_A31_descent_hindrances_carry_over_and_block_the_ascent_by_the_normal_rule() -> None:
    """HYB-A31: Swim Piles survive into the Ascent and the normal rule (HYB-R11) applies there."""
    state = with_deck("hands=A5D/A10D,S10D active=1 depths=20,40 piles=-/pA5P final=0:1", [])
    act(state, "air A10D", "end", "drop S10D")
    assert fields(state)["round"] == "ascent"
    assert pile(state, 1) == ["pA5P"]
    ascent = position("round=ascent hands=A10D,S10D,S5C/?5 anchors=40,20 depths=40,20 piles=pA5P/- deck=?")
    assert rejected(ascent, "swim S10D").rule == "HYB-R11"
    act(ascent, "air A10D", "calm S5C 0", "swim S10D", "end")
    assert numbers(ascent, "depths") == [30, 20]


def test_HYB_A32_only_the_group_tied_at_the_greatest_anchor_wins_by_surfacing_first() -> None:
    """HYB-A32: the first of the deepest-tied group to surface wins at once; a tie lower down does not end the
    game."""
    state = position("round=ascent hands=A10D,S10C/?5/?5 anchors=30,30,60 depths=10,5,40 deck=?", num_players=3)
    act(state, "air A10D", "swim S10C", "end")
    assert numbers(state, "surfaced") == [0]
    assert GAME.outcome(state) is None


def test_HYB_A33_the_panic_card_itself_lies_in_the_pile_and_goes_to_the_discard_pile_after() -> None:
    """HYB-A33: the played card is the Panic in the target's Swim Pile; calmed, that same card is discarded."""
    state = position("hands=S10P,A5D,S5D/S5C,A5X,A10D,S10D,A10X deck=?")
    act(state, "panic S10P>1")
    assert pile(state, 1) == ["pS10P"]
    assert "S10P" not in discard(state)
    act(state, "air A5D", "end", "keep")
    act(state, "calm S5C 0")
    assert discard(state)[-2:] == ["S5C", "S10P"]


def test_HYB_A34_the_first_player_is_an_option() -> None:
    """HYB-A34: 'the most recent victim of an involuntary soaking' is option first_player."""
    assert config().first_player == 0
    assert actor(GAME.new(config(num_players=3, first_player=1), 4)) == 1
