"""Hold your Hat's word bots (issue 19): association data, clue-givers and guessers, levels, whole simulated games.

They play with the generated deck and its generated associations (``deckgen.py``), never the shipped words.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import pytest

from divedeck.engine import CLOCK, ConfigError, IllegalAction
from divedeck.engine.decision import Decision
from divedeck.games.hold_your_hat.actions import Clue, Foul, Guess
from divedeck.games.hold_your_hat.associations import NONE, load_associations, parse_associations
from divedeck.games.hold_your_hat.bots import WordBot
from divedeck.games.hold_your_hat.rules import GUESS_PACE_MS
from divedeck.games.hold_your_hat.words import load_words
from divedeck.sim.driver import RealtimeDriver
from divedeck.sim.realtime import play_realtime

from .deckgen import GENERATED_ASSOCIATIONS, generated_associations, generated_text
from .helpers import GAME, WORDS, config, position


def decision(state: Any, seat: int, now: int | None = None) -> Decision:
    return Decision(GAME, seat, GAME.view(state, seat), GAME.legal_actions(state, seat),
                    partial(GAME.determinize, state, seat), state.now if now is None else now)


def test_the_committed_generated_associations_are_what_the_generator_writes() -> None:
    assert GENERATED_ASSOCIATIONS.read_text(encoding="utf-8") == generated_associations()
    assert len(load_associations(WORDS)) == 147 * 6


def test_associations_breaking_the_clue_rule_or_naming_no_entry_are_refused() -> None:
    table = load_words(WORDS)
    head = 'format = "divedeck-associations"\nversion = 1\n[entry]\n'
    with pytest.raises(ConfigError, match="HYH-R24"):
        parse_associations(head + '"w001-orange" = { describe = "an orange thing here", clues = ["zz", "yy"], '
                                  'mime = "\U0001f34a \U0001f7e0" }', "x", table)
    with pytest.raises(ConfigError, match="HYH-R24"):
        parse_associations(head + '"w001-orange" = { describe = "a fruit thing here", clues = ["zz", "yy"], '
                                  'mime = "\U0001f34a A" }', "x", table)
    with pytest.raises(ConfigError, match="not an entry"):
        parse_associations(head + '"nothing" = { describe = "a b c", clues = ["zz", "yy"], mime = "\U0001f34a '
                                  '\U0001f7e0" }', "x", table)


def test_a_word_list_without_associations_loads_and_its_bots_say_they_cannot_clue(tmp_path: Path) -> None:
    """A custom list with no association file beside it still plays; the bot clue-giver names every entry as one
    it cannot clue, and passes its word at once instead of typing a clue."""
    cards = tmp_path / "mine.txt"
    cards.write_text(generated_text(12), encoding="utf-8")
    assert load_associations(str(cards)) is NONE
    state = position("phase=main timer=61000 now=1000 deck=W003,W002 current=W001 set=W001,W002,W003",
                     cards=str(cards), deck_size=3)
    bot = WordBot(1, "hard")
    assert len(bot.cannot_clue(decision(state, 0))) == 12
    planned = bot.plan(decision(state, 0))
    assert planned is not None and isinstance(planned[1], Foul)


def test_the_clue_giver_types_checked_clues_for_each_round() -> None:
    """Round 1: the description; round 2: the clue word that tells the entry from others (the unique one);
    round 3: pictures only. Each is accepted by the game as a typed clue."""
    for round_number, expected in ((1, "zr11 zk0011 zs11"), (2, "zk0011"), (3, "\U0001f401 \U0001f682")):
        state = position(f"round={round_number} phase=main timer=61000 now=1000 deck=W003,W002 current=W001 "
                         "set=W001,W002,W003", deck_size=3)
        planned = WordBot(1, "hard").plan(decision(state, 0))
        assert planned is not None and planned[1] == Clue(expected)
        assert 0 < planned[0] < 10_000
        GAME.apply(state, 0, GAME.at(planned[1], 1000 + planned[0]))
        assert GAME.view(state, 1)["clues"] == [expected]


def guesses(clue: str, current: str, seed: int, tries: int = 1) -> list[str]:
    """The guesses a hard guesser at seat 1 types after ``clue`` was given for the word ``current``."""
    rest = ",".join(card for card in ("W001", "W002", "W003") if card != current)
    state = position(f"phase=main timer=61000 now=1000 deck={rest} current={current} set=W001,W002,W003",
                     deck_size=3)
    GAME.apply(state, 0, GAME.at(Clue(clue), 1000))
    bot = WordBot(seed, "hard")
    typed = []
    now = 1000
    for _ in range(tries):
        planned = bot.plan(decision(state, 1, now))
        if planned is None:
            break
        now += planned[0]
        assert isinstance(planned[1], Guess) and planned[1].text is not None
        typed.append(planned[1].text)
        bot.plan(decision(state, 1, now))  # it sees its guess went out
    return typed


def test_the_guesser_reads_the_clues_not_the_word() -> None:
    """The same clues with another current word give the same guesses: the guesser follows the clues only (it is
    given its seat's view, which has no word); and it finds the entry the clues name, from the whole vocabulary
    (card W100's entry is not among the three words in play)."""
    right = 0
    for seed in range(10):
        first = guesses("zk0011", "W001", seed)
        assert first == guesses("zk0011", "W002", seed) == guesses("zk0011", "W003", seed)
        right += first == ["w001-orange"]
        right += guesses("zk1001", "W001", seed) == ["w100-orange"]
    assert right >= 16  # a hard guesser recalls most of what it knows about a word (not all of it)
    assert "word" not in GAME.view(position("phase=main timer=61000 now=1000 deck=W002 current=W001 set=W001,W002",
                                            deck_size=2), 1)


def test_an_unsure_guesser_tries_several_entries_a_second_apart() -> None:
    """A clue shared by many entries (``zr11``, every seventh card) gets several guesses, all different."""
    typed = guesses("zr11", "W001", 3, tries=6)
    assert 2 <= len(typed) <= 4 and len(set(typed)) == len(typed)


def play(level: str, seed: int, **options: Any) -> tuple[Any, int, int]:
    return play_realtime(GAME, config(**options), seed, [WordBot(seed * 10 + seat, level) for seat in range(4)])


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_word_bot_teams_play_a_whole_game_and_a_seed_decides_it(level: str) -> None:
    """A three-round game of word bots ends with words won, and the same seed plays it the same way."""
    outcome, actions, end = play(level, 4, deck_size=12)
    assert sum(outcome.details["team_totals"]) > 0
    assert play(level, 4, deck_size=12) == (outcome, actions, end)


def test_no_bot_clue_or_guess_is_refused_and_guesses_keep_the_pace() -> None:
    """In a whole game every typed clue passes the clue check and every guess keeps HYH-A26's pace: the game
    refuses none of the bots' actions."""
    state = GAME.new(config(deck_size=10), 2)
    driver = RealtimeDriver(GAME)
    for seat in range(4):
        driver.seat_bot(seat, WordBot(seat, "hard"), state, 0)
    last: dict[int, int] = {}
    clues = 0
    while GAME.outcome(state) is None:
        due = driver.due(state)
        assert due is not None
        try:
            GAME.apply(state, due.seat, due.action)
        except IllegalAction as error:  # pragma: no cover - the failure
            raise AssertionError(f"refused {due.action}: {error}") from None
        if isinstance(due.action, Guess):
            assert due.t - last.get(due.seat, -GUESS_PACE_MS) >= GUESS_PACE_MS
            last[due.seat] = due.t
        clues += isinstance(due.action, Clue)
        driver.applied(state, due.seat, due.t)
    assert clues >= 10


def test_a_guesser_of_another_team_steals_with_theft_only_when_the_clues_are_clear() -> None:
    """HYH-R21: holding a THEFT on team A's turn, team B's bot steals the word the clues name beyond doubt (the
    telling ``zk0011``), and not a word a shared clue (``zr11``) leaves open."""
    from divedeck.games.hold_your_hat.actions import Theft

    def plan(clue: str) -> Any:
        state = position("phase=main timer=61000 now=1000 deck=W003,W002 current=W001 set=W001,W002,W003 "
                         "held=-/T", deck_size=3)
        GAME.apply(state, 0, GAME.at(Clue(clue), 1000))
        return state, WordBot(5, "hard").plan(decision(state, 2, 1000))

    state, planned = plan("zk0011")
    assert planned is not None and planned[1] == Theft(1, "w001-orange")
    GAME.apply(state, 2, GAME.at(planned[1], 1000 + planned[0]))
    GAME.apply(state, CLOCK, GAME.tick(2000 + planned[0]))  # the claim window closes
    assert [card["word"] for card in GAME.view(state, 2)["teams"][1]["won"]] == ["w001-orange"]
    assert plan("zr11")[1] is None


def bots_beside_a_team(**options: Any) -> tuple[Any, list[tuple[int, Any]]]:
    """Team A stands for people (``team``: its clue-giver confirms words the room says), team B is hard word bots;
    a whole game on a RealtimeDriver. Nothing the bots do may be refused."""
    from divedeck.games.hold_your_hat.bots import TeamBot

    state = GAME.new(config(deck_size=8, **options), 3)
    driver = RealtimeDriver(GAME)
    bots = [TeamBot(0), TeamBot(1), WordBot(2, "hard"), WordBot(3, "hard")]
    for seat, bot in enumerate(bots):
        driver.seat_bot(seat, bot, state, 0)
    done: list[tuple[int, Any]] = []
    while GAME.outcome(state) is None:
        due = driver.due(state)
        assert due is not None
        try:
            GAME.apply(state, due.seat, due.action)
        except IllegalAction as error:  # pragma: no cover - the failure
            raise AssertionError(f"refused {due.action}: {error}") from None
        done.append((due.seat, due.action))
        driver.applied(state, due.seat, due.t)
    return GAME.outcome(state), done


def test_at_a_party_table_word_bots_type_clues_and_guesses_as_online() -> None:
    """HYH-A29: a party table (one shared screen) takes typed clues and guesses besides spoken ones, so word bots
    play there as online: team B's clue-giver types clues and its guesser types guesses (judged by the game, no
    bot confirms a word); team A's spoken turns go on beside them. A seed decides the game."""
    from divedeck.games.hold_your_hat.actions import Got

    outcome, done = bots_beside_a_team(party=True)
    clues = [action for seat, action in done if isinstance(action, Clue)]
    assert len(clues) >= 8 and all(seat >= 2 for seat, action in done if isinstance(action, Clue))
    assert not any(seat >= 2 and isinstance(action, Got) for seat, action in done)  # nobody speaks for the bots
    assert sum(1 for seat, action in done if seat >= 2 and isinstance(action, Guess) and action.text) >= 4
    assert any(seat < 2 and isinstance(action, Got) for seat, action in done)  # team A's turns played
    assert outcome.details["team_totals"][1] > 0
    assert bots_beside_a_team(party=True) == (outcome, done)


def test_where_guesses_are_spoken_only_the_bot_clue_giver_confirms_what_its_guessers_would_say() -> None:
    """``clue_giver`` judging at an online table (HYH-R27): guesses are spoken only, so a bot guesser says nothing
    and its bot clue-giver confirms the word its guessers' model would say from the clues (``_heard``), only ever
    after a clue for that word."""
    from divedeck.games.hold_your_hat.actions import Got

    outcome, done = bots_beside_a_team(guess_judging="clue_giver")
    clues = [action for seat, action in done if isinstance(action, Clue)]
    assert len(clues) >= 8 and all(seat >= 2 for seat, action in done if isinstance(action, Clue))
    bot_gots = [i for i, (seat, action) in enumerate(done) if seat >= 2 and isinstance(action, Got)]
    assert len(bot_gots) >= 4  # team B wins words by its clues
    for i in bot_gots:  # each one after a clue for that word (a Clue since the last word change)
        assert any(isinstance(action, Clue) for _, action in done[max(0, i - 6):i])
    assert any(seat < 2 and isinstance(action, Got) for seat, action in done)  # team A's turns played
    assert not any(isinstance(action, Guess) for _, action in done)  # spoken: nobody types a guess
    assert outcome.details["team_totals"][1] > 0
    assert bots_beside_a_team(guess_judging="clue_giver") == (outcome, done)


def test_at_a_party_table_a_bot_guesser_reads_a_persons_typed_clue_and_types_its_guess() -> None:
    """HYH-A29, a mixed team at a shared screen: seat 0 (a person) types a clue, seat 1 (a word bot) guesses it by
    typing, and the game judges the guess; its own clue-giver is no bot."""
    state = position("phase=main timer=61000 now=1000 deck=W003,W002 current=W001 set=W001,W002,W003",
                     deck_size=3, party=True)
    bot = WordBot(1, "hard")
    assert bot.plan(decision(state, 1)) is None  # no clue yet: nothing to guess from
    found = load_associations(WORDS).get("w001-orange")
    assert found is not None
    GAME.apply(state, 0, GAME.at(GAME.parse_action(f'clue "{found.describe}"'), 1000))
    planned = bot.plan(decision(state, 1))
    assert planned is not None and isinstance(planned[1], Guess) and planned[1].text == "w001-orange"
    GAME.apply(state, 1, GAME.at(planned[1], 1000 + planned[0]))
    assert [card["word"] for card in GAME.view(state, 0)["teams"][0]["won"]] == ["w001-orange"]


def ambiguous_deck(tmp_path: Path) -> str:
    """The generated deck of 12 cards, with W001's orange entry given exactly W002's associations: a word no
    guesser can tell from another."""
    from .deckgen import generated_associations, generated_toml

    cards = tmp_path / "mine.toml"
    cards.write_text(generated_toml(12), encoding="utf-8")
    lines = generated_associations(12).splitlines()
    twin = next(line for line in lines if line.startswith('"w002-orange"'))
    lines = [twin.replace('"w002-orange"', '"w001-orange"') if line.startswith('"w001-orange"') else line
             for line in lines]
    (tmp_path / "mine.associations.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(cards)


def test_skip_follows_the_level_hard_skips_a_word_it_rates_hard_easy_does_not(tmp_path: Path) -> None:
    """HYH-R22 with sense: holding a SKIP, a ``hard`` clue-giver skips at once a word its clues cannot tell from
    another (rated 0.5) and clues a telling one; ``medium`` and ``easy`` clue the ambiguous word all the same."""
    from divedeck.games.hold_your_hat.actions import Skip

    cards = ambiguous_deck(tmp_path)

    def first(level: str, current: str, seed: int) -> Any:
        rest = ",".join(card for card in ("W001", "W002", "W003") if card != current)
        state = position(f"phase=main timer=61000 now=1000 deck={rest} current={current} set=W001,W002,W003 "
                         "held=S/-", cards=cards, deck_size=3)
        planned = WordBot(seed, level).plan(decision(state, 0))
        assert planned is not None
        return planned[1]

    for seed in range(5):
        assert first("hard", "W001", seed) == Skip()
        assert isinstance(first("hard", "W003", seed), Clue)
        assert isinstance(first("medium", "W001", seed), Clue)
        assert isinstance(first("easy", "W001", seed), Clue)
    bot = WordBot(0, "hard")
    state = position("phase=main timer=61000 now=1000 deck=W003,W002 current=W001 set=W001,W002,W003",
                     cards=cards, deck_size=3)
    assert bot.rate(decision(state, 0), "w001-orange", ["zr21 zk0021 zs21"]) == pytest.approx(0.5)
    assert bot.rate(decision(state, 0), "w003-orange", ["zr31 zk0031 zs31"]) > 0.7


def test_raid_follows_the_level_hard_raids_only_when_its_guesser_can_win_words() -> None:
    """HYH-R10 with sense: before team A's turn, team B holds a RAID. ``easy`` raids whenever it can (even on the
    last word, or where guesses are spoken only and its guesser cannot speak); ``hard`` raids with words to share
    and typed guesses (at a party too, HYH-A29), and keeps its RAID otherwise."""
    from divedeck.games.hold_your_hat.actions import Raid

    def raids(level: str, words: int, **options: Any) -> bool:
        cards = list(range(1, words + 1))
        deck = ",".join(f"W{n:03d}" for n in reversed(cards))
        state = position(f"set={deck} deck={deck} held=-/R", deck_size=words, **options)
        planned = WordBot(1, level).plan(decision(state, 2))
        return planned is not None and isinstance(planned[1], Raid)

    assert raids("hard", 8) and raids("medium", 8) and raids("easy", 8)
    assert not raids("hard", 1) and raids("easy", 1)
    assert raids("hard", 8, party=True)
    assert not raids("hard", 8, guess_judging="clue_giver") and raids("easy", 8, guess_judging="clue_giver")


def test_over_many_games_hard_plays_its_special_cards_where_they_help_more_often_than_easy() -> None:
    """Whole simulated games, four bots of one level, every team starting with a RAID (HYH-V1), special cards
    drawn as the rules deal them: the share of RAIDs after which the raiders won a word that turn, and of THEFTs
    that were right, is higher for ``hard`` than for ``easy``."""
    from divedeck.games.hold_your_hat.actions import Raid, Theft

    def helped(level: str) -> tuple[int, int]:
        good = used = 0
        for seed in range(8):
            state = GAME.new(config(deck_size=16, start_with_raid=True), seed)
            driver = RealtimeDriver(GAME)
            for seat in range(4):
                driver.seat_bot(seat, WordBot(seed * 10 + seat, level), state, 0)
            raiding: dict[int, int] = {}  # raiding team -> words it had won when it raided
            while GAME.outcome(state) is None:
                due = driver.due(state)
                assert due is not None
                before = GAME.view(state, None)
                GAME.apply(state, due.seat, due.action)
                after = GAME.view(state, None)
                if isinstance(due.action, Raid):
                    raiding[due.action.team] = len(before["teams"][due.action.team]["won"])
                    used += 1
                if isinstance(due.action, Theft):
                    used += 1
                    thief = due.action.team
                    good += len(after["teams"][thief]["won"]) > len(before["teams"][thief]["won"]) or bool(
                        after.get("claim"))
                if before["turns"] != after["turns"] or before["round"] != after["round"]:
                    for team, won in raiding.items():  # the raided turn is over: did the raiders win a word?
                        good += len(before["teams"][team]["won"]) > won
                    raiding = {}
                driver.applied(state, due.seat, due.t)
        return good, used

    hard, easy = helped("hard"), helped("easy")
    assert hard[1] and easy[1]
    assert hard[0] / hard[1] > easy[0] / easy[1], (hard, easy)


def test_two_guessers_of_one_level_hearing_a_clue_together_do_not_answer_in_the_same_millisecond() -> None:
    """Issue 25: guessers of one level who read the same clue at the same moment and settle on the same entry
    answered after exactly the same time, so in a raid (HYH-R10, HYH-R28) the scheduler's seat order decided every
    race and team A won 94% of games between identical bots. Their thinking time varies as a person's does."""
    state = position("phase=main timer=61000 now=1000 deck=W002,W003 current=W001 set=W001,W002,W003", deck_size=3)
    GAME.apply(state, 0, GAME.at(Clue("zk0011"), 1000))
    delays: dict[str | None, list[int]] = {}
    answers = 0
    for seed in range(12):
        planned = WordBot(seed, "medium").plan(decision(state, 1, 1000))
        if planned is not None:  # a guesser may recall nothing the clue names
            assert isinstance(planned[1], Guess)
            delays.setdefault(planned[1].text, []).append(planned[0])
            answers += 1
    same_answer = max(delays.values(), key=len)
    assert answers >= 6 and len(same_answer) >= 4
    assert len(set(same_answer)) == len(same_answer)
