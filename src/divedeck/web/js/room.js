// A room's shared screen (/room/CODE): the game, the room code and a QR code of the join link, who has joined,
// bots for open seats, and Start. After the start it becomes the table page in screen mode
// (/table/ID?screen=CODE): a spectator, so it receives exactly the spectator view, shown large, with the code and
// QR code in a corner for a phone that must join again. The host token (from the lobby, in the fragment) stays in
// this browser's localStorage; names are shown as text, never as markup. See docs/protocol.md, "Rooms".

import { h, humanize, replaceChildren } from "./util.js";

const CODE = /^[A-HJ-NP-Z]{6}$/;
const HOST_KEY = "divedeck.room.";
const POLL_MS = 1000;
const $ = (id) => document.getElementById(id);

/** "ABCDEF" as "ABC DEF", easier to read across a room. */
export function spaced(code) {
  return `${code.slice(0, 3)} ${code.slice(3)}`;
}

/** The code, the join address and the QR code, as a block (the room page and the screen's corner). */
export function joinCard(code, { big = false } = {}) {
  return h("div", { class: `join-card${big ? " join-card-big" : ""}` },
    h("img", { class: "join-qr", src: `/api/rooms/${code}/qr.svg`, alt: `QR code of the join link for room ${code}`, width: big ? 320 : 160, height: big ? 320 : 160 }),
    h("div", { class: "join-words" },
      h("p", { class: "join-how" }, "Join on your phone at"),
      h("p", { class: "join-url" }, `${location.host}/join`),
      h("p", { class: "join-how" }, "with the code"),
      h("p", { class: "join-code", "data-code": code }, spaced(code))));
}

/** On the table page: ?screen=CODE makes it the room's shared screen. Returns whether it is. */
export function screenMode() {
  const code = new URLSearchParams(location.search).get("screen");
  if (!code || !CODE.test(code)) return false;
  document.body.classList.add("screen");
  document.head.append(h("link", { rel: "stylesheet", href: "/static/css/room.css" }));
  document.body.append(h("aside", { class: "screen-corner", "aria-label": "Join this room" }, joinCard(code),
    letBackIn(code)));
  document.body.append(h("aside", { class: "screen-feed", "aria-label": "The last moves", hidden: true },
    h("h2", { class: "screen-feed-title" }, "Last moves"), h("ol", { class: "screen-feed-lines" })));
  return true;
}

const FEED_LINES = 4;

/** The shared screen's feed: the last few log lines as the table page wrote them (the spectator's log, so nothing a
 * seat hides), the newest last. Does nothing on other pages. */
export function screenFeed(lines) {
  const feed = document.querySelector(".screen-feed");
  if (!feed) return;
  const shown = lines.slice(-FEED_LINES).map((line) => {
    const item = line.cloneNode(true);
    item.removeAttribute("id");
    return item;
  });
  replaceChildren(feed.querySelector(".screen-feed-lines"), shown);
  feed.hidden = shown.length === 0;
}

/** "A phone lost its seat?": the screen lets a player whose phone died join again by name (it alone may: a name
 * is public, so without the screen's word a name gives nobody a seat that is taken). */
function letBackIn(code) {
  const list = h("div", { class: "screen-rejoin-seats" });
  const box = h("details", { class: "screen-rejoin" },
    h("summary", {}, "A phone lost its seat?"), list);
  const show = async () => {
    const host = storedHost(code);
    try {
      if (!host) throw new Error("Only the browser that made this room can let a player back in.");
      const data = await fetchJSON("GET", `/api/rooms/${code}`, host);
      const seats = data.room.table.seats.filter((seat) => seat.kind === "human" && seat.named);
      replaceChildren(list, h("p", { class: "muted" }, "Let a player back in, then they join again with the code and their name:"),
        seats.map((seat) => h("button", {
          type: "button", class: "btn btn-small screen-readmit", "data-seat": seat.seat,
          onclick: async () => {
            try {
              await fetchJSON("POST", `/api/rooms/${code}/readmit`, host, { host, seat: seat.seat });
              replaceChildren(list, h("p", { class: "screen-rejoin-said", role: "status" },
                `${seat.name} can join again now: open ${location.host}/join on the phone, type the code and the name ${seat.name}.`));
            } catch (error) {
              replaceChildren(list, h("p", { class: "form-error", role: "alert" }, error.message));
            }
          },
        }, `Let ${seat.name} back in`)));
    } catch (error) {
      replaceChildren(list, h("p", { class: "form-error", role: "alert" }, error.message));
    }
  };
  box.addEventListener("toggle", () => { if (box.open) show(); });
  return box;
}

function storedHost(code) {
  try {
    return localStorage.getItem(HOST_KEY + code) || "";
  } catch {
    return "";
  }
}

async function fetchJSON(method, path, host, body = null) {
  const response = await fetch(path, {
    method,
    headers: { Accept: "application/json", "Content-Type": "application/json", "X-Room-Host": host },
    body: body ? JSON.stringify(body) : null,
  });
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = new Error((data && data.error && data.error.message) || `the server answered ${response.status}`);
    error.code = data && data.error && data.error.code;
    error.status = response.status;
    throw error;
  }
  return data;
}

// -- the room page ----------------------------------------------------------------------------------------------

const room = { code: "", host: "", game: null, state: null, timer: null, busy: false, leaving: false, invites: {} };

function readHost(code) {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  let host = params.get("host") || "";
  try {
    if (host) localStorage.setItem(HOST_KEY + code, host);
    else host = localStorage.getItem(HOST_KEY + code) || "";
  } catch {
    // private mode: the fragment's token is all there is
  }
  if (location.hash) history.replaceState(history.state, "", location.pathname + location.search);
  return host;
}

function problem(text) {
  const box = $("room-error");
  box.textContent = text;
  box.hidden = !text;
}

function call(method, path, body = null) {
  return fetchJSON(method, path, room.host, body);
}

async function loadGame(name) {
  const data = await call("GET", "/api/games");
  return (data.games || []).find((g) => g.name === name) || null;
}

function seatRow(seat) {
  const open = seat.kind === "human" && !seat.named;
  const label = h("span", { class: "room-seat-num" }, `Seat ${seat.seat + 1}`);
  if (!open) {
    const readmitted = (room.state.readmitted || []).includes(seat.seat);
    const who = seat.kind === "bot" ? "bot" : readmitted ? "may join again by name" : seat.connected ? "here" : "joined";
    const invite = room.invites[seat.seat];
    // A phone that died took its seat token with it: only this screen can let its person join again by name.
    const readmit = seat.kind === "human" && !readmitted ? h("button", {
      type: "button", class: "btn btn-small room-readmit",
      title: "For a player whose phone lost its seat: they join again with the code and the same name",
      onclick: () => act(() => call("POST", `/api/rooms/${room.code}/readmit`, { host: room.host, seat: seat.seat })),
    }, "Let back in") : null;
    return h("li", { class: "room-seat", "data-seat": seat.seat, "data-state": seat.kind === "bot" ? "bot" : "joined" },
      label, h("span", { class: "room-seat-name" }, seat.name), h("span", { class: "room-seat-tag" }, who), readmit,
      invite ? linkBox(invite, `Invite link for seat ${seat.seat + 1}: send it to a player who is not in the room`, "room-invite-link") : null);
  }
  const limited = (room.game && room.game.bot_players) || {};
  const players = room.state.table.seats.length;
  const bots = ((room.game && room.game.bots) || []).filter((bot) => !limited[bot] || limited[bot].includes(players));
  const labels = (room.game && room.game.bot_labels) || {};
  const select = h("select", { class: "room-bot-choice", "aria-label": `Bot for seat ${seat.seat + 1}` },
    bots.map((bot) => h("option", { value: bot, selected: bot === room.game.default_bot },
      labels[bot] ? `${humanize(bot)}: ${labels[bot]}` : humanize(bot))));
  const add = h("button", {
    type: "button", class: "btn btn-small room-add-bot", disabled: !bots.length,
    onclick: () => act(() => call("POST", `/api/rooms/${room.code}/bots`, { host: room.host, seat: seat.seat, bot: select.value })),
  }, "Add a bot");
  const invite = h("button", {
    type: "button", class: "btn btn-small room-invite",
    title: "A link for a player who is not in the room: the seat is kept for them",
    onclick: () => act(async () => {
      const data = await call("POST", `/api/rooms/${room.code}/invite`, { host: room.host, seat: seat.seat });
      room.invites[seat.seat] = `${location.origin}/table/${encodeURIComponent(data.room.table.id)}#seat=${data.seat}&token=${encodeURIComponent(data.token)}`;
      return data;
    }),
  }, "Invite link");
  return h("li", { class: "room-seat", "data-seat": seat.seat, "data-state": "open" },
    label, h("span", { class: "room-seat-name room-seat-open" }, "open"), bots.length ? [select, add] : null, invite);
}

/** A link shown as read-only text to copy (selected on focus). */
function linkBox(link, label, className) {
  return h("input", { class: `room-link ${className}`, readonly: true, value: link, "aria-label": label, title: label,
    onfocus: (event) => event.target.select() });
}

/** The table's options as people read them: each in its game's own words (its help line), never its field name;
 * the player count is left out (the seats show it). */
function optionWords(options) {
  const declared = new Map(((room.game && room.game.options) || []).map((o) => [o.name, o]));
  return Object.entries(options).filter(([name]) => name !== "num_players").map(([name, value]) => {
    const help = declared.get(name)?.help;
    const words = help ? help.charAt(0).toUpperCase() + help.slice(1) : humanize(name);
    return `${words}: ${value === true ? "yes" : value === false ? "no" : value}`;
  }).join(" · ");
}

function render() {
  const state = room.state;
  if (!state) return;
  const table = state.table;
  $("room-game").textContent = table.title;
  $("room-options").textContent = optionWords(table.options || {});
  replaceChildren($("room-seats"), table.seats.map(seatRow));
  replaceChildren($("room-watch"), h("span", { class: "room-watch-label" }, "Spectators watch at"),
    linkBox(`${location.origin}/table/${encodeURIComponent(table.id)}`, "Spectator link: anyone may watch the table with it", "room-spectator-link"));
  const waiting = state.open_seats.length;
  $("room-start").disabled = waiting > 0 || room.busy;
  $("room-waiting").textContent = waiting
    ? `Waiting for ${waiting} more player${waiting > 1 ? "s" : ""}: join on a phone, or add a bot.`
    : "Everyone is here.";
}

async function act(work) {
  if (room.busy) return;
  room.busy = true;
  problem("");
  try {
    const data = await work();
    if (data && data.room) room.state = data.room;
  } catch (error) {
    problem(error.message);
  } finally {
    room.busy = false;
    render();
    follow();
  }
}

function follow() {
  // Once: the start's answer and a poll may both see the room started, and a second replace aborts the first.
  if (room.state && room.state.started && !room.leaving) {
    room.leaving = true;
    clearInterval(room.timer);
    location.replace(`/table/${encodeURIComponent(room.state.table.id)}?screen=${room.code}`);
  }
}

async function poll() {
  try {
    const data = await call("GET", `/api/rooms/${room.code}`);
    const changed = JSON.stringify(data.room) !== JSON.stringify(room.state);
    room.state = data.room;
    if ($("room-error").textContent.startsWith("Lost")) problem("");
    if (changed) render(); // not every second: a bot being chosen keeps its choice
    follow();
  } catch (error) {
    if (error.status === 404 || error.status === 403) {
      problem(error.status === 404 ? "This room is closed: its game ended, or nobody came for a long time. Start a new room from the lobby."
        : "This browser is not this room's screen: open the room from the lobby that made it.");
      clearInterval(room.timer);
      return;
    }
    problem("Lost the server: trying again…"); // a restart: the room comes back
  }
}

async function init() {
  const code = decodeURIComponent(location.pathname.split("/").pop() || "").toUpperCase();
  if (!CODE.test(code)) {
    problem("That is not a room code.");
    return;
  }
  room.code = code;
  room.host = readHost(code);
  replaceChildren($("room-join"), joinCard(code, { big: true }));
  $("room-start").addEventListener("click", () => act(() => call("POST", `/api/rooms/${room.code}/start`, { host: room.host })));
  await poll();
  if (room.state) {
    try {
      room.game = await loadGame(room.state.table.game);
    } catch {
      room.game = null;
    }
    render();
  }
  room.timer = setInterval(poll, POLL_MS);
}

if (document.body && document.body.classList.contains("page-room")) init();
