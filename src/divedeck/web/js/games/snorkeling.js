// Snorkeling in the browser: the board drawn from one seat's view, the game's static data and the legal records.
//
// Nothing here decides a rule or words a log line: what may be played, and how it is said, comes from the
// server's action records; cards and the target score from its static data; log lines arrive as parts.

import { Deck, cardChip, cardElement } from "../cards.js";
import { h, presenceBadge, replaceChildren, sayWhyNot } from "../util.js";

export { cardChip };

export const name = "snorkeling";
export const title = "Snorkeling";

/** Keyboard shortcuts shown under the log (table.js draws them). */
export const keyHelp = [
  [["Tab", "←", "→", "↑", "↓"], "move"], [["Enter"], "play"], [["P"], "pass"], [["E"], "end turn"], [["Esc"], "cancel"],
];

/** The deck to draw with: the config's card table, from the static data. */
export function makeDeck(gameInfo, staticData) {
  return new Deck(staticData || (gameInfo && gameInfo.static) || null);
}

/** The seat whose turn it is, or null (game over). */
export function activeSeat(view) {
  return view && Number.isInteger(view.active) ? view.active : null;
}

/** Events worth a highlight in the log. */
export function eventTone(event) {
  if (event.kind === "round_end" || event.kind === "game_over") return "major";
  if (event.kind === "round_start") return "round";
  if (event.kind === "draw" || event.kind === "refill" || event.kind === "no_draw") return "minor";
  return "";
}

// -- summaries ---------------------------------------------------------------------------------------------------

/** An event's log line (its parts), with seats by name. */
function partsText(parts, nameOf, deck) {
  return (parts || []).map((part) => (Number.isInteger(part.seat) ? nameOf(part.seat)
    : typeof part.card === "string" ? cardWords(deck, part.card) : part.text ?? ""));
}

/** A card in words for people ("red 4 (Ray)"), never its code when the deck is known. */
function cardWords(deck, label) {
  if (!deck || !label) return label || "";
  const f = deck.face(label);
  return f && f.color ? `${f.color.name} ${f.value} (${f.valueName})` : label;
}

/**
 * A round_end (and, if given, game_over) event as a table: each diver's top card, gain and total, the beached
 * diver marked, all from the events' fields; the heading is the event's own log line.
 */
export function summaryElement(roundEnd, gameOver, { names, viewer = null, deck = null } = {}) {
  const nameOf = (seat) => (seat === viewer ? `${names(seat)} (you)` : names(seat));
  const totals = (gameOver && gameOver.totals) || (roundEnd && roundEnd.totals) || [];
  const winners = new Set(gameOver ? gameOver.winners : []);
  const rows = totals.map((total, seat) => h("tr", { class: winners.has(seat) ? "is-winner" : null },
    h("th", { scope: "row" }, nameOf(seat),
      winners.has(seat) ? h("span", { class: "badge badge-win" }, "winner") : null,
      roundEnd && roundEnd.beached === seat ? h("span", { class: "badge badge-hit" }, "beached") : null),
    h("td", {}, roundEnd ? (roundEnd.tops[seat] ? cardWords(deck, roundEnd.tops[seat]) : deck?.lanternfishName || "Lanternfish") : "–"),
    h("td", {}, roundEnd ? `+${roundEnd.gains[seat]}` : "–"),
    h("td", {}, String(total))));
  // A game-over made from the outcome (its event no longer in the log) has no parts: say it plainly.
  const heading = !gameOver ? `Round ${roundEnd.round} over` : gameOver.parts ? partsText(gameOver.parts, nameOf, deck)
    : `Game over: ${gameOver.winners.map(nameOf).join(" and ")} won with ${totals[gameOver.winners[0]]} points`;
  return h("div", { class: "summary" },
    h("h2", { class: "summary-title" }, heading),
    roundEnd ? h("p", { class: "summary-reason" }, partsText(roundEnd.parts, nameOf, deck)) : null,
    h("table", { class: "summary-table" },
      h("thead", {}, h("tr", {}, ["Diver", "Top card", "This round", "Total"].map((col) => h("th", { scope: "col" }, col)))),
      h("tbody", {}, rows)));
}

/** The round_end / game_over events among `events` (the last of each), or null when there are none. */
export function findSummary(events) {
  let roundEnd = null;
  let gameOver = null;
  for (const event of events) {
    if (event.kind === "round_end") roundEnd = event;
    if (event.kind === "game_over") gameOver = event;
  }
  return roundEnd || gameOver ? { roundEnd, gameOver } : null;
}

// -- the legal records, sorted by what they use ----------------------------------------------------------------------

function readLegal(records) {
  const center = new Map(); // card -> record
  const piles = new Map(); // card -> Map(target seat -> record)
  const targets = new Map(); // target seat -> [record]
  let pass = null;
  let end = null;
  for (const record of records) {
    const card = record.cards[0];
    if (record.kind === "Pass") pass = record;
    else if (record.kind === "EndTurn") end = record;
    else if (record.target === null) center.set(card, record);
    else {
      if (!piles.has(card)) piles.set(card, new Map());
      piles.get(card).set(record.target, record);
      if (!targets.has(record.target)) targets.set(record.target, []);
      targets.get(record.target).push(record);
    }
  }
  return { center, piles, targets, pass, end };
}

// -- the board -------------------------------------------------------------------------------------------------

/**
 * Draw the board into `root`. `api.act(notation)` plays a legal record; `api.check(notation)` asks the server why
 * a move is refused. ctx = {view, legal (records), seat, busy, names(seat), seats, deck, static}.
 */
export function createBoard(root, api) {
  let selected = null; // a hand card label chosen for a pile play
  let ctx = null;
  let legal = readLegal([]);
  root.classList.add("snk");
  root.addEventListener("click", (event) => {
    const target = event.target.closest("[data-act]");
    if (target && root.contains(target) && ctx && !ctx.busy) activate(target);
  });

  function act(record) {
    selected = null;
    api.act(record.notation);
  }

  function whyNot(label) {
    // A card with no legal move: the server says which rule forbids playing it to the centre.
    api.check(`c ${label}`).then((answer) => {
      if (!answer.legal) sayWhyNot(answer);
    }, () => {});
  }

  function activate(el) {
    const kind = el.dataset.act;
    if (kind === "pass" && legal.pass) act(legal.pass);
    else if (kind === "end" && legal.end) act(legal.end);
    else if (kind === "card") {
      const label = el.dataset.card;
      const piles = legal.piles.get(label);
      if (selected === label) {
        selected = null; // a second press puts it back
        render(ctx);
      } else if (legal.center.has(label) && !piles) {
        act(legal.center.get(label));
      } else if (legal.center.has(label) || piles) {
        selected = label; // a pile play, or a choice between the centre and a pile: pick the destination
        render(ctx, `dest-${piles ? [...piles.keys()][0] : "center"}`);
      } else if (ctx.legal.length) {
        whyNot(label);
      }
    } else if (kind === "center" && selected && legal.center.has(selected)) {
      act(legal.center.get(selected));
    } else if (kind === "pile") {
      const seat = Number(el.dataset.seat);
      const onto = selected ? legal.piles.get(selected)?.get(seat) : legal.targets.get(seat);
      if (selected && onto) act(onto);
      else if (!selected && onto && onto.length === 1) act(onto[0]);
    }
  }

  function render(next, focusKey = null) {
    const focused = root.contains(document.activeElement) ? document.activeElement : null;
    // The board itself focused (its controls were all gone): the next control it draws takes the focus.
    const keepFocus = focusKey || (focused ? focused.dataset.key || "board" : null);
    const handIndex = focused ? [...root.querySelectorAll('[data-nav="hand"]')].indexOf(focused) : -1;
    const wasActing = Boolean(focused && acts(focused));
    const wasMyTurn = ctx ? ctx.legal.length > 0 : false;
    ctx = next;
    legal = readLegal(ctx.legal);
    const { view, seat, deck } = ctx;
    const facts = ctx.static || {};
    const hand = Array.isArray(view.hand) ? view.hand : null;
    if (selected && !(legal.center.has(selected) || legal.piles.has(selected))) selected = null;
    const myTurn = ctx.legal.length > 0;
    const players = view.scores.length;
    // Opponents in play order starting at your left; your own pile sits beside your hand.
    const order = [];
    const first = hand ? seat + 1 : 0;
    for (let i = 0; i < (hand ? players - 1 : players); i += 1) order.push((first + i) % players);

    replaceChildren(root,
      h("div", { class: "snk-status" },
        h("span", { class: "pill" }, `Round ${view.round}`),
        facts.target_score ? h("span", { class: "pill" }, `First to ${facts.target_score}`) : null,
        facts.expert_diving ? h("span", { class: "pill pill-accent" }, "Expert Diving") : null,
        h("span", { class: "pill" }, `Turn ${view.turns_in_round + 1} of the round`)),
      h("div", { class: "snk-seats", role: "list", "aria-label": "Divers and their personal piles" }, order.map(seatPanel)),
      h("div", { class: "snk-middle" }, centerPile(), deckPile()),
      hand ? handArea(hand) : h("p", { class: "snk-spectating" }, "You are watching: hands stay hidden."));

    if (keepFocus) nextFocus(keepFocus, handIndex, wasActing || (myTurn && !wasMyTurn))?.focus({ preventScroll: true });

    function seatPanel(s) {
      const who = ctx.names(s);
      const isMe = s === seat;
      const isActive = view.active === s;
      const pile = view.piles[s] || [];
      const here = selected ? legal.piles.get(selected)?.get(s) : null;
      const offers = selected ? [] : legal.targets.get(s) || [];
      const stack = h("div", { class: "pile-stack", style: `--depth:${pile.length}` },
        cardElement(deck, null, { lanternfish: facts.lanternfish_value ?? view.pile_tops[s], className: "pile-card" }),
        pile.map((label, i) => {
          const el = cardElement(deck, label, { className: "pile-card" });
          el.style.setProperty("--i", String(i + 1));
          return el;
        }));
      const pileLabel = `${isMe ? "your" : `${who}'s`} pile shows ${view.pile_tops[s]}${pile.length ? ` (${deck.describe(pile[pile.length - 1])})` : ` (the ${deck.lanternfishName})`}`;
      const pileEl = here || offers.length
        ? h("button", {
          type: "button", class: `pile pile-btn${here ? " is-target" : " is-possible"}`, "data-act": "pile", "data-seat": s,
          "data-key": `dest-${s}`, "data-nav": "pile",
          "aria-label": `${pileLabel}. ${(here ? [here] : offers).map((r) => r.label).join(" or ")}`,
        }, stack)
        : h("div", { class: "pile", role: "img", "aria-label": pileLabel, "data-key": `pile-${s}`, "data-nav": "pile", tabindex: 0 }, stack);
      const known = view.known_in_hand[s] || [];
      const publicSeat = (ctx.seats && ctx.seats[s]) || {};
      return h("div", { class: `seat${isActive ? " is-active" : ""}${isMe ? " is-me" : ""}`, role: "listitem", "aria-current": isActive ? "true" : null },
        h("div", { class: "seat-head" },
          h("span", { class: "seat-name" }, isActive ? h("span", { class: "turn-dot", role: "img", title: "their turn", "aria-label": "to play" }) : null, who),
          isMe ? h("span", { class: "badge badge-you" }, "you") : null,
          isMe ? null : presenceBadge(publicSeat),
          view.turn.targets.includes(s) ? h("span", { class: "badge badge-hit" }, "hit this turn") : null),
        h("div", { class: "seat-body" },
          pileEl,
          h("dl", { class: "seat-facts" },
            h("div", { class: "fact-shows" }, h("dt", {}, "Pile"), h("dd", { class: "pile-value" }, String(view.pile_tops[s]))),
            h("div", {}, h("dt", {}, "Score"), h("dd", { class: "seat-score" }, String(view.scores[s]))),
            h("div", {}, h("dt", {}, "Hand"), h("dd", {}, String(view.hand_sizes[s]))),
            known.length && !isMe ? h("div", { class: "seat-known" }, h("dt", {}, "Known"), h("dd", {}, known.map((c) => cardChip(deck, c)))) : null)));
    }

    function centerPile() {
      const center = view.center;
      const k = view.turn.center_played;
      const start = center.length - Math.min(center.length, Math.max(4, k + 1), 9);
      const cards = center.slice(start).map((label, i) => {
        const index = start + i;
        const el = cardElement(deck, label, {
          className: `center-card${index === center.length - 1 ? " is-top" : ""}${k > 0 && index > center.length - 1 - k ? " is-new" : ""}`,
        });
        if (k > 0 && index === center.length - 1 - k) el.append(h("span", { class: "t0-tag", title: "The top card when this turn began: this turn's cards follow it" }, "turn start"));
        return el;
      });
      const label = `Centre pile, ${center.length} card${center.length === 1 ? "" : "s"}; top ${deck.describe(center[center.length - 1])}`
        + (k ? `; ${k} played this turn on top of ${deck.describe(view.turn.t0)}` : "");
      const inner = [
        h("div", { class: "center-fan" }, cards),
        h("div", { class: "center-caption" },
          h("span", {}, `Centre · ${center.length}`),
          k ? h("span", { class: "t0-note" }, `this turn: ${k} after `, cardChip(deck, view.turn.t0)) : null),
      ];
      const drop = selected && legal.center.get(selected);
      if (drop) {
        return h("button", { type: "button", class: "center is-target", "data-act": "center", "data-key": "dest-center", "data-nav": "pile", "aria-label": `${label}. ${drop.label}` }, inner);
      }
      return h("div", { class: "center", role: "img", "aria-label": label, "data-key": "center", "data-nav": "pile", tabindex: 0 }, inner);
    }

    function deckPile() {
      return h("div", { class: "deck", role: "img", "aria-label": `Draw deck: ${view.deck_size} cards` },
        view.deck_size ? cardElement(deck, null, { className: "deck-card" }) : h("div", { class: "card deck-empty" }, "empty"),
        h("span", { class: "deck-count" }, `Deck · ${view.deck_size}`));
    }

    function handArea(cards) {
      const counts = new Map();
      const buttons = cards.map((label) => {
        const n = (counts.get(label) || 0) + 1;
        counts.set(label, n);
        const uses = [legal.center.get(label), ...(legal.piles.get(label)?.values() || [])].filter(Boolean);
        const isSelected = selected === label && n === 1;
        const el = cardElement(deck, label, {
          tag: "button",
          className: `card-btn${uses.length ? " is-legal" : myTurn ? " is-dim" : ""}${isSelected ? " is-selected" : ""}`,
        });
        el.type = "button";
        el.dataset.act = "card";
        el.dataset.key = `hand-${label}-${n}`;
        el.dataset.nav = "hand";
        const aria = uses.length ? `: ${uses.map((r) => r.label).join(" or ")}` : myTurn ? ", not playable now" : "";
        el.setAttribute("aria-label", `${deck.describe(label)}${aria}${isSelected ? ", selected: choose where" : ""}`);
        if (isSelected) el.setAttribute("aria-pressed", "true");
        if (ctx.busy) el.setAttribute("aria-disabled", "true");
        return el;
      });
      const actions = [[legal.pass, "pass", "btn", "Pass", "P"], [legal.end, "end", "btn btn-primary", "End turn", "E"]]
        .filter(([record]) => record)
        .map(([record, act, cls, text, key]) => h("button", {
          // aria-disabled, not disabled, while a move is on its way: a disabled button would drop the focus
          type: "button", class: cls, "data-act": act, "data-key": act, "aria-disabled": ctx.busy ? "true" : null, title: record.label,
        }, text, h("kbd", {}, key)));
      return h("section", { class: `hand-area snk-hand-area${myTurn ? " is-my-turn" : ""}`, "aria-label": "Your hand" },
        h("div", { class: "own-seat", role: "list", "aria-label": "Your pile" }, seatPanel(seat)),
        h("div", { class: "hand-head" },
          h("h2", {}, "Your hand ", h("span", { class: "muted" }, `· ${cards.length}`)),
          h("p", { class: "hint", "aria-live": "polite" }, hint())),
        h("div", { class: "hand", "data-size": cards.length > 12 ? "huge" : cards.length > 6 ? "large" : null }, buttons),
        h("div", { class: "snk-actions" }, actions));
    }

    function hint() {
      if (ctx.busy) return "Sending…";
      if (!myTurn) return activeSeat(view) === null ? "The game is over." : `Waiting for ${ctx.names(view.active)}…`;
      if (selected) return `${selected} selected: choose a highlighted place (Esc to cancel).`;
      return legal.center.size || legal.piles.size ? "Your turn: play a highlighted card." : "Your turn.";
    }
  }

  /** A control that makes a move when pressed, now. */
  function acts(el) {
    return el.matches(".is-legal, .is-target, [data-act=end], [data-act=pass]");
  }

  /**
   * Where the focus goes after a render, from the control focused before (its key, its place in the hand): that
   * control while it is still there, unless it must act and no longer does (it made the move just played, another
   * copy of the card took its place, or your turn has just begun); else a destination being chosen, the next
   * playable card along the hand, End turn, Pass, the card at the same place.
   */
  function nextFocus(key, handIndex, mustAct) {
    const same = root.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (same && (!mustAct || acts(same))) return same;
    const hand = [...root.querySelectorAll('[data-nav="hand"]')];
    const from = Math.max(0, handIndex);
    return root.querySelector(".is-target")
      || hand.slice(from).find((el) => el.classList.contains("is-legal")) || hand.find((el) => el.classList.contains("is-legal"))
      || root.querySelector('[data-act="end"]') || root.querySelector('[data-act="pass"]')
      || same || hand[Math.min(from, hand.length - 1)] || root.querySelector("[data-nav]");
  }

  // Arrow keys move within a row (the hand, or the piles and centre) and Up/Down between rows.
  function handleKey(event) {
    if (!ctx) return false;
    const key = event.key.toLowerCase();
    const record = key === "p" ? legal.pass : key === "e" ? legal.end : null;
    if (record && !ctx.busy) {
      act(record);
      return true;
    }
    if (event.key === "Escape" && selected) {
      const label = selected;
      selected = null;
      render(ctx, root.querySelector(`[data-card="${CSS.escape(label)}"]`)?.dataset.key);
      return true;
    }
    if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(event.key)) return false;
    const items = [...root.querySelectorAll("[data-nav]")];
    const current = document.activeElement;
    if (!items.includes(current)) {
      (root.querySelector(".card-btn.is-legal") || items[0])?.focus();
      return items.length > 0;
    }
    const row = items.filter((el) => el.dataset.nav === current.dataset.nav);
    const i = row.indexOf(current);
    const other = items.filter((el) => el.dataset.nav !== current.dataset.nav);
    const x = current.getBoundingClientRect().left;
    const nearest = (els) => els.reduce((best, el) => (Math.abs(el.getBoundingClientRect().left - x) < Math.abs(best.getBoundingClientRect().left - x) ? el : best));
    const next = {
      ArrowLeft: row[(i - 1 + row.length) % row.length], ArrowRight: row[(i + 1) % row.length], Home: row[0], End: row[row.length - 1],
    }[event.key] ?? (other.length ? nearest(other) : null);
    if (next) next.focus();
    return Boolean(next);
  }

  return { render: (next) => render(next), handleKey };
}
