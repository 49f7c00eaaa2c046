// Bermuda in the browser: a real-time board drawn from what the server sends, and the held breath. The view gives
// the columns (treasure, cards, how each stands in words, the values that keep it winnable), the hand, the breaths,
// the times and the last dive's result; the static data gives the badges, the treasure table (its deepest treasure
// sizes the columns) and what the symbols mean; the legal records give what may be done and its notation; the log
// comes as parts. Nothing here decides a rule.
//
// The breath is a control you hold (the big button, by a finger or the mouse, or the space bar): pressing sends
// `hold`, letting go sends `release` (before the dive it only takes the hold back; during it, it ends the dive for
// everyone, on the server's clock). Closing the page or losing the connection is breathing too (the server applies
// it). A finger's hold belongs to that finger (its pointerId): other fingers lay cards meanwhile. A mouse cannot
// hold the button and click a card, so mouse users may switch the button to click-on, click-off (remembered in
// this browser); the space bar is always held while pressed.
//
// Cards and columns act when the pointer goes down, not on `click`: a second finger on a touch screen gets pointer
// events but no click, and nothing waits for a double-tap. A card is laid by its card then a column (or the other
// way round), or its number key then the column's letter (A S D F G); with one column the number alone lays it.
//
// Nothing under the fingers moves when a breath is held or the dive starts: the button's labels have one height,
// the columns are as deep as the deepest treasure, the hand keeps room for a full deal, and the last dive's band
// keeps its place (dimmed, not removed) during the dive.

import { h, presenceBadge, replaceChildren, sayWhyNot, useStylesheet } from "../util.js";

export const name = "bermuda";
export const title = "Bermuda";
export const keyHelp = [[["Space"], "hold your breath (let go to breathe)"], [["1-9"], "a card"],
  [["A", "S", "D", "F", "G"], "a column"], [["Esc"], "cancel"]];

const COLUMN_KEYS = ["a", "s", "d", "f", "g"];

/** Bermuda's stylesheet (the table page is shared by the games): the pages wait for it before drawing a board. */
export const stylesheet = "/static/css/bermuda.css";

/** Bermuda draws its Diver cards as numbers: no deck to make. */
export const makeDeck = () => null;

/** Everyone acts at once: there is never a single seat whose turn it is. */
export const activeSeat = () => null;

/** The top bar's status for a game without turns. */
export function statusText(view, names, seat) {
  if (!view) return "";
  const mine = seat !== null && seat !== undefined;
  if (view.phase === "over") return "Game over";
  if (view.phase === "dive") return "Diving!";
  if (view.dive_at !== null && view.dive_at !== undefined) return "Every breath held: the dive starts…";
  const waiting = view.holding.map((held, s) => (held ? null : s)).filter((s) => s !== null);
  if (mine && !view.holding[seat]) return "Hold your breath to dive";
  if (waiting.length === 1) return `Waiting for ${names(waiting[0])} to hold their breath`;
  return `Waiting for ${waiting.length} divers to hold their breath`;
}

const seconds = (ms) => `${Math.floor(ms / 1000)}.${Math.floor((ms % 1000) / 100)} s`;

export function eventTone(event) {
  if (["round_end", "layout_end", "game_over"].includes(event.kind)) return "major";
  if (["round_start", "layout_start", "dive_start"].includes(event.kind)) return "round";
  if (["hold", "signal", "countdown"].includes(event.kind)) return "minor";
  return "";
}

// -- summaries ---------------------------------------------------------------------------------------------------

/** The end of the game (its panel): the verdict and the last dive. Each round's result is on the board itself (the
 * next dive needs everyone's breath at once, not a dialog), so `findSummary` only reports the end of the game. */
export function findSummary(events) {
  let roundEnd = null;
  let gameOver = null;
  for (const event of events) {
    if (event.kind === "round_end" || event.kind === "layout_end") roundEnd = event;
    if (event.kind === "game_over") gameOver = event;
  }
  return gameOver ? { roundEnd, gameOver } : null;
}

/** A log line's parts as text (seats by name). */
function partsText(parts, names) {
  return (parts || []).map((p) => p.text ?? (p.seat !== undefined ? (names ? names(p.seat) : `seat ${p.seat}`) : p.card)).join("");
}

export function summaryElement(roundEnd, gameOver, { names } = {}) {
  const verdict = gameOver && gameOver.parts ? partsText(gameOver.parts, names).replace(/^game over: /, "")
    : gameOver && gameOver.winners && gameOver.winners.length ? "The divers win!" : "Game over";
  return h("div", { class: "summary brm-summary" },
    h("h2", { class: "summary-title" }, verdict.charAt(0).toUpperCase() + verdict.slice(1)),
    roundEnd ? h("p", { class: "summary-reason" }, "Last dive: ", partsText(roundEnd.parts, names)) : null);
}

// -- reading the legal records (never computing them) ------------------------------------------------------------

function readLegal(legal) {
  const lays = new Map(); // value -> Map(column -> notation)
  const flags = { hold: null, release: null, sort: null };
  const signals = new Map(); // column -> notation
  for (const record of legal) {
    if (record.kind === "lay") {
      const value = Number(record.cards[0]);
      if (!lays.has(value)) lays.set(value, new Map());
      lays.get(value).set(record.target, record.notation);
    } else if (record.kind === "signal") signals.set(record.target, record.notation);
    else if (record.kind in flags) flags[record.kind] = record.notation;
  }
  return { lays, signals, ...flags };
}

const MOUSE_MODE_KEY = "divedeck.bermuda.mouse-breath"; // "hold" | "toggle": how a mouse works the breath button
const CLICK_AFTER_POINTER_MS = 700; // a click that follows a pointer press already acted on is that press's echo
const MAX_COLUMN_ROWS = 12; // deeper treasures (a custom file) squeeze their slots into this many rows' height

function loadMouseMode() {
  try {
    return localStorage.getItem(MOUSE_MODE_KEY) === "hold" ? "hold" : "toggle";
  } catch {
    return "toggle"; // no storage (private mode): the choice lasts as long as the page
  }
}

function saveMouseMode(mode) {
  try {
    localStorage.setItem(MOUSE_MODE_KEY, mode);
  } catch {
    // the page still switches; it just will not remember
  }
}

/** Draw the board into `root`; `api.act(notation)` sends an action (null while another is on its way: the board
 * then keeps it and sends it as soon as it can, so a breath is never lost). Returns {render(ctx), handleKey}. */
export function createBoard(root, api) {
  useStylesheet(stylesheet);
  let ctx = null;
  let selectedCard = null; // a value of the hand
  let selectedColumn = null; // a column number
  let pressed = false; // the breath control is held (pointer, toggle or space bar) since the last hold was asked
  let pressedBy = null; // "pointer" | "toggle" | "key"
  let holdPointer = null; // the pointerId whose press holds the breath: only its release breathes
  let lastPhase = null;
  let offset = null; // server clock - this page's clock (ms), from the view's `now` (a lower bound)
  let lastPointerAct = -Infinity; // when a pointer press last acted on a card, a column or a button
  let mouseMode = loadMouseMode();
  const queue = []; // actions waiting for the previous one's answer
  root.classList.add("brm");
  // A replay shows the board as it stood, without the breath button, the mouse switch or a running clock.
  const replay = Boolean(api.replay);
  root.classList.toggle("is-replay", replay);
  // The breath control and the places around it are made once and only updated: redrawing the button under a
  // finger would lose the press, and a rebuilt frame could change size.
  const statusEl = h("div", { class: "brm-status" });
  const pillsEl = h("div", { class: "brm-pills" });
  const modeButtons = ["toggle", "hold"].map((mode) => h("button", {
    type: "button", class: "brm-mode-btn", "data-act": "mode", "data-mode": mode, "data-key": `mode-${mode}`,
  }, mode === "toggle" ? "click on / off" : "hold down"));
  const modeEl = h("div", { class: "brm-mode", role: "group", "aria-label": "How the mouse works the breath button" },
    h("span", { class: "brm-mode-label", "aria-hidden": "true" }, "Mouse:"), modeButtons);
  statusEl.append(pillsEl);
  if (!replay) statusEl.append(modeEl);
  const diversEl = h("ul", { class: "brm-divers", "aria-label": "Who holds their breath" });
  const resultEl = h("section", { class: "brm-result", "aria-label": "The last dive's result" });
  const columnsEl = h("section", { class: "brm-columns", "aria-label": "Treasures and their columns" });
  const handEl = h("section", { class: "brm-hand-area", "aria-label": "Your hand" });
  const breathButton = h("button", { type: "button", class: "brm-breath-btn", "data-breath": "1", "data-key": "breath",
    "aria-pressed": "false" }, h("span", { class: "brm-breath-main" }), h("span", { class: "brm-breath-sub" }));
  const dockEl = h("div", { class: "brm-dock" }, handEl, replay ? null : breathButton); // h() skips a null
  root.replaceChildren(statusEl, diversEl, resultEl, columnsEl, dockEl);
  root.addEventListener("pointerdown", onBoardPointerDown);
  root.addEventListener("click", onClick);
  breathButton.addEventListener("pointerdown", onBreathDown);
  breathButton.addEventListener("contextmenu", (event) => event.preventDefault()); // a long press is a held breath
  for (const type of ["pointerup", "pointercancel"]) document.addEventListener(type, onPointerUp);
  breathButton.addEventListener("lostpointercapture", onPointerUp);
  document.addEventListener("keyup", onKeyUp);
  window.addEventListener("blur", breathOut); // the page lost the keyboard or the pointer: nobody holds the control
  document.addEventListener("visibilitychange", () => document.visibilityState === "hidden" && breathOut());
  setInterval(tick, 100);
  drawMode();

  function send(action) {
    if (queue.length || api.act(action) == null) queue.push(action);
  }

  function flush() {
    while (queue.length && ctx) {
      // An action no longer possible (the dive ended, the card is gone) is dropped quietly.
      if (!ctx.legal.some((record) => record.notation === queue[0])) queue.shift();
      else if (ctx.busy || api.act(queue[0]) == null) return;
      else queue.shift();
    }
  }

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
    holdPointer = null;
    if (!pressed) return;
    pressed = false;
    pressedBy = null;
    const i = queue.indexOf("hold");
    if (i >= 0) queue.splice(i, 1); // the hold never left: nothing to let go of
    else if (ctx && (readLegal(ctx.legal).release || ctx.busy)) send("release");
    drawBreath();
    tick();
  }

  function onBreathDown(event) {
    if (event.pointerType === "mouse" && event.button !== 0) return;
    event.preventDefault(); // no focus change, no text selection, no emulated mouse events
    if (event.pointerType === "mouse" && mouseMode === "toggle") {
      if (pressed) breathOut();
      else breathIn("toggle");
      return;
    }
    if (holdPointer !== null) return; // another finger already holds it: that one's release counts
    holdPointer = event.pointerId;
    try {
      breathButton.setPointerCapture(event.pointerId);
    } catch {
      // the release still reaches the document's listener
    }
    breathIn("pointer");
  }

  function onPointerUp(event) {
    if (holdPointer === null || event.pointerId !== holdPointer) return;
    holdPointer = null;
    if (pressedBy === "pointer") breathOut();
  }

  function onKeyUp(event) {
    if (event.key !== " " || pressedBy !== "key") return;
    event.preventDefault();
    breathOut();
  }

  function setMouseMode(mode) {
    if (mode === mouseMode) return;
    mouseMode = mode;
    saveMouseMode(mode);
    if (pressedBy === "toggle") breathOut(); // a toggled breath cannot be let go in the other mode
    drawMode();
    drawBreath();
  }

  function drawMode() {
    for (const button of modeButtons) {
      const on = button.dataset.mode === mouseMode;
      button.classList.toggle("is-on", on);
      button.setAttribute("aria-pressed", on ? "true" : "false");
    }
  }

  function lay(card, column) {
    const notation = readLegal(ctx.legal).lays.get(card).get(column);
    selectedCard = null;
    selectedColumn = null;
    send(notation);
    rerender();
  }

  function whyNot(card, column) {
    // A card that cannot go there now: the server says which rule forbids it ("why not?"), nothing is played.
    api.check(`lay ${card} c${column}`).then((answer) => {
      if (!answer.legal) sayWhyNot(answer);
    }, () => {});
  }

  function chooseCard(card) {
    const legal = readLegal(ctx.legal);
    if (!legal.lays.has(card)) {
      if (ctx.seat !== null && ctx.seat !== undefined) whyNot(card, selectedColumn ?? preferredColumn(card));
      return;
    }
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
      if (selectedCard !== null) whyNot(selectedCard, column); // the chosen card does not go there: say why
      selectedColumn = selectedColumn === column ? null : column;
      rerender();
    }
  }

  function preferredColumn(card) {
    const fits = ctx.view.columns.find((c) => c.accepts.includes(card));
    return fits ? fits.column : 1;
  }

  function activate(el) {
    const kind = el.dataset.act;
    if (kind === "mode") setMouseMode(el.dataset.mode);
    else if (!ctx) return;
    else if (kind === "card") chooseCard(Number(el.dataset.card));
    else if (kind === "column") chooseColumn(Number(el.dataset.column));
    else if (kind === "sort") send(readLegal(ctx.legal).sort);
    else if (kind === "signal") send(readLegal(ctx.legal).signals.get(Number(el.dataset.column)));
  }

  function onBoardPointerDown(event) {
    if (event.pointerType === "mouse" && event.button !== 0) return;
    const el = event.target.closest("[data-act]");
    if (!el || !root.contains(el) || el.disabled) return;
    event.preventDefault(); // the press is the action: no focus move, no selection, no emulated mouse events
    lastPointerAct = performance.now();
    activate(el);
  }

  function onClick(event) {
    const el = event.target.closest("[data-act]");
    if (!el || !root.contains(el)) return;
    event.preventDefault();
    // A pointer's click comes after the press that already acted; a click of its own (Enter on a focused card,
    // a screen reader's activation) acts here.
    if (performance.now() - lastPointerAct < CLICK_AFTER_POINTER_MS) return;
    activate(el);
  }

  const rerender = (focusKey = null) => ctx && render(ctx, focusKey);

  function render(next, focusKey = null) {
    const keepFocus = focusKey || (root.contains(document.activeElement) ? document.activeElement.dataset.key : null);
    ctx = next;
    const { view } = ctx;
    if (view.now > 0) offset = Math.max(offset ?? -Infinity, view.now - Date.now());
    if (lastPhase !== view.phase) {
      // A dive that ended (or began) under a pressed control: a new round needs a new breath, so it must be let go
      // and pressed again; nothing is sent for the old press.
      if (lastPhase === "dive" && view.phase !== "dive") {
        pressed = false;
        pressedBy = null;
        holdPointer = null;
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

    const over = view.phase === "over";
    root.classList.toggle("is-over", over);
    root.style.setProperty("--cols", String(view.columns.length || 1));
    root.style.setProperty("--rows", String(columnRows()));
    root.style.setProperty("--divers", String(view.holding.length || 1));
    replaceChildren(pillsEl, statusLine(view));
    drawBreath(view, legal, hand !== null);
    drawResult(view);
    columnsEl.hidden = over;
    dockEl.hidden = over;
    if (!over) {
      replaceChildren(columnsEl, view.columns.map((c) => columnPanel(view, c, legal)));
      drawHand(view, hand, legal);
    }
    const focusEl = keepFocus ? root.querySelector(`[data-key="${CSS.escape(keepFocus)}"]`) : null;
    if (focusEl) focusEl.focus({ preventScroll: true });
    tick();
  }

  /** How many slots every column has room for: the deepest treasure of the game's table (so no round, no reveal
   * and no dive changes the columns' height), capped for custom tables with very deep treasures. */
  function columnRows() {
    const depths = (ctx.static.treasures || []).map((t) => t.depth);
    return Math.min(MAX_COLUMN_ROWS, Math.max(1, ...depths));
  }

  function statusLine(view) {
    const pills = { form: "pill pill-accent", score: "pill brm-score", keeper: "pill brm-keeper", plain: "pill" };
    return [...view.scoreboard.map((score) => h("span", { class: pills[score.kind], title: score.title || null }, score.text)),
      ...ctx.static.badges.map((badge) => h("span", { class: "pill" }, badge))];
  }

  function breathState(view, seated) {
    if (view.phase === "over") return "over";
    if (ctx.held) return "waiting"; // a room's table before the shared screen starts it
    if (!seated) return view.phase === "dive" ? "diving" : "watching";
    if (view.phase === "dive") return "diving";
    if (view.holding[ctx.seat] || queue.includes("hold")) return view.dive_at !== null ? "countdown" : "holding";
    return "idle";
  }

  function drawBreath(view = ctx && ctx.view, legal = ctx && readLegal(ctx.legal), seated = ctx && Array.isArray(view?.hand)) {
    if (!view) return;
    const state = breathState(view, seated);
    // What letting go is, in this mode (a toggled breath is let go by the next click, a held one by lifting).
    const toggled = pressedBy === "toggle" || (!pressed && mouseMode === "toggle" && !coarse());
    const letGo = toggled ? "click to breathe" : "let go to breathe";
    const touch = coarse() && !toggled;
    const labels = {
      idle: [toggled ? "Click to hold your breath" : "Press and hold: hold your breath",
        touch ? "keep it pressed; another finger lays cards" : toggled ? "click again to breathe · or hold" : "or hold"],
      holding: ["Holding your breath…", `waiting for the others · ${letGo}`],
      countdown: ["The dive starts in ", letGo],
      diving: [seated ? "Diving!" : "Diving", seated ? letGo : "the first to breathe ends it"],
      watching: ["The divers are getting ready", "you are watching"],
      waiting: ["Waiting for the room to start", "the shared screen starts the game"],
      over: ["The game is over", ""],
    };
    const [main, sub] = labels[state];
    const usable = seated && state !== "over" && state !== "waiting";
    breathButton.className = `brm-breath-btn is-${state}${pressed ? " is-pressed" : ""}${usable ? "" : " is-static"}`;
    breathButton.disabled = !usable;
    breathButton.setAttribute("aria-pressed", pressed ? "true" : "false");
    breathButton.setAttribute("aria-label", usable
      ? `${main}${state === "countdown" ? "a moment" : ""}. ${toggled ? "Click this button to hold your breath and again to breathe" : "Keep this button pressed to hold your breath; let go to breathe"}; or keep the space bar pressed.`
      : main);
    // Both lines are always there, one line each, so the button never changes height under a finger.
    const clock = h("span", { class: "brm-clock" });
    replaceChildren(breathButton.firstChild, main, state === "countdown" ? clock : null);
    replaceChildren(breathButton.lastChild, sub || "\u00a0", state === "diving" ? [" · ", clock] : null,
      usable && state === "idle" && !touch ? [" ", h("kbd", {}, "Space")] : null);
    replaceChildren(diversEl, view.holding.map((held, s) => h("li", { class: `brm-diver${held ? " is-holding" : ""}` },
      h("span", { class: "brm-bubble", "aria-hidden": "true" }),
      h("span", { class: "brm-diver-name" }, ctx.names(s)),
      h("span", { class: "visually-hidden" }, held ? " holds their breath" : " is breathing"),
      s === ctx.seat ? null : presenceBadge((ctx.seats || [])[s]))));
  }

  function coarse() {
    return typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;
  }

  function drawResult(view) {
    const last = view.last_result;
    const over = view.phase === "over";
    // The band keeps its place during the dive (dimmed, not removed): the columns below must not jump up.
    resultEl.classList.toggle("is-away", view.phase === "dive");
    resultEl.classList.toggle("is-full", over);
    // No dive judged yet (the first round): one line, for the whole round, so nothing moves at the dive's start.
    resultEl.classList.toggle("is-empty", !last && !over);
    resultEl.setAttribute("aria-live", view.phase === "dive" ? "off" : "polite");
    if (!last) {
      replaceChildren(resultEl, h("p", { class: "brm-result-title muted" },
        over ? "No dive was judged." : `Round ${view.round} of ${view.rounds}: no dive judged yet`));
      return;
    }
    const how = last.seat !== null ? `${ctx.names(last.seat)} ${last.how}` : last.how;
    const title = h("h2", { class: "brm-result-title" }, `Last dive: ${last.title}`, h("span", { class: "muted" }, ` · ${how}`));
    if (over) {
      replaceChildren(resultEl, title, h("ol", { class: "brm-result-list" }, last.columns.map((c) => resultColumn(c))));
      return;
    }
    const open = resultEl.querySelector("details")?.open && view.phase !== "dive";
    replaceChildren(resultEl,
      h("div", { class: "brm-result-head" }, title,
        h("details", { class: "brm-result-more", open: open || null },
          h("summary", {}, "details"),
          h("ol", { class: "brm-result-list" }, last.columns.map((c) => resultColumn(c))))),
      h("ol", { class: "brm-result-cols", "aria-hidden": "true" }, last.columns.map((c) => resultCell(c))));
  }

  /** One column of the last dive in the band: verdict, treasure, cards and why, each on one clipped line. */
  function resultCell(c) {
    const bad = new Set(c.bad_steps);
    return h("li", { class: `brm-result-cell ${c.won ? "is-won" : "is-lost"}`, title: `${c.treasure.name}: ${c.won ? "won" : c.why}` },
      h("span", { class: "brm-cell-line" }, h("span", { class: "brm-verdict" }, c.won ? "✓" : "✗"), ` ${c.treasure.name}`),
      h("span", { class: "brm-cell-line brm-result-cards" }, c.cards.length
        ? c.cards.map((v, i) => h("span", { class: `brm-chip${bad.has(i + 1) ? " is-bad" : ""}` }, String(v)))
        : h("span", { class: "muted" }, "—")),
      h("span", { class: "brm-why" }, c.won ? "won" : c.why));
  }

  function resultColumn(c) {
    const bad = new Set(c.bad_steps);
    const depth = c.treasure.depth;
    return h("li", { class: `brm-result-col ${c.won ? "is-won" : "is-lost"}` },
      h("span", { class: "brm-verdict" }, c.won ? "✓ won" : "✗ lost"),
      h("span", { class: "brm-result-name" }, `${c.treasure.name} `, h("span", { class: "muted" }, `(depth ${depth})`)),
      h("span", { class: "brm-result-cards" }, c.cards.length
        ? c.cards.map((v, i) => h("span", { class: `brm-chip${bad.has(i + 1) ? " is-bad" : ""}` }, String(v)))
        : h("span", { class: "muted" }, "—")),
      c.won ? null : h("span", { class: "brm-why" }, c.why));
  }

  function columnPanel(view, c, legal) {
    const { symbols } = ctx.static;
    const t = c.treasure;
    const depth = t ? t.depth : null;
    const canLay = selectedCard !== null && legal.lays.get(selectedCard)?.has(c.column);
    const fits = selectedCard !== null && c.accepts.includes(selectedCard);
    const anyLay = [...legal.lays.values()].some((cols) => cols.has(c.column));
    const pointers = view.signals.map((col, s) => (col === c.column ? ctx.names(s) : null)).filter(Boolean);
    const slots = [];
    const count = Math.max(depth ?? 0, c.cards.length);
    for (let i = 0; i < count; i += 1) {
      const value = c.cards[i];
      const over = depth !== null && i >= depth;
      slots.push(value === undefined
        ? h("li", { class: "brm-slot is-empty", "aria-hidden": "true" }, "")
        : h("li", { class: `brm-slot brm-chip${over ? " is-over" : ""}` }, String(value)));
    }
    const key = COLUMN_KEYS[c.column - 1];
    const classes = ["brm-col", `is-${c.status}`, canLay && (fits ? "is-fit" : "is-breaking"),
      selectedColumn === c.column && "is-selected", anyLay && "is-open"].filter(Boolean);
    const label = `Column ${c.column}: ${t ? `${t.name}, depth ${t.depth}, protection ${t.protection}` : "face-down treasure"}; `
      + `${c.cards.length} card${c.cards.length === 1 ? "" : "s"}${c.cards.length ? ` (${c.cards.join(", ")})` : ""}; ${c.words}`
      + (canLay ? (fits ? `. Lay ${selectedCard} here` : `. ${selectedCard} here would break it`) : "");
    const body = [
      h("div", { class: "brm-treasure" },
        h("span", { class: "brm-tname" }, t ? t.name : "Face down"),
        h("span", { class: "brm-tfacts" },
          h("span", { class: "brm-depth", title: symbols["⇣"] }, `⇣${depth ?? "?"}`),
          h("span", { class: "brm-prot", title: symbols["♆"] }, `♆${t ? t.protection : "?"}`)),
        key && anyLay ? h("kbd", { class: "brm-colkey" }, key.toUpperCase()) : null),
      // More cards than there is room for (a column laid too long) squeeze in rather than grow the column.
      h("ol", { class: "brm-stack", "aria-hidden": "true", style: count > columnRows() ? `--slots:${count}` : null }, slots),
      h("p", { class: "brm-colstatus" }, c.words),
      h("p", { class: "brm-pointers", title: symbols["☛"] }, pointers.length ? `☛ ${pointers.join(", ")}` : "\u00a0"),
    ];
    const attrs = { class: classes.join(" "), "data-key": `col-${c.column}`, "aria-label": label };
    const signal = legal.signals.has(c.column)
      ? h("button", { type: "button", class: "brm-point", "data-act": "signal", "data-column": c.column, "aria-label": `Point at column ${c.column}` }, "☛")
      : null;
    return h("div", { class: "brm-colwrap" }, anyLay
      ? h("button", { type: "button", "data-act": "column", "data-column": c.column, ...attrs }, body)
      : h("div", { role: "group", ...attrs }, body), signal);
  }

  function drawHand(view, hand, legal) {
    handEl.classList.toggle("is-diving", view.phase === "dive");
    if (!hand) {
      replaceChildren(handEl, h("p", { class: "brm-spectating" }, "You are watching: hands stay hidden."));
      return;
    }
    const counts = new Map();
    const diving = view.phase === "dive";
    const cards = hand.map((value) => {
      const n = (counts.get(value) || 0) + 1;
      counts.set(value, n);
      const playable = legal.lays.has(value);
      const fitsSomewhere = view.columns.some((c) => c.accepts.includes(value));
      const isSelected = selectedCard === value && n === 1;
      const fitsSelected = selectedColumn !== null && view.columns[selectedColumn - 1]?.accepts.includes(value);
      const classes = ["brm-card", playable && "is-legal", diving && fitsSomewhere && "is-fit", fitsSelected && "is-target",
        isSelected && "is-selected"].filter(Boolean);
      return h("button", {
        type: "button", class: classes.join(" "), "data-act": "card", "data-card": value, "data-key": `card-${value}-${n}`,
        "aria-pressed": isSelected ? "true" : null,
        "aria-label": `Diver ${value}${fitsSomewhere && diving ? ", fits a column" : ""}${isSelected ? ", selected: choose a column" : ""}`,
      }, String(value));
    });
    // The sort button keeps its place when it is not offered (hidden from sight, not from the layout).
    const sort = h("button", { type: "button", class: `btn btn-small brm-sort${legal.sort ? "" : " is-away"}`,
      "data-act": "sort", "data-key": "sort", disabled: !legal.sort, "aria-hidden": legal.sort ? null : "true" }, "Sort");
    replaceChildren(handEl,
      h("div", { class: "brm-hand-head" },
        h("h2", {}, "Your hand ", h("span", { class: "muted" }, `· ${hand.length}`)),
        h("p", { class: "hint", "aria-live": "polite" }, hint(view, legal)),
        view.sorting_allowed ? sort : null),
      h("div", { class: "brm-hand" }, cards.length ? cards : h("span", { class: "muted" }, "No card left.")));
  }

  function hint(view, legal) {
    if (replay) return "";
    if (view.phase !== "dive") {
      return ctx.static.hidden_treasures
        ? "Look at your hand. The treasures turn over when the dive starts."
        : "Look at your hand and the treasures, then hold your breath.";
    }
    const keys = view.columns.map((c) => COLUMN_KEYS[c.column - 1].toUpperCase()).join(" ");
    const touch = coarse();
    if (selectedCard !== null) return touch ? `${selectedCard} selected: now tap a column` : `${selectedCard} selected: now a column (${keys}) · Esc cancels`;
    if (selectedColumn !== null) return touch ? `Column ${selectedColumn}: now tap a card` : `Column ${selectedColumn}: now a card (its number key)`;
    if (!legal.lays.size) return "No card to lay: hold on, or breathe.";
    if (touch) return view.columns.length === 1 ? "Tap a card to lay it." : "Tap a card, then its column.";
    return view.columns.length === 1 ? "Tap a card (or press its number) to lay it." : `Tap a card then a column, or a number then ${keys}.`;
  }

  /** The clocks on the board, every tenth of a second (only their text changes). */
  function tick() {
    if (!ctx || replay) return;
    const { view } = ctx;
    const now = ctx.clock?.() ?? Date.now() + (offset ?? 0); // the table's clock: it stands still while paused
    let text = "";
    if (view.phase === "dive" && view.t0 !== null) {
      text = seconds(Math.max(0, now - view.t0));
      if (view.deadline !== null) text += ` (${seconds(Math.max(0, view.deadline - now))} left)`;
    } else if (view.phase === "prepare" && view.dive_at !== null) {
      text = seconds(Math.max(0, view.dive_at - now));
    }
    for (const el of root.querySelectorAll(".brm-clock")) el.textContent = text;
  }

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
      if (readLegal(ctx.legal).lays.has(Number(key))) chooseCard(Number(key));
      return true;
    }
    const column = COLUMN_KEYS.indexOf(key.toLowerCase()) + 1;
    if (column > 0 && column <= ctx.view.columns.length) {
      chooseColumn(column);
      return true;
    }
    return false;
  }

  return { render: (next) => render(next), handleKey };
}
