// The table page, for any game: /table/{id}, optionally with #seat=N&token=... in the fragment.
//
// - One seat (a token from the fragment or from localStorage): one client, that seat's view.
// - Several local seats (hot-seat: tokens for several seats of this table in localStorage): one client per seat;
//   the page shows the seat whose turn it is, with a cover screen between two different local seats' turns.
// - No token: a spectator.
// The game's own module (js/games/<game>.js) draws the board; the log is the server's parts (text, seats, cards),
// rendered here for every game. Legality, labels and reasons come from the server's records and `check` answers.
// Seats are shown numbered from 1 ("Seat 1 · Anna"), as in the lobby; the wire numbers them from 0.

import { createTalk } from "./chat.js";
import { createRecap } from "./recap.js";
import { TableClient } from "./client.js";
import { muted, setMuted, withFlights, yourTurn } from "./motion.js";
import { screenFeed, screenMode } from "./room.js";
import { notifyOn, notifySupported, signalTurn, toggleNotify } from "./turn-signal.js";
import { guideBeforeAct, guideButton, isGuided, updateGuide } from "./guide.js";
import { rulesOpen, setRulesExtra, setRulesSheet, setupRules } from "./rules.js";
import {
  clearWhyNot, clockBadge, copyText, countdownSpan, forgetToken, h, loadTabSeats, loadTokens, replaceChildren,
  saveTabSeats, saveToken, seatLabel, setServerOffset, timeLeft, toast, useStylesheet,
} from "./util.js";

// Game names as the server lists them: lower-case words and dashes, so one names a module file and nothing else.
const GAME_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

const $ = (id) => document.getElementById(id);
const COVER_GUARD_MS = 700;
const NAME_KEY = "divedeck.name"; // the name this browser last typed, offered again on the next invite
const MAX_NAME = 40;
const NOTICE_MS = 10_000; // how long "a bot plays for..." and "... is back" stay up

const ERROR_TEXT = {
  stale: "The table moved on before your move arrived: look again and choose.",
  not_your_turn: "It is not your turn.",
  game_over: "The game is over.",
  rate_limited: "Too many messages at once: slow down a little.",
  spectator: "You are watching this table, so you cannot play.",
  bad_token: "This seat's link is not valid (any more) for this table.",
  not_found: "There is no table with this id.",
  bad_protocol: "This page is out of date for the server: reload it.",
};

// -- who am I at this table ------------------------------------------------------------------------------------

function tableIdFromPath() {
  const parts = location.pathname.split("/").filter(Boolean);
  return decodeURIComponent(parts[parts.length - 1] || "");
}

/** Read #seat=N&token=T (or #watch), remember it, and take it out of the address bar. `invited`: a seat's link
 * was opened here. */
function readFragment(tableId) {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  let watch = params.has("watch");
  let invited = false;
  const seat = params.get("seat");
  const token = params.get("token");
  if (token && seat !== null && /^\d+$/.test(seat)) {
    saveToken(tableId, Number(seat), token);
    saveTabSeats(tableId, [Number(seat)]); // this tab plays this seat, even if the browser holds others
    watch = false;
    invited = true;
  }
  if (location.hash) history.replaceState(history.state, "", location.pathname + location.search);
  return { watch, invited };
}

function localSeats(tableId, watch) {
  if (watch) return [];
  const tokens = loadTokens(tableId);
  const chosen = loadTabSeats(tableId);
  const seats = (chosen || Object.keys(tokens).map(Number)).filter((s) => tokens[s]);
  return seats.sort((a, b) => a - b).map((seat) => ({ seat, token: tokens[seat] }));
}

// -- the page --------------------------------------------------------------------------------------------------

const page = {
  tableId: "",
  clients: [], // TableClient, one per local seat (or one spectator)
  hotseat: false,
  shownSeat: null, // hot-seat: the seat whose view is on screen
  coverFor: null, // hot-seat: the seat the cover waits for
  coverSummary: null,
  revealed: false,
  module: null,
  moduleLoading: null,
  board: null,
  gameInfo: null,
  deck: null,
  rematch: null, // {table, tokens: Map(seat -> token)} while collecting rematch messages
  lastLogKey: "",
  gameOverShown: false,
  serverOffset: 0, // the server's clock minus this page's (ms), from the welcome's `now`
  seen: null, // per seat, what the last table said of it: {away, bot} (for the notices)
  notices: new Map(), // seat -> {kind, until}: the passing notices ("a bot plays for...", "... is back")
  answered: false, // this screen answered the rematch question
  boardFocus: false, // the keyboard focus was last on the board (not moved elsewhere by the player)
  lastMoves: new Map(), // seat -> the notation of its last move, shown until this screen's turn comes
  wasMine: null, // whether the last render was this screen's turn (null: not rendered yet)
  talk: null, // the table talk panel (chat.js)
  recap: createRecap(), // hot-seat: what happened since each local seat's last move (recap.js)
};

function shownClient() {
  if (!page.hotseat) return page.clients[0];
  return page.clients.find((c) => c.token && c.seat === page.shownSeat)
    || page.clients.find((c) => c.state && c.state.seat === page.shownSeat)
    || page.clients[0];
}

/** The freshest state among the page's clients (hot-seat clients may be one update apart for a moment). */
function freshest() {
  let best = null;
  for (const client of page.clients) {
    if (client.state && (!best || client.state.version > best.state.version)) best = client;
  }
  return best;
}

function seatName(table, seat) {
  const seats = (table && table.seats) || [];
  const entry = seats[seat];
  const name = entry && entry.name ? String(entry.name) : "";
  if (!name) return seatLabel(seat);
  // Two seats with the same name: add the seat number (as the seat list shows it) so log lines stay clear.
  const twins = seats.filter((s) => s && String(s.name || "") === name).length;
  return twins > 1 ? `${name} (${seatLabel(seat)})` : name;
}

function isLocal(seat) {
  return page.clients.some((c) => c.token && c.state && c.state.seat === seat);
}

/** The game's keyboard shortcuts, from its module: [[["Tab", "←"], "move"], [["Enter"], "play"], ...]. */
function showKeyHelp(entries) {
  const box = document.querySelector(".keys-help");
  if (!box) return;
  const parts = [];
  entries.forEach(([keys, what], index) => {
    if (index) parts.push(" · ");
    keys.forEach((key, k) => {
      if (k) parts.push("/");
      parts.push(h("kbd", {}, key));
    });
    parts.push(` ${what}`);
  });
  replaceChildren(box, ...parts);
  box.hidden = entries.length === 0;
}

/** Load the game's module and create its board, once (several clients may ask at the same time). */
function loadModule(game) {
  if (!page.moduleLoading) {
    if (!GAME_NAME.test(game)) return Promise.reject(new Error(`this page cannot show the game "${game}"`));
    page.moduleLoading = Promise.all([import(`./games/${game}.js`), fetchGameInfo(game)]).then(async ([module, info]) => {
      await useStylesheet(module.stylesheet); // a game with a stylesheet of its own: never drawn unstyled first
      page.module = module;
      page.gameInfo = info;
      showKeyHelp(module.keyHelp || []);
      page.board = module.createBoard($("board"), {
        act: (notation) => {
          clearWhyNot(); // the next move takes the last "why not?" away
          guideBeforeAct(); // a table the guide paused goes on: the person is moving
          return shownClient()?.act(notation);
        },
        check: (notation) => shownClient()?.check(notation) ?? Promise.reject(new Error("not connected")),
      });
      return module;
    });
  }
  return page.moduleLoading;
}

/** The game's entry of /api/games (its title, declarations, default static data), or null if it cannot be had. */
async function fetchGameInfo(game) {
  try {
    const response = await fetch("/api/games", { headers: { Accept: "application/json" } });
    if (!response.ok) return null;
    const data = await response.json();
    return (data.games || []).find((g) => g.name === game) || null;
  } catch {
    return null; // the table's own welcome still has everything needed to play
  }
}

function connectionSummary() {
  const order = ["failed", "closed", "reconnecting", "connecting", "idle", "open"];
  let worst = "open";
  for (const client of page.clients) {
    if (order.indexOf(client.status) < order.indexOf(worst)) worst = client.status;
  }
  return worst;
}

const STATUS_TEXT = {
  open: "Connected",
  connecting: "Connecting…",
  idle: "Connecting…",
  reconnecting: "Reconnecting…",
  closed: "Disconnected",
  failed: "Cannot connect",
};

function renderStatus() {
  const status = connectionSummary();
  $("conn").dataset.status = status;
  $("conn-text").textContent = STATUS_TEXT[status] || status;
}

function decideShownSeat() {
  if (!page.hotseat) return;
  const ref = freshest();
  if (!ref || !page.module) return;
  const active = page.module.activeSeat(ref.state.view, { isLocal, static: ref.state.static });
  const localActive = active !== null && isLocal(active);
  if (page.shownSeat === null) {
    // First time: cover the screen for whoever plays first here, so nobody sees a hand by accident.
    const first = localActive ? active : page.clients.find((c) => c.state)?.state.seat;
    page.shownSeat = first;
    page.coverFor = first;
    page.revealed = false;
    return;
  }
  if (localActive && active !== page.shownSeat && page.coverFor !== active) {
    page.coverFor = active;
    page.revealed = false;
  }
}

function render() {
  renderStatus();
  const client = shownClient();
  const state = client && client.state;
  if (!state || !page.module) return;
  const { table, view } = state;
  const module = page.module;
  if (!page.deck) page.deck = module.makeDeck(page.gameInfo, state.static);
  setRulesSheet(state.static && state.static.rules);
  const pausable = Boolean(table && table.pausable && client.token && !page.hotseat && !state.outcome);
  updateGuide({ tableId: page.tableId, token: client.token, seat: state.seat, version: state.version,
    act: (notation) => client.act(notation), before: $("board"),
    pause: { pausable, paused: Boolean(state.paused), set: (paused) => (paused ? client.pause() : client.resume()) } });
  if (!page.guideOffered && page.gameInfo && !isGuided(page.tableId)) {
    page.guideOffered = true;
    const offer = guideButton(page.gameInfo, { className: "btn btn-small btn-quiet topbar-guide", leaving: leavingWords });
    if (offer) $("rules-open").after(offer);
    if (offer) setRulesExtra(() => guideButton(page.gameInfo, { leaving: leavingWords }));
  }
  const names = (seat) => seatName(table, seat);

  // Header
  $("game-title").textContent = (page.gameInfo && page.gameInfo.title) || (table && table.title) || module.title;
  $("table-id").textContent = page.tableId;
  const active = module.activeSeat(view);
  let turnText;
  if (state.outcome) turnText = "Game over";
  else if (table && table.held) turnText = "Waiting for the room to start"; // rooms: the shared screen starts it
  else if (state.paused) turnText = "Paused"; // a real-time table whose clock stands still: every screen says so
  // A game where several seats act at once (Bermuda; Hold your Hat's guessers) words its own status.
  else if (module.statusText) turnText = module.statusText(view, names, state.seat);
  else if (active === null) turnText = "In play";
  else if (isLocal(active) && (!page.hotseat || active === page.shownSeat)) turnText = page.hotseat ? `${names(active)}: your turn` : "Your turn";
  else turnText = `${names(active)} to play`;
  if (active !== page.lastActive) clearWhyNot(); // the turn moved on: a "why not?" about the last one is stale
  page.lastActive = active;
  const mine = /your turn/i.test(turnText);
  $("turn").textContent = turnText;
  // The clock per move of the seat to play (a table made with one), counting down beside whose turn it is. Hidden
  // from screen readers here (the turn is a live region, which would read it every second); the seat list says it.
  const clockSeat = table && active !== null && !state.outcome ? (table.seats || [])[active] : null;
  const turnClock = clockSeat ? clockBadge(clockSeat) : null;
  if (turnClock) {
    turnClock.setAttribute("aria-hidden", "true");
    turnClock.classList.add("topbar-clock");
    $("turn").append(" ", turnClock);
  }
  $("turn").classList.toggle("is-mine", mine);
  document.title = `${mine ? "▶ " : ""}${turnText} · ${$("game-title").textContent} · divedeck`;
  if (mine && page.wasMine === false) yourTurn();
  signalTurn(mine, mine && page.wasMine === false, { title: `${turnText} · ${$("game-title").textContent}`,
    body: `divedeck table ${page.tableId}` });
  page.wasMine = mine;
  $("undo").hidden = !(client.token && state.canUndo && !state.outcome);
  $("undo").disabled = client.busy;
  // Pause / Resume: a real-time table whose one person (this screen) plays against bots.
  const pauseButton = $("pause");
  pauseButton.hidden = !pausable;
  const pauseIcon = pauseButton.querySelector(".pause-icon");
  pauseIcon.textContent = state.paused ? "▶" : ""; // two bars drawn by the style sheet (fonts often lack ⏸)
  pauseIcon.classList.toggle("is-bars", !state.paused);
  pauseButton.querySelector(".pause-word").textContent = state.paused ? " Resume" : " Pause";
  pauseButton.title = state.paused ? "Let the clock go on" : "Stop the clock (the bots wait too)";
  pauseButton.setAttribute("aria-label", state.paused ? "Resume" : "Pause");
  document.body.classList.toggle("is-paused", Boolean(state.paused));
  const replay = $("replay-link");
  replay.hidden = !state.outcome;
  replay.href = `/replay/${encodeURIComponent(page.tableId)}${state.seat !== null && !page.hotseat ? `#seat=${state.seat}` : ""}`;

  renderSeats(table, view, names);
  renderPeople(state, names);

  // Cover (hot-seat)
  const covered = page.hotseat && !page.revealed && page.coverFor !== null;
  $("cover").hidden = !covered;
  $("main").inert = covered;
  if (covered) {
    // Nothing of a hand or a private log line stays on the page under the cover.
    $("board").replaceChildren();
    $("log").replaceChildren();
    $("gameover").hidden = true;
    page.lastLogKey = "";
    renderCover(names);
    return;
  }

  if (page.hotseat && state.outcome) {
    // Everyone is at the screen now: show the result, not the last player's hand.
    $("board").replaceChildren();
  } else {
    withFlights($("board"), () => page.board.render({
      view,
      legal: state.legal,
      seat: state.seat,
      busy: client.busy,
      names,
      seats: table ? table.seats : [],
      held: Boolean(table && table.held), // a room's table before the shared screen starts it
      paused: Boolean(state.paused), // a real-time table whose clock stands still
      clock: () => client.tableNow(), // the table's clock (ms), for the game's countdowns; null if not real-time
      deck: page.deck,
      static: state.static,
      log: state.log,
    }));
    // A control the board removed must not drop the focus to <body>, where the next Enter does nothing.
    const board = $("board");
    const lost = !board.contains(document.activeElement) || document.activeElement === board;
    if (page.boardFocus && lost && $("overlay").hidden) focusBoard();
  }
  renderLog(state, names);
  renderGameOver(state, names);
}

function renderSeats(table, view, names) {
  const list = $("seats");
  const active = page.module.activeSeat(view);
  const items = (table ? table.seats : []).map((entry) => {
    const seat = entry.seat;
    const markers = [];
    const local = isLocal(seat);
    if (local) markers.push(h("span", { class: "badge badge-you" }, page.hotseat ? "this screen" : "you"));
    if (entry.kind === "bot") markers.push(h("span", { class: "badge" }, `bot · ${entry.bot || "bot"}`));
    else if (entry.controller === "bot") markers.push(h("span", { class: "badge badge-warn" }, entry.timed_out ? "out of time · a bot plays" : "away · a bot plays"));
    markers.push(clockBadge(entry)); // the clock per move of the seat to play, if the table has one
    if (entry.away_until && !local) markers.push(h("span", { class: "badge badge-warn" }, "away · a bot in ", countdown(entry.away_until)));
    const online = entry.kind === "bot" || entry.connected;
    return h("li", { class: `seat-row${seat === active ? " is-active" : ""}` },
      h("span", { class: `presence${online ? " is-on" : ""}`, title: online ? "connected" : "not connected" }),
      h("span", { class: "seat-row-name" }, h("span", { class: "seat-row-num" }, seatLabel(seat)), entry.name ? ` · ${entry.name}` : ""),
      h("span", { class: "visually-hidden" }, online ? " (connected)" : " (not connected)"),
      seat === active ? h("span", { class: "seat-row-turn" }, "to play") : null,
      markers,
      page.lastMoves.has(seat) ? h("span", { class: "seat-row-last", title: "their last move" }, lastMoveWords(page.lastMoves.get(seat), names)) : null);
  });
  replaceChildren(list, items);
  const seated = page.clients.some((c) => c.token);
  $("leave").hidden = !seated || Boolean(page.clients[0]?.state?.outcome);
  const watch = $("watch-link");
  watch.hidden = false;
  watch.textContent = "Copy the watch link";
}

function renderCover(names) {
  const seat = page.coverFor;
  if ($("cover").dataset.for !== String(seat)) {
    $("cover").dataset.for = String(seat);
    page.coverShownAt = performance.now();
  }
  $("cover-title").textContent = `Pass the device to ${names(seat)}`;
  $("cover-ready").textContent = `I am ${names(seat)}: ${page.module?.coverReveal || "show my cards"}`;
  const box = $("cover-summary");
  const local = page.clients.filter((c) => c.token && c.state).map((c) => c.state.seat);
  const recap = page.recap.element(seat, local, (parts) => logLine(parts, null, names));
  replaceChildren(box, page.coverSummary
    ? page.module.summaryElement(page.coverSummary.roundEnd, page.coverSummary.gameOver, { names, deck: page.deck })
    : null, recap);
  if (!$("cover").contains(document.activeElement)) $("cover-ready").focus();
}

function renderLog(state, names) {
  const list = $("log");
  // A seat renamed changes every line that names it.
  const named = (state.table?.seats || []).map((s) => s.name).join("\u0001");
  const key = `${page.shownSeat}:${state.version}:${state.log.length}:${named}`;
  if (key === page.lastLogKey) return;
  page.lastLogKey = key;
  const nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  const module = page.module;
  const items = state.log.slice(-120).map((event) => {
    const tone = module.eventTone ? module.eventTone(event) : "";
    return h("li", { class: `log-line${tone ? ` log-${tone}` : ""}` }, logLine(event.parts, state.seat, names));
  });
  replaceChildren(list, items.length ? items : h("li", { class: "log-empty" }, "Nothing has happened yet."));
  screenFeed(items); // a room's shared screen shows the last few lines large (room.js)
  // The folded log (small screens) still says what happened last.
  $("log-peek").textContent = items.length ? items[items.length - 1].textContent : "";
  if (nearBottom || list.dataset.init !== "1") {
    list.scrollTop = list.scrollHeight;
    list.dataset.init = "1";
  }
}

/** A seat's last move for the seat list: its log parts in words (no "you": it is another seat's move). */
function lastMoveWords(move, names) {
  return Array.isArray(move) ? logLine(move, null, names) : String(move ?? "");
}

/** A log line from the server's parts: text as text, a seat by its name ("you" for the viewer), a card drawn by
 * the game's `cardChip` where it has one. */
function logLine(parts, viewer, names) {
  return (Array.isArray(parts) ? parts : []).map((part) => {
    if (Number.isInteger(part.seat)) {
      // On a shared screen "you" would be whoever holds the device: say the name.
      return part.seat === viewer && !page.hotseat ? "you" : names(part.seat);
    }
    if (typeof part.card === "string") {
      return page.module.cardChip ? page.module.cardChip(page.deck, part.card) : part.card;
    }
    return String(part.text ?? "");
  });
}

function rematchLink(tableId) {
  const mine = Object.keys(loadTokens(tableId)).length > 0;
  const href = `/table/${encodeURIComponent(tableId)}${mine ? "" : "#watch"}`;
  return h("a", { class: "btn btn-primary", href }, mine ? "Go to the rematch" : "Watch the rematch");
}

function renderGameOver(state, names) {
  const box = $("gameover");
  if (!state.outcome) {
    box.hidden = true;
    page.gameOverShown = false;
    return;
  }
  const found = page.module.findSummary(state.log) || {};
  const outcome = state.outcome;
  // No game-over event in the log kept here (a long game): the outcome says the same, in its own words.
  const gameOver = found.gameOver || {
    kind: "game_over", winners: outcome.winners || [], totals: outcome.scores || [],
    reason: outcome.reason ?? outcome.termination, rule: outcome.rule ?? null,
  };
  const focused = document.activeElement?.id;
  replaceChildren(box,
    page.module.summaryElement(found.roundEnd || null, gameOver, { names, viewer: page.hotseat ? null : state.seat, deck: page.deck }),
    h("div", { class: "gameover-actions" },
      rematchControls(state, names),
      h("a", { class: "btn", href: "/" }, "Back to the lobby")));
  if (focused && box.querySelector(`#${CSS.escape(focused)}`)) box.querySelector(`#${CSS.escape(focused)}`).focus({ preventScroll: true });
  box.querySelector(".summary-title")?.setAttribute("id", "gameover-title");
  box.hidden = false;
  if (!page.gameOverShown) {
    page.gameOverShown = true;
    $("overlay").hidden = true;
    box.scrollIntoView({ block: "start", behavior: "smooth" });
    (box.querySelector("#rematch") || box.querySelector("a"))?.focus({ preventScroll: true });
  }
}

// -- people at the table: names, drop-outs, the rematch question ------------------------------------------------

/** The time left until `until` (server milliseconds) as m:ss; `tickCountdowns` keeps it running. */
function countdown(until) {
  return countdownSpan(until);
}

function tickCountdowns() {
  for (const el of document.querySelectorAll(".notice-count[data-until]")) {
    el.textContent = timeLeft(Number(el.dataset.until));
    // A clock per move turns urgent in its last ten seconds.
    const badge = el.closest(".clock-badge");
    if (badge) badge.classList.toggle("is-urgent", Number(el.dataset.until) - (Date.now() + page.serverOffset) < 10000);
  }
  const now = Date.now();
  if ([...page.notices.values()].some((notice) => notice.until <= now)) render();
}

function noticesBox() {
  let box = $("notices");
  if (!box) {
    box = h("div", { id: "notices", class: "notices", role: "region", "aria-label": "Notices" });
    $("main").insertBefore(box, $("gameover"));
  }
  return box;
}

/** What changed for the other people since the last table: who dropped out, whom a bot plays for, who is back. */
function noticeChanges(table) {
  const seen = new Map((table.seats || []).map((s) => [s.seat, { away: Boolean(s.away_until), bot: s.kind === "human" && s.controller === "bot", late: Boolean(s.timed_out) }]));
  if (page.seen) {
    for (const [seat, now] of seen) {
      const before = page.seen.get(seat);
      if (!before || isLocal(seat)) continue;
      if (now.bot && !before.bot) page.notices.set(seat, { kind: now.late ? "late" : "bot", until: Date.now() + NOTICE_MS });
      else if (!now.bot && !now.away && (before.bot || before.away)) page.notices.set(seat, { kind: "back", until: Date.now() + NOTICE_MS });
      else if (now.away) page.notices.delete(seat);
    }
  }
  page.seen = seen;
}

function renderPeople(state, names) {
  const table = state.table;
  if (!table) return;
  noticeChanges(table);
  const items = [];
  for (const entry of table.seats || []) {
    const seat = entry.seat;
    if (isLocal(seat) || state.outcome) continue;
    if (entry.away_until) {
      items.push(h("p", { class: "notice notice-away" },
        h("span", { role: "status" }, `${names(seat)} dropped out: a bot plays for them unless they are back in`),
        countdown(entry.away_until)));
      continue;
    }
    const passing = page.notices.get(seat);
    if (!passing || passing.until <= Date.now()) {
      page.notices.delete(seat);
      continue;
    }
    items.push(passing.kind === "bot"
      ? h("p", { class: "notice notice-bot", role: "status" }, `A bot now plays for ${names(seat)} until they come back.`)
      : passing.kind === "late"
        ? h("p", { class: "notice notice-bot", role: "status" }, `${names(seat)} ran out of time: a bot plays for them until they act again.`)
        : h("p", { class: "notice notice-back", role: "status" }, `${names(seat)} is back.`));
  }
  // This screen's own seat played by its bot (its time ran out): one click, or any move, takes it back.
  for (const client of page.clients) {
    const entry = client.token && client.state ? (table.seats || [])[client.state.seat] : null;
    if (!entry || entry.kind !== "human" || entry.controller !== "bot" || state.outcome) continue;
    items.unshift(h("p", { class: "notice notice-mine", role: "status" },
      h("span", {}, entry.timed_out
        ? `${page.hotseat ? `${names(entry.seat)}: your` : "Your"} time ran out: a bot plays for you until you act again.`
        : "A bot plays for you."),
      h("button", { type: "button", class: "btn btn-small btn-primary take-back", onclick: () => client.back() }, "Take my seat back")));
  }
  replaceChildren(noticesBox(), items);
  renderRematchQuestion(state, names);
}

/** The local clients that hold a seat and whose answer the rematch question waits for. */
function waitingHere(vote) {
  const waiting = new Set((vote?.seats || []).filter((s) => s.answer === "waiting").map((s) => s.seat));
  return page.clients.filter((c) => c.token && c.state && waiting.has(c.state.seat));
}

function renderRematchQuestion(state, names) {
  const vote = state.table && !state.table.rematch ? state.table.rematch_vote : null;
  if (!vote) page.answered = false; // a new question is asked anew
  const asked = page.answered ? [] : waitingHere(vote);
  let dialog = $("rematch-dialog");
  if (!vote || !asked.length) {
    if (dialog && !dialog.hidden) {
      dialog.hidden = true;
      $("main").inert = false;
    }
    return;
  }
  if (!dialog) {
    dialog = h("div", { id: "rematch-dialog", class: "overlay people-dialog", role: "dialog", "aria-modal": "true", "aria-labelledby": "rematch-dialog-title" },
      h("div", { class: "overlay-card" },
        h("h2", { id: "rematch-dialog-title" }, ""),
        h("p", { id: "rematch-dialog-text" }, ""),
        h("div", { class: "dialog-actions" },
          h("button", { type: "button", class: "btn btn-primary", id: "rematch-accept", onclick: () => answerRematch(true) }, "Accept"),
          h("button", { type: "button", class: "btn", id: "rematch-decline", onclick: () => answerRematch(false) }, "Decline"))));
    document.body.append(dialog);
  }
  const who = asked.length > 1 ? "Everyone at this screen: play" : "Play";
  $("rematch-dialog-title").textContent = `${names(vote.by)} asks for a rematch`;
  $("rematch-dialog-text").textContent = `${who} again with the same seats and options? Whoever declines is played by a bot if the others go on.`;
  const opening = dialog.hidden !== false || !dialog.dataset.shown;
  dialog.hidden = false;
  dialog.dataset.shown = "1";
  $("main").inert = true;
  if (opening || !dialog.contains(document.activeElement)) $("rematch-accept").focus();
}

function answerRematch(accept) {
  const state = shownClient()?.state;
  for (const client of waitingHere(state?.table?.rematch_vote)) client.rematch({ accept });
  page.answered = true;
  $("rematch-dialog").hidden = true;
  $("main").inert = false;
  if (!accept) toast("You declined the rematch: you can watch it from here.", { kind: "info", timeout: 4000 });
}

/** The rematch part of the game-over panel: ask, or the question's answers (and, for the asker, moving on). */
function rematchControls(state, names) {
  const table = state.table || {};
  const seated = page.clients.filter((c) => c.token && c.state);
  if (table.rematch) return rematchLink(table.rematch);
  const vote = table.rematch_vote;
  if (!vote) {
    return seated.length ? h("button", { type: "button", class: "btn btn-primary", id: "rematch" }, "Rematch") : null;
  }
  const asker = seated.find((c) => c.state.seat === vote.by);
  const accepted = vote.seats.filter((s) => s.answer === "accepted").length;
  return h("div", { class: "rematch-vote" },
    h("p", {}, `${names(vote.by)} asked for a rematch:`),
    h("ul", { class: "vote-list", "aria-label": "Answers" }, vote.seats.map((s) => h("li", {},
      `${seatLabel(s.seat, table.seats?.[s.seat]?.name)}: `,
      h("span", { class: `vote-answer vote-${s.answer}` }, s.answer)))),
    asker ? h("div", { class: "dialog-actions" },
      h("button", { type: "button", class: "btn btn-primary", id: "rematch-start" },
        accepted === vote.seats.length ? "Start the rematch" : `Start now with ${accepted} (bots for the others)`),
      h("button", { type: "button", class: "btn btn-quiet", id: "rematch-cancel" }, "Cancel the rematch")) : null);
}

/** Whether the seat already has a name its person or the table's creator gave (then no prompt is needed). */
async function seatNamed(seat) {
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(page.tableId)}`, { headers: { Accept: "application/json" } });
    if (!response.ok) return false;
    const data = await response.json();
    return Boolean(data.table?.seats?.[seat]?.named);
  } catch {
    return false;
  }
}

/** What leaving this page for a guided game means, or "" when there is nothing to lose (a finished game, a
 * spectator). */
function leavingWords() {
  const state = shownClient()?.state;
  if (!state || state.outcome || state.seat === null || state.seat === undefined) return "";
  return "Leave this game for a guided game? A bot plays your seat while you are away; the table stays in "
    + "\"Your tables\" and in the lobby, to come back to.";
}

/** The name prompt an invite link opens before the seat is taken: resolves with the name, or "" to keep the
 * seat's own. */
function rememberedName() {
  try {
    return localStorage.getItem(NAME_KEY) || "";
  } catch {
    return "";
  }
}

function createdHere(tableId) {
  try {
    return sessionStorage.getItem(`divedeck.created.${tableId}`) === "1";
  } catch {
    return false;
  }
}

/**
 * A shared screen this tab made, its seats not all named in the lobby: "Who is playing at this screen?", once, a
 * name for each unnamed seat (empty keeps the server's "Player N"). Resolves with {seat: name}.
 */
async function askSeatNames(seats) {
  const asked = `divedeck.named.${page.tableId}`;
  let table = null;
  try {
    if (sessionStorage.getItem(asked) === "1") return {};
    const response = await fetch(`/api/tables/${encodeURIComponent(page.tableId)}`, { headers: { Accept: "application/json" } });
    table = response.ok ? (await response.json()).table : null;
  } catch {
    return {};
  }
  const unnamed = seats.map((spec) => spec.seat).filter((seat) => table?.seats?.[seat] && !table.seats[seat].named);
  if (!unnamed.length) return {};
  return new Promise((resolve) => {
    const inputs = unnamed.map((seat) => h("input", {
      type: "text", id: `seat-name-${seat}`, class: "name-input", maxlength: MAX_NAME, autocomplete: "off",
      placeholder: table.seats[seat].name, enterkeyhint: "next",
    }));
    const form = h("form", { class: "overlay-card", novalidate: true },
      h("h2", { id: "names-title" }, "Who is playing at this screen?"),
      h("p", { class: "field-help" }, "Each name shows by its seat, on the screen between turns and in the log."),
      h("div", { class: "seat-names" }, unnamed.map((seat, i) => h("div", { class: "seat-names-row" },
        h("label", { for: `seat-name-${seat}` }, `Seat ${seat + 1}`), inputs[i]))),
      h("div", { class: "dialog-actions" },
        h("button", { type: "submit", class: "btn btn-primary", id: "names-start" }, "Start"),
        h("button", { type: "button", class: "btn btn-quiet", id: "names-skip" }, "Keep Player 1, 2…")));
    const dialog = h("div", { id: "names-dialog", class: "overlay people-dialog", role: "dialog", "aria-modal": "true", "aria-labelledby": "names-title" }, form);
    const done = (names) => {
      try {
        sessionStorage.setItem(asked, "1");
      } catch {
        // private mode: asked again on a reload
      }
      dialog.remove();
      $("main").inert = false;
      resolve(names);
    };
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const names = {};
      unnamed.forEach((seat, i) => {
        const typed = inputs[i].value.replace(/\s+/g, " ").trim().slice(0, MAX_NAME);
        if (typed) names[seat] = typed;
      });
      done(names);
    });
    form.querySelector("#names-skip").addEventListener("click", () => done({}));
    $("main").inert = true;
    document.body.append(dialog);
    inputs[0].focus();
  });
}

function askName() {
  return new Promise((resolve) => {
    const remembered = rememberedName();
    const input = h("input", {
      type: "text", id: "name-input", class: "name-input", maxlength: MAX_NAME, autocomplete: "nickname",
      value: remembered, "aria-describedby": "name-help", enterkeyhint: "go",
    });
    const form = h("form", { class: "overlay-card", novalidate: true },
      h("h2", { id: "name-title" }, "Your name at this table"),
      h("p", { id: "name-help", class: "field-help" }, "The others see it next to your seat and in the log."),
      h("label", { for: "name-input", class: "visually-hidden" }, "Your name"),
      input,
      h("div", { class: "dialog-actions" }, h("button", { type: "submit", class: "btn btn-primary", id: "name-join" }, "Take my seat")));
    const dialog = h("div", { id: "name-dialog", class: "overlay people-dialog", role: "dialog", "aria-modal": "true", "aria-labelledby": "name-title" }, form);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const name = input.value.replace(/\s+/g, " ").trim().slice(0, MAX_NAME);
      try {
        if (name) localStorage.setItem(NAME_KEY, name);
      } catch {
        // private mode: the name still goes to the table
      }
      dialog.remove();
      $("main").inert = false;
      resolve(name);
    });
    $("main").inert = true;
    document.body.append(dialog);
    input.focus();
    input.select();
  });
}

// -- events from the clients -------------------------------------------------------------------------------------

function onUpdate(client, message) {
  if (page.hotseat && client.token && client.state) page.recap.record(client.state.seat, message);
  if (!page.module) return;
  // Each other seat's last move stays marked in the seat list until this screen moves again.
  if (client === shownClient() && Number.isInteger(message.actor) && message.actor >= 0) {
    if (isLocal(message.actor)) page.lastMoves.clear();
    else {
      // In words: the log parts of the move's own events (the server's player words), the notation only without.
      const said = (message.events || []).find((event) => Array.isArray(event.parts) && event.parts.length);
      page.lastMoves.set(message.actor, said ? said.parts : message.action);
    }
  }
  const summary = page.module.findSummary(message.events || []);
  if (!summary || summary.gameOver) return; // game over has its own panel
  // Only one of the local clients announces the round's end.
  if (client !== (page.hotseat ? page.clients.find((c) => c.state) : page.clients[0])) return;
  const names = (seat) => seatName(client.state.table, seat);
  decideShownSeat();
  if (page.hotseat && !page.revealed) {
    page.coverSummary = summary; // shown on the cover screen
    return;
  }
  page.coverSummary = null;
  replaceChildren($("overlay-body"), page.module.summaryElement(summary.roundEnd, null, { names, viewer: page.hotseat ? null : client.state.seat, deck: page.deck }));
  $("overlay").hidden = false;
  $("overlay-close").focus();
}

function onError(client, message) {
  const text = message.message || ERROR_TEXT[message.code] || message.code || "Something went wrong";
  const detail = [message.rule ? `Rule ${message.rule}` : "", message.code && message.code !== "illegal_action" ? message.code : ""]
    .filter(Boolean).join(" · ");
  toast(text, { kind: "error", detail });
  if (message.code === "bad_token" && client.token && client.state === null) {
    // Forget a token the server does not know, so the next visit does not try it again.
    const seat = [...Object.entries(loadTokens(page.tableId))].find(([, t]) => t === client.token)?.[0];
    if (seat !== undefined) forgetToken(page.tableId, Number(seat));
  }
  if (["bad_token", "not_found", "bad_protocol"].includes(message.code)) showProblem(message);
  render();
}

function showProblem(message) {
  const box = $("problem");
  const text = ERROR_TEXT[message.code] || message.message;
  replaceChildren(box,
    h("p", {}, h("strong", {}, text)),
    message.code === "bad_protocol"
      ? h("p", {}, h("button", { type: "button", class: "btn", onclick: () => location.reload() }, "Reload"))
      : h("p", { class: "problem-actions" },
        message.code === "bad_token"
          ? h("a", { class: "btn", href: `/table/${encodeURIComponent(page.tableId)}#watch`, onclick: () => setTimeout(() => location.reload(), 0) }, "Watch the table instead")
          : null,
        h("a", { class: "btn btn-quiet", href: "/" }, "Back to the lobby")));
  box.hidden = false;
}

function onRematch(client, message) {
  const newTable = message.table;
  if (!newTable) return;
  if (!page.rematch || page.rematch.table !== newTable) {
    page.rematch = { table: newTable, seats: new Map(), timer: null };
  }
  const seat = client.state ? client.state.seat : null;
  if (message.token && seat !== null) {
    saveToken(newTable, seat, message.token);
    page.rematch.seats.set(seat, message.token);
  }
  // Only who sits at the rematch moves on to it: spectators and those who declined stay, with a link to watch.
  if (!page.rematch.seats.size) {
    render();
    return;
  }
  if (!page.rematch.timer) {
    toast("The rematch is starting…", { kind: "ok", timeout: 3000 });
    page.rematch.timer = setTimeout(followRematch, 2000);
  }
  const expected = page.clients.filter((c) => c.token).length;
  if (page.rematch.seats.size >= expected) followRematch();
}

function followRematch() {
  const rematch = page.rematch;
  if (!rematch || rematch.done) return;
  rematch.done = true;
  clearTimeout(rematch.timer);
  const seats = [...rematch.seats.keys()];
  if (seats.length) saveTabSeats(rematch.table, seats);
  for (const client of page.clients) client.close();
  location.assign(`/table/${encodeURIComponent(rematch.table)}${seats.length ? "" : "#watch"}`);
}

/** Put the keyboard focus on the first thing worth pressing: something legal, then any enabled button. */
function focusBoard() {
  const board = $("board");
  const target = board.querySelector(".is-legal") || board.querySelector("button:enabled") || board;
  target.focus({ preventScroll: true });
}

// -- start ------------------------------------------------------------------------------------------------------

async function start() {
  page.tableId = tableIdFromPath();
  $("table-id").textContent = page.tableId;
  if (!page.tableId) {
    showProblem({ code: "not_found" });
    return;
  }
  const { watch, invited } = readFragment(page.tableId);
  const screen = screenMode(); // ?screen=CODE: a room's shared screen, a spectator shown large (room.js)
  const seats = localSeats(page.tableId, watch || screen);
  // The creator set the seats in the lobby (this tab made the table): no name prompt, the name this browser last
  // typed goes to an unnamed seat.
  const created = createdHere(page.tableId);
  const name = !invited || seats.length !== 1 || (await seatNamed(seats[0].seat)) ? ""
    : created ? rememberedName() : await askName();
  const seatNames = created && seats.length > 1 ? await askSeatNames(seats) : {}; // a shared screen: who plays?
  page.hotseat = seats.length > 1;
  document.body.classList.toggle("is-hotseat", page.hotseat);
  document.body.classList.toggle("is-spectator", seats.length === 0);
  const specs = seats.length ? seats : [{ seat: null, token: null }];
  for (const spec of specs) {
    const client = new TableClient({ tableId: page.tableId, token: spec.token, name: seatNames[spec.seat] || name });
    client.on("welcome", (message) => {
      if (Number.isFinite(message.now)) page.serverOffset = message.now - Date.now();
      setServerOffset(page.serverOffset);
    });
    client.on("status", render);
    client.on("busy", () => render());
    client.on("state", async (state) => {
      if (!page.module && state.table && state.table.game) {
        try {
          await loadModule(state.table.game);
        } catch (error) {
          showProblem({ code: "unknown_game", message: String(error.message || error) });
          return;
        }
      }
      decideShownSeat();
      render();
    });
    client.on("update", (message) => onUpdate(client, message));
    client.on("undone", (message) => { if (client === page.clients[0]) page.recap.undone(message.actor); });
    client.on("error", (message) => onError(client, message));
    client.on("rematch", (message) => onRematch(client, message));
    if (!page.clients.length) {
      const names = (seat) => seatName(client.state?.table, seat);
      const speaker = () => page.clients.find((c) => c.token && c.state && (!page.hotseat || c.seat === page.shownSeat)) || null;
      page.talk = createTalk($("talk"), { client: speaker, names });
      client.on("welcome", (message) => page.talk.welcome(message, seats.length > 0));
      client.on("chat", (message) => page.talk.add(message));
      client.on("reaction", (message) => page.talk.add(message));
    }
    page.clients.push(client);
  }
  for (const client of page.clients) client.connect();

  // On a small screen the board needs the height: the seats and the log start folded behind their titles.
  if (matchMedia("(max-width: 699px), (max-height: 599px)").matches) {
    for (const panel of document.querySelectorAll(".panel-fold")) panel.open = false;
  }
  document.addEventListener("focusin", (event) => {
    page.boardFocus = $("board").contains(event.target);
  });
  document.addEventListener("pointerdown", (event) => {
    if (!$("board").contains(event.target)) page.boardFocus = false;
  });

  $("cover-ready").addEventListener("click", () => {
    // A second press of the key that ended the last turn must not uncover the next player's cards at once.
    if (performance.now() - (page.coverShownAt || 0) < COVER_GUARD_MS) return;
    $("cover").dataset.for = "";
    page.shownSeat = page.coverFor;
    page.revealed = true;
    page.coverSummary = null;
    page.lastLogKey = "";
    render();
    focusBoard();
  });
  $("undo").addEventListener("click", () => shownClient()?.undo());
  $("pause").addEventListener("click", () => {
    const client = shownClient();
    if (client?.state) (client.state.paused ? client.resume() : client.pause());
  });
  const mute = $("mute");
  const showMute = () => {
    mute.setAttribute("aria-pressed", String(muted()));
    mute.textContent = `Sound on your turn: ${muted() ? "off" : "on"}`;
  };
  mute.addEventListener("click", () => {
    setMuted(!muted());
    showMute();
  });
  showMute();
  const notify = $("notify");
  const showNotify = () => {
    notify.hidden = !notifySupported() || page.clients.every((c) => !c.token);
    notify.setAttribute("aria-pressed", String(notifyOn()));
    notify.textContent = `Notify me on my turn: ${notifyOn() ? "on" : "off"}`;
  };
  notify.addEventListener("click", async () => {
    await toggleNotify();
    showNotify();
  });
  showNotify();
  $("overlay-close").addEventListener("click", () => {
    $("overlay").hidden = true;
    focusBoard();
  });
  $("leave").addEventListener("click", () => {
    if (!confirm("Leave the table? A bot will play for you until you come back with the same link.")) return;
    for (const client of page.clients) {
      client.leave();
    }
    setTimeout(() => {
      for (const client of page.clients) client.close();
      location.assign("/");
    }, 300);
  });
  $("watch-link").addEventListener("click", async (event) => {
    event.preventDefault();
    const url = `${location.origin}/table/${encodeURIComponent(page.tableId)}`;
    const ok = await copyText(url);
    toast(ok ? "Watch link copied" : url, { kind: ok ? "ok" : "info", detail: ok ? url : "Copy this link to share it" });
  });
  $("gameover").addEventListener("click", (event) => {
    const button = event.target.closest("#rematch, #rematch-start, #rematch-cancel");
    if (!button) return;
    const seated = page.clients.filter((c) => c.token && c.status === "open");
    const vote = shownClient()?.state?.table?.rematch_vote;
    const asker = vote ? seated.find((c) => c.state && c.state.seat === vote.by) : null;
    let sent = false;
    if (button.id === "rematch") {
      // Asking from this screen: the first of its seats asks, the others here accept at once.
      sent = seated.length > 0 && seated[0].rematch();
      for (const client of seated.slice(1)) client.rematch();
    } else if (asker) {
      sent = asker.rematch(button.id === "rematch-start" ? { start: true } : { accept: false });
    }
    if (sent) {
      button.disabled = true;
    } else {
      toast("Not connected: try again in a moment.", { kind: "error" });
    }
  });
  setInterval(tickCountdowns, 1000);
  setupRules($("rules-open"), $("rules"));

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (!$("cover").hidden) {
      if ((event.key === "Enter" || event.key === " ") && !event.repeat && event.target !== $("cover-ready")) {
        event.preventDefault();
        $("cover-ready").click();
      }
      return;
    }
    if (rulesOpen()) return; // the dialog handles its own keys (Escape closes it)
    if (!$("overlay").hidden) {
      if (event.key === "Escape") $("overlay-close").click();
      return;
    }
    const tag = (event.target && event.target.tagName) || "";
    if (["INPUT", "TEXTAREA", "SELECT"].includes(tag)) return;
    if (page.board && page.board.handleKey(event)) event.preventDefault();
  });
  window.addEventListener("pagehide", () => {
    for (const client of page.clients) client.close();
  });
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) location.reload(); // back from the page cache: the sockets were closed on the way out
  });
}

start();
