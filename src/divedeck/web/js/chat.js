// Table talk: quick reactions and an optional chat, for any game. Everything said is shown as text (never as
// markup); the server keeps the limits (a line of up to 200 characters, a few messages per seat in ten seconds)
// and spectators only read.

import { h, replaceChildren } from "./util.js";

const EMOTE_TEXT = { hello: "Hello!", nice: "Nice!", oops: "Oops!", wow: "Wow!", thinking: "Thinking…", "good game": "Good game!" };
const SHOWN = 40;

/**
 * Fill `box` (a sidebar panel) with the reactions, the lines said and a chat form.
 * `client()` is the client that speaks for this screen (null: a spectator), `names(seat)` a seat's name.
 */
export function createTalk(box, { client, names }) {
  const lines = [];
  let emotes = [];
  const list = h("ol", { class: "talk-lines", "aria-live": "polite" });
  const reactions = h("div", { class: "talk-reactions", role: "group", "aria-label": "Quick reactions" });
  const input = h("input", { type: "text", class: "talk-input", maxlength: "200", placeholder: "Say something…", "aria-label": "Chat message", autocomplete: "off" });
  const form = h("form", { class: "talk-form" }, input, h("button", { type: "submit", class: "btn btn-small" }, "Send"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (text && client()?.chat(text)) input.value = "";
  });
  replaceChildren(box, h("h2", { class: "panel-title", id: "talk-title" }, "Table talk"), reactions, list, form);

  function draw() {
    replaceChildren(list, ...(lines.length ? lines.slice(-SHOWN) : [h("li", { class: "talk-empty" }, "No messages yet.")]));
    list.scrollTop = list.scrollHeight;
  }

  function add(message) {
    const said = message.type === "reaction" ? (EMOTE_TEXT[message.emote] || String(message.emote)) : String(message.text ?? "");
    lines.push(h("li", { class: `talk-line talk-${message.type}` }, h("strong", {}, `${names(message.seat)}: `), said));
    if (lines.length > SHOWN) lines.shift();
    draw();
  }

  return {
    /** From a welcome: the emotes offered and the recent lines. */
    welcome(message, speaking) {
      emotes = Array.isArray(message.emotes) ? message.emotes : emotes;
      replaceChildren(reactions, ...emotes.map((emote) => h("button", {
        type: "button", class: "btn btn-small talk-emote", "data-emote": emote, onclick: () => client()?.react(emote),
      }, EMOTE_TEXT[emote] || emote)));
      lines.length = 0;
      for (const said of Array.isArray(message.chat) ? message.chat : []) add(said);
      draw();
      form.hidden = !speaking;
      reactions.hidden = !speaking;
      box.hidden = false;
    },
    add,
  };
}
