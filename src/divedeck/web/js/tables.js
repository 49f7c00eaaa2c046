// "Your tables": every table this browser holds a seat at (the seat tokens kept in localStorage), with its game,
// the other players, whose turn it is and how long it has waited, a link back, and for a finished table its result
// and replay. What a table is comes from the server (GET /api/tables/{id}); nothing here knows a game.

import { h, loadTokens, replaceChildren, seatLabel } from "./util.js";

const TOKENS = "divedeck.tokens.";
const list = document.getElementById("your-tables");

function heldTables() {
  const ids = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    if (key && key.startsWith(TOKENS) && Object.keys(loadTokens(key.slice(TOKENS.length))).length) ids.push(key.slice(TOKENS.length));
  }
  return ids;
}

function waited(since) {
  const minutes = Math.max(0, Math.floor((Date.now() / 1000 - since) / 60));
  if (minutes < 1) return "just now";
  if (minutes < 60) return `for ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `for ${hours} h` : `for ${Math.floor(hours / 24)} days`;
}

function nameOf(table, seat) {
  return table.seats[seat]?.name || seatLabel(seat);
}

function describe(table, mine) {
  if (table.status === "finished") {
    const winners = table.winners || [];
    if (!winners.length) return "Finished · nobody won";
    if (winners.some((seat) => mine.includes(seat))) return "Finished · you won";
    return `Finished · ${winners.map((seat) => nameOf(table, seat)).join(" and ")} won`;
  }
  if (table.held || table.status === "waiting" && !table.to_move?.length) return "Waiting for players";
  const moving = table.to_move || [];
  if (moving.length > 2) return `Everyone plays at once · last move ${waited(table.moved_at).replace("for ", "")}`;
  if (moving.some((seat) => mine.includes(seat))) {
    const since = waited(table.moved_at);
    return `Your turn · ${since === "just now" ? since : `waiting ${since}`}`;
  }
  return `${moving.map((seat) => nameOf(table, seat)).join(" and ")} to play · ${waited(table.moved_at)}`;
}

function row(table) {
  const mine = Object.keys(loadTokens(table.id)).map(Number);
  const others = table.seats.filter((s) => !mine.includes(s.seat)).map((s) => s.name || seatLabel(s.seat));
  const yours = describe(table, mine).startsWith("Your turn");
  const link = `/table/${encodeURIComponent(table.id)}`;
  return h("li", { class: `table-item table-row${yours ? " is-your-turn" : ""}`, "data-table": table.id },
    h("div", { class: "table-row-head" },
      h("strong", {}, table.title), " ", h("code", { class: "muted" }, table.id)),
    h("p", { class: "table-row-seats" }, others.length ? `with ${others.join(", ")}` : "only your seats"),
    h("p", { class: `table-row-turn${yours ? " is-mine" : ""}` }, describe(table, mine)),
    h("div", { class: "table-row-actions" },
      h("a", { class: `btn btn-small${yours ? " btn-primary" : ""}`, href: link }, table.status === "finished" ? "Open the table" : "Back to the table"),
      table.status === "finished" ? h("a", { class: "btn btn-small", href: `/replay/${encodeURIComponent(table.id)}` }, "Replay") : null));
}

async function start() {
  const ids = heldTables();
  const tables = (await Promise.all(ids.map((id) => fetch(`/api/tables/${encodeURIComponent(id)}`, { headers: { Accept: "application/json" } })
    .then((r) => (r.ok ? r.json() : null)).then((d) => d && d.table).catch(() => null)))).filter(Boolean);
  // Your turn first, then the longest waiting; finished tables last.
  const rank = (t) => (t.status === "finished" ? 2 : describe(t, Object.keys(loadTokens(t.id)).map(Number)).startsWith("Your turn") ? 0 : 1);
  tables.sort((a, b) => rank(a) - rank(b) || a.moved_at - b.moved_at);
  replaceChildren(list, tables.length ? tables.map(row)
    : h("li", { class: "muted" }, "No table yet: start one from the ", h("a", { href: "/" }, "lobby"), "."));
}

start();
