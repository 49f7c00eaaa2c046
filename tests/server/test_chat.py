"""Quick reactions and table chat (issue 15, item 5; docs/protocol.md, "Table talk"): passed to everyone as the text
sent (markup stays text), a chat line 1 to 200 characters, a few messages per seat in any ten seconds, and
spectators only read."""

from __future__ import annotations

from divedeck.server.table import CHAT_BURST, EMOTES, MAX_CHAT_LENGTH

from .conftest import Harness, Socket


def table(app: Harness) -> tuple[dict[int, Socket], Socket]:
    table_id, tokens, _ = app.create(["human", "human"])
    seats = {seat: app.connect(table_id, token) for seat, token in enumerate(tokens)}
    return seats, app.connect(table_id, spectator=True)


def test_chat_passes_markup_as_text_to_everyone(app: Harness) -> None:
    seats, spectator = table(app)
    line = '<img src=x onerror="alert(1)"> <b>hi</b> &amp;'
    seats[0].send({"type": "chat", "text": line})
    for socket_ in (*seats.values(), spectator):
        said = socket_.next("chat")
        assert said["text"] == line and said["seat"] == 0
    # The raw frame carries the text as a JSON string: no markup is added or interpreted on the way.
    assert any('"text":"<img src=x onerror=\\"alert(1)\\"> <b>hi</b> &amp;"' in raw for raw in seats[1].raw)
    # A page opened later gets the recent lines in its welcome.
    _, later = table(app)
    assert later.welcome is not None and later.welcome["chat"] == []
    again = app.connect(spectator.welcome["table"]["id"], spectator=True)  # type: ignore[index]
    assert again.welcome is not None and [c["text"] for c in again.welcome["chat"]] == [line]
    assert again.welcome["emotes"] == list(EMOTES)


def test_chat_and_reactions_keep_their_limits(app: Harness) -> None:
    seats, spectator = table(app)
    spectator.send({"type": "chat", "text": "hello"})
    assert spectator.next("error", "chat")["code"] == "spectator"
    spectator.send({"type": "reaction", "emote": "nice"})
    assert spectator.next("error", "reaction")["code"] == "spectator"
    for bad in ("", "   ", "x" * (MAX_CHAT_LENGTH + 1), "\x00bell", 17, None):
        seats[0].send({"type": "chat", "text": bad})
        assert seats[0].next("error", "chat")["code"] == "malformed", bad
    for bad_emote in ("<script>", "", None, "heart"):
        seats[0].send({"type": "reaction", "emote": bad_emote})
        assert seats[0].next("error", "reaction")["code"] == "malformed", bad_emote
    seats[0].send({"type": "chat", "text": "  spaced   out  " + "y" * (MAX_CHAT_LENGTH - 11)})
    assert seats[1].next("chat")["text"] == "spaced out " + "y" * (MAX_CHAT_LENGTH - 11)
    seats[0].send({"type": "reaction", "emote": "good game"})
    said = seats[1].next("reaction")
    assert said == {**said, "type": "reaction", "seat": 0, "emote": "good game"}
    # The burst is per seat: seat 0 has used 2 of its messages, seat 1 none.
    seats[0].sync()
    for index in range(CHAT_BURST - 2):
        seats[0].send({"type": "chat", "text": f"line {index}"})
        assert seats[0].next("chat", "error")["type"] == "chat"
    seats[0].send({"type": "chat", "text": "one too many"})
    assert seats[0].next("chat", "error")["code"] == "rate_limited"
    seats[0].send({"type": "reaction", "emote": "wow"})
    assert seats[0].next("reaction", "error")["code"] == "rate_limited"
    seats[1].send({"type": "reaction", "emote": "wow"})
    assert seats[0].next("reaction", "error") == {**seats[0].messages[-1], "type": "reaction", "seat": 1}
