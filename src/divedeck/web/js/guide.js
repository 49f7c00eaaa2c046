// Guided first games. A game that declares one (its `guide` in /api/games: a fixed deal, seats and options kept on
// the server) is offered as "Learn to play" in the lobby and on the table page. At a guided table a panel above the
// board shows the server's hint for the shown seat (GET /api/tables/{id}/hint): what to look at, the good move and
// why, with a button that plays the suggested move. The hints are the game's words; nothing here knows a rule.
//
// At a real-time guided table (the server says it is `pausable`: one person, bots at the other seats) the clock
// must not run while the person reads: a new hint that suggests a move pauses the table, and the panel says so
// with a "Continue" button. The table goes on when the person continues, plays the suggested move, or makes any
// move of their own. A hint that only says what to watch (no move) never pauses: the bots are the show then.

import { h, replaceChildren, saveToken, toast } from "./util.js";

const GUIDED = "divedeck.guide."; // sessionStorage key prefix: this tab plays table {id} as a guided game

/** Create the guided table of `game` and go to it (the human seats' tokens stay in this browser). */
export async function startGuide(game) {
  try {
    const response = await fetch("/api/tables", {
      method: "POST",
      headers: { "content-type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ game, guide: true, seats: [{ kind: "human" }] }),
    });
    const data = await response.json();
    if (!response.ok) throw new Error(data.message || data.detail || "the server refused");
    const { table, tokens } = data;
    tokens.forEach((token, seat) => { if (token) saveToken(table.id, seat, token); });
    sessionStorage.setItem(GUIDED + table.id, "1");
    location.assign(`/table/${encodeURIComponent(table.id)}`);
  } catch (error) {
    toast(`Could not start the guided game: ${error.message || error}`, { kind: "error" });
  }
}

/** A "Learn to play" button for `gameInfo` (from /api/games), or null when the game has no guided game. */
export function guideButton(gameInfo, { className = "btn btn-small", leaving = null } = {}) {
  if (!gameInfo || !gameInfo.guide) return null;
  // From a table still in play, `leaving()` says what leaving means; nobody leaves a game without being asked.
  return h("button", { type: "button", class: `${className} guide-start`, title: gameInfo.guide,
    onclick: () => {
      const warning = leaving ? leaving() : "";
      if (!warning || window.confirm(warning)) startGuide(gameInfo.name);
    } }, "Learn to play");
}

// key: the seat@version whose hint was asked; text: the last hint shown; hint: {text, notation} on screen;
// holding: this panel paused the table for `hint` ("asking" until the server says it is paused, then "held").
const guide = { key: "", panel: null, asking: null, text: "", hint: null, holding: null, pause: null };

export function isGuided(tableId) {
  try {
    return sessionStorage.getItem(GUIDED + tableId) === "1";
  } catch {
    return false;
  }
}

/** The table goes on if this panel paused it (the person is about to move): call before any move is sent. */
export function guideBeforeAct() {
  if (!guide.holding || !guide.pause) return;
  guide.holding = null;
  guide.pause.set(false);
  showHint();
}

/** Called on every render of the table page: show the hint for `seat` at `version` (asked once per version).
 * `pause`: {pausable, paused, set(paused)} for the table's clock. */
export function updateGuide({ tableId, token, seat, version, act, before, pause = null }) {
  if (!isGuided(tableId) || !token || !before) return;
  if (!guide.panel) {
    guide.panel = h("section", { id: "guide", class: "guide-panel", "aria-live": "polite", "aria-label": "Guide" });
    before.before(guide.panel);
  }
  guide.act = act;
  guide.pause = pause;
  if (guide.holding === "asking" && pause?.paused) guide.holding = "held";
  else if (guide.holding === "held" && !pause?.paused) { // resumed another way (the top bar's Resume)
    guide.holding = null;
    showHint();
  }
  const key = `${seat}@${version}`;
  if (key === guide.key) return;
  guide.key = key;
  const asked = fetch(`/api/tables/${encodeURIComponent(tableId)}/hint`, { headers: { Accept: "application/json", "x-seat-token": token } })
    .then((response) => (response.ok ? response.json() : null))
    .catch(() => null);
  guide.asking = asked;
  asked.then((answer) => {
    if (guide.asking !== asked || !answer || !answer.hint) return;
    const { text, notation } = answer.hint;
    const fresh = text !== guide.text;
    guide.text = text;
    guide.hint = { text, notation };
    const clock = guide.pause;
    if (fresh && notation && clock && clock.pausable && !clock.paused && !guide.holding) {
      guide.holding = "asking";
      clock.set(true);
    }
    showHint();
  });
}

function showHint() {
  if (!guide.panel || !guide.hint) return;
  const { text, notation } = guide.hint;
  const holding = Boolean(guide.holding);
  guide.panel.classList.toggle("is-holding", holding);
  replaceChildren(guide.panel,
    h("h2", { class: "guide-title" }, "Guide"),
    h("p", { class: "guide-text" }, text),
    h("div", { class: "guide-actions" },
      notation ? h("button", { type: "button", class: "btn btn-primary guide-play", "data-notation": notation,
        disabled: Boolean(guide.hint.played),
        onclick: (event) => {
          event.currentTarget.disabled = true;
          guide.hint.played = true; // a panel drawn again for this hint keeps its button off: one move per hint
          guideBeforeAct();
          guide.act(notation);
        } }, "Play this move") : null,
      holding ? h("button", { type: "button", class: "btn guide-continue",
        onclick: () => { guideBeforeAct(); document.getElementById("board")?.focus({ preventScroll: true }); } }, "Continue") : null,
      holding ? h("span", { class: "guide-paused", role: "status" }, "The clock waits while you read.") : null));
}
