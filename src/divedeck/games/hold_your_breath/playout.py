"""Hold Your Breath!'s random playout for search bots: ``Game.random_playout`` as one loop over plain lists.

A search bot spends most of its time playing random games on from a sample. ``apply`` validates each action, builds
its events and rebuilds the tuples that make a state cheap to clone; a playout needs none of that, because the search
owns its sample and reads only the result. This loop plays the same rules on lists, with the legality predicates of
``rules.py`` (``panic_targets_in``, ``calm_options_in``...), and hands the rare steps back to ``rules.py`` itself (the
end of the Descent and the Ascent's deal, the end of the game). It takes exactly the actions the generic playout
takes for the same draws: the tests compare the two on every configuration.

Legal actions are never built. A turn's plays are counted per distinct face of the hand, in ``rules.legal_actions``'
order (``end`` first when allowed, then each face's Air and Swim values, then its icons in ``ACTION_VERBS`` order,
each with its targets), and the drawn index is read back into its effect by walking that order again.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable
from functools import cache
from typing import Any

from ...engine.rng import SeededRng
from .cards import ACTION_VERBS
from .rules import (
    _end_round,
    _game_over,
    calm_options_in,
    discard_targets_in,
    kraken_targets_in,
    panic_targets_in,
    shark_targets_in,
)
from .state import (
    BLIND,
    BREATH,
    DESCENT,
    DISCARD,
    DOWN,
    KRAKEN,
    NOT_INVOLVED,
    OVER,
    PANIC,
    PLAY,
    SHARK,
    WAITING,
    Context,
    HoldYourBreathState,
)

# The events after which this loop can stop: those of the end of the Descent (the Ascent's deal comes with it) and
# of the game's end (after which nobody acts anyway). ``HoldYourBreath.random_playout`` checks the stop events.
ROUND_EVENTS = frozenset({"descent_end", "ascent_start", "deal", "game_over"})

# Icons as small numbers, in ``ACTION_VERBS`` order.
DRAW, DISCARD_ICON, CALM, PANIC_ICON, SHARK_ICON, KRAKEN_ICON, MASS = range(len(ACTION_VERBS))
_VERB_CODE = {verb: code for code, verb in enumerate(ACTION_VERBS)}


@cache
def face_plays(context: Context) -> tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]:
    """Per face of the context's deck: the values it may be played for as Air, as Swim (a Dolphin's declared values,
    a printed card's own value), and its icons as codes, in the order ``rules._play_actions`` lists them."""
    table = context.table
    plays = []
    for face, verbs in enumerate(table.face_verbs):
        values = table.dolphin_values if table.face_kind[face] == "dolphin" else (table.face_value[face],)
        plays.append((values if "air" in verbs else (), values if "swim" in verbs else (),
                      tuple(_VERB_CODE[verb] for verb in table.face_actions[face])))
    return tuple(plays)


def random_playout(state: HoldYourBreathState, random_float: Callable[[], float], max_actions: int,
                   stop_events: frozenset[str] = frozenset()) -> int:
    """``Game.random_playout`` for ``stop_events`` within ``ROUND_EVENTS`` (``HoldYourBreath`` checks that)."""
    context = state.context
    config = context.config
    plays = face_plays(context)
    air_verbs = tuple(bool(air) for air, _, _ in plays)
    size = context.hand_size
    max_depth = context.max_depth
    forced = config.forced_breath
    deck_top = config.empty_hand_panic == "deck_top"
    random_mass = config.kraken_discard == "random"
    short_hand = config.final_turn_trigger == "short_hand"
    stop_at_round_end = bool(stop_events)
    n = len(state.hands)
    steps = 0
    while state.phase != OVER and steps < max_actions:  # one round (or what is left of it) per pass
        hands = [list(hand) for hand in state.hands]
        deck = list(state.deck)
        discard = list(state.discard)
        piles = [list(pile) for pile in state.piles]
        depths = list(state.depths)
        anchors = state.anchors
        surfaced = list(state.surfaced)
        rng = state.rng
        descent = state.round == DESCENT
        phase, active, air, swim = state.phase, state.active, state.air, state.swim
        trigger, final_left, turns = state.trigger, state.final_left, state.turns
        kraken = list(state.kraken)
        finished = ""  # "round" once the round's last turn is over, "R22" for the deepest diver surfacing
        while steps < max_actions:
            if phase == PLAY:
                seat = active
                hand = hands[seat]
                diver = seat not in surfaced
                can_swim = diver and not piles[seat]
                # HYB-R14: end is listed first, when allowed
                end = 1 if not forced or air or not diver or not any(air_verbs[f] for f in hand) else 0
                options = end
                targets: list[Any] = [None] * 7  # per icon, computed when a face needs it
                counted: list[tuple[int, int]] = []  # (face, how many plays it has)
                previous = -1
                for face in hand:
                    if face == previous:
                        continue
                    previous = face
                    air_values, swim_values, icons = plays[face]
                    count = (len(air_values) if diver else 0) + (len(swim_values) if can_swim else 0)
                    for icon in icons:
                        if icon in (DRAW, MASS):
                            count += 1
                            continue
                        listed = targets[icon]
                        if listed is None:
                            listed = targets[icon] = _targets(icon, hands, piles, surfaced, size, seat)
                        count += len(listed)
                    if count:
                        counted.append((face, count))
                        options += count
                pick = int(random_float() * options) if options > 1 else 0
                steps += 1
                if pick < end:  # HYB-R20..R23: end of plays; move, surface, the breath penalty
                    moved = air if air < swim else swim
                    if diver and moved:
                        old = depths[seat]
                        new = (old + moved if old + moved < max_depth else max_depth) if descent else (
                            old - moved if old > moved else 0)
                        depths[seat] = new
                        if not descent and old > 0 and new == 0:  # HYB-R21
                            surfaced.append(seat)
                            anchor = anchors[seat]
                            if anchor > 0 and anchor == max(anchors):  # HYB-R22
                                finished = "R22"
                                break
                            diver = False
                    if diver and not air:  # HYB-R23, HYB-A4
                        if hand:
                            phase = BREATH
                            continue
                        if deck_top and deck:  # HYB-A6
                            piles[seat].append(deck.pop() * 4 + BLIND)
                    if hand:  # HYB-R24
                        phase = DISCARD
                        continue
                else:
                    pick -= end
                    index = 0
                    while pick >= counted[index][1]:
                        pick -= counted[index][1]
                        index += 1
                    face = counted[index][0]
                    hand.remove(face)
                    air_values, swim_values, icons = plays[face]
                    if diver:  # HYB-R10, HYB-R13
                        if pick < len(air_values):
                            air += air_values[pick]
                            discard.append(face)
                            continue
                        pick -= len(air_values)
                    if can_swim:  # HYB-R11, HYB-R13
                        if pick < len(swim_values):
                            swim += swim_values[pick]
                            discard.append(face)
                            continue
                        pick -= len(swim_values)
                    for icon in icons:  # HYB-R12
                        if icon in (DRAW, MASS):
                            if pick:
                                pick -= 1
                                continue
                            discard.append(face)
                            if icon == DRAW:  # HYB-A27: an empty deck draws nothing
                                if deck:
                                    insort(hand, deck.pop())
                                break
                            # HYB-A19: the mass discard, among those holding a full hand now
                            victims = [s for s in range(n) if len(hands[s]) >= size]
                            if victims and random_mass:
                                for victim in victims:
                                    rng, lost = _random_card(rng, hands[victim])
                                    hands[victim].remove(lost)
                                    discard.append(lost)
                            elif victims:
                                kraken = [WAITING if s in victims else NOT_INVOLVED for s in range(n)]
                                phase = KRAKEN
                            break
                        listed = targets[icon]
                        assert listed is not None
                        if pick >= len(listed):
                            pick -= len(listed)
                            continue
                        if icon == PANIC_ICON:  # HYB-A33: the card itself, face up in the target's Swim Pile
                            piles[listed[pick]].append(face * 4 + PANIC)
                        elif icon == SHARK_ICON:
                            piles[listed[pick]].append(face * 4 + SHARK)
                        elif icon == DISCARD_ICON:  # HYB-A17, HYB-A18: a random card of the target's hand
                            discard.append(face)
                            robbed = hands[listed[pick]]
                            rng, lost = _random_card(rng, robbed)
                            robbed.remove(lost)
                            discard.append(lost)
                        elif icon == CALM:  # HYB-A23, HYB-A24
                            discard.append(face)
                            index, target = listed[pick]
                            entry = piles[seat].pop(index)
                            if entry & 3 != SHARK or target < 0:
                                discard.append(entry >> 2)
                            else:
                                piles[target].append((entry >> 2) * 4 + SHARK)
                        else:  # the Kraken chases the target's Shark
                            discard.append(face)
                            pile = piles[listed[pick]]
                            index = next(i for i, entry in enumerate(pile) if entry & 3 == SHARK)
                            discard.append(pile.pop(index) >> 2)
                        break
                    continue
            elif phase == DISCARD:  # HYB-R24: keep, or drop one face
                seat = active
                hand = hands[seat]
                faces = _distinct(hand)
                pick = int(random_float() * (len(faces) + 1))
                steps += 1
                if pick:
                    face = faces[pick - 1]
                    hand.remove(face)
                    discard.append(face)
                    if hand:
                        continue
            elif phase == BREATH:  # HYB-R23: a card of the hand face down as a Panic
                seat = active
                hand = hands[seat]
                faces = _distinct(hand)
                face = faces[int(random_float() * len(faces))] if len(faces) > 1 else faces[0]
                steps += 1
                hand.remove(face)
                piles[seat].append(face * 4 + DOWN)
                if hand:
                    phase = DISCARD
                    continue
            else:  # KRAKEN: the lowest victim still to choose gives up a card (HYB-R12)
                seat = kraken.index(WAITING)
                hand = hands[seat]
                faces = _distinct(hand)
                face = faces[int(random_float() * len(faces))] if len(faces) > 1 else faces[0]
                steps += 1
                hand.remove(face)
                kraken[seat] = face
                if WAITING not in kraken:
                    discard.extend(chosen for chosen in kraken if chosen >= 0)
                    kraken = []
                    phase = PLAY
                continue
            # HYB-R25 replenish, HYB-R26/R30 the final-turn count, then the next player
            seat = active
            hand = hands[seat]
            if len(hand) < size and deck:
                take = min(size - len(hand), len(deck))
                hand.extend(deck[-take:])
                del deck[-take:]
                hand.sort()
            turns += 1
            if trigger >= 0:
                final_left -= 1
                if final_left == 0:
                    finished = "round"
                    break
            elif not deck and (not short_hand or len(hand) < size):
                trigger = seat
                final_left = n
            active = (seat + 1) % n
            phase = PLAY
            air = swim = 0
        state.hands = tuple(map(tuple, hands))
        state.deck = tuple(deck)
        state.discard = tuple(discard)
        state.piles = tuple(map(tuple, piles))
        state.depths = tuple(depths)
        state.surfaced = tuple(surfaced)
        state.rng = rng
        state.phase, state.active, state.air, state.swim = phase, active, air, swim
        state.trigger, state.final_left, state.turns = trigger, final_left, turns
        state.kraken = tuple(kraken)
        if finished == "R22":
            _game_over(state, (active,), "HYB-R22", [])
        elif finished:
            _end_round(state, [])
            if stop_at_round_end:
                break
    return steps


def _targets(icon: int, hands: list[list[int]], piles: list[list[int]], surfaced: list[int], size: int,
             seat: int) -> list[Any]:
    if icon == DISCARD_ICON:
        return discard_targets_in(hands, size, seat)
    if icon == CALM:
        return calm_options_in(piles, surfaced, seat)
    if icon == PANIC_ICON:
        return panic_targets_in(piles, surfaced, seat)
    if icon == SHARK_ICON:
        return shark_targets_in(piles, surfaced, seat)
    return kraken_targets_in(piles)


def _distinct(hand: list[int]) -> list[int]:
    faces: list[int] = []
    previous = -1
    for face in hand:
        if face != previous:
            faces.append(face)
            previous = face
    return faces


def _random_card(rng: SeededRng, hand: list[int]) -> tuple[SeededRng, int]:
    """HYB-A18 as ``rules._random_card``: the card at the first place of a shuffled order of the hand's places."""
    order = list(range(len(hand)))
    rng = rng.shuffle(order)
    return rng, hand[order[0]]
