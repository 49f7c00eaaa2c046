// Hot-seat: what happened since a person's last move, for the cover screen that waits for them (issue 15, item 4).
//
// Every local client hears every move (its own view of it); the recap keeps, per table version, each local seat's
// log parts of the move's events. For the person the device goes to, it lists the moves of the others since that
// person's own last move. A line is told as the most hidden of the local seats' versions (the one naming fewest
// cards), so the cover, which everyone at the table may see, never shows a card only one seat may know.

import { h } from "./util.js";

const KEEP = 60; // moves remembered
const SHOWN = 10; // lines on the cover at most

export function createRecap() {
  const moves = []; // {version, actor, seen: Map(seat -> events)}
  const lastActed = new Map(); // seat -> the version of its last move

  function cardCount(parts) {
    return (parts || []).filter((part) => typeof part.card === "string").length;
  }

  return {
    /** An update as one local client (`seat`) received it. */
    record(seat, message) {
      if (!Number.isInteger(message.version) || !Number.isInteger(seat)) return;
      let move = moves.find((m) => m.version === message.version);
      if (!move) {
        move = { version: message.version, actor: message.actor, seen: new Map() };
        moves.push(move);
        if (moves.length > KEEP) moves.shift();
      }
      move.seen.set(seat, Array.isArray(message.events) ? message.events : []);
      if (message.actor === seat) lastActed.set(seat, message.version);
    },

    /** A move was taken back: it did not happen. */
    undone(actor) {
      for (let i = moves.length - 1; i >= 0; i -= 1) {
        if (moves[i].actor === actor) {
          moves.splice(i, 1);
          return;
        }
      }
    },

    /** The lines (log parts) since `seat`'s last move, once every one of `localSeats` has heard each move. */
    since(seat, localSeats) {
      const after = lastActed.get(seat) ?? -1;
      const lines = [];
      for (const move of moves) {
        if (move.version <= after || move.actor === seat) continue;
        if (!localSeats.every((s) => move.seen.has(s))) continue;
        const versions = localSeats.map((s) => move.seen.get(s));
        versions[0].forEach((_, index) => {
          const told = versions.map((events) => events[index]).filter((event) => event && Array.isArray(event.parts));
          if (told.length !== versions.length) return;
          const hidden = told.reduce((best, event) => (cardCount(event.parts) < cardCount(best.parts) ? event : best));
          if (hidden.parts.length) lines.push(hidden.parts);
        });
      }
      return lines;
    },

    /** The cover's "since your last turn" box, or null when nothing happened. `line(parts)` renders a log line. */
    element(seat, localSeats, line) {
      const lines = this.since(seat, localSeats);
      if (!lines.length) return null;
      const shown = lines.slice(-SHOWN);
      const earlier = lines.length - shown.length;
      return h("section", { class: "cover-recap", "aria-label": "Since your last turn" },
        h("h3", {}, "Since your last turn"),
        earlier ? h("p", { class: "cover-recap-more" }, `… and ${earlier} earlier`) : null,
        h("ul", {}, shown.map((parts) => h("li", {}, line(parts)))));
    },
  };
}
