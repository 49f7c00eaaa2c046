// Snorkeling in the browser: the board drawn from one seat's view, and the log lines.
//
// Everything shown comes from the server's view (src/divedeck/games/snorkeling/information.py); what may be played
// comes only from the server's `legal` list. Nothing here decides a rule: the hints below only say what the legal
// list offers.

import { Deck, cardChip, cardElement } from "../cards.js";
import { h, replaceChildren } from "../util.js";

export { cardChip };

export const name = "snorkeling";
export const title = "Snorkeling";

/** Keyboard shortcuts shown under the log (table.js draws them). */
export const keyHelp = [
  [["Tab", "←", "→", "↑", "↓"], "move"], [["Enter"], "play"], [["P"], "pass"], [["E"], "end turn"], [["Esc"], "cancel"],
];

/** The deck to draw with: the server's card data when it sends some, the default deck otherwise. */
export function makeDeck(gameInfo, view) {
  const meta = (view && (view.cards || view.deck_info)) || (gameInfo && (gameInfo.cards || gameInfo.deck)) || null;
  return new Deck(meta);
}

/** The seat whose turn it is, or null (game over). */
export function activeSeat(view) {
  return view && Number.isInteger(view.active) ? view.active : null;
}

// -- the log ---------------------------------------------------------------------------------------------------

const ROUND_END_REASONS = {
  beach: "a Beach landed on a pile",
  stall: "nobody could play or draw",
  turn_cap: "the turn limit was reached",
};

/**
 * A log line for an event as `viewer` sees it, mirroring describe_event() in
 * src/divedeck/games/snorkeling/game.py. With the default formatters the result is the same text; the page passes
 * formatters that give seat names and card chips. Returns a list of parts (strings and whatever `card` returns).
 */
export function describeEventParts(shown, viewer = null, fmt = {}) {
  const who = fmt.who || ((seat) => (seat === viewer ? "you" : `seat ${seat}`));
  const whose = fmt.whose || ((seat) => (seat === viewer ? "your" : `${who(seat)}'s`));
  const card = fmt.card || ((label) => label);
  const kind = shown.kind;
  switch (kind) {
    case "round_start": {
      const parts = [`round ${shown.round} begins with ${who(shown.starter)}; the centre shows `, card(shown.center)];
      if (Array.isArray(shown.hand)) {
        parts.push("; your hand");
        for (const c of shown.hand) parts.push(" ", card(c));
      }
      return parts;
    }
    case "play_center":
      return [`${who(shown.seat)} played `, card(shown.card), " to the centre"];
    case "play_pile":
      return [`${who(shown.seat)} played `, card(shown.card), ` onto ${whose(shown.target)} pile`];
    case "pass":
      return [`${who(shown.seat)} passed`];
    case "end_turn":
      return [`${who(shown.seat)} ended the turn`];
    case "draw":
      return [`${who(shown.seat)} drew `, card(shown.card ?? "??")];
    case "no_draw":
      return [`${who(shown.seat)} could not draw: no cards left`];
    case "refill":
      return [`the centre pile was shuffled into a new deck of ${shown.deck}`];
    case "retrieve":
      return [`${who(shown.seat)} emptied the hand and took back `, card(shown.card), " from the pile"];
    case "round_end": {
      const reason = ROUND_END_REASONS[shown.reason] ?? shown.reason;
      const gains = shown.gains.map((g) => `+${g}`).join(" ");
      return [`round ${shown.round} over (${reason}): ${gains} -> totals ${shown.totals.join(" ")}`];
    }
    case "game_over": {
      const winners = shown.winners.map((s) => who(s)).join(" and ");
      const best = shown.totals[shown.winners[0]];
      if (shown.reason === "round_cap") return [`game over after the last allowed round: ${winners} won with ${best} points`];
      return [`game over: ${winners} won with ${best} points`];
    }
    default:
      return [`${kind} ${JSON.stringify(shown)}`];
  }
}

/** The plain-text line, exactly as the Python describe_event() writes it. */
export function describeEvent(shown, viewer = null) {
  return describeEventParts(shown, viewer).join("");
}

/** Events worth a highlight in the log. */
export function eventTone(shown) {
  if (shown.kind === "round_end" || shown.kind === "game_over") return "major";
  if (shown.kind === "round_start") return "round";
  if (shown.kind === "draw" || shown.kind === "refill" || shown.kind === "no_draw") return "minor";
  return "";
}

// -- summaries ---------------------------------------------------------------------------------------------------

/**
 * A summary of a round_end (and, if given, game_over) event: a small table of gains and totals, for the page's
 * dialog or the hot-seat cover. `names(seat)` gives a seat's display name.
 */
export function summaryElement(roundEnd, gameOver, { names, viewer = null } = {}) {
  const nameOf = (seat) => (seat === viewer ? `${names(seat)} (you)` : names(seat));
  const rows = [];
  const totals = (gameOver && gameOver.totals) || (roundEnd && roundEnd.totals) || [];
  const winners = new Set(gameOver ? gameOver.winners : []);
  for (let seat = 0; seat < totals.length; seat += 1) {
    rows.push(h("tr", { class: winners.has(seat) ? "is-winner" : null },
      h("th", { scope: "row" }, nameOf(seat), winners.has(seat) ? h("span", { class: "badge badge-win" }, "winner") : null),
      h("td", {}, roundEnd ? `+${roundEnd.gains[seat]}` : "–"),
      h("td", {}, String(totals[seat]))));
  }
  let heading;
  if (gameOver) {
    const who = gameOver.winners.map(nameOf).join(" and ");
    const best = gameOver.totals[gameOver.winners[0]];
    heading = gameOver.reason === "round_cap"
      ? `Game over after the last allowed round: ${who} won with ${best} points`
      : `Game over: ${who} won with ${best} points`;
  } else {
    heading = `Round ${roundEnd.round} over`;
  }
  return h("div", { class: "summary" },
    h("h2", { class: "summary-title" }, heading),
    roundEnd ? h("p", { class: "summary-reason" }, `Round ${roundEnd.round} ended: ${ROUND_END_REASONS[roundEnd.reason] ?? roundEnd.reason}.`) : null,
    h("table", { class: "summary-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Diver"), h("th", { scope: "col" }, "This round"), h("th", { scope: "col" }, "Total"))),
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

// -- the legal list, read (never computed) ---------------------------------------------------------------------------

function readLegal(legal) {
  const center = new Set();
  const piles = new Map(); // card -> Set of target seats
  const targets = new Map(); // seat -> Set of cards
  let canPass = false;
  let canEnd = false;
  for (const action of legal) {
    const text = String(action).trim();
    if (text === "pass") canPass = true;
    else if (text === "end") canEnd = true;
    else if (text.startsWith("c ")) center.add(text.slice(2).trim());
    else if (text.startsWith("p ")) {
      const [card, seat] = text.slice(2).trim().split(">");
      const target = Number(seat);
      if (!piles.has(card)) piles.set(card, new Set());
      piles.get(card).add(target);
      if (!targets.has(target)) targets.set(target, new Set());
      targets.get(target).add(card);
    }
  }
  return { center, piles, targets, canPass, canEnd };
}

// -- the board -------------------------------------------------------------------------------------------------

/**
 * Draw the board into `root`. `api.act(action)` sends an action; `api.explain(action)` asks the server why an
 * action is refused (it answers with an error naming the rule). Returns {render(ctx), handleKey(event), destroy()}.
 * ctx = {view, legal, seat, busy, names(seat), seats (public seats), deck}.
 */
export function createBoard(root, api) {
  let selected = null; // a hand card label chosen for a pile play
  let ctx = null;
  root.classList.add("snk");
  root.addEventListener("click", onClick);

  function act(action) {
    selected = null;
    api.act(action);
  }

  function optionsFor(label, legal) {
    return { center: legal.center.has(label), piles: legal.piles.get(label) || new Set() };
  }

  function onClick(event) {
    const target = event.target.closest("[data-act]");
    if (!target || !root.contains(target) || !ctx) return;
    event.preventDefault();
    activate(target);
  }

  function activate(el) {
    const legal = readLegal(ctx.legal);
    const kind = el.dataset.act;
    if (ctx.busy) return;
    if (kind === "pass" && legal.canPass) act("pass");
    else if (kind === "end" && legal.canEnd) act("end");
    else if (kind === "card") {
      const label = el.dataset.card;
      const options = optionsFor(label, legal);
      if (selected === label) {
        selected = null; // a second press puts it back
        rerender();
      } else if (options.center && options.piles.size === 0) {
        act(`c ${label}`);
      } else if (options.center || options.piles.size) {
        selected = label; // a pile play, or a choice between the centre and a pile: pick the destination
        rerender(`dest-${options.piles.size ? [...options.piles][0] : "center"}`);
      } else if (ctx.legal.length) {
        api.explain(`c ${label}`); // not playable now: let the server say which rule forbids it
      }
    } else if (kind === "center" && selected && legal.center.has(selected)) {
      act(`c ${selected}`);
    } else if (kind === "pile") {
      const seat = Number(el.dataset.seat);
      if (selected && legal.piles.get(selected)?.has(seat)) act(`p ${selected}>${seat}`);
      else if (!selected && legal.targets.has(seat) && legal.targets.get(seat).size === 1) {
        act(`p ${[...legal.targets.get(seat)][0]}>${seat}`);
      }
    }
  }

  function rerender(focusKey = null) {
    if (ctx) render(ctx, focusKey);
  }

  function render(next, focusKey = null) {
    const keepFocus = focusKey || (root.contains(document.activeElement) ? document.activeElement.dataset.key : null);
    ctx = next;
    const { view, seat, deck } = ctx;
    const legal = readLegal(ctx.legal);
    const hand = Array.isArray(view.hand) ? view.hand : null;
    if (selected && (!hand || !hand.includes(selected) || (!legal.center.has(selected) && !legal.piles.has(selected)))) {
      selected = null;
    }
    const myTurn = ctx.legal.length > 0;
    const players = view.players;
    // Opponents in play order starting at your left; your own pile sits beside your hand.
    const seated = seat !== null && seat !== undefined && hand;
    const order = [];
    const first = seated ? seat + 1 : 0;
    for (let i = 0; i < (seated ? players - 1 : players); i += 1) order.push((first + i) % players);

    replaceChildren(root,
      statusLine(view, legal, myTurn),
      h("div", { class: "snk-seats", role: "list", "aria-label": "Divers and their personal piles" },
        order.map((s) => seatPanel(s, legal))),
      h("div", { class: "snk-middle" }, centerPile(legal), deckPile()),
      seated ? handArea(hand, legal, myTurn) : h("p", { class: "snk-spectating" }, "You are watching: hands stay hidden."));

    let focusEl = keepFocus ? root.querySelector(`[data-key="${CSS.escape(keepFocus)}"]`) : null;
    if (!focusEl && keepFocus) {
      focusEl = root.querySelector(".is-target") || root.querySelector(".card-btn.is-legal")
        || root.querySelector(".snk-actions button") || root.querySelector(".card-btn");
    }
    if (focusEl) focusEl.focus({ preventScroll: true });

    // -- parts --

    function statusLine() {
      const bits = [h("span", { class: "pill" }, `Round ${view.round}`), h("span", { class: "pill" }, `First to ${view.target_score}`)];
      if (view.expert_diving) bits.push(h("span", { class: "pill pill-accent" }, "Expert Diving"));
      bits.push(h("span", { class: "pill" }, `Turn ${view.turns_in_round + 1} of the round`));
      return h("div", { class: "snk-status" }, bits);
    }

    function seatPanel(s, legalNow) {
      const names = ctx.names(s);
      const isMe = s === seat;
      const isActive = view.active === s;
      const pile = view.piles[s] || [];
      const top = view.pile_tops[s];
      const hitThisTurn = view.turn.targets.includes(s);
      const destCards = selected ? legalNow.piles.get(selected) : null;
      const isTarget = Boolean(destCards && destCards.has(s));
      const couldTarget = !selected && legalNow.targets.has(s);
      const publicSeat = (ctx.seats && ctx.seats[s]) || {};
      const stack = h("div", { class: "pile-stack", style: `--depth:${pile.length}` },
        cardElement(deck, null, { lanternfish: view.lanternfish_value, className: "pile-card" }),
        pile.map((label, i) => {
          const el = cardElement(deck, label, { className: "pile-card" });
          el.style.setProperty("--i", String(i + 1));
          return el;
        }));
      const pileLabel = `${isMe ? "your" : `${names}'s`} pile shows ${top}${pile.length ? ` (${deck.describe(pile[pile.length - 1])})` : ` (the ${deck.lanternfishName})`}`;
      let pileEl;
      if (isTarget || couldTarget) {
        const cards = isTarget ? selected : [...legalNow.targets.get(s)].join(" or ");
        pileEl = h("button", {
          type: "button", class: `pile pile-btn${isTarget ? " is-target" : " is-possible"}`, "data-act": "pile", "data-seat": s,
          "data-key": `dest-${s}`, "data-nav": "pile",
          "aria-label": `${pileLabel}. ${isTarget ? `Play ${selected} here` : `Takes ${cards}`}`,
        }, stack);
      } else {
        pileEl = h("div", { class: "pile", role: "img", "aria-label": pileLabel, "data-key": `pile-${s}`, "data-nav": "pile", tabindex: 0 },
          stack);
      }
      const known = view.known_in_hand[s] || [];
      const badges = [];
      if (isMe) badges.push(h("span", { class: "badge badge-you" }, "you"));
      if (publicSeat.controller === "bot" || publicSeat.kind === "bot") badges.push(h("span", { class: "badge" }, "bot"));
      if (hitThisTurn) badges.push(h("span", { class: "badge badge-hit" }, "hit this turn"));
      return h("div", {
        class: `seat${isActive ? " is-active" : ""}${isMe ? " is-me" : ""}`, role: "listitem",
        "aria-current": isActive ? "true" : null,
      },
      h("div", { class: "seat-head" },
        h("span", { class: "seat-name" }, isActive ? h("span", { class: "turn-dot", title: "their turn", "aria-label": "to play" }) : null, names),
        badges),
      h("div", { class: "seat-body" },
        pileEl,
        h("dl", { class: "seat-facts" },
          h("div", { class: "fact-shows" }, h("dt", {}, "Pile"), h("dd", { class: "pile-value" }, String(top))),
          h("div", {}, h("dt", {}, "Score"), h("dd", { class: "seat-score" }, String(view.scores[s]))),
          h("div", {}, h("dt", {}, "Hand"), h("dd", {}, String(view.hand_sizes[s]))),
          known.length && !isMe ? h("div", { class: "seat-known" }, h("dt", {}, "Known"), h("dd", {}, known.map((c) => cardChip(deck, c)))) : null)));
    }

    function centerPile(legalNow) {
      const center = view.center;
      const k = view.turn.center_played;
      const shown = Math.min(center.length, Math.max(4, k + 1), 9);
      const start = center.length - shown;
      const canDrop = Boolean(selected && legalNow.center.has(selected));
      const topLabel = center[center.length - 1];
      const cards = center.slice(start).map((label, i) => {
        const index = start + i;
        const isTop = index === center.length - 1;
        const isT0 = k > 0 && index === center.length - 1 - k;
        const isNew = k > 0 && index > center.length - 1 - k;
        const el = cardElement(deck, label, { className: `center-card${isTop ? " is-top" : ""}${isNew ? " is-new" : ""}` });
        if (isT0) el.append(h("span", { class: "t0-tag", title: "T0: the top card when this turn began" }, "T0"));
        return el;
      });
      const label = `Centre pile, ${center.length} card${center.length === 1 ? "" : "s"}; top ${deck.describe(topLabel)}`
        + (k ? `; ${k} played this turn on top of T0 ${view.turn.t0}` : "");
      const inner = [
        h("div", { class: "center-fan" }, cards),
        h("div", { class: "center-caption" },
          h("span", {}, `Centre · ${center.length}`),
          k ? h("span", { class: "t0-note" }, `this turn: ${k} on T0 `, cardChip(deck, view.turn.t0)) : null),
      ];
      if (canDrop) {
        return h("button", {
          type: "button", class: "center is-target", "data-act": "center", "data-key": "dest-center", "data-nav": "pile",
          "aria-label": `${label}. Play ${selected} to the centre`,
        }, inner);
      }
      return h("div", { class: "center", role: "img", "aria-label": label, "data-key": "center", "data-nav": "pile", tabindex: 0 }, inner);
    }

    function deckPile() {
      return h("div", { class: "deck", role: "img", "aria-label": `Draw deck: ${view.deck_size} cards` },
        view.deck_size ? cardElement(deck, null, { className: "deck-card" }) : h("div", { class: "card deck-empty" }, "empty"),
        h("span", { class: "deck-count" }, `Deck · ${view.deck_size}`));
    }

    function handArea(handCards, legalNow, mine) {
      const counts = new Map();
      const buttons = handCards.map((label) => {
        const n = (counts.get(label) || 0) + 1;
        counts.set(label, n);
        const options = optionsFor(label, legalNow);
        const playable = options.center || options.piles.size > 0;
        const isSelected = selected === label && n === 1;
        const where = [];
        if (options.center) where.push("to the centre");
        if (options.piles.size) where.push(`onto ${[...options.piles].map((s) => (s === seat ? "your" : `${ctx.names(s)}'s`)).join(" or ")} pile`);
        const aria = `${deck.describe(label)}${playable ? `, can go ${where.join(" or ")}` : mine ? ", not playable now" : ""}${isSelected ? ", selected: choose where" : ""}`;
        const el = cardElement(deck, label, {
          tag: "button",
          className: `card-btn${playable ? " is-legal" : mine ? " is-dim" : ""}${isSelected ? " is-selected" : ""}`,
        });
        el.type = "button";
        el.dataset.act = "card";
        el.dataset.key = `hand-${label}-${n}`;
        el.dataset.nav = "hand";
        el.setAttribute("aria-label", aria);
        if (isSelected) el.setAttribute("aria-pressed", "true");
        if (ctx.busy) el.setAttribute("aria-disabled", "true");
        return el;
      });
      const actions = [];
      if (legalNow.canPass) {
        actions.push(h("button", { type: "button", class: "btn", "data-act": "pass", "data-key": "pass", disabled: ctx.busy },
          "Pass", h("kbd", {}, "P")));
      }
      if (legalNow.canEnd) {
        actions.push(h("button", { type: "button", class: "btn btn-primary", "data-act": "end", "data-key": "end", disabled: ctx.busy },
          "End turn", h("kbd", {}, "E")));
      }
      return h("section", { class: `hand-area${mine ? " is-my-turn" : ""}`, "aria-label": "Your hand" },
        h("div", { class: "own-seat", role: "list", "aria-label": "Your pile" }, seatPanel(seat, legalNow)),
        h("div", { class: "hand-main" },
        h("div", { class: "hand-head" },
          h("h2", {}, "Your hand ", h("span", { class: "muted" }, `· ${handCards.length}`)),
          h("p", { class: "hint", "aria-live": "polite" }, hint(legalNow, mine))),
        h("div", { class: "hand" }, buttons),
        actions.length ? h("div", { class: "snk-actions" }, actions) : null));
    }

    function hint(legalNow, mine) {
      if (ctx.busy) return "Sending…";
      if (!mine) {
        if (view.active === null || view.active === undefined) return "The game is over.";
        return `Waiting for ${ctx.names(view.active)}…`;
      }
      if (selected) {
        const options = optionsFor(selected, legalNow);
        const dest = [];
        if (options.center) dest.push("the centre");
        if (options.piles.size) dest.push("a highlighted pile");
        return `${selected} selected: choose ${dest.join(" or ")} (Esc to cancel).`;
      }
      const parts = [];
      if (legalNow.center.size) parts.push("play a highlighted card to the centre");
      if (legalNow.piles.size) parts.push("put a card on a highlighted pile");
      if (legalNow.canPass) parts.push("pass");
      if (legalNow.canEnd) parts.push("end the turn");
      if (!parts.length) return "Your turn.";
      const text = parts.length > 1 ? `${parts.slice(0, -1).join(", ")} or ${parts[parts.length - 1]}` : parts[0];
      return `Your turn: ${text}.`;
    }
  }

  // Arrow keys move within a row (the hand, or the piles and centre) and Up/Down between rows.
  function handleKey(event) {
    if (!ctx) return false;
    const key = event.key;
    const legal = readLegal(ctx.legal);
    if ((key === "p" || key === "P") && legal.canPass && !ctx.busy) {
      act("pass");
      return true;
    }
    if ((key === "e" || key === "E") && legal.canEnd && !ctx.busy) {
      act("end");
      return true;
    }
    if (key === "Escape" && selected) {
      const label = selected;
      selected = null;
      render(ctx, root.querySelector(`[data-card="${CSS.escape(label)}"]`)?.dataset.key);
      return true;
    }
    if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(key)) return false;
    const items = [...root.querySelectorAll("[data-nav]")];
    if (!items.length) return false;
    const current = document.activeElement;
    const index = items.indexOf(current);
    if (index < 0) {
      (root.querySelector(".card-btn.is-legal") || items[0]).focus();
      return true;
    }
    const row = current.dataset.nav;
    const sameRow = items.filter((el) => el.dataset.nav === row);
    const i = sameRow.indexOf(current);
    let next = null;
    if (key === "ArrowLeft") next = sameRow[(i - 1 + sameRow.length) % sameRow.length];
    else if (key === "ArrowRight") next = sameRow[(i + 1) % sameRow.length];
    else if (key === "Home") next = sameRow[0];
    else if (key === "End") next = sameRow[sameRow.length - 1];
    else {
      const other = items.filter((el) => el.dataset.nav !== row);
      if (other.length) {
        // The nearest element of the other row, by horizontal position.
        const x = current.getBoundingClientRect().left;
        next = other.reduce((best, el) => (Math.abs(el.getBoundingClientRect().left - x) < Math.abs(best.getBoundingClientRect().left - x) ? el : best));
      }
    }
    if (next) next.focus();
    return Boolean(next);
  }

  function destroy() {
    root.removeEventListener("click", onClick);
    root.replaceChildren();
    root.classList.remove("snk");
  }

  return { render: (next) => render(next), handleKey, destroy, clearSelection: () => { selected = null; } };
}
