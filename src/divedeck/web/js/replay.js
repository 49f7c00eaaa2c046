// The replay page: /replay/{id}[#seat=N]. A finished table's game step by step, as one seat or a spectator saw it,
// from the server's replay of its stored log (GET /api/tables/{id}/replay?seat=N). The board is the game's own
// module (`createBoard`), given each step's view and no legal actions: nothing here knows a rule.

import { h, loadTokens, replaceChildren, seatLabel, useStylesheet } from "./util.js";

const GAME_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const $ = (id) => document.getElementById(id);
const page = { tableId: "", replay: null, step: 0, module: null, board: null, deck: null, info: null };

function tableIdFromPath() {
  const match = location.pathname.match(/^\/replay\/([^/]+)$/);
  return match ? decodeURIComponent(match[1]) : "";
}

function seatFromFragment() {
  const seat = new URLSearchParams(location.hash.slice(1)).get("seat");
  return seat !== null && /^\d+$/.test(seat) ? Number(seat) : null;
}

function names(seat) {
  const entry = page.replay && page.replay.seats[seat];
  return entry && entry.name ? String(entry.name) : seatLabel(seat);
}

function problem(text) {
  replaceChildren($("problem"), h("p", {}, h("strong", {}, text)), h("p", {}, h("a", { class: "btn btn-quiet", href: "/" }, "Back to the lobby")));
  $("problem").hidden = false;
}

async function load(seat) {
  const query = seat === null ? "" : `?seat=${seat}`;
  // A seat's replay shows its hand: only a browser holding that seat's token may ask for it.
  const token = seat === null ? null : loadTokens(page.tableId)[seat];
  const headers = token ? { Accept: "application/json", "X-Seat-Token": token } : { Accept: "application/json" };
  const response = await fetch(`/api/tables/${encodeURIComponent(page.tableId)}/replay${query}`, { headers });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    problem((data.error && data.error.message) || "This table cannot be replayed.");
    return false;
  }
  page.replay = data;
  if (!page.module) {
    if (!GAME_NAME.test(data.game)) {
      problem("This page cannot show that game.");
      return false;
    }
    page.module = await import(`./games/${data.game}.js`);
    await useStylesheet(page.module.stylesheet);
    page.info = await fetch("/api/games").then((r) => r.json()).then((d) => (d.games || []).find((g) => g.name === data.game) || null).catch(() => null);
    page.deck = page.module.makeDeck(page.info, data.static);
    // No legal actions ever: the board can be looked at, not played on; `replay` tells it to leave out its live
    // controls (a breath button, a typing box) and to stop its clocks at each step's time.
    page.board = page.module.createBoard($("board"), {
      act: () => null, check: () => Promise.reject(new Error("a replay")), replay: true,
    });
  }
  $("game-title").textContent = data.title;
  fillSeats(seat);
  $("replay-range").max = String(data.steps.length - 1);
  return true;
}

function fillSeats(seat) {
  const select = $("replay-seat");
  if (select.options.length) return;
  select.append(h("option", { value: "" }, "a spectator"));
  const held = loadTokens(page.tableId);
  for (const entry of page.replay.seats) {
    if (held[entry.seat]) select.append(h("option", { value: String(entry.seat) }, `${seatLabel(entry.seat)} · ${names(entry.seat)}`));
  }
  select.value = seat === null ? "" : String(seat);
}

function logLine(parts, viewer) {
  return (Array.isArray(parts) ? parts : []).map((part) => {
    if (Number.isInteger(part.seat)) return part.seat === viewer ? "you" : names(part.seat);
    if (typeof part.card === "string") return page.module.cardChip ? page.module.cardChip(page.deck, part.card) : part.card;
    return String(part.text ?? "");
  });
}

function show(step) {
  const { steps, seat } = page.replay;
  page.step = Math.max(0, Math.min(steps.length - 1, step));
  const current = steps[page.step];
  const log = steps.slice(0, page.step + 1).flatMap((s) => s.events);
  page.board.render({
    view: current.view, legal: [], seat, busy: false, names, deck: page.deck, static: page.replay.static, log,
    seats: page.replay.seats.map((s) => ({ ...s, connected: true, controller: s.kind === "bot" ? "bot" : "human" })),
  });
  // The move in the log's words (its first line), never its notation: "Ana took a deep breath", not "hold @17…".
  const said = current.events.length ? logLine(current.events[0].parts, seat) : [];
  const what = said.length ? said : current.actor !== null && current.actor >= 0 ? [names(current.actor)] : [];
  replaceChildren($("step-text"), page.step === 0
    ? `The deal · ${steps.length - 1} moves`
    : [`Move ${page.step} of ${steps.length - 1}`, what.length ? " · " : "", ...what]);
  $("step-text").dataset.step = String(page.step);
  $("replay-range").value = String(page.step);
  $("replay-prev").disabled = $("replay-first").disabled = page.step === 0;
  $("replay-next").disabled = $("replay-last").disabled = page.step === steps.length - 1;
  const list = $("log");
  replaceChildren(list, ...log.slice(-120).map((event) => h("li", { class: "log-line" }, logLine(event.parts, seat))));
  list.scrollTop = list.scrollHeight;
}

async function start() {
  page.tableId = tableIdFromPath();
  $("table-id").textContent = page.tableId;
  if (!page.tableId || !(await load(seatFromFragment()))) return;
  show(0);
  $("replay-first").addEventListener("click", () => show(0));
  $("replay-prev").addEventListener("click", () => show(page.step - 1));
  $("replay-next").addEventListener("click", () => show(page.step + 1));
  $("replay-last").addEventListener("click", () => show(Infinity));
  $("replay-range").addEventListener("input", (event) => show(Number(event.target.value)));
  $("replay-seat").addEventListener("change", async (event) => {
    const seat = event.target.value === "" ? null : Number(event.target.value);
    history.replaceState(null, "", seat === null ? location.pathname : `#seat=${seat}`);
    const step = page.step;
    if (await load(seat)) show(step);
  });
  document.addEventListener("keydown", (event) => {
    if (event.target && ["INPUT", "SELECT"].includes(event.target.tagName)) return;
    if (event.key === "ArrowRight") show(page.step + 1);
    else if (event.key === "ArrowLeft") show(page.step - 1);
    else return;
    event.preventDefault();
  });
}

start();
