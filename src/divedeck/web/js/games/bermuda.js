// Bermuda in the browser: a real-time board drawn from one seat's view, the held breath, and the log lines.
//
// Everything shown comes from the server's view (src/divedeck/games/bermuda/information.py): the columns with
// their depth, how each stands and which values would keep it winnable ("accepts"), the hand, who holds their
// breath, the times. What may be done comes only from the server's `legal` list. Nothing here decides a rule.
//
// The breath is a control you hold: press and hold the big button (mouse or touch) or the space bar. Pressing it
// sends `hold`; letting go sends `release`: before the dive that only cancels your hold, during the dive it is
// breathing, and ends the dive for everyone at that instant, on the server's clock (the server stamps every action
// with its own time). Closing the page or losing the connection is breathing too (the server applies it).
//
// Laying a card: click or tap a card of your hand, then a column (or a column, then a card); on a keyboard, a
// value's number key, then the column's letter key (A S D F G), or just the number when there is one column.

import { h, replaceChildren } from "../util.js";

export const name = "bermuda";
export const title = "Bermuda";

const COLUMN_KEYS = ["a", "s", "d", "f", "g"];
const REASONS = { bad_step: "a bad step", empty: "no card", too_short: "too short", too_long: "too long" };
const END_HOW = {
  release: "someone breathed",
  time: "time ran out",
  empty: "every hand was empty",
  full: "every column was deep enough",
};

let stylesLoaded = false;

/** Bermuda's stylesheet, added to the page the first time a board is made (the table page is shared). */
function loadStyles() {
  if (stylesLoaded || typeof document === "undefined") return;
  stylesLoaded = true;
  if (document.querySelector('link[href="/static/css/bermuda.css"]')) return;
  document.head.append(h("link", { rel: "stylesheet", href: "/static/css/bermuda.css" }));
}

/** Bermuda draws its cards itself: no deck data. */
export function makeDeck() {
  return null;
}

/** Everyone acts at once: there is never a single seat whose turn it is. */
export function activeSeat() {
  return null;
}

/** The top bar's status for a game without turns. */
export function statusText(view, names, seat) {
  if (!view) return "";
  const mine = seat !== null && seat !== undefined;
  if (view.phase === "over") return "Game over";
  if (view.phase === "dive") return "Diving! Let go to breathe";
  if (view.dive_at !== null && view.dive_at !== undefined) return "Every breath held: the dive starts…";
  const waiting = view.holding.map((held, s) => (held ? null : s)).filter((s) => s !== null);
  if (mine && !view.holding[seat]) return "Hold your breath to dive";
  if (waiting.length === 1) return `Waiting for ${names(waiting[0])} to hold their breath`;
  return `Waiting for ${waiting.length} divers to hold their breath`;
}

// -- the log ---------------------------------------------------------------------------------------------------

function seconds(ms) {
  return `${Math.floor(ms / 1000)}.${Math.floor((ms % 1000) / 100)} s`;
}

/** One column of a dive's result: `T05 [3 4 5 6 5 4] won` or `... lost: too short`, as describe_column() says. */
export function describeColumn(column) {
  const cards = column.cards.join(" ") || "-";
  const verdict = column.won ? "won" : `lost: ${column.reasons.map((r) => REASONS[r] ?? r).join(", ")}`;
  return `${column.treasure} [${cards}] ${verdict}`;
}

/**
 * A log line for an event as `viewer` sees it, mirroring describe_event() in src/divedeck/games/bermuda/game.py:
 * with the default formatters the text is the same. Returns a list of parts.
 */
export function describeEventParts(shown, viewer = null, fmt = {}) {
  const who = fmt.who || ((seat) => (seat === viewer ? "you" : `seat ${seat}`));
  const kind = shown.kind;
  switch (kind) {
    case "round_start": {
      const treasures = shown.treasures ? shown.treasures.join(", ") : `${shown.columns} face down`;
      const hand = Array.isArray(shown.hand) ? `; your hand ${shown.hand.join(" ")}` : "";
      return [`round ${shown.round}: treasures ${treasures}${hand}`];
    }
    case "hold":
      return [`${who(shown.seat)} took a deep breath`];
    case "countdown":
      return [`every breath is held: the dive starts in ${seconds(shown.until - shown.t)}`];
    case "release":
      if (shown.cancelled) return [`${who(shown.seat)} breathed out before the dive: the countdown stops`];
      return [`${who(shown.seat)} breathed`];
    case "dive_start":
      return [`the dive starts${shown.revealed ? `: treasures ${shown.treasures.join(", ")}` : ""}`];
    case "sort":
      return [`${who(shown.seat)} sorted the hand${Array.isArray(shown.hand) ? `: ${shown.hand.join(" ")}` : ""}`];
    case "lay":
      return [`${who(shown.seat)} laid ${shown.card} under column ${shown.column}`];
    case "signal":
      return [`${who(shown.seat)} pointed at column ${shown.column}`];
    case "time_up":
      return ["time is up"];
    case "round_end":
    case "layout_end": {
      const how = shown.reason === "release" ? `${who(shown.seat)} breathed` : END_HOW[shown.reason] ?? shown.reason;
      const columns = shown.columns.map(describeColumn).join("; ");
      if (kind === "layout_end") {
        return [`layout ${shown.layout} over (${how}): ${columns}${shown.dive ? " - a successful dive!" : ""} `
          + `(dives ${shown.dives}, treasures ${shown.found})`];
      }
      return [`round ${shown.round} over (${how}): ${columns} -> treasures ${shown.won}, `
        + `keeper's protection ${shown.protection}`];
    }
    case "layout_start": {
      const hand = Array.isArray(shown.hand) ? `; your hand ${shown.hand.join(" ")}` : "";
      return [`layout ${shown.layout}: treasures ${shown.treasures.join(", ")}${hand}`];
    }
    case "game_over": {
      if (shown.challenge === "chained") {
        return [`game over: ${shown.dives} successful dive(s) and ${shown.treasures} treasure(s) on one breath`];
      }
      if (shown.challenge === "one_round") return [`game over: ${shown.treasures} treasure(s) on one breath`];
      const verdict = shown.verdict === "players" ? "the divers win" : "Kusalochka the Keeper wins";
      return [`game over: ${shown.treasures} treasure(s) against ${shown.protection} protection point(s): ${verdict}`];
    }
    default:
      return [`${kind} ${JSON.stringify(shown)}`];
  }
}

/** The plain-text line, exactly as the Python describe_event() writes it. */
export function describeEvent(shown, viewer = null) {
  return describeEventParts(shown, viewer).join("");
}

export function eventTone(shown) {
  if (["round_end", "layout_end", "game_over"].includes(shown.kind)) return "major";
  if (["round_start", "layout_start", "dive_start"].includes(shown.kind)) return "round";
  if (["hold", "signal", "countdown"].includes(shown.kind)) return "minor";
  return "";
}

// -- summaries ---------------------------------------------------------------------------------------------------

/**
 * The end of the game (the page's game-over panel): the verdict, and the last dive's columns. Bermuda shows each
 * round's result on the board itself (the next dive needs everyone's breath at once, not a dialog), so
 * `findSummary` only reports the end of the game.
 */
export function findSummary(events) {
  let roundEnd = null;
  let gameOver = null;
  for (const event of events) {
    if (event.kind === "round_end" || event.kind === "layout_end") roundEnd = event;
    if (event.kind === "game_over") gameOver = event;
  }
  return gameOver ? { roundEnd, gameOver } : null;
}

function verdictTitle(gameOver) {
  if (gameOver.challenge === "chained") {
    return `${gameOver.dives} successful dive${gameOver.dives === 1 ? "" : "s"} and ${gameOver.treasures} `
      + `treasure${gameOver.treasures === 1 ? "" : "s"} on one breath`;
  }
  if (gameOver.challenge === "one_round") return `${gameOver.treasures} treasure(s) on one breath`;
  if (gameOver.treasures === undefined) return gameOver.winners && gameOver.winners.length ? "The divers win!" : "Kusalochka wins";
  return gameOver.verdict === "players"
    ? `The divers win! ${gameOver.treasures} treasures against ${gameOver.protection} protection points`
    : `Kusalochka keeps the sea: ${gameOver.treasures} treasures against ${gameOver.protection} protection points`;
}

export function summaryElement(roundEnd, gameOver, { names } = {}) {
  const title = gameOver ? verdictTitle(gameOver) : `Round ${roundEnd.round} over`;
  return h("div", { class: "summary brm-summary" },
    h("h2", { class: "summary-title" }, title),
    roundEnd ? h("p", { class: "summary-reason" }, "Last dive: ",
      roundEnd.reason === "release" && names ? `${names(roundEnd.seat)} breathed` : END_HOW[roundEnd.reason] ?? roundEnd.reason) : null,
    roundEnd ? h("ul", { class: "brm-summary-cols" }, roundEnd.columns.map((c) => h("li", { class: c.won ? "is-won" : "is-lost" },
      describeColumn(c)))) : null);
}

// -- reading the legal list (never computing it) ----------------------------------------------------------------

function readLegal(legal) {
  const lays = new Map(); // value -> Set of columns
  const flags = { hold: false, release: false, sort: false };
  const signals = new Set();
  for (const action of legal) {
    const words = String(action).trim().split(/\s+/);
    if (words[0] === "lay") {
      const value = Number(words[1]);
      if (!lays.has(value)) lays.set(value, new Set());
      lays.get(value).add(Number(words[2].slice(1)));
    } else if (words[0] === "signal") signals.add(Number(words[1].slice(1)));
    else if (words[0] in flags) flags[words[0]] = true;
  }
  return { lays, signals, ...flags };
}

// -- the board -------------------------------------------------------------------------------------------------

/**
 * Draw the board into `root`; `api.act(action)` sends an action (it returns null while another is on its way:
 * then the board keeps the action and sends it as soon as it can, so a breath is never lost).
 * Returns {render(ctx), handleKey(event), destroy()}.
 */
export function createBoard(root, api) {
  loadStyles();
  let ctx = null;
  let selectedCard = null; // a value of the hand
  let selectedColumn = null; // a column number
  let pressed = false; // the breath control is held down (pointer or space bar) since the last hold was asked
  let pressedBy = null; // "pointer" | "key"
  let lastPhase = null;
  let offset = null; // server clock - this page's clock (ms), from the view's `now` (a lower bound)
  const queue = []; // actions waiting for the previous one's answer
  let activePointer = null;
  root.classList.add("brm");
  // The breath control is made once and only updated: redrawing it under a finger would lose the press.
  const statusEl = h("div", { class: "brm-status" });
  const breathButton = h("button", {
    type: "button", class: "brm-breath-btn", "data-breath": "1", "data-key": "breath", "aria-pressed": "false",
  }, h("span", { class: "brm-breath-main" }), h("span", { class: "brm-breath-sub" }));
  const sortButton = h("button", { type: "button", class: "btn btn-small", "data-act": "sort", "data-key": "sort", hidden: true },
    "Sort my hand");
  const diversEl = h("ul", { class: "brm-divers", "aria-label": "Who holds their breath" });
  const breathEl = h("section", { class: "brm-breath", "aria-label": "Breath" }, breathButton, diversEl, sortButton);
  const restEl = h("div", { class: "brm-rest" });
  root.replaceChildren(statusEl, breathEl, restEl);
  root.addEventListener("click", onClick);
  breathButton.addEventListener("pointerdown", onPointerDown);
  breathButton.addEventListener("contextmenu", (event) => event.preventDefault()); // a long press is a held breath
  document.addEventListener("pointerup", onPointerUp);
  document.addEventListener("pointercancel", onPointerUp);
  document.addEventListener("keyup", onKeyUp);
  window.addEventListener("blur", onBlur);
  document.addEventListener("visibilitychange", onVisibility);
  const timer = setInterval(tick, 100);

  // -- sending ----------------------------------------------------------------------------------------------

  function send(action) {
    if (queue.length || api.act(action) == null) queue.push(action);
  }

  function flush() {
    while (queue.length && ctx) {
      const legal = ctx.legal.map(String);
      const next = queue[0];
      if (!legal.includes(next)) {
        queue.shift(); // no longer possible (the dive ended, the card is gone): drop it quietly
        continue;
      }
      if (ctx.busy || api.act(next) == null) return;
      queue.shift();
    }
  }

  function serverNow() {
    return Date.now() + (offset ?? 0);
  }

  // -- the breath -------------------------------------------------------------------------------------------

  function breathIn(by) {
    if (!ctx || ctx.seat === null || ctx.seat === undefined) return;
    pressed = true;
    pressedBy = by;
    const legal = readLegal(ctx.legal);
    if (legal.hold || queue.includes("release")) {
      const i = queue.indexOf("release");
      if (i >= 0) queue.splice(i, 1); // let go and pressed again before the server heard: keep holding
      else send("hold");
    }
    drawBreath();
    tick();
  }

  function breathOut() {
    if (!pressed) return;
    pressed = false;
    pressedBy = null;
    const i = queue.indexOf("hold");
    if (i >= 0) queue.splice(i, 1); // the hold never left: nothing to let go of
    else if (ctx && (readLegal(ctx.legal).release || ctx.busy)) send("release");
    drawBreath();
    tick();
  }

  function onPointerDown(event) {
    if (event.pointerType === "mouse" && event.button !== 0) return;
    event.preventDefault();
    activePointer = event.pointerId;
    try {
      breathButton.setPointerCapture(event.pointerId);
    } catch {
      // no capture: the pointer's release still reaches the document
    }
    breathIn("pointer");
  }

  function onPointerUp(event) {
    if (event.pointerId !== activePointer) return;
    activePointer = null;
    if (pressedBy === "pointer") breathOut();
  }

  function onKeyUp(event) {
    if (event.key === " " && pressedBy === "key") {
      event.preventDefault();
      breathOut();
    }
  }

  function onBlur() {
    breathOut(); // the page lost the keyboard or the pointer: the player cannot be holding the control any more
  }

  function onVisibility() {
    if (document.visibilityState === "hidden") breathOut();
  }

  // -- laying cards -----------------------------------------------------------------------------------------

  function lay(card, column) {
    selectedCard = null;
    selectedColumn = null;
    send(`lay ${card} c${column}`);
    rerender();
  }

  function chooseCard(card) {
    const legal = readLegal(ctx.legal);
    if (!legal.lays.has(card)) return;
    const columns = legal.lays.get(card);
    if (selectedColumn !== null && columns.has(selectedColumn)) lay(card, selectedColumn);
    else if (ctx.view.columns.length === 1 && columns.has(1)) lay(card, 1);
    else {
      selectedCard = selectedCard === card ? null : card;
      rerender(selectedCard === null ? null : `col-${preferredColumn(card)}`);
    }
  }

  function chooseColumn(column) {
    const legal = readLegal(ctx.legal);
    if (selectedCard !== null && legal.lays.get(selectedCard)?.has(column)) lay(selectedCard, column);
    else if (legal.lays.size) {
      selectedColumn = selectedColumn === column ? null : column;
      rerender();
    }
  }

  function preferredColumn(card) {
    const fits = ctx.view.columns.find((c) => c.accepts.includes(card));
    return fits ? fits.column : 1;
  }

  function onClick(event) {
    const el = event.target.closest("[data-act]");
    if (!el || !root.contains(el) || !ctx) return;
    event.preventDefault();
    const kind = el.dataset.act;
    if (kind === "card") chooseCard(Number(el.dataset.card));
    else if (kind === "column") chooseColumn(Number(el.dataset.column));
    else if (kind === "sort") send("sort");
    else if (kind === "signal") send(`signal c${el.dataset.column}`);
  }

  // -- drawing ----------------------------------------------------------------------------------------------

  function rerender(focusKey = null) {
    if (ctx) render(ctx, focusKey);
  }

  function render(next, focusKey = null) {
    const keepFocus = focusKey || (root.contains(document.activeElement) ? document.activeElement.dataset.key : null);
    ctx = next;
    const { view } = ctx;
    if (view.now && view.now > 0) {
      const estimate = view.now - Date.now();
      offset = offset === null ? estimate : Math.max(offset, estimate);
    }
    if (lastPhase !== view.phase) {
      // A dive that ended (or began) under a pressed control: a new round needs a new breath, so it must be let go
      // and pressed again; nothing is sent for the old press.
      if (lastPhase === "dive" && view.phase !== "dive") {
        pressed = false;
        pressedBy = null;
      }
      lastPhase = view.phase;
      selectedCard = null;
      selectedColumn = null;
    }
    const hand = Array.isArray(view.hand) ? view.hand : null;
    const legal = readLegal(ctx.legal);
    if (selectedCard !== null && !legal.lays.has(selectedCard)) selectedCard = null;
    if (selectedColumn !== null && !view.columns.some((c) => c.column === selectedColumn)) selectedColumn = null;
    flush();

    replaceChildren(statusEl, statusLine(view));
    drawBreath(view, legal, hand !== null);
    const over = view.phase === "over";
    breathEl.hidden = over;
    replaceChildren(restEl,
      resultPanel(view),
      over ? null : columnsArea(view, legal),
      over ? null : hand ? handArea(view, hand, legal) : h("p", { class: "brm-spectating" }, "You are watching: hands stay hidden."));
    const focusEl = keepFocus ? root.querySelector(`[data-key="${CSS.escape(keepFocus)}"]`) : null;
    if (focusEl) focusEl.focus({ preventScroll: true });
    tick();
  }

  function statusLine(view) {
    const bits = [];
    if (view.challenge === "chained") {
      bits.push(h("span", { class: "pill pill-accent" }, "Single-breath challenge"),
        h("span", { class: "pill brm-score" }, `Successful dives ${view.dives}`),
        h("span", { class: "pill" }, `Treasures ${view.treasures_won}`));
    } else if (view.challenge === "one_round") {
      bits.push(h("span", { class: "pill pill-accent" }, "Single-breath round"),
        h("span", { class: "pill brm-score" }, `Treasures ${view.treasures_won}`));
    } else {
      bits.push(h("span", { class: "pill" }, `Round ${view.round} of ${view.rounds}`),
        h("span", { class: "pill brm-score", title: "Treasures you won (W)" }, `Treasures ${view.treasures_won}`),
        h("span", { class: "pill brm-keeper", title: "Kusalochka's protection points (P): win with W ≥ P" },
          `Keeper's protection ${view.protection}`));
    }
    if (view.hidden_treasures) bits.push(h("span", { class: "pill" }, "Experienced: face down"));
    if (view.placement_check === "strict") bits.push(h("span", { class: "pill" }, "Strict placement"));
    if (view.sorting !== "never") bits.push(h("span", { class: "pill" }, "Sorting allowed"));
    return bits;
  }

  function breathState(view, seated) {
    if (view.phase === "over") return "over";
    if (!seated) return view.phase === "dive" ? "diving" : "watching";
    if (view.phase === "dive") return "diving";
    if (view.holding[ctx.seat] || queue.includes("hold")) return view.dive_at !== null ? "countdown" : "holding";
    return "idle";
  }

  function drawBreath(view = ctx && ctx.view, legal = ctx && readLegal(ctx.legal), seated = ctx && Array.isArray(view?.hand)) {
    if (!view) return;
    const state = breathState(view, seated);
    const labels = {
      idle: ["Press and hold to hold your breath", "or hold the space bar"],
      holding: ["Holding your breath…", "waiting for the others"],
      countdown: ["Holding… the dive starts in", ""],
      diving: [seated ? "Diving! Let go to breathe" : "Diving", ""],
      watching: ["The divers are getting ready", ""],
      over: ["The game is over", ""],
    };
    const [main, sub] = labels[state];
    const divers = view.holding.map((held, s) => h("li", { class: `brm-diver${held ? " is-holding" : ""}` },
      h("span", { class: "brm-bubble", "aria-hidden": "true" }),
      h("span", {}, ctx.names(s)),
      h("span", { class: "visually-hidden" }, held ? " holds their breath" : " is breathing")));
    const usable = seated && state !== "over";
    breathButton.className = `brm-breath-btn is-${state}${pressed ? " is-pressed" : ""}${usable ? "" : " is-static"}`;
    breathButton.disabled = !usable;
    breathButton.setAttribute("aria-pressed", pressed ? "true" : "false");
    breathButton.setAttribute("aria-label", usable
      ? `${main}. Keep the space bar or this button pressed to hold your breath; let go to breathe.` : main);
    replaceChildren(breathButton.firstChild, main, " ", h("span", { class: "brm-clock" }));
    replaceChildren(breathButton.lastChild, usable ? [sub, sub ? " " : "", h("kbd", {}, "Space")] : null);
    replaceChildren(diversEl, divers);
    sortButton.hidden = !(seated && legal.sort);
  }

  function resultPanel(view) {
    const last = view.last_result;
    if (!last || view.phase === "dive") return null;
    const how = last.reason === "release" ? `${ctx.names(last.seat)} breathed` : END_HOW[last.reason] ?? last.reason;
    const won = last.columns.filter((c) => c.won).length;
    return h("section", { class: "brm-result", "aria-label": "The last dive's result", "aria-live": "polite" },
      h("h2", { class: "brm-result-title" }, `Last dive: ${won} of ${last.columns.length} treasure${last.columns.length === 1 ? "" : "s"} won`,
        h("span", { class: "muted" }, ` · ${how}`)),
      h("ol", { class: "brm-result-cols" }, last.columns.map((c) => resultColumn(c))));
  }

  function resultColumn(c) {
    const bad = new Set(c.bad_steps);
    const depth = c.treasure.depth;
    const why = c.reasons.map((r) => {
      if (r === "too_short") return `too short: ${c.cards.length} of ${depth} cards`;
      if (r === "too_long") return `too long: ${c.cards.length} of ${depth} cards`;
      if (r === "empty") return "no card laid";
      const first = c.bad_steps[0];
      return `a bad step: ${c.cards[first - 1]} on ${c.cards[first - 2]}`;
    });
    return h("li", { class: `brm-result-col ${c.won ? "is-won" : "is-lost"}` },
      h("span", { class: "brm-verdict" }, c.won ? "✓ won" : "✗ lost"),
      h("span", { class: "brm-result-name" }, `${c.treasure.name} `, h("span", { class: "muted" }, `(depth ${depth})`)),
      h("span", { class: "brm-result-cards" }, c.cards.length
        ? c.cards.map((v, i) => h("span", { class: `brm-chip${bad.has(i + 1) ? " is-bad" : ""}` }, String(v)))
        : h("span", { class: "muted" }, "—")),
      c.won ? null : h("span", { class: "brm-why" }, why.join("; ")));
  }

  function columnsArea(view, legal) {
    const count = view.columns.length;
    return h("section", { class: "brm-columns", style: `--cols:${count}`, "aria-label": "Treasures and their columns" },
      view.columns.map((c) => columnPanel(view, c, legal)));
  }

  function columnPanel(view, c, legal) {
    const t = c.treasure;
    const depth = t ? t.depth : null;
    const canLay = selectedCard !== null && legal.lays.get(selectedCard)?.has(c.column);
    const fits = selectedCard !== null && c.accepts.includes(selectedCard);
    const anyLay = [...legal.lays.values()].some((cols) => cols.has(c.column));
    const pointers = view.signals.map((col, s) => (col === c.column ? ctx.names(s) : null)).filter(Boolean);
    const slots = [];
    for (let i = 0; i < Math.max(depth ?? 0, c.cards.length); i += 1) {
      const value = c.cards[i];
      const over = depth !== null && i >= depth;
      slots.push(value === undefined
        ? h("li", { class: "brm-slot is-empty", "aria-hidden": "true" }, "")
        : h("li", { class: `brm-slot brm-chip${over ? " is-over" : ""}` }, String(value)));
    }
    const status = columnStatus(c, depth);
    const key = COLUMN_KEYS[c.column - 1];
    const classes = ["brm-col", `is-${c.status}`];
    if (canLay) classes.push(fits ? "is-fit" : "is-breaking");
    if (selectedColumn === c.column) classes.push("is-selected");
    const label = `Column ${c.column}: ${t ? `${t.name}, depth ${t.depth}, protection ${t.protection}` : "face-down treasure"}; `
      + `${c.cards.length} card${c.cards.length === 1 ? "" : "s"}${c.cards.length ? ` (${c.cards.join(", ")})` : ""}; ${status}`
      + (canLay ? (fits ? `. Lay ${selectedCard} here` : `. ${selectedCard} here would break it`) : "");
    const body = [
      h("div", { class: "brm-treasure" },
        h("span", { class: "brm-tname" }, t ? t.name : "Face down"),
        h("span", { class: "brm-tfacts" },
          h("span", { class: "brm-depth", title: "depth: exactly this many cards" }, `⇣${depth ?? "?"}`),
          h("span", { class: "brm-prot", title: "the Keeper's protection points if lost" }, `♆${t ? t.protection : "?"}`)),
        key && anyLay ? h("kbd", { class: "brm-colkey" }, key.toUpperCase()) : null),
      h("ol", { class: "brm-stack", "aria-hidden": "true" }, slots),
      h("p", { class: "brm-colstatus" }, status),
      pointers.length ? h("p", { class: "brm-pointers" }, `☛ ${pointers.join(", ")}`) : null,
    ];
    const attrs = { class: classes.join(" "), "data-key": `col-${c.column}`, "aria-label": label };
    const signal = legal.signals.has(c.column)
      ? h("button", { type: "button", class: "brm-point", "data-act": "signal", "data-column": c.column, "aria-label": `Point at column ${c.column}` }, "☛")
      : null;
    if (anyLay) {
      return h("div", { class: "brm-colwrap" },
        h("button", { type: "button", "data-act": "column", "data-column": c.column, ...attrs }, body), signal);
    }
    return h("div", { class: "brm-colwrap" }, h("div", { role: "group", ...attrs }, body), signal);
  }

  function columnStatus(c, depth) {
    switch (c.status) {
      case "hidden": return "face down until the dive";
      case "empty": return `needs ${depth}: any card starts it`;
      case "building": return `${depth - c.cards.length} more · next ${c.accepts.join(" or ")}`;
      case "complete": return "complete ✓";
      case "too_long": return "too long: lost";
      case "broken": return "a bad step: lost";
      default: return c.status;
    }
  }

  function handArea(view, hand, legal) {
    const counts = new Map();
    const diving = view.phase === "dive";
    const cards = hand.map((value) => {
      const n = (counts.get(value) || 0) + 1;
      counts.set(value, n);
      const playable = legal.lays.has(value);
      const fitsSomewhere = view.columns.some((c) => c.accepts.includes(value));
      const isSelected = selectedCard === value && n === 1;
      const fitsSelected = selectedColumn !== null && view.columns[selectedColumn - 1]?.accepts.includes(value);
      const classes = ["brm-card"];
      if (playable) classes.push("is-legal");
      if (diving && fitsSomewhere) classes.push("is-fit");
      if (fitsSelected) classes.push("is-target");
      if (isSelected) classes.push("is-selected");
      return h("button", {
        type: "button", class: classes.join(" "), "data-act": "card", "data-card": value, "data-key": `card-${value}-${n}`,
        "aria-pressed": isSelected ? "true" : null,
        "aria-label": `Diver ${value}${fitsSomewhere && diving ? ", fits a column" : ""}${isSelected ? ", selected: choose a column" : ""}`,
      }, String(value));
    });
    return h("section", { class: `brm-hand-area${diving ? " is-diving" : ""}`, "aria-label": "Your hand" },
      h("div", { class: "brm-hand-head" },
        h("h2", {}, "Your hand ", h("span", { class: "muted" }, `· ${hand.length}`)),
        h("p", { class: "hint", "aria-live": "polite" }, hint(view, legal))),
      h("div", { class: "brm-hand" }, cards.length ? cards : h("span", { class: "muted" }, "No card left.")));
  }

  function hint(view, legal) {
    if (view.phase === "over") return "The game is over.";
    if (view.phase !== "dive") {
      return view.hidden_treasures
        ? "Look at your hand. The treasures turn over when the dive starts."
        : "Look at your hand and the treasures. Hold your breath to dive.";
    }
    if (selectedCard !== null) return `${selectedCard} selected: now a column (${view.columns.map((c) => COLUMN_KEYS[c.column - 1].toUpperCase()).join(" ")}) · Esc cancels`;
    if (selectedColumn !== null) return `Column ${selectedColumn}: now a card (its number key)`;
    if (!legal.lays.size) return "No card to lay: hold on, or let go to breathe.";
    return view.columns.length === 1 ? "Tap a card (or press its number) to lay it." : "Tap a card then a column, or press a number then A S D F G.";
  }

  /** The clocks on the board, every tenth of a second (only their text changes). */
  function tick() {
    if (!ctx) return;
    const { view } = ctx;
    const now = serverNow();
    let text = "";
    if (view.phase === "dive" && view.t0 !== null) {
      text = seconds(Math.max(0, now - view.t0));
      if (view.deadline !== null) text += ` (${seconds(Math.max(0, view.deadline - now))} left)`;
    } else if (view.phase === "prepare" && view.dive_at !== null) {
      text = seconds(Math.max(0, view.dive_at - now));
    }
    for (const el of root.querySelectorAll(".brm-clock")) el.textContent = text;
  }

  // -- keys -------------------------------------------------------------------------------------------------

  function handleKey(event) {
    if (!ctx || ctx.seat === null || ctx.seat === undefined) return false;
    const key = event.key;
    if (key === " " || key === "Spacebar") {
      if (!event.repeat && !pressed) breathIn("key");
      return true;
    }
    if (key === "Escape" && (selectedCard !== null || selectedColumn !== null)) {
      selectedCard = null;
      selectedColumn = null;
      rerender();
      return true;
    }
    if (/^[1-9]$/.test(key)) {
      const value = Number(key);
      if (readLegal(ctx.legal).lays.has(value)) chooseCard(value);
      return true;
    }
    const column = COLUMN_KEYS.indexOf(key.toLowerCase()) + 1;
    if (column > 0 && column <= ctx.view.columns.length) {
      chooseColumn(column);
      return true;
    }
    return false;
  }

  function destroy() {
    clearInterval(timer);
    root.removeEventListener("click", onClick);
    document.removeEventListener("pointerup", onPointerUp);
    document.removeEventListener("pointercancel", onPointerUp);
    document.removeEventListener("keyup", onKeyUp);
    window.removeEventListener("blur", onBlur);
    document.removeEventListener("visibilitychange", onVisibility);
    root.replaceChildren();
    root.classList.remove("brm");
  }

  return { render: (next) => render(next), handleKey, destroy };
}
