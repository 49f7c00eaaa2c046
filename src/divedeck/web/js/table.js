// The table page, for any game: /table/{id}, optionally with #seat=N&token=... in the fragment.
//
// - One seat (a token from the fragment or from localStorage): one client, that seat's view.
// - Several local seats (hot-seat: tokens for several seats of this table in localStorage): one client per seat;
//   the page shows the seat whose turn it is, with a cover screen between two different local seats' turns.
// - No token: a spectator.
// The game's own module (js/games/<game>.js) draws the board; the log is the server's parts (text, seats, cards),
// rendered here for every game. Legality, labels and reasons come from the server's records and `check` answers.

import { TableClient } from "./client.js";
import {
  copyText, forgetToken, h, loadTabSeats, loadTokens, replaceChildren, saveTabSeats, saveToken, toast,
} from "./util.js";

// Game names as the server lists them: lower-case words and dashes, so one names a module file and nothing else.
const GAME_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

const $ = (id) => document.getElementById(id);
const COVER_GUARD_MS = 700;

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

/** Read #seat=N&token=T (or #watch), remember it, and take it out of the address bar. */
function readFragment(tableId) {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  let watch = params.has("watch");
  const seat = params.get("seat");
  const token = params.get("token");
  if (token && seat !== null && /^\d+$/.test(seat)) {
    saveToken(tableId, Number(seat), token);
    saveTabSeats(tableId, [Number(seat)]); // this tab plays this seat, even if the browser holds others
    watch = false;
  }
  if (location.hash) history.replaceState(history.state, "", location.pathname + location.search);
  return { watch };
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
  boardFocus: false, // the keyboard focus was last on the board (not moved elsewhere by the player)
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
  if (!name) return `Seat ${seat}`;
  // Two seats with the same name (two "greedy" bots): add the seat number so log lines stay clear.
  const twins = seats.filter((s) => s && String(s.name || "") === name).length;
  return twins > 1 ? `${name} (seat ${seat})` : name;
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
    page.moduleLoading = Promise.all([import(`./games/${game}.js`), fetchGameInfo(game)]).then(([module, info]) => {
      page.module = module;
      page.gameInfo = info;
      showKeyHelp(module.keyHelp || []);
      page.board = module.createBoard($("board"), {
        act: (notation) => shownClient()?.act(notation),
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
  const active = page.module.activeSeat(ref.state.view);
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
  const names = (seat) => seatName(table, seat);

  // Header
  $("game-title").textContent = (page.gameInfo && page.gameInfo.title) || (table && table.title) || module.title;
  $("table-id").textContent = page.tableId;
  const active = module.activeSeat(view);
  let turnText;
  if (state.outcome) turnText = "Game over";
  // A game where several seats act at once (Bermuda; Hold your Hat's guessers) words its own status.
  else if (module.statusText) turnText = module.statusText(view, names, state.seat);
  else if (active === null) turnText = "In play";
  else if (isLocal(active) && (!page.hotseat || active === page.shownSeat)) turnText = page.hotseat ? `${names(active)}: your turn` : "Your turn";
  else turnText = `${names(active)} to play`;
  const mine = /your turn/i.test(turnText);
  $("turn").textContent = turnText;
  $("turn").classList.toggle("is-mine", mine);
  document.title = `${mine ? "▶ " : ""}${turnText} · ${$("game-title").textContent} · divedeck`;

  renderSeats(table, view, names);

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
    page.board.render({
      view,
      legal: state.legal,
      seat: state.seat,
      busy: client.busy,
      names,
      seats: table ? table.seats : [],
      deck: page.deck,
      static: state.static,
    });
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
    else if (entry.controller === "bot") markers.push(h("span", { class: "badge badge-warn" }, "away · a bot plays"));
    const online = entry.kind === "bot" || entry.connected;
    return h("li", { class: `seat-row${seat === active ? " is-active" : ""}` },
      h("span", { class: `presence${online ? " is-on" : ""}`, title: online ? "connected" : "not connected" }),
      h("span", { class: "seat-row-name" }, names(seat)),
      h("span", { class: "visually-hidden" }, online ? " (connected)" : " (not connected)"),
      seat === active ? h("span", { class: "seat-row-turn" }, "to play") : null,
      markers);
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
  $("cover-ready").textContent = `I am ${names(seat)}: show my cards`;
  const box = $("cover-summary");
  if (page.coverSummary) {
    replaceChildren(box, page.module.summaryElement(page.coverSummary.roundEnd, page.coverSummary.gameOver, { names }));
  } else {
    box.replaceChildren();
  }
  if (!$("cover").contains(document.activeElement)) $("cover-ready").focus();
}

function renderLog(state, names) {
  const list = $("log");
  const key = `${page.shownSeat}:${state.version}:${state.log.length}`;
  if (key === page.lastLogKey) return;
  page.lastLogKey = key;
  const nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  const module = page.module;
  const items = state.log.slice(-120).map((event) => {
    const tone = module.eventTone ? module.eventTone(event) : "";
    return h("li", { class: `log-line${tone ? ` log-${tone}` : ""}` }, logLine(event.parts, state.seat, names));
  });
  replaceChildren(list, items.length ? items : h("li", { class: "log-empty" }, "Nothing has happened yet."));
  // The folded log (small screens) still says what happened last.
  $("log-peek").textContent = items.length ? items[items.length - 1].textContent : "";
  if (nearBottom || list.dataset.init !== "1") {
    list.scrollTop = list.scrollHeight;
    list.dataset.init = "1";
  }
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
  const seated = page.clients.some((c) => c.token);
  // Drawn again on every update: the button that had the focus gets it back.
  const controls = () => [...box.querySelectorAll("button, a")];
  const focused = controls().indexOf(document.activeElement);
  replaceChildren(box,
    page.module.summaryElement(found.roundEnd || null, gameOver, { names, viewer: page.hotseat ? null : state.seat }),
    h("div", { class: "gameover-actions" },
      seated && !(state.table && state.table.rematch)
        ? h("button", { type: "button", class: "btn btn-primary", id: "rematch" }, "Rematch") : null,
      state.table && state.table.rematch
        ? rematchLink(state.table.rematch) : null,
      h("a", { class: "btn", href: "/" }, "Back to the lobby")));
  box.querySelector(".summary-title")?.setAttribute("id", "gameover-title");
  box.hidden = false;
  if (focused >= 0) (controls()[focused] || controls()[0])?.focus({ preventScroll: true });
  if (!page.gameOverShown) {
    page.gameOverShown = true;
    $("overlay").hidden = true;
    box.scrollIntoView({ block: "start", behavior: "smooth" });
    (box.querySelector("#rematch") || box.querySelector("a"))?.focus({ preventScroll: true });
  }
}

// -- events from the clients -------------------------------------------------------------------------------------

function onUpdate(client, message) {
  if (!page.module) return;
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
  replaceChildren($("overlay-body"), page.module.summaryElement(summary.roundEnd, null, { names, viewer: page.hotseat ? null : client.state.seat }));
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
    toast("A rematch is starting…", { kind: "ok", timeout: 3000 });
    page.rematch.timer = setTimeout(followRematch, 2000);
  }
  const seat = client.state ? client.state.seat : null;
  if (message.token && seat !== null) {
    saveToken(newTable, seat, message.token);
    page.rematch.seats.set(seat, message.token);
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

function start() {
  page.tableId = tableIdFromPath();
  $("table-id").textContent = page.tableId;
  if (!page.tableId) {
    showProblem({ code: "not_found" });
    return;
  }
  const { watch } = readFragment(page.tableId);
  const seats = localSeats(page.tableId, watch);
  page.hotseat = seats.length > 1;
  document.body.classList.toggle("is-hotseat", page.hotseat);
  document.body.classList.toggle("is-spectator", seats.length === 0);
  const specs = seats.length ? seats : [{ seat: null, token: null }];
  for (const spec of specs) {
    const client = new TableClient({ tableId: page.tableId, token: spec.token });
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
    client.on("error", (message) => onError(client, message));
    client.on("rematch", (message) => onRematch(client, message));
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
    const button = event.target.closest("#rematch");
    if (!button) return;
    button.disabled = true;
    button.textContent = "Asking for a rematch…";
    const client = page.clients.find((c) => c.token && c.status === "open");
    if (!client || !client.rematch()) {
      button.disabled = false;
      button.textContent = "Rematch";
      toast("Not connected: try again in a moment.", { kind: "error" });
    }
  });

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (!$("cover").hidden) {
      if ((event.key === "Enter" || event.key === " ") && !event.repeat && event.target !== $("cover-ready")) {
        event.preventDefault();
        $("cover-ready").click();
      }
      return;
    }
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
