// Small helpers shared by the lobby and the table page: building DOM, the token store, toasts.

/**
 * Build an element: h("button", {class: "x", onclick: fn, "aria-label": "..."}, "text", child, ...).
 * Attributes whose value is null, undefined or false are left out; `true` writes an empty attribute.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      el.addEventListener(name.slice(2), value);
    } else if (name === "dataset") {
      Object.assign(el.dataset, value);
    } else {
      el.setAttribute(name, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace every child of `el`. */
export function replaceChildren(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// -- seat tokens -------------------------------------------------------------------------------------------
// localStorage "divedeck.tokens.<tableId>" = {"<seat>": "<token>"}: the seats this browser plays at that table.

const TOKENS = "divedeck.tokens.";
const INVITES = "divedeck.invites.";
const TAB_SEATS = "divedeck.tabseats.";

function readJSON(storage, key) {
  try {
    const value = JSON.parse(storage.getItem(key) || "null");
    return value && typeof value === "object" ? value : null;
  } catch {
    return null;
  }
}

function writeJSON(storage, key, value) {
  try {
    storage.setItem(key, JSON.stringify(value));
  } catch {
    // Private mode or a full quota: the page still works, it just will not remember the seat.
  }
}

/** {seat: token} for the seats this browser holds at `tableId` (numbers as keys). */
export function loadTokens(tableId) {
  const raw = readJSON(localStorage, TOKENS + tableId) || {};
  const out = {};
  for (const [seat, token] of Object.entries(raw)) {
    if (/^\d+$/.test(seat) && typeof token === "string" && token) out[Number(seat)] = token;
  }
  return out;
}

export function saveToken(tableId, seat, token) {
  const all = readJSON(localStorage, TOKENS + tableId) || {};
  all[String(seat)] = token;
  writeJSON(localStorage, TOKENS + tableId, all);
}

export function forgetToken(tableId, seat) {
  const all = readJSON(localStorage, TOKENS + tableId) || {};
  delete all[String(seat)];
  writeJSON(localStorage, TOKENS + tableId, all);
}

/** Invite tokens (seats meant for other people) kept apart so that they never turn this browser into their seat. */
export function loadInvites(tableId) {
  return readJSON(localStorage, INVITES + tableId) || {};
}

export function saveInvites(tableId, invites) {
  writeJSON(localStorage, INVITES + tableId, invites);
}

/** The seats one browser tab chose through a `#seat=` link (kept per tab, so a reload keeps the choice). */
export function loadTabSeats(tableId) {
  const value = readJSON(sessionStorage, TAB_SEATS + tableId);
  return Array.isArray(value) ? value.filter((s) => Number.isInteger(s)) : null;
}

export function saveTabSeats(tableId, seats) {
  writeJSON(sessionStorage, TAB_SEATS + tableId, seats);
}

// -- a game's own stylesheet ---------------------------------------------------------------------------------

const stylesheets = new Map();

/** Add a game's stylesheet to the page once; the promise settles when it has loaded (or failed to), so a page can
 * draw the board only then and never show it unstyled for a moment. */
export function useStylesheet(href) {
  if (!href || typeof document === "undefined") return Promise.resolve();
  if (!stylesheets.has(href)) {
    stylesheets.set(href, new Promise((resolve) => {
      const link = h("link", { rel: "stylesheet", href });
      link.addEventListener("load", resolve);
      link.addEventListener("error", resolve);
      document.head.append(link);
    }));
  }
  return stylesheets.get(href);
}

// -- toasts ------------------------------------------------------------------------------------------------

let toastBox = null;

/** A short message in the corner; `kind` is "error", "info" or "ok". Read out by screen readers. */
export function toast(message, { kind = "info", detail = "", timeout = 6000 } = {}) {
  if (!toastBox) {
    toastBox = h("div", { class: "toasts", role: "status", "aria-live": "polite" });
    document.body.append(toastBox);
  }
  const close = h("button", { class: "toast-close", type: "button", "aria-label": "Dismiss" }, "×");
  const item = h("div", { class: `toast toast-${kind}` },
    h("div", { class: "toast-text" }, h("span", {}, message), detail ? h("span", { class: "toast-detail" }, detail) : null),
    close);
  const remove = () => item.remove();
  close.addEventListener("click", remove);
  toastBox.append(item);
  while (toastBox.children.length > 4) toastBox.firstElementChild.remove();
  if (timeout) setTimeout(remove, timeout);
  return item;
}

// The server's clock minus this page's (ms), from the welcome's `now`: countdowns count on the server's time.
let serverOffset = 0;
export function setServerOffset(ms) {
  serverOffset = Number.isFinite(ms) ? ms : 0;
}

/** The time left until `until` (server milliseconds) as m:ss. */
export function timeLeft(until) {
  const seconds = Math.max(0, Math.ceil((until - (Date.now() + serverOffset)) / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** A countdown to `until` (server ms) that the table page keeps running (`.notice-count[data-until]`). */
export function countdownSpan(until) {
  return h("span", { class: "notice-count", "data-until": String(until) }, timeLeft(until));
}

/** Who plays a seat now, for the board's seat panels: "bot" for a bot or a stand-in bot, "offline" for a person
 * not connected (with the time left before a bot takes over, which the table page keeps counting), nothing for a
 * person who is here. */
export function presenceBadge(publicSeat) {
  if (!publicSeat) return null;
  if (publicSeat.kind === "bot") return h("span", { class: "badge" }, "bot");
  if (publicSeat.controller === "bot") {
    return h("span", { class: "badge badge-warn presence-badge" }, publicSeat.timed_out ? "out of time · a bot plays" : "away · a bot plays");
  }
  if (publicSeat.connected !== false) return clockBadge(publicSeat);
  if (publicSeat.away_until) {
    return [h("span", { class: "badge badge-warn presence-badge" }, "offline · a bot in ", countdownSpan(publicSeat.away_until)),
      clockBadge(publicSeat)];
  }
  return [h("span", { class: "badge badge-warn presence-badge" }, "offline"), clockBadge(publicSeat)];
}

/** The clock per move of a seat whose turn it is (the table's clock, when it has one): the time left before its
 * bot plays for it, its move's seconds and then its reserve, counting down. Nothing when no clock runs for it. */
export function clockBadge(publicSeat) {
  if (!publicSeat || !publicSeat.time_until) return null;
  const left = publicSeat.time_until - (Date.now() + serverOffset);
  return h("span", { class: `badge badge-clock clock-badge${left < 10000 ? " is-urgent" : ""}`, title: "time left for this move (then a bot plays)" },
    h("span", { class: "visually-hidden" }, "time left "), countdownSpan(publicSeat.time_until));
}

/** "Why not?": the server's reason for a refused move in words, its rule ID small beside it. Only one at a time;
 * it leaves by itself after a few seconds, or at the next move (`clearWhyNot`, called by the table page). */
export function sayWhyNot(answer, fallback = "Not possible now") {
  clearWhyNot();
  toast(answer.reason || fallback, { kind: "error", detail: answer.rule ? `rule ${answer.rule}` : "", timeout: 5000 })
    .classList.add("toast-why");
}

export function clearWhyNot() {
  for (const el of document.querySelectorAll(".toast-why")) el.remove();
}

/** Copy text, falling back to selecting it when the clipboard API is not allowed (plain http on a LAN). */
export async function copyText(text, fallbackInput) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (fallbackInput) {
      fallbackInput.focus();
      fallbackInput.select();
      try {
        return document.execCommand("copy");
      } catch {
        return false;
      }
    }
    return false;
  }
}

/** How every page shows a seat: numbered from 1 for people (the wire's seat 0 is "Seat 1"), with its name when it
 * has one: "Seat 1 · Anna". */
export function seatLabel(seat, name = null) {
  const number = `Seat ${Number(seat) + 1}`;
  return name ? `${number} · ${name}` : number;
}

/** A friendly option label: "opponent_play_limit" -> "Opponent play limit". */
export function humanize(name) {
  const text = String(name).replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A unique id; crypto.randomUUID needs a secure context, so plain http on a LAN falls back to getRandomValues. */
export function uniqueId(prefix = "c-") {
  if (globalThis.crypto && typeof crypto.randomUUID === "function") {
    try {
      return prefix + crypto.randomUUID();
    } catch {
      // not a secure context
    }
  }
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return prefix + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
