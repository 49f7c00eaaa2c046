// The lobby (/): the games, a form to start a table, and the open tables to watch.
//
// Everything about a game comes from its declarations in /api/games (title, summary, player range, front ends,
// bots, options with their help, rules, bounds and whether they are advanced, presets): no game or option is named
// here. Seats are shown numbered from 1 ("Seat 1"), as on the table page; the wire numbers them from 0.

import { guideButton } from "./guide.js";
import {
  copyText, h, humanize, loadInvites, loadTokens, replaceChildren, saveInvites, saveToken, seatLabel, toast,
} from "./util.js";

const $ = (id) => document.getElementById(id);
const REFRESH_MS = 5000;

const lobby = {
  games: [],
  game: null,
  seatChoices: [], // per seat: "invite" | "local" | "bot:<name>"
  preset: null, // the preset last applied, while the form still says what it set
  refreshTimer: null,
};

// -- the games and the form ----------------------------------------------------------------------------------

async function loadGames() {
  try {
    const response = await fetch("/api/games", { headers: { Accept: "application/json" } });
    if (!response.ok) throw new Error(`the server answered ${response.status}`);
    const data = await response.json();
    lobby.games = (Array.isArray(data.games) ? data.games : []).filter((g) => (g.frontends || []).includes("browser"));
  } catch (error) {
    replaceChildren($("games"), h("p", { class: "form-error" }, `Cannot load the games: ${error.message}`));
    return;
  }
  if (!lobby.games.length) {
    replaceChildren($("games"), h("p", { class: "muted" }, "No games are installed."));
    return;
  }
  renderGamePicker();
  selectGame(lobby.games[0].name);
}

function renderGamePicker() {
  replaceChildren($("games"), lobby.games.map((game, i) => {
    const id = `game-${game.name}`;
    return h("label", { class: "game-option", for: id },
      h("input", {
        type: "radio", name: "game", id, value: game.name, checked: i === 0,
        onchange: () => selectGame(game.name),
      }),
      h("span", { class: "game-option-title" }, game.title || humanize(game.name)),
      h("span", { class: "game-option-meta" }, playerCount(game)),
      game.summary ? h("span", { class: "game-option-summary" }, game.summary) : null);
  }));
  // New players: each game with a guided first game is one press away from it.
  const guided = [];
  for (const game of lobby.games) {
    const button = guideButton(game, { className: "btn btn-small" });
    if (button) button.textContent = `Learn to play ${game.title || humanize(game.name)}`;
    if (button) guided.push(button);
  }
  if (guided.length && !$("guide-offer")) {
    $("games").closest("fieldset").after(h("div", { id: "guide-offer", class: "guide-offer", role: "group", "aria-label": "Learn to play" },
      h("span", { class: "muted" }, "New here?"), guided));
  }
}

function playerCount(game) {
  if (game.min_players === game.max_players) return `${game.min_players} ${game.min_players === 1 ? "player" : "players"}`;
  return `${game.min_players}–${game.max_players} players`;
}

function selectGame(name) {
  lobby.game = lobby.games.find((g) => g.name === name) || lobby.games[0];
  const game = lobby.game;
  const players = $("players");
  const wanted = Number(game.default_players) || game.min_players;
  const preferred = Math.min(Math.max(wanted, game.min_players), game.max_players);
  const current = Number(players.value) || preferred;
  replaceChildren(players, range(game.min_players, game.max_players).map((n) => h("option", { value: n, selected: n === current }, String(n))));
  if (Number(players.value) !== current) players.value = String(preferred);
  lobby.preset = null;
  // Another game's choices may name bots this one does not have.
  lobby.seatChoices = lobby.seatChoices.map((choice) => (choice.startsWith("bot:") && !(game.bots || []).includes(choice.slice(4)) ? "" : choice));
  renderPresets();
  renderSeatChoices();
  renderOptions();
  renderClock();
}

/** The clock per move the server offers for this game (none for a game that keeps its own time): off by default. */
function renderClock() {
  const clocks = lobby.game.clocks || [];
  const chosen = $("clock").value || "off";
  $("clock-row").hidden = clocks.length === 0;
  replaceChildren($("clock"), h("option", { value: "off" }, "Off"),
    clocks.map((c) => h("option", { value: c.name, selected: c.name === chosen }, c.label)));
}

/** The clock chosen, for a table played from several screens (a table passed around one screen has none). */
function chosenClock(localSeats) {
  const value = $("clock-row").hidden ? "off" : $("clock").value;
  return value && value !== "off" && localSeats <= 1 ? value : null;
}

/** Where a preset's frontend seats people: all at this screen, or this screen for one and invite links. */
function presetChoice(preset, seat) {
  if (["shared-screen", "hotseat"].includes(preset.frontend)) return "local";
  return seat === 0 ? "local" : "invite";
}

function renderPresets() {
  const presets = lobby.game.presets || [];
  const box = $("presets");
  box.hidden = presets.length === 0;
  replaceChildren($("preset-choices"), presets.map((preset, index) => h("button", {
    type: "button", class: "btn preset", "aria-pressed": String(lobby.preset === index),
    "aria-describedby": `preset-${index}-help`, onclick: () => applyPreset(index),
  }, h("span", { class: "preset-title" }, preset.title),
  h("span", { class: "preset-help", id: `preset-${index}-help` }, preset.help))));
}

/** Seats, player count and options as the game's preset sets them, in one step. */
function applyPreset(index) {
  const preset = lobby.game.presets[index];
  const game = lobby.game;
  const players = Math.min(Math.max(Number(preset.players) || Number($("players").value) || game.default_players, game.min_players), game.max_players);
  $("players").value = String(players);
  lobby.seatChoices = range(0, players - 1).map((seat) => presetChoice(preset, seat));
  renderSeatChoices();
  for (const [name, value] of Object.entries(preset.options || {})) {
    const el = $("options").querySelector(`[data-option="${CSS.escape(name)}"]`);
    if (!el) continue;
    if (el.dataset.type === "bool") el.checked = Boolean(value);
    else el.value = String(value);
  }
  lobby.preset = index;
  renderPresets();
  $("create-form").querySelectorAll(".preset")[index]?.focus();
  toast(`${preset.title}: ${players} seats set`, { kind: "ok", timeout: 2500 });
}

function leavePreset() {
  if (lobby.preset === null) return;
  lobby.preset = null;
  renderPresets();
}

function range(from, to) {
  const out = [];
  for (let n = from; n <= to; n += 1) out.push(n);
  return out;
}

/** The bots that play a table of ``players``: a bot trained for some player counts only is offered at those. */
function botsFor(players) {
  const limited = lobby.game.bot_players || {};
  return (lobby.game.bots || []).filter((bot) => !limited[bot] || limited[bot].includes(players));
}

function defaultChoice(seat) {
  if (seat === 0) return "local";
  const bots = botsFor(Number($("players").value));
  const preferred = bots.includes(lobby.game.default_bot) ? lobby.game.default_bot : bots[0];
  return preferred ? `bot:${preferred}` : "invite";
}

/** Whether several people may share this screen: passing it on between turns, or playing at it together. */
function sharesScreen() {
  return (lobby.game.frontends || []).some((f) => f === "hotseat" || f === "shared-screen");
}

function botAbout(choice) {
  return choice.startsWith("bot:") ? (lobby.game.bot_labels || {})[choice.slice(4)] || "" : "";
}

function renderSeatChoices() {
  const n = Number($("players").value);
  const bots = botsFor(n);
  // A bot chosen at another player count may not play this one: its seat takes the default again.
  lobby.seatChoices = range(0, n - 1).map((seat) => {
    const choice = lobby.seatChoices[seat];
    return choice && !(choice.startsWith("bot:") && !bots.includes(choice.slice(4))) ? choice : defaultChoice(seat);
  });
  lobby.seatNames = range(0, n - 1).map((seat) => (lobby.seatNames || [])[seat] || "");
  replaceChildren($("seat-choices"), lobby.seatChoices.map((choice, seat) => {
    const id = `seat-${seat}`;
    const nameInput = h("input", {
      type: "text", id: `${id}-name`, class: "seat-name-input", maxlength: 40, autocomplete: "off",
      placeholder: "Name (optional)", value: lobby.seatNames[seat], "aria-label": `${seatLabel(seat)} name (optional)`,
      oninput: (event) => { lobby.seatNames[seat] = event.target.value; },
    });
    // The bot's description under the row, in full (in the closed list it was cut: "Bot: medium (plays by rule").
    const about = h("p", { class: "seat-choice-about", hidden: !botAbout(choice) }, botAbout(choice));
    const select = h("select", {
      id, onchange: (event) => {
        lobby.seatChoices[seat] = event.target.value;
        leavePreset();
        if (!sharesScreen() && event.target.value === "local") {
          // A game not played by passing one screen: one person per screen, the others get invite links.
          lobby.seatChoices = lobby.seatChoices.map((c, other) => (other !== seat && c === "local" ? "invite" : c));
          renderSeatChoices();
          return;
        }
        about.textContent = botAbout(event.target.value);
        about.hidden = !about.textContent;
        updateCreateLabel();
      },
    },
    h("option", { value: "local", selected: choice === "local" }, "Human at this screen"),
    h("option", { value: "invite", selected: choice === "invite" }, "Human with an invite link"),
    bots.map((bot) => h("option", { value: `bot:${bot}`, selected: choice === `bot:${bot}` }, `Bot: ${bot}`)));
    return h("li", { class: "seat-choice" }, h("label", { for: id }, seatLabel(seat)), select, nameInput, about);
  }));
  updateCreateLabel();
}

// The server lists only the options a lobby may set: no file on its disk, no player count (the seats give it).
function renderOptions() {
  const options = lobby.game.options || [];
  const basic = options.filter((o) => !o.advanced).map(optionField);
  const advanced = options.filter((o) => o.advanced).map(optionField);
  replaceChildren($("options"), basic,
    advanced.length
      ? h("details", { class: "options-advanced" }, h("summary", {}, "More options"), h("div", { class: "options-grid" }, advanced))
      : null);
}

function optionField(option) {
  const id = `opt-${option.name}`;
  // People read the game's own help line as the option's label, never its field name or the rules it comes from.
  const words = option.help ? option.help.charAt(0).toUpperCase() + option.help.slice(1) : humanize(option.name);
  const label = h("label", { for: id }, words);
  if (option.type === "bool") {
    return h("div", { class: "option option-bool" },
      h("input", { type: "checkbox", id, "data-option": option.name, "data-type": "bool", checked: Boolean(option.default) }),
      label);
  }
  let input;
  if (option.type === "choice") {
    input = h("select", { id, "data-option": option.name, "data-type": "choice" },
      (option.choices || []).map((c) => h("option", { value: String(c), selected: c === option.default }, humanize(c))));
  } else if (option.type === "int") {
    input = h("input", {
      type: "number", id, inputmode: "numeric", step: 1, "data-option": option.name, "data-type": "int",
      value: option.default ?? "", min: option.low ?? null, max: option.high ?? null, placeholder: option.default === null ? "default" : null,
    });
  } else {
    input = h("input", { type: "text", id, "data-option": option.name, "data-type": "str", value: option.default ?? "" });
  }
  return h("div", { class: "option" }, label, input);
}

function updateCreateLabel() {
  const local = lobby.seatChoices.filter((c) => c === "local").length;
  $("create").textContent = local > 1 ? `Create the table (${local} at this screen)` : "Create the table";
}

function readOptions() {
  const options = {};
  for (const el of $("options").querySelectorAll("[data-option]")) {
    const name = el.dataset.option;
    const meta = (lobby.game.options || []).find((o) => o.name === name);
    let value;
    if (el.dataset.type === "bool") value = el.checked;
    else if (el.dataset.type === "int") {
      if (el.value.trim() === "") continue;
      value = Number(el.value);
      if (!Number.isInteger(value)) throw new Error(`${humanize(name)} must be a whole number`);
    } else value = el.value;
    if (meta && value === meta.default) continue; // send only what differs from the defaults
    options[name] = value;
  }
  return options;
}

async function createTable(event) {
  event.preventDefault();
  const errorBox = $("create-error");
  errorBox.hidden = true;
  if (!lobby.game) return;
  let options;
  try {
    options = readOptions();
  } catch (error) {
    errorBox.textContent = error.message;
    errorBox.hidden = false;
    return;
  }
  const seats = lobby.seatChoices.map((choice, seat) => {
    const spec = choice.startsWith("bot:") ? { kind: "bot", bot: choice.slice(4) } : { kind: "human" };
    const name = (lobby.seatNames[seat] || "").trim();
    if (name) spec.name = name.slice(0, 40); // optional: the server names unnamed seats itself
    return spec;
  });
  const localSeats = lobby.seatChoices.flatMap((c, seat) => (c === "local" ? [seat] : []));
  const body = { game: lobby.game.name, options, seats, hotseat: localSeats.length > 1 };
  const clock = chosenClock(localSeats.length);
  if (clock) body.clock = clock;
  const button = $("create");
  button.disabled = true;
  try {
    const response = await fetch("/api/tables", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
    let data = null;
    try {
      data = await response.json();
    } catch {
      data = null;
    }
    if (!response.ok) {
      const error = data && data.error;
      throw new Error(error ? `${error.message}${error.code ? ` (${error.code})` : ""}` : `the server answered ${response.status}`);
    }
    showCreated(data.table, data.tokens || [], localSeats, seats.map((spec) => Boolean(spec.name)));
    refreshTables();
  } catch (error) {
    errorBox.textContent = `The table was not created: ${error.message}`;
    errorBox.hidden = false;
  } finally {
    button.disabled = false;
  }
}

// -- after creating a table --------------------------------------------------------------------------------------

function absolute(path) {
  return `${location.origin}${path}`;
}

function inviteUrl(tableId, seat, token) {
  return absolute(`/table/${encodeURIComponent(tableId)}#seat=${seat}&token=${encodeURIComponent(token)}`);
}

function linkRow(label, url, { secret = false } = {}) {
  const input = h("input", { type: "text", readonly: true, value: url, class: "link-input", "aria-label": label, onfocus: (e) => e.target.select() });
  const copy = h("button", {
    type: "button", class: "btn btn-small",
    onclick: async () => {
      const ok = await copyText(url, input);
      toast(ok ? `${label}: copied` : "Select the link and copy it", { kind: ok ? "ok" : "info", timeout: 2500 });
    },
  }, "Copy");
  return h("div", { class: `link-row${secret ? " is-secret" : ""}` }, h("span", { class: "link-label" }, label), input, copy);
}

function showCreated(table, tokens, localSeats, names) {
  const invites = {};
  tokens.forEach((token, seat) => {
    if (!token) return;
    if (localSeats.includes(seat)) saveToken(table.id, seat, token);
    else invites[String(seat)] = token;
  });
  // Invite tokens are kept apart: this browser must not sit down in a friend's seat.
  saveInvites(table.id, invites);
  try {
    // This tab chose the seats: its table page does not ask the creator's name again.
    sessionStorage.setItem(`divedeck.created.${table.id}`, "1");
    const typed = localSeats.map((seat) => (lobby.seatNames[seat] || "").trim()).find(Boolean);
    if (typed) localStorage.setItem("divedeck.name", typed.slice(0, 40));
  } catch {
    // private mode: nothing remembered
  }

  const rows = [];
  const inviteSeats = Object.keys(invites).map(Number);
  if (inviteSeats.length) {
    rows.push(h("h3", { class: "sub-title" }, "Invite links"),
      h("p", { class: "field-help" }, "Send each friend their own link: it is the key to their seat."));
    for (const seat of inviteSeats) rows.push(linkRow(seatLabel(seat, table.seats[seat]?.name), inviteUrl(table.id, seat, invites[seat]), { secret: true }));
  }
  const play = [];
  const localWithToken = localSeats.filter((seat) => tokens[seat]);
  if (localWithToken.length === 1) {
    const seat = localWithToken[0];
    play.push(h("a", { class: "btn btn-primary btn-big", href: `/table/${encodeURIComponent(table.id)}#seat=${seat}&token=${encodeURIComponent(tokens[seat])}` },
      `Play as ${seatLabel(seat, names[seat] ? table.seats[seat]?.name : null)}`));
  } else if (localWithToken.length > 1) {
    play.push(h("a", { class: "btn btn-primary btn-big", href: `/table/${encodeURIComponent(table.id)}` },
      `Play at this screen (${localWithToken.length} seats)`));
  }
  play.push(h("a", { class: "btn", href: `/table/${encodeURIComponent(table.id)}#watch` }, "Watch"));
  rows.push(h("h3", { class: "sub-title" }, "Spectators"), linkRow("Watch link", absolute(`/table/${encodeURIComponent(table.id)}`)));
  replaceChildren($("created-body"),
    h("p", {}, `${table.title || humanize(table.game)} · table `, h("code", {}, table.id), ` · ${table.seats.length} seats`),
    h("div", { class: "created-play" }, play),
    rows);
  $("created").hidden = false;
  $("created").focus();
  $("created").scrollIntoView({ block: "start", behavior: "smooth" });
}

// -- open tables --------------------------------------------------------------------------------------------------

function timeAgo(created) {
  const when = typeof created === "number" ? created * (created < 1e12 ? 1000 : 1) : Date.parse(created);
  if (!Number.isFinite(when)) return "";
  const seconds = Math.max(0, Math.round((Date.now() - when) / 1000));
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.round(seconds / 3600)} h ago`;
  return new Date(when).toLocaleDateString();
}

async function refreshTables() {
  clearTimeout(lobby.refreshTimer);
  try {
    const response = await fetch("/api/tables", { headers: { Accept: "application/json" } });
    if (!response.ok) throw new Error(`the server answered ${response.status}`);
    const data = await response.json();
    renderTables(Array.isArray(data.tables) ? data.tables : []);
  } catch (error) {
    replaceChildren($("tables"), h("li", { class: "form-error" }, `Cannot list the tables: ${error.message}`));
  }
  if (!document.hidden) lobby.refreshTimer = setTimeout(refreshTables, REFRESH_MS);
}

function renderTables(tables) {
  if (!tables.length) {
    replaceChildren($("tables"), h("li", { class: "muted" }, "No open tables. Start one above."));
    return;
  }
  replaceChildren($("tables"), tables.map((table) => {
    const mine = Object.keys(loadTokens(table.id)).map(Number);
    const invites = loadInvites(table.id);
    const seats = (table.seats || []).map((s) => h("li", { class: `mini-seat${s.kind === "bot" || s.connected ? " is-on" : ""}` },
      seatLabel(s.seat, s.name), s.kind === "bot" ? " (bot)" : s.controller === "bot" ? " (away)" : ""));
    const href = `/table/${encodeURIComponent(table.id)}`;
    const links = [];
    if (mine.length) links.push(h("a", { class: "btn btn-small btn-primary", href }, mine.length > 1 ? "Rejoin at this screen" : `Rejoin ${seatLabel(mine[0])}`));
    links.push(h("a", { class: "btn btn-small", href: `${href}#watch`, "aria-label": `Watch table ${table.id}` }, "Watch"));
    const inviteSeats = Object.keys(invites);
    return h("li", { class: "table-item" },
      h("div", { class: "table-item-main" },
        h("span", { class: "table-item-title" }, table.title || humanize(table.game)),
        h("code", { class: "table-item-id" }, table.id),
        h("span", { class: `status status-${table.status}` }, table.status),
        h("span", { class: "muted" }, timeAgo(table.created))),
      h("ul", { class: "mini-seats", "aria-label": "Seats" }, seats),
      inviteSeats.length
        ? h("details", { class: "table-invites" }, h("summary", {}, "Invite links"),
          inviteSeats.map((seat) => linkRow(seatLabel(Number(seat), table.seats?.[seat]?.name), inviteUrl(table.id, seat, invites[seat]), { secret: true })))
        : null,
      h("div", { class: "table-item-links" }, links));
  }));
}

// -- start ---------------------------------------------------------------------------------------------------------

$("players").addEventListener("change", () => {
  leavePreset();
  renderSeatChoices();
});
$("options").addEventListener("change", leavePreset);
$("create-form").addEventListener("submit", createTable);

// -- play in this room: this screen shows the table, each player joins on a phone with a code (room.js) ------------

async function createRoom() {
  const errorBox = $("create-error");
  errorBox.hidden = true;
  if (!lobby.game) return;
  const button = $("create-room");
  button.disabled = true;
  try {
    // Every seat open (the form's seat choices are for a table of invite links): the screen adds bots itself.
    const body = { game: lobby.game.name, options: readOptions(), players: lobby.seatChoices.length };
    const clock = chosenClock(1);
    if (clock) body.clock = clock;
    const response = await fetch("/api/rooms", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
    const data = await response.json().catch(() => null);
    if (!response.ok) throw new Error((data && data.error && data.error.message) || `the server answered ${response.status}`);
    location.assign(`/room/${data.room.code}#host=${encodeURIComponent(data.host)}`);
  } catch (error) {
    errorBox.textContent = `The room was not made: ${error.message}`;
    errorBox.hidden = false;
    button.disabled = false;
  }
}

$("create").after(h("button", { id: "create-room", type: "button", class: "btn btn-big", onclick: createRoom,
  title: "This screen shows the table; everyone joins on their phone with a code" }, "Play in this room"));
$("refresh").addEventListener("click", refreshTables);
document.addEventListener("visibilitychange", () => {
  if (!document.hidden) refreshTables();
});
loadGames();
refreshTables();
