"""Hostile messages never crash the server and never change the game.

Hypothesis sends random JSON values, objects with random keys and types, huge strings, unicode, deep nesting,
valid-looking acts with random actions, versions and client ids, and binary frames, on a seat's socket and on a
spectator's. After each one the socket must still answer a ping (unless the message was over the size limit,
which closes it by design), and the table must be unchanged unless the message was a legal act, which we know
by asking the engine with the same legal list the server sends.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from .conftest import PROTOCOL, SNORKELING, Harness, Socket

LIMIT = 4096
FUZZ = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much])

leaves = (st.none() | st.booleans() | st.integers() | st.integers(-(2 ** 70), 2 ** 70)
          | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=30))
json_values = st.recursive(leaves, lambda children: st.lists(children, max_size=4)
                           | st.dictionaries(st.text(max_size=10), children, max_size=4), max_leaves=20)
TYPES = ["act", "check", "ping", "hello", "rematch", "welcome", "update", "ack", "error", "pong", "table", "", "ACT",
         " act", "Ping", "leave "]
types = st.sampled_from(TYPES) | json_values
KEYS = ["type", "client_id", "action", "version", "token", "protocol", "spectator", "seat", "table"]
objects = st.builds(lambda kind, rest: {**rest, "type": kind}, types,
                    st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=12), json_values, max_size=6))
NOTATIONS = ["pass", "end", "PASS", " pass ", "Pass\t", "c Y3", "c y3", "C Y3", "p R2>1", "p R2>0", "p R2>9",
             "p Y3>-1", "p Y3>99999999999999999999", "c Z9", "c Y99", "c ", "c Y3 extra", "p R2>", "p >1",
             "end end", "pass\x00", "ｃ Ｙ３", "c Y٣", "p R2>١", "c \u0000", "c Y3>1", "p R2 1"]
cards = st.builds(lambda colour, value: f"{colour}{value}", st.sampled_from("YRGBPXZyr?"), st.integers(-1, 12))
notations = (st.sampled_from(NOTATIONS) | st.text(max_size=20) | cards.map(lambda c: f"c {c}")
             | st.builds(lambda c, t: f"p {c}>{t}", cards, st.integers(-2, 9)))
client_ids = st.text(min_size=0, max_size=70) | st.sampled_from(["x", "a" * 64, "a" * 65, "c-1"]) | json_values
acts = st.fixed_dictionaries({"type": st.just("act"), "client_id": client_ids, "action": notations | json_values},
                             optional={"version": st.integers(-3, 60) | json_values})


def encoded(value: Any, ascii_only: bool) -> str:
    return json.dumps(value, ensure_ascii=ascii_only)


json_texts = st.builds(encoded, json_values | objects | acts, st.booleans())
nested = (st.integers(1, LIMIT // 2).map(lambda depth: "[" * depth + "]" * depth)
          | st.integers(1, LIMIT // 6).map(lambda depth: '{"a":' * depth + "1" + "}" * depth)
          | st.integers(1, 600).map(lambda depth: '{"type":"act","action":' + "[" * depth + "]" * depth + "}"))
huge = (st.integers(LIMIT + 1, 5 * LIMIT).map(lambda n: json.dumps({"type": "ping", "pad": "x" * n}))
        | st.integers(LIMIT + 1, 3 * LIMIT).map(lambda n: "x" * n)
        | st.integers(LIMIT // 2 + 1, LIMIT).map(lambda n: json.dumps({"type": "act", "client_id": "u",
                                                                      "action": "é" * n}, ensure_ascii=False)))
# An act built at send time from the seat's legal list: legal, or made stale, or a retry of an acknowledged id.
plausible = st.tuples(st.just("plausible"), st.tuples(st.integers(0, 20), st.sampled_from([None, 0, 0, -1, -5, 3]),
                                                      st.sampled_from(["fresh", "fresh", "retry"])))
hostile = st.one_of(
    st.tuples(st.just("text"), json_texts),
    st.tuples(st.just("text"), nested),
    st.tuples(st.just("text"), huge),
    st.tuples(st.just("text"), st.text(max_size=200)),
    st.tuples(st.just("bytes"), st.binary(max_size=300)),
    plausible,
    plausible,
)


def size(kind: str, payload: str | bytes) -> int:
    return len(payload) if kind == "bytes" else len(str(payload).encode("utf-8"))


def parsed(payload: str) -> Any:
    try:
        return json.loads(payload)
    except (ValueError, RecursionError):
        return None


class FuzzTable:
    """A table of two human seats and a spectator; sockets are reopened when a message closed them."""

    def __init__(self, app: Harness) -> None:
        self.app = app
        self.table_id, self.tokens, _ = app.create(["human", "human"], {"target_score": 1})
        self.sockets: dict[str, Socket] = {}
        # every (seat, client_id) the table has acknowledged: client ids are remembered per seat
        self.acks: dict[tuple[int, str], dict[str, Any]] = {}

    @property
    def live(self) -> Any:
        return self.app.live(self.table_id)

    def socket(self, who: str) -> Socket:
        current = self.sockets.get(who)
        if current is None or current.close_code is not None or current.gone:
            if current is not None:
                self.app.close(current)
            if who == "spectator":
                current = self.app.connect(self.table_id, spectator=True, name=who)
            else:
                seat = int(who[-1])
                current = self.app.connect(self.table_id, self.tokens[seat], name=who)
            self.sockets[who] = current
        return current

    def fingerprint(self) -> tuple[int, str]:
        return self.live.version, SNORKELING.state_notation(self.live.match.state)

    def legal_now(self, seat: int) -> list[str]:
        state = self.live.match.state
        if seat not in SNORKELING.actors(state):
            return []
        return [SNORKELING.format_action(action) for action in SNORKELING.legal_actions(state, seat)]

    def would_apply(self, message: Any, seat: int | None) -> bool:
        """Whether ``message`` is an act the server must apply: well formed, fresh, current and legal."""
        if seat is None or not isinstance(message, dict) or message.get("type") != "act":
            return False
        client_id, action, version = message.get("client_id"), message.get("action"), message.get("version")
        if not isinstance(client_id, str) or not 0 < len(client_id) <= 64 or (seat, client_id) in self.acks:
            return False
        if not isinstance(action, str) or not 0 < len(action) <= 200:
            return False
        try:  # text with lone surrogates cannot be stored: the server refuses it as malformed
            client_id.encode("utf-8")
            action.encode("utf-8")
        except UnicodeEncodeError:
            return False
        if version is not None and (isinstance(version, bool) or not isinstance(version, int)
                                    or version < self.live.version):
            return False
        try:
            notation = SNORKELING.format_action(SNORKELING.parse_action(action))
        except Exception:
            return False
        return notation in self.legal_now(seat)

    def plausible_act(self, seat: int | None, index: int, delta: int | None, client_id: str) -> str:
        state = self.live.match.state
        actor = seat if seat is not None else min(SNORKELING.actors(state), default=0)
        legal = self.legal_now(actor) or ["pass"]
        if client_id == "retry" and self.acks:
            client_id = sorted(self.acks)[index % len(self.acks)][1]
        else:
            client_id = f"fuzz-{len(self.acks)}-{index}-{delta}"
        message: dict[str, Any] = {"type": "act", "client_id": client_id, "action": legal[index % len(legal)]}
        if delta is not None:
            message["version"] = self.live.version + delta
        return json.dumps(message)

    def send_and_check(self, who: str, kind: str, payload: Any) -> None:
        socket_ = self.socket(who)
        seat = None if who == "spectator" else int(who[-1])
        if kind == "plausible":
            kind, payload = "text", self.plausible_act(seat, *payload)
        message = parsed(payload) if isinstance(payload, str) else None
        applies = kind == "text" and self.would_apply(message, seat)
        before = self.fingerprint()
        if kind == "bytes":
            socket_.send_bytes(bytes(payload, "utf-8") if isinstance(payload, str) else payload)
        else:
            socket_.send_text(str(payload))
        if size(kind, payload) > LIMIT:
            error = socket_.next("error", "_closed")
            assert error.get("code") == "too_large", error
            assert socket_.next("_closed")["code"] == 1009
            assert self.fingerprint() == before
            return
        pings = 2 if isinstance(message, dict) and message.get("type") == "ping" else 1
        socket_.send({"type": "ping"})
        answers: list[dict[str, Any]] = []
        while pings:
            answer = socket_.recv()
            assert answer["type"] != "_closed", f"the socket died ({answer['code']}) after {payload!r:.200}"
            if answer["type"] == "pong":
                pings -= 1
            elif answer["type"] in ("ack", "check", "error", "rematch"):
                answers.append(answer)
        after = self.fingerprint()
        acks = [a for a in answers if a["type"] == "ack"]
        if applies:
            assert [a["type"] for a in answers] == ["ack"], answers
            assert acks[0]["version"] == before[0] + 1 == after[0]
            self.acks[seat, acks[0]["client_id"]] = acks[0]
        else:
            assert after == before, f"{payload!r:.300} changed the game: {answers}"
            for ack in acks:  # only a retry of an acknowledged client_id may be acked again
                assert self.acks.get((seat, ack["client_id"])) == ack, ack
            if pings == 0 and not (isinstance(message, dict) and message.get("type") in ("ping", "rematch")):
                assert answers, f"no answer to {payload!r:.200}"


def run_fuzz(app: Harness, who_options: list[str]) -> None:
    table = FuzzTable(app)

    @FUZZ
    @given(who=st.sampled_from(who_options), message=hostile)
    # (Nesting cannot reach Python's recursion limit here: Hypothesis raises that limit while it runs, for the
    # server's thread too. test_protocol.py sends deep nesting outside Hypothesis.)
    @example(who=who_options[0], message=("text", "[" * 2000 + "]" * 2000))
    @example(who=who_options[-1], message=("text", '{"a":' * 600 + "1" + "}" * 600))
    @example(who=who_options[0], message=("text", json.dumps({"type": "act", "client_id": "x", "action": "pass",
                                                               "version": 10 ** 300})))
    @example(who=who_options[0], message=("text", '{"type": "act", "client_id": "y", "action": "pass", '
                                                  '"version": 1e999}'))
    @example(who=who_options[-1], message=("bytes", b"\xff\xfe"))
    @example(who=who_options[0], message=("text", "x" * (LIMIT + 1)))
    def check(who: str, message: tuple[str, Any]) -> None:
        kind, payload = message
        if kind == "text" and isinstance(parsed(str(payload)), dict) and parsed(str(payload)).get("type") == "leave":
            return  # leaving hands the seat to a bot, which then plays: a legitimate change
        table.send_and_check(who, kind, payload)

    try:
        check()
    finally:
        crashes, app.crashes[:] = list(app.crashes), []
    assert not crashes, f"socket handlers raised: {crashes!r}"


def test_hostile_messages_on_seat_sockets(app: Harness) -> None:
    run_fuzz(app, ["seat 0", "seat 1"])


def test_hostile_messages_on_a_spectator_socket(app: Harness) -> None:
    run_fuzz(app, ["spectator"])


hello_values = st.fixed_dictionaries(
    {"type": st.sampled_from(["hello", "Hello", "act"]) | json_values},
    optional={"protocol": st.sampled_from([3, 3, 2, 1, 0, "3", None, 3.0, -1]) | json_values,
              "token": st.text(max_size=40) | json_values,
              "spectator": st.sampled_from([True, False, 1, "yes", None]) | json_values})
first_messages = (st.tuples(st.just("text"), st.builds(encoded, hello_values | json_values, st.booleans())
                            | nested | st.text(max_size=200))
                  | st.tuples(st.just("bytes"), st.binary(max_size=100)))


def test_hostile_first_messages(app: Harness) -> None:
    """Whatever comes first: a welcome for a real hello, otherwise an error and a close, never a crash."""
    table_id, tokens, _ = app.create(["human", "human"], {"target_score": 1})
    before = app.live(table_id).version

    @FUZZ
    @given(message=first_messages)
    @example(message=("text", "[" * 2000 + "]" * 2000))
    @example(message=("text", json.dumps({"type": "hello", "protocol": PROTOCOL, "token": tokens[0]})))
    @example(message=("text", json.dumps({"type": "hello", "protocol": PROTOCOL, "spectator": True})))
    @example(message=("text", json.dumps({"type": "hello", "protocol": 2, "token": tokens[0]})))
    def check(message: tuple[str, str | bytes]) -> None:
        kind, payload = message
        socket_ = app.open(table_id, name="first")
        try:
            if kind == "bytes":
                socket_.send_bytes(payload if isinstance(payload, bytes) else payload.encode())
            else:
                socket_.send_text(str(payload))
            answer = socket_.recv()
            hello = parsed(str(payload)) if kind == "text" else None
            # protocol 3 exactly: the server takes no 3.0 for a 3
            valid = (isinstance(hello, dict) and hello.get("type") == "hello"
                     and type(hello.get("protocol")) is int and hello.get("protocol") == PROTOCOL
                     and (hello.get("spectator") is True or hello.get("token") in tokens))
            if valid:
                assert answer["type"] == "welcome", answer
            else:
                assert answer.get("type") == "error", f"{payload!r:.200} -> {answer}"
                assert answer["code"] in ("malformed", "bad_protocol", "bad_token"), answer
                closed = socket_.next("_closed")
                assert closed["code"] in (4400, 4401), closed
            assert app.live(table_id).version == before
        finally:
            app.close(socket_)
        assert not app.crashes, f"{payload!r:.200} crashed the handler: {app.crashes!r}"

    try:
        check()
    finally:
        app.crashes.clear()


@pytest.mark.parametrize("value", [math.inf, -math.inf])
def test_infinite_version_is_malformed(app: Harness, value: float) -> None:
    table_id, tokens, _ = app.create(["human", "human"], {"target_score": 1})
    socket_ = app.connect(table_id, tokens[0])
    socket_.send_text(json.dumps({"type": "act", "client_id": "inf", "action": socket_.legal[0], "version": value}))
    reply = socket_.reply("inf")
    assert reply["type"] == "error" and reply["code"] == "malformed"
    assert app.live(table_id).version == 0
