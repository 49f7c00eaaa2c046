// The rules sheet of the table page: a <dialog> opened by the header's "Rules" button. Generic over any game: it
// draws the sheet the game declares in its static data (`static.rules`: goal, sections of steps, every card, the
// variant in play from the table's options, a legend of the symbols on screen) and holds no rule itself.

import { h, replaceChildren } from "./util.js";

const state = { sheet: null, dialog: null, button: null, extra: null };

function sheetBody(sheet) {
  return [
    h("header", { class: "rules-head" },
      h("h2", { id: "rules-title", class: "rules-title" }, `How to play ${sheet.title || ""}`.trim()),
      h("button", { type: "button", class: "btn btn-small btn-quiet rules-close", "data-close": "", "aria-label": "Close the rules" }, "Close")),
    h("section", { class: "rules-section", "aria-labelledby": "rules-goal" },
      h("h3", { id: "rules-goal" }, "Goal"), h("p", {}, sheet.goal || "")),
    (sheet.sections || []).map((section, i) =>
      h("section", { class: "rules-section", "aria-labelledby": `rules-s${i}` },
        h("h3", { id: `rules-s${i}` }, section.title),
        h("ol", { class: "rules-steps" }, (section.items || []).map((item) => h("li", {}, item))))),
    h("section", { class: "rules-section", "aria-labelledby": "rules-cards" },
      h("h3", { id: "rules-cards" }, "The cards"),
      h("dl", { class: "rules-cards" }, (sheet.cards || []).map((card) => h("div", { class: "rules-card" },
        h("dt", {}, card.symbol ? h("span", { class: "rules-symbol", "aria-hidden": "true" }, card.symbol) : null,
          card.name, card.count ? h("span", { class: "rules-count" }, ` ×${card.count}`) : null),
        h("dd", {}, card.text))))),
    h("section", { class: "rules-section", "aria-labelledby": "rules-legend" },
      h("h3", { id: "rules-legend" }, "Symbols on the table"),
      h("dl", { class: "rules-legend" }, (sheet.legend || []).map((entry) => h("div", { class: "rules-legend-row" },
        h("dt", { class: "rules-symbol" }, entry.symbol), h("dd", {}, entry.meaning))))),
    h("section", { class: "rules-section", "aria-labelledby": "rules-variant" },
      h("h3", { id: "rules-variant" }, "At this table"),
      h("ul", { class: "rules-variant" }, (sheet.variant || []).map((line) => h("li", {}, line)))),
    h("p", { class: "rules-why" }, "Not sure why a card cannot be played? Tap it: the table answers with the rule."),
    state.extra ? h("p", { class: "rules-guide" }, "New to the game?", state.extra()) : null,
  ];
}

/** Wire the header's button and the dialog once; `sheet` may come later (setRulesSheet). */
export function setupRules(button, dialog) {
  state.button = button;
  state.dialog = dialog;
  button.addEventListener("click", () => openRules());
  dialog.addEventListener("click", (event) => {
    // A click on the backdrop (the dialog itself, outside its card) or on a close button closes it.
    if (event.target === dialog || event.target.closest("[data-close]")) dialog.close();
  });
  dialog.addEventListener("close", () => button.focus({ preventScroll: true }));
}

/** The sheet the game declared for this table (its static data's `rules`), or nothing: the button waits. */
export function setRulesSheet(sheet) {
  if (!state.button) return;
  state.sheet = sheet && typeof sheet === "object" ? sheet : null;
  state.button.hidden = !state.sheet;
}

/** Something the page offers at the foot of the sheet (the guided game): `make` returns a fresh element. */
export function setRulesExtra(make) {
  state.extra = typeof make === "function" ? make : null;
}

export function openRules() {
  if (!state.sheet || !state.dialog) return;
  replaceChildren(state.dialog, h("div", { class: "rules-sheet" }, sheetBody(state.sheet)));
  if (!state.dialog.open) state.dialog.showModal();
  state.dialog.querySelector(".rules-close").focus({ preventScroll: true });
}

export function rulesOpen() {
  return Boolean(state.dialog && state.dialog.open);
}
