// Hold Your Breath! in the browser: the depth board, every Swim Pile and the hand, drawn from one seat's view,
// and the log lines.
//
// Everything shown comes from the server's view (src/divedeck/games/hold_your_breath/information.py); what may be
// played comes only from the server's `legal` list. Nothing here decides a rule: a card's uses, the targets that
// light up and the buttons offered are read from that list, and a use that is not in it asks the server to
// explain (its answer names the rule).

import { h, replaceChildren } from "../util.js";

export const name = "hold-your-breath";
export const title = "Hold Your Breath!";

// The default deck's card types, for when a view carries no card data (every view does; this is a fallback).
const ICON_LETTER = { draw: "D", discard: "X", calm: "C", panic: "P", shark: "H", kraken: "K" };
const DEFAULT_CARDS = [
  ...["air", "swim"].flatMap((kind) => [5, 10].flatMap((value) => ["draw", "discard", "calm", "panic"].map((icon) => ({
    label: `${kind === "air" ? "A" : "S"}${value}${ICON_LETTER[icon]}`, kind, value, icon,
    name: `${kind === "air" ? "Air" : "Swim"} ${value} (${icon[0].toUpperCase()}${icon.slice(1)})`,
  })))),
  { label: "SH", kind: "shark", value: null, icon: null, name: "Shark" },
  { label: "KR", kind: "kraken", value: null, icon: null, name: "Kraken" },
  { label: "DO", kind: "dolphin", value: null, icon: null, name: "Dolphin" },
];

const KIND_WORD = { air: "Air", swim: "Swim", shark: "Shark", kraken: "Kraken", dolphin: "Dolphin" };
const USE_WORD = {
  draw: "Draw", discard: "Discard", calm: "Calm", panic: "Panic", shark: "Shark", kraken: "Chase Shark",
  mass: "All discard",
};
const USE_HELP = {
  draw: "draw a card",
  discard: "an opponent with a full hand discards a random card",
  calm: "clear a hindrance from your Swim Pile",
  panic: "put a Panic on an opponent",
  shark: "put the Shark on an opponent",
  kraken: "chase a Shark away",
  mass: "everyone with a full hand discards a card",
};
const TARGETED = new Set(["discard", "panic", "shark", "kraken"]);

/** The card types of the game being shown, by label. */
class HybDeck {
  constructor(cards) {
    const list = Array.isArray(cards) && cards.length ? cards : DEFAULT_CARDS;
    this.byLabel = new Map(list.map((card) => [String(card.label), card]));
  }

  info(label) {
    return this.byLabel.get(label) || { label, kind: "unknown", value: null, icon: null, name: label };
  }

  describe(label) {
    return this.info(label).name;
  }
}

/** The deck to draw with: the card types the view lists. */
export function makeDeck(gameInfo, view) {
  return new HybDeck(view && view.cards);
}

/** The seat whose decision is awaited (a Kraken victim may be someone else than the active player), or null. */
export function activeSeat(view) {
  if (!view || !Number.isInteger(view.active)) return null;
  const actors = Array.isArray(view.actors) ? view.actors : [];
  if (view.phase === "kraken" && actors.length) return actors.includes(view.seat) ? view.seat : actors[0];
  return view.active;
}

/** A card named in a log line or a hint: its label, coloured by kind, with the kind in words for screen readers. */
export function cardChip(deck, label) {
  const info = deck ? deck.info(label) : { kind: "unknown", name: label };
  return h("span", { class: `chip hyb-chip hyb-${info.kind}`, title: info.name },
    label, h("span", { class: "visually-hidden" }, ` (${info.name})`));
}

// -- the log -----------------------------------------------------------------------------------------------------

/**
 * A log line for an event as `viewer` sees it, mirroring describe_event() in
 * src/divedeck/games/hold_your_breath/game.py: with the default formatters the parts join to exactly its text
 * (a test compares the two). The page passes formatters that give seat names and card chips.
 */
export function describeEventParts(shown, viewer = null, fmt = {}) {
  const who = fmt.who || ((seat) => (seat === viewer ? "you" : `seat ${seat}`));
  const whose = fmt.whose || ((seat) => { const w = who(seat); return w === "you" ? "your" : `${w}'s`; });
  const card = fmt.card || ((label) => label);
  const seats = (list) => list.flatMap((seat, i) => (i ? [" and ", who(seat)] : [who(seat)]));
  const cards = (list) => list.flatMap((label, i) => (i ? [" ", card(label)] : [card(label)]));
  const s = shown;
  switch (s.kind) {
    case "deal": {
      const stage = s.round === "descent" ? "Descent" : "Ascent";
      const parts = [`the ${stage} is dealt; first to play: `, who(s.first)];
      if (Array.isArray(s.hand)) parts.push("; your hand ", ...cards(s.hand));
      return parts;
    }
    case "play":
      return playParts(s, who, whose, card, seats);
    case "draw":
      return [who(s.seat), " drew ", s.card !== undefined ? card(s.card) : "a card"];
    case "no_draw":
      return [who(s.seat), " could not draw: the Dive Deck is empty"];
    case "lose":
      return [who(s.seat), " set a card aside for the Kraken", ...(s.card !== undefined ? [" (", card(s.card), ")"] : [])];
    case "kraken_discards":
      return ["the Kraken's victims discarded: ",
        ...s.losses.flatMap(([seat, label], i) => [...(i ? [", "] : []), who(seat), " ", card(label)])];
    case "end_play":
      return [who(s.seat), ` ended play with Air ${s.air} and Swim ${s.swim}: move ${s.move} ft`];
    case "move":
      return [who(s.seat), ` ${s.round === "descent" ? "dove" : "swam up"} from ${s.from} ft to ${s.to} ft`];
    case "surface":
      return [who(s.seat), ` surfaced (number ${s.order} to reach the surface)`];
    case "gasp":
      if (s.from === "deck") return [who(s.seat), " took no Air with an empty hand: the deck's top card lies face down as a Panic"];
      return [who(s.seat), " took no Air and laid a card face down as a Panic", ...(s.card !== undefined ? [" (", card(s.card), ")"] : [])];
    case "drop":
      return [who(s.seat), " discarded ", card(s.card)];
    case "replenish":
      return [who(s.seat), ` drew ${s.drew} card${s.drew !== 1 ? "s" : ""}`, ...(Array.isArray(s.cards) ? [": ", ...cards(s.cards)] : [])];
    case "final_turns":
      return ["the Dive Deck is empty: one last turn each, ending with ", who(s.seat)];
    case "descent_end":
      return [`the Descent is over; anchors dropped at ${s.anchors.join(" ")} ft`];
    case "ascent_start":
      return ["the Ascent begins with ", who(s.first), ", the shallowest diver",
        ...(s.tied.length > 1 ? [" (the tie-break chose among ", ...seats(s.tied), ")"] : [])];
    case "game_over": {
      const winners = seats(s.winners);
      if (s.by === "deepest_surfaced") return ["game over: ", ...winners, " dove the deepest and reached the surface, and won"];
      if (s.by === "surfaced") return ["game over: ", ...winners, " won, the deepest diver to reach the surface"];
      return ["game over: ", ...winners, ` won with the greatest total distance, ${s.distances[s.winners[0]]} ft`];
    }
    default:
      return [`${s.kind} ${JSON.stringify(s)}`];
  }
}

function playParts(s, who, whose, card, seats) {
  const me = who(s.seat);
  const c = card(s.card);
  switch (s.verb) {
    case "air":
      return [me, " breathed with ", c, ` (+${s.value} Air)`];
    case "swim":
      return [me, " swam with ", c, ` (+${s.value} Swim)`];
    case "draw":
      return [me, " played ", c, " to draw a card"];
    case "discard":
      return [me, " played ", c, " on ", who(s.target), ", who lost ", card(s.lost), " at random"];
    case "calm":
      if (s.hindrance === "panic") return [me, " played ", c, " to calm a Panic (", card(s.removed), ")"];
      if (s.target === undefined) return [me, " played ", c, " to calm the Shark (", card(s.removed), "), which swam away to the Discard Pile"];
      return [me, " played ", c, " to calm the Shark (", card(s.removed), ") and sent it to ", who(s.target)];
    case "panic":
      return [me, " played ", c, " on ", who(s.target), " as a Panic"];
    case "shark":
      return [me, " set ", c, " on ", who(s.target), " as the Shark"];
    case "kraken":
      return [me, " played ", c, ": the Kraken chased ", whose(s.target), " Shark (", card(s.removed), ") away"];
    default:
      if (!s.victims.length) return [me, " played ", c, " as the Kraken: nobody holds a full hand"];
      return [me, " played ", c, " as the Kraken: ", ...seats(s.victims), " must discard a card"];
  }
}

/** The plain-text line, exactly as the Python describe_event() writes it. */
export function describeEvent(shown, viewer = null) {
  return describeEventParts(shown, viewer).join("");
}

/** Events worth a highlight in the log. */
export function eventTone(shown) {
  if (["game_over", "descent_end", "surface"].includes(shown.kind)) return "major";
  if (["deal", "ascent_start", "final_turns"].includes(shown.kind)) return "round";
  if (["draw", "no_draw", "replenish", "end_play"].includes(shown.kind)) return "minor";
  return "";
}

// -- summaries ---------------------------------------------------------------------------------------------------

const WON_BY = {
  deepest_surfaced: "The deepest diver reached the surface and won at once",
  surfaced: "Divers who reached the surface beat everyone still under water; the deepest dive among them wins",
  distance: "Total distance decided: down and back up, less 10 ft for each hindrance left in a Swim Pile",
};

/**
 * The end of the Descent (a descent_end event) or of the game (game_over, or the page's stand-in built from the
 * outcome: {winners, totals}), as a small table for the page's dialog, the hot-seat cover or the game-over panel.
 */
export function summaryElement(roundEnd, gameOver, { names, viewer = null } = {}) {
  const nameOf = (seat) => (seat === viewer ? `${names(seat)} (you)` : names(seat));
  if (!gameOver) {
    const anchors = roundEnd.anchors || [];
    const shallowest = anchors.map((depth, seat) => seat).filter((seat) => anchors[seat] === Math.min(...anchors));
    const starts = shallowest.length === 1 ? `${names(shallowest[0])} dove the shallowest and starts the Ascent.`
      : `${shallowest.map(names).join(" and ")} dove the shallowest; the tie-break picks who starts the Ascent.`;
    return h("div", { class: "summary" },
      h("h2", { class: "summary-title" }, "The Descent is over"),
      h("p", { class: "summary-reason" }, `Anchors dropped. ${starts}`),
      h("table", { class: "summary-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Diver"), h("th", { scope: "col" }, "Anchor"))),
        h("tbody", {}, anchors.map((depth, seat) => h("tr", {},
          h("th", { scope: "row" }, nameOf(seat)), h("td", {}, `${depth} ft`))))));
  }
  const winners = new Set(gameOver.winners || []);
  const totals = gameOver.distances || gameOver.totals || [];
  const anchors = gameOver.anchors || [];
  const surfaced = gameOver.surfaced || [];
  const who = [...winners].map(nameOf).join(" and ");
  const rows = totals.map((total, seat) => h("tr", { class: winners.has(seat) ? "is-winner" : null },
    h("th", { scope: "row" }, nameOf(seat), winners.has(seat) ? h("span", { class: "badge badge-win" }, "winner") : null),
    h("td", {}, anchors.length ? `${anchors[seat]} ft` : "–"),
    h("td", {}, surfaced.includes(seat) ? `#${surfaced.indexOf(seat) + 1}` : "–"),
    h("td", {}, `${total} ft`)));
  return h("div", { class: "summary" },
    h("h2", { class: "summary-title" }, `Game over: ${who} won`),
    gameOver.by ? h("p", { class: "summary-reason" }, `${WON_BY[gameOver.by] ?? gameOver.by}.`) : null,
    h("table", { class: "summary-table hyb-summary-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Diver"), h("th", { scope: "col" }, "Anchor"),
        h("th", { scope: "col" }, "Surfaced"), h("th", { scope: "col" }, "Total distance"))),
      h("tbody", {}, rows)));
}

/** The descent_end / game_over events among `events` (the last of each), or null when there are none. */
export function findSummary(events) {
  let roundEnd = null;
  let gameOver = null;
  for (const event of events) {
    if (event.kind === "descent_end") roundEnd = event;
    if (event.kind === "game_over") gameOver = event;
  }
  return roundEnd || gameOver ? { roundEnd, gameOver } : null;
}

// -- the legal list, read (never computed) -----------------------------------------------------------------------

/** One legal action text, taken apart ({verb, card, value, target, item}); null if it is not a card play. */
export function parseAction(text) {
  const words = String(text).trim().split(/\s+/);
  const verb = words[0];
  if (words.length === 1) return { verb };
  if (["gasp", "drop", "lose"].includes(verb)) return { verb, card: words[1] };
  if (verb === "air" || verb === "swim") return { verb, card: words[1], value: words[2] ? Number(words[2]) : null };
  if (verb === "calm") {
    const [item, target] = words[2].split(">");
    return { verb, card: words[1], item: Number(item), target: target === undefined ? null : Number(target) };
  }
  const [card, target] = words[1].split(">");
  return { verb, card, target: target === undefined ? null : Number(target) };
}

/** What the legal list offers, grouped the way the board asks for it. */
function readLegal(legal, deck) {
  const out = { end: false, keep: false, uses: new Map(), single: new Map() };
  for (const text of legal) {
    const action = parseAction(text);
    if (action.verb === "end") out.end = true;
    else if (action.verb === "keep") out.keep = true;
    else if (["gasp", "drop", "lose"].includes(action.verb)) out.single.set(action.card, text);
    else {
      const key = useKey(action, deck);
      if (!out.uses.has(action.card)) out.uses.set(action.card, new Map());
      const byUse = out.uses.get(action.card);
      if (!byUse.has(key)) byUse.set(key, []);
      byUse.get(key).push({ ...action, text });
    }
  }
  return out;
}

function useKey(action, deck) {
  if (action.verb === "air" || action.verb === "swim") return `${action.verb}:${action.value ?? deck.info(action.card).value}`;
  return action.verb;
}

/** Every use a card has, legal now or not (the ones printed on it; a Dolphin's are all of them). */
function cardUses(info, deck) {
  if (info.kind === "air" || info.kind === "swim") return [`${info.kind}:${info.value}`, iconUse(info.icon)].flat();
  if (info.kind === "shark") return ["shark"];
  if (info.kind === "kraken") return ["kraken", "mass"];
  if (info.kind === "dolphin") {
    const values = [...new Set([...deck.byLabel.values()].filter((c) => c.value).map((c) => c.value))].sort((a, b) => a - b);
    return [...values.map((v) => `air:${v}`), ...values.map((v) => `swim:${v}`), "draw", "discard", "calm", "panic", "shark", "kraken", "mass"];
  }
  return [];
}

function iconUse(icon) {
  return icon === "kraken" ? ["kraken", "mass"] : [icon];
}

function useLabel(key) {
  if (key.startsWith("air:") || key.startsWith("swim:")) {
    const [verb, value] = key.split(":");
    return `${KIND_WORD[verb]} ${value}`;
  }
  return USE_WORD[key] || key;
}

/** A representative action text for a use that is not legal now, so the server can say which rule forbids it. */
function sampleAction(card, key, seat, players) {
  const other = (seat + 1) % Math.max(players, 1);
  if (key.startsWith("air:") || key.startsWith("swim:")) {
    const [verb, value] = key.split(":");
    return card === "DO" ? `${verb} DO ${value}` : `${verb} ${card}`;
  }
  if (key === "calm") return `calm ${card} 0`;
  if (TARGETED.has(key)) return `${key} ${card}>${other}`;
  return `${key} ${card}`;
}

// -- drawing cards -------------------------------------------------------------------------------------------------

const ANCHOR_PATH = "M12 2a3 3 0 1 1 0 6a3 3 0 1 1 0-6zM11 8h2v11.2c2.9-.4 5-2.3 5.7-4.7l-2.2.6L19 10l2.5 5.2-1.8-.5C18.9 18.6 15.8 21.5 12 21.5S5.1 18.6 4.3 14.7l-1.8.5L5 10l2.5 5.1-2.2-.6C6 16.9 8.1 18.8 11 19.2zM8 9.5h8v1.8H8z";

function anchorIcon(className) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", className);
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", ANCHOR_PATH);
  path.setAttribute("fill", "currentColor");
  svg.append(path);
  return svg;
}

/** A card face: its kind in words, its value and its icon's action (or "any card" for a Dolphin), and its label. */
export function cardFace(deck, label, { className = "" } = {}) {
  const info = deck.info(label);
  const parts = [h("span", { class: "hyb-card-kind" }, KIND_WORD[info.kind] || info.kind)];
  if (info.value) parts.push(h("span", { class: "hyb-card-value" }, String(info.value)));
  else parts.push(h("span", { class: "hyb-card-value hyb-card-mark" }, info.kind === "dolphin" ? "★" : info.kind === "shark" ? "▲" : "✷"));
  parts.push(h("span", { class: "hyb-card-icon" }, info.icon ? USE_WORD[info.icon] || info.icon : info.kind === "dolphin" ? "any card" : ""));
  parts.push(h("span", { class: "hyb-card-label" }, label));
  return h("div", { class: `hyb-card hyb-${info.kind} ${className}`.trim(), role: "img", "aria-label": info.name }, parts);
}

function cardBack(text, className = "") {
  return h("div", { class: `hyb-card hyb-back ${className}`.trim(), role: "img", "aria-label": text },
    h("span", { class: "hyb-card-kind" }, "Panic"), h("span", { class: "hyb-card-value hyb-card-mark" }, "?"),
    h("span", { class: "hyb-card-icon" }, "face down"));
}

// -- the board -------------------------------------------------------------------------------------------------

/**
 * Draw the board into `root`. `api.act(action)` sends an action; `api.explain(action)` asks the server why an
 * action is refused (its error names the rule). Returns {render(ctx), handleKey(event), destroy()}.
 * ctx = {view, legal, seat, busy, names(seat), seats (public seats), deck}.
 */
export function createBoard(root, api) {
  let ctx = null;
  let open = null; // a Dolphin whose many uses are shown
  let pending = null; // {card, use, options: [...legal plays], item} while a target is being chosen
  root.classList.add("hyb");
  root.addEventListener("click", onClick);

  function act(text) {
    pending = null;
    open = null;
    api.act(text);
  }

  function onClick(event) {
    const el = event.target.closest("[data-act]");
    if (!el || !root.contains(el) || !ctx) return;
    event.preventDefault();
    activate(el);
  }

  function activate(el) {
    if (ctx.busy) return;
    const legal = readLegal(ctx.legal, ctx.deck);
    const kind = el.dataset.act;
    if (kind === "end" && legal.end) act("end");
    else if (kind === "keep" && legal.keep) act("keep");
    else if (kind === "single") act(el.dataset.action);
    else if (kind === "open") {
      open = open === el.dataset.card ? null : el.dataset.card;
      pending = null;
      rerender(`use-${el.dataset.card}-0`);
    } else if (kind === "use") chooseUse(el.dataset.card, el.dataset.use, legal);
    else if (kind === "explain") {
      if (ctx.legal.length) api.explain(el.dataset.action);
    } else if (kind === "cancel") {
      pending = null;
      rerender();
    } else if (kind === "target" && pending) chooseTarget(Number(el.dataset.seat));
    else if (kind === "item" && pending) chooseItem(Number(el.dataset.item));
    else if (kind === "to-discard" && pending) {
      const play = pending.options.find((o) => o.item === pending.item && o.target === null);
      if (play) act(play.text);
    }
  }

  function chooseUse(card, use, legal) {
    const options = legal.uses.get(card)?.get(use) || [];
    if (!options.length) return;
    if (use === "calm" || TARGETED.has(use)) {
      pending = { card, use, options, item: null };
      rerender("target");
    } else {
      act(options[0].text); // a value play, a Draw or the Kraken's mass discard: nothing to choose
    }
  }

  function chooseItem(item) {
    const plays = pending.options.filter((o) => o.item === item);
    if (!plays.length) return;
    if (plays.length === 1 && plays[0].target === null) act(plays[0].text);
    else {
      pending = { ...pending, item };
      rerender("target");
    }
  }

  function chooseTarget(seat) {
    const play = pending.options.find((o) => o.target === seat && (pending.use !== "calm" || o.item === pending.item));
    if (play) act(play.text);
  }

  /** Seats that may be clicked now, and what clicking them does. */
  function targetSeats() {
    if (!pending) return new Set();
    if (pending.use === "calm") {
      if (pending.item === null) return new Set();
      return new Set(pending.options.filter((o) => o.item === pending.item && o.target !== null).map((o) => o.target));
    }
    return new Set(pending.options.map((o) => o.target));
  }

  function rerender(focusKey = null) {
    if (ctx) render(ctx, focusKey);
  }

  function render(next, focusKey = null) {
    const keepFocus = focusKey || (root.contains(document.activeElement) ? document.activeElement.dataset.key : null);
    ctx = next;
    const { view, seat } = ctx;
    const deck = ctx.deck || makeDeck(null, view);
    ctx.deck = deck;
    const legal = readLegal(ctx.legal, deck);
    const hand = Array.isArray(view.hand) ? view.hand : null;
    if (pending && !(legal.uses.get(pending.card)?.get(pending.use)?.length)) pending = null;
    if (open && !(hand && hand.includes(open))) open = null;
    const mine = ctx.legal.length > 0;
    const targets = targetSeats();

    replaceChildren(root,
      statusLine(),
      depthBoard(),
      h("div", { class: "hyb-seats", role: "list", "aria-label": "Divers and their Swim Piles" },
        [...Array(view.players).keys()].map((s) => seatPanel(s))),
      hand ? handArea() : h("p", { class: "hyb-spectating" }, "You are watching: hands stay hidden."));

    let focusEl = keepFocus === "target" ? root.querySelector(".is-target") : null;
    if (!focusEl && keepFocus) focusEl = root.querySelector(`[data-key="${CSS.escape(keepFocus)}"]`);
    if (!focusEl && keepFocus) focusEl = root.querySelector(".hyb-use.is-legal") || root.querySelector(".hyb-actions button");
    if (focusEl) focusEl.focus({ preventScroll: true });

    // -- parts --

    function statusLine() {
      const bits = [
        h("span", { class: "pill pill-accent" }, view.round === "descent" ? "Descent: dive down" : "Ascent: race up"),
        h("span", { class: "pill" }, `Dive Deck ${view.deck_size}`),
        h("span", { class: "pill hyb-discard-pill" }, `Discard ${view.discard.length}`,
          view.discard.length ? [" · top ", cardChip(deck, view.discard[view.discard.length - 1])] : null),
      ];
      if (view.active !== null && view.active !== undefined) {
        bits.push(h("span", { class: "pill hyb-turn-pill" }, `${ctx.names(view.active)}: Air ${view.turn.air} · Swim ${view.turn.swim} → ${view.turn.move} ft`));
      }
      if (view.final.trigger !== null && view.final.trigger !== undefined && view.active !== null) {
        bits.push(h("span", { class: "pill hyb-final-pill" }, `Final turns: ${view.final.turns_left} left, ${ctx.names(view.final.trigger)} last`));
      }
      return h("div", { class: "hyb-status" }, bits);
    }

    function depthBoard() {
      const max = view.max_depth || 150;
      const pct = (feet) => `${Math.min(100, Math.max(0, (feet / max) * 100))}%`;
      const marks = [0, Math.round(max / 3 / 5) * 5, Math.round((2 * max) / 3 / 5) * 5, max];
      const described = [...Array(view.players).keys()].map((s) => `${ctx.names(s)} at ${view.depths[s]} ft${view.anchors ? `, anchor ${view.anchors[s]} ft` : ""}${view.surfaced.includes(s) ? ", surfaced" : ""}`).join("; ");
      return h("section", { class: "hyb-depth", "aria-label": `Depth board: ${described}` },
        h("div", { class: "hyb-scale", "aria-hidden": "true" },
          marks.map((feet) => h("span", { class: "hyb-mark", style: `top:${pct(feet)}` }, feet ? `${feet}` : "0 ft"))),
        h("div", { class: "hyb-lanes" }, [...Array(view.players).keys()].map((s) => lane(s, pct))));
    }

    function lane(s, pct) {
      const isTarget = targets.has(s);
      const surfacedAt = view.surfaced.indexOf(s);
      const inner = [
        h("span", { class: "hyb-lane-name" }, ctx.names(s)),
        h("span", { class: "hyb-water" },
          view.anchors ? h("span", { class: "hyb-anchor", style: `top:${pct(view.anchors[s])}`, title: `anchor ${view.anchors[s]} ft` }, anchorIcon("hyb-anchor-svg")) : null,
          h("span", { class: `hyb-pirate${s === view.active ? " is-active" : ""}`, style: `top:${pct(view.depths[s])}`, title: `${view.depths[s]} ft` }, String(s + 1))),
        h("span", { class: "hyb-lane-depth" }, surfacedAt >= 0 ? `↑ #${surfacedAt + 1}` : `${view.depths[s]} ft`),
      ];
      const cls = `hyb-lane${s === view.active ? " is-active" : ""}${s === seat ? " is-me" : ""}${isTarget ? " is-target" : ""}`;
      if (isTarget) {
        return h("button", { type: "button", class: cls, "data-act": "target", "data-seat": s, "data-key": `lane-${s}`, "aria-label": `Choose ${ctx.names(s)}` }, inner);
      }
      return h("div", { class: cls, "aria-hidden": "true" }, inner);
    }

    function seatPanel(s) {
      const isMe = s === seat;
      const isTarget = targets.has(s);
      const items = view.piles[s] || [];
      const publicSeat = (ctx.seats && ctx.seats[s]) || {};
      const badges = [];
      if (isMe) badges.push(h("span", { class: "badge badge-you" }, "you"));
      if (publicSeat.controller === "bot" || publicSeat.kind === "bot") badges.push(h("span", { class: "badge" }, "bot"));
      if (view.surfaced.includes(s)) badges.push(h("span", { class: "badge badge-win" }, `surfaced #${view.surfaced.indexOf(s) + 1}`));
      if (view.kraken && view.kraken.waiting.includes(s)) badges.push(h("span", { class: "badge badge-warn" }, "Kraken: choosing"));
      const facts = [
        h("div", {}, h("dt", {}, "Depth"), h("dd", { class: "hyb-depth-value" }, `${view.depths[s]} ft`)),
        view.anchors ? h("div", {}, h("dt", {}, "Anchor"), h("dd", {}, `${view.anchors[s]} ft`)) : null,
        h("div", {}, h("dt", {}, "Hand"), h("dd", {}, String(view.hand_sizes[s]))),
        view.distances ? h("div", {}, h("dt", {}, "Total"), h("dd", {}, `${view.distances[s]} ft`)) : null,
      ];
      const pileLabel = items.length ? `${items.length} hindrance${items.length > 1 ? "s" : ""}` : "clear";
      const choosingItem = isMe && pending && pending.use === "calm" && pending.item === null;
      const pileCards = items.map((entry, index) => pileItem(entry, index, isMe, choosingItem));
      const body = [
        h("div", { class: "seat-head" },
          h("span", { class: "seat-name" }, s === activeSeat(view) ? h("span", { class: "turn-dot", title: "to play", "aria-label": "to play" }) : null, ctx.names(s)),
          badges),
        h("dl", { class: "seat-facts hyb-facts" }, facts),
        h("div", { class: "hyb-pile", "aria-label": `Swim Pile: ${pileLabel}` },
          pileCards.length ? pileCards : h("span", { class: "hyb-pile-clear" }, "Swim Pile clear")),
      ];
      const cls = `seat hyb-seat${s === view.active ? " is-active" : ""}${isMe ? " is-me" : ""}${isTarget ? " is-target" : ""}`;
      if (isTarget) {
        return h("div", { role: "listitem" },
          h("button", { type: "button", class: cls, "data-act": "target", "data-seat": s, "data-key": `seat-${s}`, "data-nav": "target",
            "aria-label": `Choose ${ctx.names(s)} for ${USE_WORD[pending.use]}` }, body));
      }
      return h("div", { class: cls, role: "listitem" }, body);
    }

    function pileItem(entry, index, isMe, choosing) {
      const what = entry.kind === "shark" ? "Shark" : entry.face_down ? "face-down Panic" : "Panic";
      let face;
      if (entry.face_down && !entry.card) face = cardBack(`${what}, its card unknown`, "hyb-pile-card");
      else {
        face = cardFace(deck, entry.card, { className: "hyb-pile-card" });
        face.setAttribute("aria-label", `${what}: ${deck.describe(entry.card)}`);
      }
      const tag = h("span", { class: `hyb-hindrance is-${entry.kind}${entry.face_down ? " is-down" : ""}` }, entry.kind === "shark" ? "Shark" : entry.face_down ? "Panic ▼" : "Panic");
      const usable = choosing && pending.options.some((o) => o.item === index);
      if (usable) {
        return h("button", { type: "button", class: "hyb-item is-target", "data-act": "item", "data-item": index, "data-key": `item-${index}`, "data-nav": "target",
          "aria-label": `Calm this ${what}` }, face, tag);
      }
      return h("span", { class: "hyb-item" }, face, tag);
    }

    function handArea() {
      const phase = view.phase;
      const myDecision = mine;
      const counts = new Map();
      const cards = hand.map((label) => {
        const n = (counts.get(label) || 0) + 1;
        counts.set(label, n);
        return handCard(label, n, legal, myDecision);
      });
      const actions = [];
      if (legal.end) actions.push(h("button", { type: "button", class: "btn btn-primary", "data-act": "end", "data-key": "end", disabled: ctx.busy }, "End play", h("kbd", {}, "E")));
      if (legal.keep) actions.push(h("button", { type: "button", class: "btn btn-primary", "data-act": "keep", "data-key": "keep", disabled: ctx.busy }, "Keep the rest", h("kbd", {}, "K")));
      if (pending) actions.push(h("button", { type: "button", class: "btn", "data-act": "cancel", "data-key": "cancel" }, "Cancel", h("kbd", {}, "Esc")));
      if (pending && pending.use === "calm" && pending.item !== null && pending.options.some((o) => o.item === pending.item && o.target === null)) {
        actions.push(h("button", { type: "button", class: "btn", "data-act": "to-discard", "data-key": "to-discard" }, "Send the Shark to the Discard Pile"));
      }
      const given = view.kraken_given ? h("p", { class: "hint" }, "Set aside for the Kraken: ", cardChip(deck, view.kraken_given)) : null;
      return h("section", { class: `hand-area hyb-hand-area${myDecision ? " is-my-turn" : ""}`, "aria-label": "Your hand" },
        h("div", { class: "hand-main" },
          h("div", { class: "hand-head" },
            h("h2", {}, "Your hand ", h("span", { class: "muted" }, `· ${hand.length}`)),
            h("p", { class: "hint", "aria-live": "polite" }, hint(phase))),
          given,
          h("div", { class: "hyb-hand" }, cards.length ? cards : h("p", { class: "muted" }, "No cards in hand.")),
          actions.length ? h("div", { class: "hyb-actions" }, actions) : null));
    }

    function handCard(label, n, legalNow, myDecision) {
      const info = deck.info(label);
      const buttons = [];
      const single = legalNow.single.get(label);
      if (view.phase !== "play" && myDecision) {
        if (single) {
          const word = { breath: "Lay face down", discard: "Discard", kraken: "Give up" }[view.phase] || "Choose";
          buttons.push(h("button", { type: "button", class: "hyb-use is-legal", "data-act": "single", "data-action": single, "data-key": `use-${label}-${n}-0`, "data-nav": "hand",
            "aria-label": `${word}: ${info.name}`, disabled: ctx.busy }, word));
        }
      } else if (info.kind === "dolphin" && open !== label) {
        const any = legalNow.uses.has(label);
        buttons.push(h("button", { type: "button", class: `hyb-use${any && myDecision ? " is-legal" : ""}`, "data-act": "open", "data-card": label, "data-key": `use-${label}-${n}-0`, "data-nav": "hand",
          "aria-label": `${info.name}: show what it can be played as`, "aria-expanded": "false" }, "Play as…"));
      } else {
        const uses = cardUses(info, deck);
        uses.forEach((key, i) => {
          const options = legalNow.uses.get(label)?.get(key) || [];
          const ok = options.length > 0 && myDecision; // copies of a card are interchangeable: each offers the same
          const chosen = pending && pending.card === label && pending.use === key && n === 1;
          const text = useLabel(key);
          const help = key.includes(":") ? `${info.name} for its value: ${text}` : `${info.name} as ${USE_WORD[key]}: ${USE_HELP[key]}`;
          const attrs = {
            type: "button", class: `hyb-use${ok ? " is-legal" : ""}${chosen ? " is-selected" : ""}`, "data-key": `use-${label}-${n}-${i}`, "data-nav": "hand",
            "aria-label": `${help}${ok ? "" : myDecision ? " (not possible now)" : ""}`, title: USE_HELP[key] || "",
          };
          if (ok) Object.assign(attrs, { "data-act": "use", "data-card": label, "data-use": key, "aria-pressed": chosen ? "true" : null, disabled: ctx.busy });
          else if (myDecision && view.phase === "play") Object.assign(attrs, { "data-act": "explain", "data-action": sampleAction(label, key, seat, view.players), "aria-disabled": "true" });
          else Object.assign(attrs, { "aria-disabled": "true" });
          buttons.push(h("button", attrs, text));
        });
        if (info.kind === "dolphin") {
          buttons.push(h("button", { type: "button", class: "hyb-use hyb-use-close", "data-act": "open", "data-card": label, "data-key": `close-${label}`, "aria-expanded": "true" }, "Close"));
        }
      }
      const isOpen = info.kind === "dolphin" && open === label;
      return h("div", { class: `hyb-hand-card${buttons.some((b) => b.classList.contains("is-legal")) ? " is-playable" : ""}${isOpen ? " is-open" : ""}` },
        cardFace(deck, label),
        h("div", { class: `hyb-uses${isOpen ? " is-open" : ""}` }, buttons));
    }

    function hint(phase) {
      if (ctx.busy) return "Sending…";
      if (!mine) {
        if (view.active === null || view.active === undefined) return "The game is over.";
        if (phase === "kraken") return `The Kraken strikes: waiting for ${view.kraken.waiting.map(ctx.names).join(" and ")}…`;
        return `Waiting for ${ctx.names(activeSeat(view))}…`;
      }
      if (phase === "kraken") return "The Kraken strikes: choose a card to give up.";
      if (phase === "breath") return "You took no Air: choose a card to lay face down as a Panic.";
      if (phase === "discard") return "Discard any cards you do not want, then keep the rest (your hand refills to full).";
      if (pending) {
        if (pending.use === "calm") {
          return pending.item === null ? `${pending.card}: choose the hindrance in your Swim Pile to calm (Esc to cancel).`
            : "Choose the diver who gets the Shark.";
        }
        return `${pending.card} as ${USE_WORD[pending.use]}: choose a highlighted player (Esc to cancel).`;
      }
      const parts = [];
      if (view.turn.air === 0 && view.seat !== null && !view.surfaced.includes(view.seat)) parts.push("breathe (play Air)");
      parts.push("play cards for their value or their action");
      if (legal.end) parts.push("end play");
      return `Your turn: ${parts.join(", ")}.`;
    }
  }

  function handleKey(event) {
    if (!ctx) return false;
    const key = event.key;
    const legal = readLegal(ctx.legal, ctx.deck || makeDeck(null, ctx.view));
    if ((key === "e" || key === "E") && legal.end && !ctx.busy) {
      act("end");
      return true;
    }
    if ((key === "k" || key === "K") && legal.keep && !ctx.busy) {
      act("keep");
      return true;
    }
    if (key === "Escape" && (pending || open)) {
      pending = null;
      open = null;
      rerender();
      return true;
    }
    if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(key)) return false;
    const items = [...root.querySelectorAll("[data-nav]")];
    if (!items.length) return false;
    const index = items.indexOf(document.activeElement);
    const step = key === "ArrowLeft" || key === "ArrowUp" ? -1 : 1;
    const next = items[(index < 0 ? 0 : index + step + items.length) % items.length];
    next.focus();
    return true;
  }

  function destroy() {
    root.removeEventListener("click", onClick);
    root.replaceChildren();
    root.classList.remove("hyb");
  }

  return { render: (next) => render(next), handleKey, destroy, clearSelection: () => { pending = null; open = null; } };
}
