"""What the batched rules read of one config: its sizes, its card table and its move table as constant arrays.

The player count and the deck fix every array's size (as the player count does for a pgx game); the other options
travel with each game's state (``state.py``). The move table (``HoldYourBreath.all_actions``) is decoded once into
one row per action: what kind of decision it is, the card face, the value, the seat aimed at and the Swim Pile
place, so a step reads its action from the rows.

The legal mask is built in the move table's order from two kinds of run (``runs``): a Calm card's whole grid of
Swim Pile places and targets (``place * (players + 1) + target + 1``: nine actions in ten), which is one grid
computed once per step and repeated for each Calm face the hand holds; and the few other actions between them,
computed over their own rows only (``others``). Concatenating runs costs nothing; a per-action select or gather
over all 1,134-1,842 actions cost more than the rest of a step on the CPU.

Each of the other actions is legal when three conditions hold: its kind's own (per seat aimed at for the four
kinds that aim), the card it names in the hand (none for end and keep), and the phase its kind is taken in.
``others_needs`` marks them in the order of ``CONDITIONS``, so the mask counts them with one matrix product.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..actions import Air, Calm, Discard, Draw, Drop, EndPlay, Gasp, Keep, Kraken, Lose, Mass, Panic, Shark, Swim
from ..config import HoldYourBreathConfig
from ..observation import HoldYourBreathObservation
from . import state as phase

# Kinds of decision, one per action record type (``actions.py``).
END, KEEP, AIR, SWIM, DRAW, MASS, DISCARD, PANIC, SHARK, KRAKEN, CALM, GASP, DROP, LOSE = range(14)
# The phase each kind of decision is taken in (HYB-R10..R14, HYB-R23, HYB-R24, HYB-R12).
PHASE_OF = (phase.PLAY, phase.DISCARD, phase.PLAY, phase.PLAY, phase.PLAY, phase.PLAY, phase.PLAY, phase.PLAY,
            phase.PLAY, phase.PLAY, phase.PLAY, phase.BREATH, phase.DISCARD, phase.KRAKEN)
# The legal mask's conditions for the actions that are not Calms (``rules.legal_action_mask`` computes them in
# this order): four of one value, four of one per seat (the seat aimed at), one per face held, one per phase.
ALWAYS, MAY_END, DIVER, MAY_SWIM = range(4)
AIMED = (DISCARD, PANIC, SHARK, KRAKEN)  # each kind's condition per seat aimed at, in this order
KIND_OF = {EndPlay: END, Keep: KEEP, Air: AIR, Swim: SWIM, Draw: DRAW, Mass: MASS, Discard: DISCARD, Panic: PANIC,
           Shark: SHARK, Kraken: KRAKEN, Calm: CALM, Gasp: GASP, Drop: DROP, Lose: LOSE}


@dataclass(frozen=True, eq=False)
class Tables:
    config: HoldYourBreathConfig
    players: int
    faces: int  # F: card types, in the card table's order
    deck_size: int  # D: every card; the capacity of the deck, the Discard Pile and a Swim Pile
    hand_size: int
    step: int
    hindrance_penalty: int
    face_copies: np.ndarray  # [F]
    face_air: np.ndarray  # [F] bool: may be played for Air (HYB-R10, HYB-R13)
    sorted_deck: np.ndarray  # [D] every card in face order, as the Descent gathers them (HYB-R2)
    # The move table, one entry per action:
    kind: np.ndarray  # [A] END..LOSE
    face: np.ndarray  # [A] the card's face, 0 where there is none
    value: np.ndarray  # [A] the feet an Air or Swim play gives (a Dolphin's declared value)
    target: np.ndarray  # [A] the seat aimed at, -1 for none
    place: np.ndarray  # [A] the Swim Pile place a Calm names
    # The legal mask's layout (module docstring): the actions that are not Calms, and the runs in the move
    # table's order, each ("others", first, length) over ``others`` or ("calm", face, grid size).
    others: np.ndarray  # [A - Calms] action numbers
    others_needs: np.ndarray  # [conditions, A - Calms] float32: a one at each condition an action needs (three)
    runs: tuple[tuple[str, int, int], ...]
    # The observation's constants: the reference encoder's.
    turn_scale: float
    num_actions: int


def tables_for(game: object, config: HoldYourBreathConfig) -> Tables:
    table = config.table
    encoder = HoldYourBreathObservation(game, config)
    actions = game.move_table(config).actions  # type: ignore[attr-defined]
    faces = len(table.face_label)
    kind, face, value, target, place = (np.zeros(len(actions), np.int32) for _ in range(5))
    for i, action in enumerate(actions):
        kind[i] = KIND_OF[type(action)]
        card = getattr(action, "card", None)
        face[i] = table.face_by_label[card] if card is not None else 0
        if isinstance(action, Air | Swim):
            value[i] = action.value or table.face_value[face[i]]
        target[i] = getattr(action, "target", -1)
        place[i] = getattr(action, "item", 0)
    others, runs = _mask_layout(kind, face, place, target, config.num_players, table.deck_size)
    return Tables(
        config=config, players=config.num_players, faces=faces, deck_size=table.deck_size,
        hand_size=table.hand_size, step=table.step, hindrance_penalty=table.hindrance_penalty,
        face_copies=np.asarray(table.face_copies, np.int32),
        face_air=np.asarray(["air" in verbs for verbs in table.face_verbs]),
        sorted_deck=np.asarray(table.deck, np.int32),
        kind=kind, face=face, value=value, target=target, place=place, others=others, runs=runs,
        others_needs=_others_needs(kind[others], face[others], target[others], config.num_players, faces),
        turn_scale=encoder.TURN_SCALE, num_actions=len(actions))


def _mask_layout(kind: np.ndarray, face: np.ndarray, place: np.ndarray, target: np.ndarray, players: int,
                 deck_size: int) -> tuple[np.ndarray, tuple[tuple[str, int, int], ...]]:
    """The runs of the legal mask (module docstring), checked against the move table: each Calm face's actions
    must be its whole grid in place-then-target order, as ``HoldYourBreath.all_actions`` lists them."""
    grid = deck_size * (players + 1)
    runs: list[tuple[str, int, int]] = []
    others: list[int] = []
    action = 0
    while action < len(kind):
        if kind[action] == CALM:
            cells = np.arange(grid)
            rows = slice(action, action + grid)
            if not ((kind[rows] == CALM).all() and (face[rows] == face[action]).all()
                    and (place[rows] == cells // (players + 1)).all()
                    and (target[rows] == cells % (players + 1) - 1).all()):
                raise ValueError("the move table's Calms are not one whole grid of places and targets per face")
            runs.append(("calm", int(face[action]), grid))
            action += grid
            continue
        if not runs or runs[-1][0] != "others":
            runs.append(("others", len(others), 0))
        others.append(action)
        runs[-1] = ("others", runs[-1][1], runs[-1][2] + 1)
        action += 1
    return np.asarray(others, np.int32), tuple(runs)


def _others_needs(kind: np.ndarray, face: np.ndarray, target: np.ndarray, players: int, faces: int) -> np.ndarray:
    """For each action that is not a Calm, a one at each of the three conditions it needs (module docstring; a
    condition needed twice counts twice, so that meeting all three is a count of three)."""
    by_seat, by_face = 4, 4 + len(AIMED) * players
    by_phase = by_face + faces
    own = {END: MAY_END, KEEP: ALWAYS, AIR: DIVER, SWIM: MAY_SWIM, DRAW: ALWAYS, MASS: ALWAYS, GASP: ALWAYS,
           DROP: ALWAYS, LOSE: ALWAYS}
    needs = np.zeros((by_phase + phase.PHASES, len(kind)), np.float32)
    for j, (k, f, aim) in enumerate(zip(kind.tolist(), face.tolist(), target.tolist(), strict=True)):
        if k in own:
            needs[own[k], j] += 1
        elif k in AIMED and 0 <= aim < players:  # an aimed kind aiming at no seat is never legal
            needs[by_seat + AIMED.index(k) * players + aim, j] += 1
        needs[ALWAYS if k < AIR else by_face + f, j] += 1  # every decision but end and keep names a card held
        needs[by_phase + PHASE_OF[k], j] += 1
    return needs
