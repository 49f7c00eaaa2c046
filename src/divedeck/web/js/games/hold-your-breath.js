// Hold Your Breath! in the browser: the depth board, every Swim Pile and the hand, drawn from one seat's view.
//
// The page holds no rule: a card's uses and their words come from the game's static data (`static.cards`), what
// may be played now from the server's legal records ({notation, kind, cards, target, label}), and a use that is
// not legal now asks the server "why not?" (`api.check`), whose answer names the rule. The log is the server's.
// The cards played this turn lie on the table from the log (the events as this seat received them, `ctx.log`): a
// card played is public (HYB-R10..R13), and the turn's plays are the play events after the last `end_play`.

import { h, presenceBadge, replaceChildren, sayWhyNot } from "../util.js";

export const name = "hold-your-breath";
export const title = "Hold Your Breath!";
export const keyHelp = [[["Tab", "←", "→"], "move"], [["Enter"], "play"], [["E"], "end play"], [["K"], "keep"],
  [["Esc"], "cancel"]];

const KIND_WORD = { air: "Air", swim: "Swim", shark: "Shark", kraken: "Kraken", dolphin: "Dolphin" };
// Uses that choose a seat (highlighted on the board) or a hindrance and a seat (a menu of the legal choices).
const SEAT_USES = new Set(["discard", "panic", "shark", "kraken"]);
const SINGLE_WORD = { gasp: "Lay face down", drop: "Discard", lose: "Give up" };

/** The game's cards, by label (the hand, piles and records) and by name (the log's card parts). */
class HybDeck {
  constructor(cards, icons) {
    this.icons = icons && typeof icons === "object" ? icons : {}; // the game's glyph for each kind and action icon
    this.byLabel = new Map((Array.isArray(cards) ? cards : []).map((card) => [String(card.label), card]));
    this.byName = new Map([...this.byLabel.values()].map((card) => [String(card.name), card]));
  }

  info(label) {
    return this.byLabel.get(label) || { label, kind: "unknown", value: null, icon: null, name: label, uses: [] };
  }
}

/** The deck to draw with: the card table of the table's static data. */
export function makeDeck(gameInfo, staticData) {
  const from = (staticData && staticData.cards) ? staticData : (gameInfo && gameInfo.static) || {};
  return new HybDeck(from.cards, from.icons);
}

/** The seat whose decision is awaited (a Kraken victim may be someone else than the active player), or null. */
export function activeSeat(view) {
  if (!view || !Number.isInteger(view.active)) return null;
  const actors = Array.isArray(view.actors) ? view.actors : [];
  if (view.phase === "kraken" && actors.length) return actors.includes(view.seat) ? view.seat : actors[0];
  return view.active;
}

/** A card named in a log line (by its name): a chip coloured by kind, the name in words. */
export function cardChip(deck, cardName) {
  const info = (deck && deck.byName.get(cardName)) || { kind: "unknown" };
  return h("span", { class: `chip hyb-chip hyb-${info.kind}` }, cardName);
}

/** Events worth a highlight in the log. */
export function eventTone(shown) {
  if (["game_over", "descent_end", "surface"].includes(shown.kind)) return "major";
  if (["deal", "ascent_start", "final_turns"].includes(shown.kind)) return "round";
  if (["draw", "replenish", "end_play"].includes(shown.kind)) return "minor";
  return "";
}

// -- summaries ---------------------------------------------------------------------------------------------------

const WON_BY = {
  deepest_surfaced: "The deepest diver reached the surface and won at once",
  surfaced_first: "Divers who reached the surface beat everyone still under water; the deepest dive among them wins",
  distance: "Total distance decided: down and back up, less a penalty for each hindrance left in a Swim Pile",
};

/**
 * The end of the Descent (its descent_end event, with the Ascent's first diver from ascent_start) or of the game
 * (game_over, or the page's stand-in built from the outcome), as a small table for the page's dialogs.
 */
export function summaryElement(roundEnd, gameOver, { names, viewer = null } = {}) {
  const nameOf = (seat) => (seat === viewer ? `${names(seat)} (you)` : names(seat));
  if (!gameOver) {
    const anchors = roundEnd.anchors || [];
    const tied = roundEnd.tied || [];
    const starts = !Number.isInteger(roundEnd.first) ? ""
      : tied.length > 1 ? ` ${tied.map(names).join(" and ")} dove the shallowest; the tie-break chose ${names(roundEnd.first)} to start the Ascent.`
        : ` ${names(roundEnd.first)} dove the shallowest and starts the Ascent.`;
    return h("div", { class: "summary" },
      h("h2", { class: "summary-title" }, "The Descent is over"),
      h("p", { class: "summary-reason" }, `Anchors dropped.${starts}`),
      h("table", { class: "summary-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Diver"), h("th", { scope: "col" }, "Anchor"))),
        h("tbody", {}, anchors.map((depth, seat) => h("tr", {},
          h("th", { scope: "row" }, nameOf(seat)), h("td", {}, `${depth} ft`))))));
  }
  const winners = new Set(gameOver.winners || []);
  const totals = gameOver.distances || gameOver.totals || [];
  const anchors = gameOver.anchors || [];
  const surfaced = gameOver.surfaced || [];
  const by = gameOver.by || gameOver.reason;
  const rows = totals.map((total, seat) => h("tr", { class: winners.has(seat) ? "is-winner" : null },
    h("th", { scope: "row" }, nameOf(seat), winners.has(seat) ? h("span", { class: "badge badge-win" }, "winner") : null),
    h("td", {}, anchors.length ? `${anchors[seat]} ft` : "–"),
    h("td", {}, surfaced.includes(seat) ? `#${surfaced.indexOf(seat) + 1}` : "–"),
    h("td", {}, `${total} ft`)));
  return h("div", { class: "summary" },
    h("h2", { class: "summary-title" }, `Game over: ${[...winners].map(nameOf).join(" and ")} won`),
    by ? h("p", { class: "summary-reason" }, `${WON_BY[by] ?? by}.`) : null,
    h("table", { class: "summary-table hyb-summary-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Diver"), h("th", { scope: "col" }, "Anchor"),
        h("th", { scope: "col" }, "Surfaced"), h("th", { scope: "col" }, "Total distance"))),
      h("tbody", {}, rows)));
}

/** The last descent_end (with the ascent_start after it) and game_over among `events`, or null when none. */
export function findSummary(events) {
  let roundEnd = null;
  let gameOver = null;
  for (const event of events) {
    if (event.kind === "descent_end") roundEnd = { ...event };
    if (event.kind === "ascent_start" && roundEnd) Object.assign(roundEnd, { first: event.first, tied: event.tied });
    if (event.kind === "game_over") gameOver = event;
  }
  return roundEnd || gameOver ? { roundEnd, gameOver } : null;
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

const SVG_NS = "http://www.w3.org/2000/svg";
// Inks per kind: `band` behind the value and the kind's name, `text` on it, `ink` for the drawing, `tint` the body.
// The same colours as the log's chips (hold-your-breath.css), which differ in lightness for colour-blind players.
const INKS = {
  air: { band: "#7fcdf2", text: "#02202f", ink: "#0b5f8a", tint: "#e6f6ff" },
  swim: { band: "#3bb26f", text: "#03200d", ink: "#17603a", tint: "#e0f5e9" },
  shark: { band: "#c42f38", text: "#ffffff", ink: "#8c1b23", tint: "#fbe6e6" },
  kraken: { band: "#4a2a8a", text: "#ffffff", ink: "#3b1464", tint: "#efe6f9" },
  dolphin: { band: "#ffe066", text: "#231a00", ink: "#6b5200", tint: "#fff7d6" },
  unknown: { band: "#9aa5ad", text: "#111111", ink: "#333333", tint: "#eeeeee" },
};

function esc(text) {
  return String(text).replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[ch]));
}

// The picture of each kind, in the card's inks, around (50, 80) of a 100x140 card.
const ART = {
  air: (p) => [[50, 82, 15], [30, 64, 8], [72, 62, 7], [30, 100, 6], [70, 102, 9], [52, 56, 4]]
    .map(([x, y, r]) => `<circle cx="${x}" cy="${y}" r="${r}" fill="${p.tint}" stroke="${p.ink}" stroke-width="2.2"/>`
      + `<path d="M${x - r * 0.45} ${y - r * 0.35} a${r * 0.55} ${r * 0.55} 0 0 1 ${r * 0.5} -${r * 0.3}" fill="none" stroke="${p.ink}" stroke-width="1.4" stroke-linecap="round"/>`).join(""),
  // a diver's fin: the foot pocket, the wide blade with its ribs, a trail of bubbles
  swim: (p) => `<g transform="rotate(-28 50 82)"><path d="M42 54 C42 48 58 48 58 54 L60 70 C70 84 72 98 70 108 C62 112 38 112 30 108 C28 98 30 84 40 70 Z" fill="${p.band}" stroke="${p.ink}" stroke-width="2" stroke-linejoin="round"/>`
    + `<path d="M44 58 H56" stroke="${p.tint}" stroke-width="3" stroke-linecap="round"/>`
    + `<path d="M42 76 L38 104 M50 74 V106 M58 76 L62 104" stroke="${p.ink}" stroke-width="1.6" fill="none"/></g>`
    + `<circle cx="74" cy="58" r="4" fill="none" stroke="${p.ink}" stroke-width="1.6"/><circle cx="80" cy="70" r="2.6" fill="none" stroke="${p.ink}" stroke-width="1.4"/>`,
  shark: (p) => `<path d="M30 96 C40 86 50 66 64 56 C62 70 64 86 74 96 Z" fill="${p.band}" stroke="${p.ink}" stroke-width="2" stroke-linejoin="round"/>`
    + [98, 108].map((y) => `<path d="M14 ${y} q9 -6 18 0 t18 0 t18 0 t18 0" fill="none" stroke="${p.ink}" stroke-width="2.2" stroke-linecap="round"/>`).join(""),
  kraken: (p) => `<ellipse cx="50" cy="70" rx="16" ry="14" fill="${p.band}" stroke="${p.ink}" stroke-width="2"/>`
    + `<circle cx="44" cy="70" r="2.4" fill="${p.tint}"/><circle cx="56" cy="70" r="2.4" fill="${p.tint}"/>`
    + [[-14, -26], [-6, -12], [6, 12], [14, 26]].map(([a, b]) => `<path d="M${50 + a} 80 C${50 + a} 94 ${50 + b} 94 ${50 + b} 106" fill="none" stroke="${p.band}" stroke-width="5" stroke-linecap="round"/>`).join(""),
  dolphin: (p) => `<path d="M22 96 C30 70 58 58 80 66 C72 68 70 72 74 78 C60 72 44 78 34 96 Z" fill="${p.band}" stroke="${p.ink}" stroke-width="2" stroke-linejoin="round"/>`
    + `<path d="M52 68 L56 58 L62 66" fill="${p.band}" stroke="${p.ink}" stroke-width="1.8" stroke-linejoin="round"/>`
    + `<circle cx="70" cy="69" r="1.6" fill="${p.ink}"/>`
    + `<path d="M20 106 q8 -6 16 0 t16 0 t16 0 t16 0" fill="none" stroke="${p.ink}" stroke-width="2.2" stroke-linecap="round"/>`,
};

/** SVG markup of a card's face: its value (or the kind's mark) and kind in the band, the kind's picture, and its
 * icon's glyph and action at the foot (a Dolphin: "any card"). */
function faceMarkup(deck, info) {
  const p = INKS[info.kind] || INKS.unknown;
  const kind = (KIND_WORD[info.kind] || info.kind).toUpperCase();
  const value = info.value ? String(info.value) : info.kind === "dolphin" ? "★" : info.kind === "shark" ? "▲" : info.kind === "kraken" ? "✷" : "?";
  const glyph = info.icon && deck.icons[info.icon] ? `${deck.icons[info.icon]} ` : "";
  const action = info.icon ? info.icon[0].toUpperCase() + info.icon.slice(1) : info.kind === "dolphin" ? "any card" : "";
  const art = ART[info.kind] ? ART[info.kind](p) : "";
  return `<svg xmlns="${SVG_NS}" viewBox="0 0 100 140" class="hyb-card-svg" aria-hidden="true" focusable="false">`
    + `<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="${p.tint}" stroke="${p.ink}" stroke-width="3"/>`
    + `<path d="M3 11 A8 8 0 0 1 11 3 H89 A8 8 0 0 1 97 11 V40 H3 Z" fill="${p.band}"/>`
    + `<text x="8" y="33" font-size="${value.length > 1 ? 27 : 32}" font-weight="800" fill="${p.text}" textLength="${value.length > 1 ? 34 : 20}" lengthAdjust="spacingAndGlyphs">${esc(value)}</text>`
    + `<text x="93" y="31" font-size="${kind.length > 5 ? 11 : 13}" font-weight="800" text-anchor="end" fill="${p.text}">${esc(kind)}</text>`
    + art
    + (action ? `<text x="50" y="130" font-size="${action.length > 7 ? 13 : 15}" font-weight="800" text-anchor="middle" fill="${p.ink}">${esc(glyph + action)}</text>` : "")
    + `</svg>`;
}

/** A card face drawn as a card (SVG): its value and kind in words, its picture and its icon's action with its
 * glyph (or "any card" for a Dolphin); named in words for screen readers, never by its notation code. */
export function cardFace(deck, label, { className = "" } = {}) {
  const info = deck.info(label);
  const el = h("div", { class: `hyb-card hyb-${info.kind} ${className}`.trim(), role: "img", "aria-label": info.name });
  el.innerHTML = faceMarkup(deck, info);
  return el;
}

function cardBack(text, className = "") {
  const el = h("div", { class: `hyb-card hyb-back ${className}`.trim(), role: "img", "aria-label": text });
  el.innerHTML = `<svg xmlns="${SVG_NS}" viewBox="0 0 100 140" class="hyb-card-svg" aria-hidden="true" focusable="false">`
    + `<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="#0d3b66" stroke="#ff8a7a" stroke-width="3"/>`
    + `<rect x="9" y="9" width="82" height="122" rx="5" fill="none" stroke="#5fb3d9" stroke-width="1.5"/>`
    + `<text x="50" y="84" font-size="44" font-weight="900" text-anchor="middle" fill="#ffb4a8">?</text>`
    + `<text x="50" y="122" font-size="14" font-weight="800" text-anchor="middle" fill="#ffb4a8">PANIC</text></svg>`;
  return el;
}

// -- this turn's plays, from the log ---------------------------------------------------------------------------

const PLAY_KINDS = new Set(["air", "swim", "draw", "discard", "calm", "panic", "shark", "kraken", "mass"]);

/**
 * The plays on the table: those of the turn going on (the play events after the last `end_play`), else those of
 * the last turn played (between the last two), so a turn's cards stay until the next turn plays.
 * {seat, plays: [event], done} or null when no turn has been played yet.
 */
export function tablePlays(log) {
  const events = Array.isArray(log) ? log : [];
  const ends = [];
  events.forEach((event, index) => { if (event.kind === "end_play") ends.push(index); });
  const last = ends.length ? ends[ends.length - 1] : -1;
  const current = events.slice(last + 1).filter((event) => PLAY_KINDS.has(event.kind) && typeof event.card === "string");
  if (current.length) return { seat: current[0].seat, plays: current, done: false };
  if (last < 0) return null;
  const from = ends.length > 1 ? ends[ends.length - 2] + 1 : 0;
  const plays = events.slice(from, last).filter((event) => PLAY_KINDS.has(event.kind) && typeof event.card === "string"
    && event.seat === events[last].seat);
  return { seat: events[last].seat, plays, done: true };
}

// -- the board -------------------------------------------------------------------------------------------------

/** The records of `legal` a use of `card` stands for: same kind and card, and the same notation for a use that
 * names one (a value play: a Dolphin's Air 5 is not its Air 10). */
function recordsFor(legal, card, use) {
  return legal.filter((r) => r.kind === use.kind && r.cards[0] === card && (!use.notation || r.notation === use.notation));
}

/**
 * Draw the board into `root`. `api.act(notation)` plays a legal record; `api.check(notation)` asks why a use is
 * refused. Returns {render(ctx), handleKey(event), destroy(), clearSelection()}.
 * ctx = {view, legal (records), seat, busy, names(seat), seats (public seats), deck, static}.
 */
export function createBoard(root, api) {
  let ctx = null;
  let open = null; // a Dolphin whose many uses are shown
  let pending = null; // {card, use, options: records} while a seat or a hindrance is being chosen
  root.classList.add("hyb");
  root.addEventListener("click", onClick);

  function act(notation) {
    pending = null;
    open = null;
    api.act(notation);
  }

  function onClick(event) {
    const el = event.target.closest("[data-act]");
    if (!el || !root.contains(el) || !ctx) return;
    event.preventDefault();
    activate(el);
  }

  function activate(el) {
    if (ctx.busy) return;
    const kind = el.dataset.act;
    if (["end", "keep", "single", "option"].includes(kind)) act(el.dataset.action);
    else if (kind === "open") {
      open = open === el.dataset.card ? null : el.dataset.card;
      pending = null;
      rerender(`use-${el.dataset.card}-1-0`);
      // Opened: its first use that can be played now, so Enter plays it.
      if (open) root.querySelector(".hyb-uses.is-open .hyb-use.is-legal")?.focus({ preventScroll: true });
    } else if (kind === "use") chooseUse(el.dataset.card, Number(el.dataset.index));
    else if (kind === "explain") explain(el.dataset.action);
    else if (kind === "cancel") {
      pending = null;
      rerender();
    } else if (kind === "target" && pending) {
      const play = pending.options.find((r) => r.target === Number(el.dataset.seat));
      if (play) act(play.notation);
    }
  }

  function explain(notation) {
    api.check(notation).then((answer) => {
      if (!answer.legal) sayWhyNot(answer);
    }, () => {});
  }

  function chooseUse(card, index) {
    const use = ctx.deck.info(card).uses[index];
    const options = use ? recordsFor(ctx.legal, card, use) : [];
    if (!options.length) return;
    if (options.length === 1 && !SEAT_USES.has(use.kind)) act(options[0].notation);
    else {
      pending = { card, use, options };
      // Choosing a player: a Dolphin's menu is closed, since on a phone the hand, sticky at the bottom and tall with
      // the menu open, would cover the players to choose from.
      if (SEAT_USES.has(use.kind)) open = null;
      rerender("target");
    }
  }

  function rerender(focusKey = null) {
    if (ctx) render(ctx, focusKey);
  }

  function render(next, focusKey = null) {
    // Buttons stay enabled while a move is on its way (aria-disabled), so the focus never drops to <body>.
    const focused = root.contains(document.activeElement) ? document.activeElement : null;
    // The board itself focused (its controls were all gone): the next control it draws takes the focus.
    const keepFocus = focusKey || (focused ? focused.dataset.key || "board" : null);
    const handIndex = focused ? [...root.querySelectorAll('[data-nav="hand"]')].indexOf(focused) : -1;
    const wasActing = Boolean(focused && acts(focused));
    const wasMine = ctx ? ctx.legal.length > 0 : false;
    ctx = next;
    const { view, seat } = ctx;
    const deck = ctx.deck;
    const hand = Array.isArray(view.hand) ? view.hand : null;
    const records = ctx.legal;
    const mine = records.length > 0;
    if (pending && !recordsFor(records, pending.card, pending.use).length) pending = null;
    if (open && !(hand && hand.includes(open))) open = null;
    const targets = new Set(pending && SEAT_USES.has(pending.use.kind) ? pending.options.map((r) => r.target) : []);
    const endRecord = records.find((r) => r.kind === "endplay");
    const keepRecord = records.find((r) => r.kind === "keep");

    replaceChildren(root,
      statusLine(),
      h("div", { class: "hyb-top" }, depthBoard(), playedArea()),
      h("div", { class: "hyb-seats", role: "list", "aria-label": "Divers and their Swim Piles" },
        [...Array(view.players).keys()].map((s) => seatPanel(s))),
      hand ? handArea() : h("p", { class: "hyb-spectating" }, "You are watching: hands stay hidden."));

    if (keepFocus) nextFocus(keepFocus, handIndex, wasActing || (mine && !wasMine))?.focus({ preventScroll: true });

    // -- parts --

    function statusLine() {
      const bits = [
        h("span", { class: "pill pill-accent" }, view.round === "descent" ? "Descent: dive down" : "Ascent: race up"),
        h("span", { class: "pill" }, `Dive Deck ${view.deck_size}`),
        h("span", { class: "pill hyb-discard-pill" }, `Discard ${view.discard.length}`,
          view.discard.length ? [" · top ", cardChip(deck, deck.info(view.discard[view.discard.length - 1]).name)] : null),
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
      // Scaled to the dives actually reached (with room below the deepest), never beyond the board's own depth.
      // Marks every `step` feet, evenly (0, 5, 10, 15, 20; 0, 10, … 60; 0, 20, … ), the bottom one of them.
      const reached = Math.max(0, ...view.depths, ...(view.anchors || []));
      const step = reached + 5 <= 20 ? 5 : reached + 5 <= 60 ? 10 : 20;
      const bottom = Math.max(20, Math.ceil((reached + (step < 20 ? step / 2 : 0.5)) / step) * step);
      const max = Math.min(view.max_depth || Infinity, bottom);
      const pct = (feet) => `${Math.min(100, Math.max(0, (feet / max) * 100))}%`;
      const marks = [];
      for (let feet = 0; feet <= max; feet += step) marks.push(feet);
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

    function playedArea() {
      // The turn's cards, as they were played (public once played), each with the use it was played for.
      const turn = tablePlays(ctx.log);
      const who = turn ? (turn.seat === seat ? "You" : ctx.names(turn.seat)) : null;
      const title = !turn ? "On the table" : turn.done ? `Last turn: ${who}` : turn.seat === seat ? "Your plays this turn" : `${who} is playing`;
      const cards = turn ? turn.plays.map((play, index) => {
        const info = deck.info(play.card);
        const use = info.uses.find((u) => u.kind === play.kind && (!u.value || !play.value || u.value === play.value));
        const aimed = Number.isInteger(play.target) && play.target !== play.seat ? ` → ${play.target === seat ? "you" : ctx.names(play.target)}` : "";
        const face = cardFace(deck, play.card, { className: "hyb-played-face" });
        face.dataset.card = play.card;
        face.dataset.from = `seat-${play.seat}`;
        face.dataset.key = `played-${index}`;
        return h("li", { class: "hyb-played-card" }, face, h("span", { class: "hyb-played-use" }, `${use ? use.label : KIND_WORD[play.kind] || play.kind}${aimed}`));
      }) : [];
      const empty = !turn ? "The cards played in a turn lie here." : turn.done ? `${who === "You" ? "You" : who} played no card.` : "";
      return h("section", { class: `hyb-played${turn && turn.done ? " is-done" : ""}`, "aria-label": `${title}: ${cards.length} card${cards.length === 1 ? "" : "s"}` },
        h("h2", { class: "hyb-played-title" }, title),
        cards.length ? h("ol", { class: "hyb-played-cards" }, cards) : h("p", { class: "hyb-played-empty" }, empty));
    }

    function seatPanel(s) {
      const isMe = s === seat;
      const isTarget = targets.has(s);
      const items = view.piles[s] || [];
      const publicSeat = (ctx.seats && ctx.seats[s]) || {};
      const badges = [];
      if (isMe) badges.push(h("span", { class: "badge badge-you" }, "you"));
      if (!isMe) badges.push(presenceBadge(publicSeat));
      if (view.surfaced.includes(s)) badges.push(h("span", { class: "badge badge-win" }, `surfaced #${view.surfaced.indexOf(s) + 1}`));
      if (view.kraken && view.kraken.waiting.includes(s)) badges.push(h("span", { class: "badge badge-warn" }, "Kraken: choosing"));
      const facts = [
        h("div", {}, h("dt", {}, "Depth"), h("dd", { class: "hyb-depth-value" }, `${view.depths[s]} ft`)),
        view.anchors ? h("div", {}, h("dt", {}, "Anchor"), h("dd", {}, `${view.anchors[s]} ft`)) : null,
        h("div", {}, h("dt", {}, "Hand"), h("dd", {}, String(view.hand_sizes[s]))),
        view.distances ? h("div", {}, h("dt", {}, "Total"), h("dd", {}, `${view.distances[s]} ft`)) : null,
      ];
      const pileLabel = items.length ? `${items.length} hindrance${items.length > 1 ? "s" : ""}` : "clear";
      const pileCards = items.map((entry) => pileItem(entry));
      const body = [
        h("div", { class: "seat-head" },
          h("span", { class: "seat-name" }, s === activeSeat(view) ? h("span", { class: "turn-dot", role: "img", title: "to play", "aria-label": "to play" }) : null, ctx.names(s)),
          badges),
        h("dl", { class: "seat-facts hyb-facts" }, facts),
        h("div", { class: "hyb-pile", "aria-label": `Swim Pile: ${pileLabel}` },
          pileCards.length ? pileCards : h("span", { class: "hyb-pile-clear" }, "Swim Pile clear")),
      ];
      const cls = `seat hyb-seat${s === view.active ? " is-active" : ""}${isMe ? " is-me" : ""}${isTarget ? " is-target" : ""}`;
      if (isTarget) {
        return h("div", { role: "listitem", "data-origin": `seat-${s}` },
          h("button", { type: "button", class: cls, "data-act": "target", "data-seat": s, "data-key": `seat-${s}`, "data-nav": "target",
            "aria-label": `Choose ${ctx.names(s)} for ${pending.use.label}` }, body));
      }
      return h("div", { class: cls, role: "listitem", "data-origin": `seat-${s}` }, body);
    }

    function pileItem(entry) {
      const what = entry.kind === "shark" ? "Shark" : entry.face_down ? "face-down Panic" : "Panic";
      let face;
      if (entry.face_down && !entry.card) face = cardBack(`${what}, its card unknown`, "hyb-pile-card");
      else {
        face = cardFace(deck, entry.card, { className: "hyb-pile-card" });
        face.setAttribute("aria-label", `${what}: ${deck.info(entry.card).name}`);
      }
      const tag = h("span", { class: `hyb-hindrance is-${entry.kind}${entry.face_down ? " is-down" : ""}` }, entry.kind === "shark" ? "Shark" : entry.face_down ? "Panic ▼" : "Panic");
      return h("span", { class: "hyb-item" }, face, tag);
    }

    function handArea() {
      const counts = new Map();
      const cards = hand.map((label) => {
        const n = (counts.get(label) || 0) + 1;
        counts.set(label, n);
        return handCard(label, n);
      });
      const actions = [];
      if (endRecord) actions.push(h("button", { type: "button", class: "btn btn-primary", "data-act": "end", "data-action": endRecord.notation, "data-key": "end", "aria-disabled": ctx.busy ? "true" : null, title: endRecord.label }, "End play", h("kbd", {}, "E")));
      if (keepRecord) actions.push(h("button", { type: "button", class: "btn btn-primary", "data-act": "keep", "data-action": keepRecord.notation, "data-key": "keep", "aria-disabled": ctx.busy ? "true" : null, title: keepRecord.label }, "Keep the rest", h("kbd", {}, "K")));
      if (pending && !SEAT_USES.has(pending.use.kind)) {
        // A Calm: each legal choice of hindrance (and of the diver who gets a calmed Shark), in words.
        actions.push(...pending.options.map((r, i) => h("button", { type: "button", class: "btn is-target", "data-act": "option", "data-action": r.notation, "data-key": `option-${i}`, "data-nav": "target" },
          r.target === null ? r.label : `${r.label.replace(/ onto seat \d+$/, "")} → ${ctx.names(r.target)}`)));
      }
      if (pending) actions.push(h("button", { type: "button", class: "btn", "data-act": "cancel", "data-key": "cancel" }, "Cancel", h("kbd", {}, "Esc")));
      const given = view.kraken_given ? h("p", { class: "hint" }, "Set aside for the Kraken: ", cardChip(deck, deck.info(view.kraken_given).name)) : null;
      return h("section", { class: `hand-area hyb-hand-area${mine ? " is-my-turn" : ""}`, "aria-label": "Your hand" },
        h("div", { class: "hand-main" },
          h("div", { class: "hand-head" },
            h("h2", {}, "Your hand ", h("span", { class: "muted" }, `· ${hand.length}`)),
            h("p", { class: "hint", "aria-live": "polite" }, hint())),
          given,
          h("div", { class: "hyb-hand" }, cards.length ? cards : h("p", { class: "muted" }, "No cards in hand.")),
          h("div", { class: "hyb-actions" }, actions)));
    }

    function handCard(label, n) {
      const info = deck.info(label);
      const buttons = [];
      const single = records.find((r) => r.kind in SINGLE_WORD && r.cards[0] === label);
      if (view.phase !== "play" && mine) {
        if (single) {
          const word = SINGLE_WORD[single.kind];
          buttons.push(h("button", { type: "button", class: "hyb-use is-legal", "data-act": "single", "data-action": single.notation, "data-key": `use-${label}-${n}-0`, "data-nav": "hand",
            "aria-label": single.label, "aria-disabled": ctx.busy ? "true" : null }, word));
        }
      } else if (info.kind === "dolphin" && open !== label) {
        const any = records.some((r) => r.cards[0] === label);
        buttons.push(h("button", { type: "button", class: `hyb-use${any ? " is-legal" : ""}`, "data-act": "open", "data-card": label, "data-key": `use-${label}-${n}-0`, "data-nav": "hand",
          "aria-label": `${info.name}: show what it can be played as`, "aria-expanded": "false" }, "Play as…"));
      } else {
        info.uses.forEach((use, i) => {
          const ok = mine && recordsFor(records, label, use).length > 0; // copies are interchangeable: each offers the same
          const chosen = pending && pending.card === label && pending.use === use && n === 1;
          const attrs = {
            type: "button", class: `hyb-use${ok ? " is-legal" : ""}${chosen ? " is-selected" : ""}`, "data-key": `use-${label}-${n}-${i}`, "data-nav": "hand",
            "data-use": use.kind, "aria-label": `${info.name} as ${use.label}: ${use.help}${ok ? "" : mine ? " (not possible now)" : ""}`, title: use.help,
          };
          if (ok) Object.assign(attrs, { "data-act": "use", "data-card": label, "data-index": i, "aria-pressed": chosen ? "true" : null, "aria-disabled": ctx.busy ? "true" : null });
          else if (mine && view.phase === "play") {
            const other = (seat + 1) % view.players;
            Object.assign(attrs, { "data-act": "explain", "data-action": use.notation || use.example.replace("{seat}", other), "aria-disabled": "true" });
          } else Object.assign(attrs, { "aria-disabled": "true" });
          buttons.push(h("button", attrs, use.label));
        });
        if (info.kind === "dolphin") {
          buttons.push(h("button", { type: "button", class: "hyb-use hyb-use-close", "data-act": "open", "data-card": label, "data-key": `close-${label}`, "aria-expanded": "true" }, "Close"));
        }
      }
      const isOpen = info.kind === "dolphin" && open === label;
      const face = cardFace(deck, label);
      face.dataset.card = label; // a card played flies from here to the table (motion.js)
      return h("div", { class: `hyb-hand-card${buttons.some((b) => b.classList.contains("is-legal")) ? " is-playable" : ""}${isOpen ? " is-open" : ""}` },
        face,
        h("div", { class: `hyb-uses${isOpen ? " is-open" : ""}` }, buttons));
    }

    function hint() {
      const phase = view.phase;
      if (ctx.busy) return "Sending…";
      if (!mine) {
        if (view.active === null || view.active === undefined) return "The game is over.";
        if (phase === "kraken") return `The Kraken strikes: waiting for ${view.kraken.waiting.map(ctx.names).join(" and ")}…`;
        return `Waiting for ${ctx.names(activeSeat(view))}…`;
      }
      if (phase === "kraken") return "The Kraken strikes: choose a card to give up.";
      if (phase === "breath") return "You took no Air: choose a card to lay face down as a Panic.";
      if (phase === "discard") return "Discard any cards you do not want, then keep the rest (your hand refills to full).";
      const card = pending ? deck.info(pending.card).name : "";
      if (pending && SEAT_USES.has(pending.use.kind)) return `${card} as ${pending.use.label}: choose a highlighted player (Esc to cancel).`;
      if (pending) return `${card} as ${pending.use.label}: choose what to calm (Esc to cancel).`;
      return `Your turn: play cards for their value or their action${endRecord ? ", or end play" : ""}.`;
    }
  }

  /** A control that makes a move (or a choice of one) when pressed, now. */
  function acts(el) {
    return el.matches(".is-legal, .is-target, .hyb-actions button");
  }

  /**
   * Where the focus goes after a render, from the control focused before (its key, its place among the hand's
   * buttons): that control while it is still there, unless it must act and no longer does (it made the move just
   * played, another copy took its place, or your turn has just begun); else a player or hindrance being chosen,
   * Keep the rest after End play, the next legal use along the hand, the move buttons, the button at that place.
   */
  function nextFocus(key, handIndex, mustAct) {
    const same = key === "target" ? null : root.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (same && (!mustAct || acts(same))) return same;
    const uses = [...root.querySelectorAll('[data-nav="hand"]')];
    const legal = (el) => el.classList.contains("is-legal");
    const from = Math.max(0, handIndex);
    return root.querySelector(".is-target")
      || (key === "end" ? root.querySelector('[data-act="keep"]') : null)
      || uses.slice(from).find(legal) || uses.find(legal)
      || root.querySelector(".hyb-actions button")
      || same || uses[Math.min(from, uses.length - 1)] || root.querySelector("[data-nav]");
  }

  function handleKey(event) {
    if (!ctx) return false;
    const key = event.key.toLowerCase();
    const record = { e: "endplay", k: "keep" }[key] && ctx.legal.find((r) => r.kind === { e: "endplay", k: "keep" }[key]);
    if (record && !ctx.busy) {
      act(record.notation);
      return true;
    }
    if (key === "escape" && (pending || open)) {
      pending = null;
      open = null;
      rerender();
      return true;
    }
    if (!["arrowleft", "arrowright", "arrowup", "arrowdown"].includes(key)) return false;
    const items = [...root.querySelectorAll("[data-nav]")];
    if (!items.length) return false;
    const index = items.indexOf(document.activeElement);
    const step = key === "arrowleft" || key === "arrowup" ? -1 : 1;
    items[(index < 0 ? 0 : index + step + items.length) % items.length].focus();
    return true;
  }

  function destroy() {
    root.removeEventListener("click", onClick);
    root.replaceChildren();
    root.classList.remove("hyb");
  }

  return { render: (next) => render(next), handleKey, destroy, clearSelection: () => { pending = null; open = null; } };
}
