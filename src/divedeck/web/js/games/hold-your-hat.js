// Hold your Hat in the browser: the board drawn from one seat's view, the sand timer, and the log lines.
//
// Everything shown comes from the server's view (src/divedeck/games/hold_your_hat/information.py): the word (for
// the clue-giver only: nobody else's view holds it), the timer, won cards, held special cards, the scores by round.
// What may be done comes only from the server's `legal` list: `guess ?` means "you may type a guess now",
// `theft B ?` "your team may play THEFT with a typed guess", `got A` "confirm that team A said it", and so on.
// Nothing here decides a rule; a refused clue or guess comes back as an error naming the rule.
//
// Two ways to play, from the same board:
// - online: each player in their own browser. The clue-giver sees the word and confirms spoken guesses (Got it);
//   teammates type guesses; other teams type THEFT guesses and play RAID before a turn. Round 3 (mime) needs no
//   text: the clue-giver confirms what the others said or showed on their own video call.
// - party (table option `party`, a hot-seat table whose seats are all in one browser): one screen passed around.
//   The page shows the clue-giver's view; big Got it / Skip / Foul buttons, the other teams' RAID and THEFT as
//   buttons the clue-giver presses when they call them out, and a beep when the timer runs out.

import { h, replaceChildren } from "../util.js";

export const name = "hold-your-hat";
export const title = "Hold your Hat";

/** Keyboard shortcuts for the clue-giver (table.js shows them under the log). */
export const keyHelp = [[["Space"], "start the timer"], [["G"], "got it"], [["S"], "skip"], [["F"], "foul (the clue-giver's keys)"]];

const LETTERS = "ABCDEF";
const ROUND_NAMES = { describe: "Describe", "one word": "One word", mime: "Mime" };
const ROUND_HELP = {
  describe: "Describe the word with as many words as you like, but no form of the word itself.",
  "one word": "One clue of a single word per card. Teammates may guess as often as they like.",
  mime: "No words at all: gestures, faces and sounds only.",
};
const TURN_END_REASONS = {
  timeout: "time is up",
  no_words: "no word left to explain this turn",
  round_complete: "the last word of the round is won",
};
const COLOR_HEX = { red: "#ff6b6b", orange: "#ff9f43", yellow: "#ffd84d", green: "#3ddc97", blue: "#5fa8ff", purple: "#b78cff" };

let stylesLoaded = false;

/** The game's stylesheet, added the first time a board is made (the table page is shared by every game). */
function loadStyles() {
  if (stylesLoaded || typeof document === "undefined") return;
  stylesLoaded = true;
  if (document.querySelector('link[href="/static/css/hold-your-hat.css"]')) return;
  document.head.append(h("link", { rel: "stylesheet", href: "/static/css/hold-your-hat.css" }));
}

/** Hold your Hat draws no cards from deck data. */
export function makeDeck() {
  return null;
}

/** The seat the table waits for: the active team's clue-giver (in party mode, who holds the screen). */
export function activeSeat(view) {
  return view && Number.isInteger(view.clue_giver) ? view.clue_giver : null;
}

/** The hat of the hat phrases and of the clue-giver, drawn in SVG (no emoji font needed). */
function hatIcon(label = null) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "hyh-hat");
  if (label) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
  } else {
    svg.setAttribute("aria-hidden", "true");
  }
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", "M7 3h10v12H7z M2 16h20v3H2z");
  path.setAttribute("fill", "currentColor");
  svg.append(path);
  return svg;
}

/** The top bar's words for this seat: whose turn, and what this seat does in it. */
export function statusText(view, names, seat) {
  if (!view || view.phase === "over") return "Game over";
  const giver = view.clue_giver;
  const mine = seat !== null && seat !== undefined;
  if (mine && seat === giver) return view.phase === "pre" ? "Your turn: start the timer" : "Your turn: give clues";
  if (mine && view.team === view.active_team) return view.phase === "pre" ? `${names(giver)} gives the clues` : "Guess!";
  return `${cap(teamName(view.active_team))}'s turn`;
}

export function teamName(team) {
  return `team ${LETTERS[team] ?? `#${team}`}`;
}

// -- the log (mirrors describe_event in src/divedeck/games/hold_your_hat/game.py) -------------------------------------

/**
 * A log line for an event as `viewer` sees it. With the default formatters it gives exactly the text of the Python
 * describe_event(); the page passes formatters that give seat names. Returns a list of parts.
 */
export function describeEventParts(shown, viewer = null, fmt = {}) {
  const who = fmt.who || ((seat) => (seat === viewer ? "you" : `seat ${seat}`));
  const team = (t) => teamName(t);
  const kind = shown.kind;
  switch (kind) {
    case "game_start": {
      const teams = shown.teams.map((seats, t) => `${team(t)}: seats ${seats.join(", ")}`).join("; ");
      return [`a game of ${shown.words} words in ${shown.color}, ${shown.rounds} round(s); ${teams}`];
    }
    case "round_start":
      return [`round ${shown.round} (${shown.type}) begins with ${team(shown.team)}`];
    case "turn_start": {
      const giver = shown.clue_giver === viewer ? "you give" : `${who(shown.clue_giver)} gives`;
      return [`${team(shown.team)}'s turn: ${giver} the clues`];
    }
    case "timer":
      return [`${who(shown.seat)} started the timer`];
    case "word":
      if ("word" in shown) {
        const hat = shown.points > 1 ? `, ${shown.points} points, ${shown.words} words` : "";
        return [`your word: "${shown.word}"${hat}`];
      }
      return [`a new word is being explained (${shown.deck} left in the deck)`];
    case "binoculars": {
      const seen = "cards" in shown ? `: you see ${shown.cards.join(", ")}` : "";
      return [`${who(shown.seat)} played BINOCULARS: the clue-giver looks at the top ${shown.count} cards${seen}`];
    }
    case "order":
      return [`${who(shown.seat)} put the top cards back in a new order`];
    case "raid":
      return [`${team(shown.team)} played RAID: they guess too this turn`];
    case "guess": {
      const w = who(shown.seat);
      if (shown.result === "blank") return [`${w} guessed nothing`];
      if (shown.result === "wrong") return [`${w} guessed "${shown.text}": no`];
      const said = "text" in shown ? ` "${shown.text}"` : "";
      if (shown.result === "ignored") return [`${w} guessed${said} again: ${team(shown.team)} already claims this word`];
      return [`${w} guessed${said}: right!`];
    }
    case "got":
      return [`${who(shown.seat)} confirmed that ${team(shown.team)} said it`];
    case "theft": {
      const head = `${team(shown.team)} played THEFT`;
      if (shown.result === "blank") return [`${head} without a guess: wrong`];
      if ("text" in shown) return [`${head}: "${shown.text}", ${shown.result}`];
      return [`${head}: ${shown.result}`];
    }
    case "claim":
      return [shown.opened ? `${team(shown.team)} claims the word` : `${team(shown.team)} claims it at the same time`];
    case "won": {
      const points = shown.points === 1 ? "1 point" : `${shown.points} points`;
      const contest = shown.claimed_by.length > 1
        ? ` (claimed by ${shown.claimed_by.map((t) => LETTERS[t]).join(" and ")} at once)` : "";
      return [`${team(shown.team)} won "${shown.word}", ${points}${contest}`];
    }
    case "skip":
      return [`${team(shown.team)} played SKIP${"word" in shown ? ` on "${shown.word}"` : ""}: the word is set aside`];
    case "foul":
      return [`foul${"word" in shown ? ` on "${shown.word}"` : ""}: the word is set aside`];
    case "clue":
      return [`${who(shown.seat)}: "${shown.text}"`];
    case "timeout":
      return ["time is up!"];
    case "extra_time_offer":
      return [`${team(shown.team)} may play EXTRA TIME`];
    case "extra_time":
      return [`${team(shown.team)} played EXTRA TIME: ${shown.words} more word(s) and the timer again`];
    case "decline":
      return [`${team(shown.team)} ends the turn without EXTRA TIME`];
    case "turn_end": {
      const back = shown.returned ? `; ${shown.returned} word(s) go under the deck` : "";
      return [`${team(shown.team)}'s turn is over (${TURN_END_REASONS[shown.reason] ?? shown.reason})${back}`];
    }
    case "special_reshuffle":
      return [`the used special cards were shuffled into a new deck of ${shown.deck}`];
    case "special_draw":
      return [`${team(shown.team)} drew ${shown.card}`];
    case "no_special":
      return [`no special card left for ${team(shown.team)}`];
    case "round_end": {
      const points = shown.points.map((p, t) => `${LETTERS[t]} +${p}`).join(", ");
      const totals = shown.totals.map((p, t) => `${LETTERS[t]} ${p}`).join(", ");
      return [`round ${shown.round} over: ${points} -> totals ${totals}`];
    }
    case "game_over": {
      const best = shown.totals[shown.winners[0]];
      if (shown.winners.length > 1) {
        return [`game over: teams ${shown.winners.map((t) => LETTERS[t]).join(" and ")} share the victory with ${best} points`];
      }
      return [`game over: ${team(shown.winners[0])} won with ${best} points`];
    }
    default:
      return [`${kind} ${JSON.stringify(shown)}`];
  }
}

export function describeEvent(shown, viewer = null) {
  return describeEventParts(shown, viewer).join("");
}

export function eventTone(shown) {
  if (["round_end", "game_over", "timeout"].includes(shown.kind)) return "major";
  if (["round_start", "won"].includes(shown.kind)) return "round";
  if (["word", "special_draw", "no_special", "order", "claim"].includes(shown.kind)) return "minor";
  return "";
}

// -- summaries ---------------------------------------------------------------------------------------------------

let lastTeams = null; // the teams of the last view drawn: members' names for the summaries

export function findSummary(events) {
  let roundEnd = null;
  let gameOver = null;
  for (const event of events) {
    if (event.kind === "round_end") roundEnd = event;
    if (event.kind === "game_over") gameOver = event;
  }
  return roundEnd || gameOver ? { roundEnd, gameOver } : null;
}

function teamLabel(team, names) {
  const members = lastTeams && lastTeams[team] ? lastTeams[team].members.map((s) => names(s)).join(", ") : "";
  return members ? `${teamName(team)} (${members})` : teamName(team);
}

/** The round's points and the totals per team (and the winners once the game is over). */
export function summaryElement(roundEnd, gameOver, { names = (s) => `seat ${s}` } = {}) {
  const totals = (gameOver && gameOver.totals) || (roundEnd && roundEnd.totals) || [];
  const winners = new Set(gameOver && Array.isArray(gameOver.winners) && gameOver.kind === "game_over" ? gameOver.winners : []);
  const rows = totals.map((total, team) => h("tr", { class: winners.has(team) ? "is-winner" : null },
    h("th", { scope: "row" }, cap(teamLabel(team, names)), winners.has(team) ? h("span", { class: "badge badge-win" }, "winner") : null),
    h("td", {}, roundEnd ? `+${roundEnd.points[team]}` : "–"),
    h("td", {}, String(total))));
  let heading;
  if (gameOver && gameOver.kind === "game_over") {
    const best = gameOver.totals[gameOver.winners[0]];
    heading = gameOver.winners.length > 1
      ? `Game over: teams ${gameOver.winners.map((t) => LETTERS[t]).join(" and ")} share the victory with ${best} points`
      : `Game over: ${teamName(gameOver.winners[0])} won with ${best} points`;
  } else if (roundEnd) {
    heading = `Round ${roundEnd.round} over`;
  } else {
    heading = "Game over";
  }
  return h("div", { class: "summary hyh-summary" },
    h("h2", { class: "summary-title" }, heading),
    h("table", { class: "summary-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Team"), h("th", { scope: "col" }, "This round"), h("th", { scope: "col" }, "Total"))),
      h("tbody", {}, rows)));
}

function cap(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// -- the legal list, read (never computed) -----------------------------------------------------------------------

export function readLegal(legal) {
  const out = {
    start: false, binoculars: false, skip: false, foul: false, extra: false, end: false, guess: false, order: false,
    raid: [], got: [], theft: [], verdict: [],
  };
  for (const action of legal || []) {
    const text = String(action).trim();
    const [verb, arg, tail] = text.split(" ");
    if (["start", "binoculars", "skip", "foul", "extra", "end"].includes(text)) out[text] = true;
    else if (text === "guess ?") out.guess = true;
    else if (verb === "order") out.order = true;
    else if (verb === "raid") out.raid.push(LETTERS.indexOf(arg));
    else if (verb === "got") out.got.push(LETTERS.indexOf(arg));
    else if (verb === "theft" && tail === "?") out.theft.push(LETTERS.indexOf(arg));
    else if (verb === "theft" && tail === "ok") out.verdict.push(LETTERS.indexOf(arg));
  }
  return out;
}

/** A typed text as the action notation quotes it (a JSON string). */
export function quoted(text) {
  return JSON.stringify(String(text).replace(/\s+/g, " ").trim());
}

// -- sound -------------------------------------------------------------------------------------------------------

let audio = null;

/** Make the page allowed to play sound: browsers only allow it after a click or a key. */
function unlockAudio() {
  try {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    if (!audio) audio = new Context();
    if (audio.state === "suspended") audio.resume();
  } catch {
    audio = null;
  }
}

/** Three short beeps, made by the page itself (no sound file). */
function beep() {
  if (!audio) return;
  try {
    const start = audio.currentTime;
    for (let i = 0; i < 3; i += 1) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "square";
      osc.frequency.value = i === 2 ? 660 : 880;
      gain.gain.setValueAtTime(0.0001, start + i * 0.28);
      gain.gain.exponentialRampToValueAtTime(0.25, start + i * 0.28 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + i * 0.28 + 0.22);
      osc.connect(gain).connect(audio.destination);
      osc.start(start + i * 0.28);
      osc.stop(start + i * 0.28 + 0.24);
    }
  } catch {
    // No sound is no reason to stop the game.
  }
}

// -- the board ---------------------------------------------------------------------------------------------------

/**
 * Draw the board into `root`; `api.act(action)` sends an action. Returns {render(ctx), handleKey(event), destroy()}.
 * ctx = {view, legal, seat, busy, names(seat), seats (public seats), deck}.
 */
export function createBoard(root, api) {
  loadStyles();
  let ctx = null;
  let offset = null; // server clock - this page's clock (ms), estimated from the views' `now` (a lower bound)
  let lastNow = null;
  let beepedFor = null; // the timer end that has already beeped
  let order = null; // the clue-giver's new order of the BINOCULARS cards: indexes into view.peek
  root.classList.add("hyh");
  root.dataset.beeps = "0";

  // Text boxes live across renders, so that typing is never lost when an update arrives.
  const guessBox = textBox("hyh-guess", "Your guess", 80);
  const theftBox = textBox("hyh-theft", "THEFT: your guess", 80);
  const clueBox = textBox("hyh-clue", "Type a clue", 140);

  function textBox(id, label, max) {
    return h("input", {
      type: "text", id, class: "hyh-input", maxlength: max, autocomplete: "off", autocapitalize: "off", spellcheck: "false",
      "aria-label": label, placeholder: label,
    });
  }

  const timerInterval = setInterval(tickClock, 200);

  function serverNow() {
    return Date.now() + (offset ?? 0);
  }

  function act(action) {
    unlockAudio();
    if (!ctx || ctx.busy) return;
    api.act(action);
  }

  function submit(box, make) {
    const text = box.value.trim();
    if (!text) return;
    box.value = "";
    act(make(text));
  }

  root.addEventListener("click", (event) => {
    const target = event.target.closest("[data-act]");
    if (!target || !root.contains(target) || !ctx) return;
    event.preventDefault();
    unlockAudio();
    const kind = target.dataset.act;
    if (kind === "send") act(target.dataset.action);
    else if (kind === "guess") submit(guessBox, (t) => `guess ${quoted(t)}`);
    else if (kind === "theft") submit(theftBox, (t) => `theft ${target.dataset.team} ${quoted(t)}`);
    else if (kind === "clue") submit(clueBox, (t) => `clue ${quoted(t)}`);
    else if (kind === "up" || kind === "down") moveInOrder(Number(target.dataset.index), kind === "up" ? -1 : 1);
    else if (kind === "order") act(`order ${order.map((i) => i + 1).join(",")}`);
  });
  for (const [box, kind] of [[guessBox, "guess"], [theftBox, "theft"], [clueBox, "clue"]]) {
    box.addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      event.preventDefault();
      root.querySelector(`[data-act="${kind}"]`)?.click();
    });
  }

  function moveInOrder(index, step) {
    const to = index + step;
    if (!order || to < 0 || to >= order.length) return;
    [order[index], order[to]] = [order[to], order[index]];
    render(ctx, `order-${to}-${step < 0 ? "up" : "down"}`);
  }

  /** The clock's text, every fifth of a second; and the beep when it reaches zero. The beep does not need the
   * board on screen: in party mode the hot-seat cover may already hide it when the turn ends. */
  function tickClock() {
    if (!ctx) return;
    const view = ctx.view;
    const running = view.timer !== null && view.timer !== undefined;
    const left = running ? Math.max(0, view.timer - serverNow()) : view.turn_ms;
    if (running && left <= 0) timeUp(view.timer);
    const el = root.querySelector(".hyh-clock");
    if (!el) return;
    const seconds = Math.ceil(left / 1000);
    el.textContent = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
    el.classList.toggle("is-low", running && left <= 10_000);
    const bar = root.querySelector(".hyh-bar-fill");
    if (bar) bar.style.width = `${Math.max(0, Math.min(100, (100 * left) / view.turn_ms))}%`;
  }

  function timeUp(timer) {
    if (beepedFor === timer) return;
    beepedFor = timer;
    root.dataset.beeps = String(Number(root.dataset.beeps) + 1);
    if (ctx.view.party || ctx.seat === ctx.view.clue_giver) beep();
  }

  function render(next, focusKey = null) {
    const active = document.activeElement;
    const keep = focusKey || (root.contains(active) ? active.dataset.key || active.id : null);
    const caret = active && active.tagName === "INPUT" ? [active.selectionStart, active.selectionEnd] : null;
    const before = ctx && ctx.view;
    ctx = next;
    const { view } = ctx;
    lastTeams = view.teams;
    // The server's clock stopped the timer (its tick is stamped at or after the end) before this page's did.
    if (before && before.timer !== null && before.timer !== undefined && view.timer !== before.timer
        && view.now >= before.timer) {
      ctx = { ...ctx, view: before };
      timeUp(before.timer);
      ctx = next;
    }
    if (view.now !== lastNow) {
      lastNow = view.now;
      const estimate = view.now - Date.now();
      offset = offset === null ? estimate : Math.max(offset, estimate);
    }
    const legal = readLegal(ctx.legal);
    if (!Array.isArray(view.peek)) order = null;
    else if (!order || order.length !== view.peek.length) order = view.peek.map((_, i) => i);
    root.classList.toggle("is-party", Boolean(view.party));
    const giver = ctx.seat !== null && ctx.seat !== undefined && ctx.seat === view.clue_giver;
    replaceChildren(root,
      statusLine(view),
      h("div", { class: "hyh-main" },
        view.phase === "over" ? null : timerPanel(view),
        stage(view, legal, giver)),
      teamsPanel(view),
      scoreTable(view));
    tickClock();
    if (keep) {
      const el = root.querySelector(`[data-key="${CSS.escape(keep)}"]`) || root.querySelector(`#${CSS.escape(keep)}`);
      if (el) {
        el.focus({ preventScroll: true });
        if (caret && el.tagName === "INPUT") el.setSelectionRange(caret[0], caret[1]);
      }
    }
  }

  // -- parts --

  function statusLine(view) {
    const bits = [
      h("span", { class: "pill pill-accent" }, `Round ${view.round} of ${view.rounds}: ${ROUND_NAMES[view.round_type] ?? view.round_type}`),
      h("span", { class: "pill hyh-color", style: `--hyh-color:${COLOR_HEX[view.color] ?? "#fff"}` },
        h("span", { class: "hyh-color-dot", "aria-hidden": "true" }), `Colour ${view.color}`),
      h("span", { class: "pill" }, `Deck ${view.deck_size}`),
    ];
    if (view.set_aside_count) bits.push(h("span", { class: "pill" }, `Set aside ${view.set_aside_count}`));
    bits.push(h("span", { class: "pill" }, view.judging === "auto" ? "Typed guesses" : "Spoken guesses"));
    if (view.party) bits.push(h("span", { class: "pill pill-accent" }, "Party mode"));
    return h("div", { class: "hyh-status" }, bits);
  }

  function timerPanel(view) {
    const running = view.timer !== null && view.timer !== undefined;
    const label = running ? (view.phase === "extra" ? "EXTRA TIME" : "Sand timer") : "Timer stopped";
    return h("section", { class: `hyh-timer${running ? " is-running" : ""}`, "aria-label": "Sand timer" },
      h("span", { class: "hyh-timer-label" }, label),
      h("span", { class: "hyh-clock", role: "timer", "aria-live": "off" }, ""),
      h("div", { class: "hyh-bar", "aria-hidden": "true" }, h("div", { class: "hyh-bar-fill" })));
  }

  function sendButton(action, text, { primary = false, big = false, key = null, hint = null } = {}) {
    return h("button", {
      type: "button", class: `btn${primary ? " btn-primary" : ""}${big ? " btn-big" : ""}`, "data-act": "send",
      "data-action": action, "data-key": `act-${action}`, disabled: ctx.busy,
    }, text, key ? h("kbd", {}, key) : null, hint ? h("span", { class: "hyh-btn-hint" }, hint) : null);
  }

  function stage(view, legal, giver) {
    const activeTeam = view.active_team;
    const out = [];
    const names = ctx.names;
    if (view.phase === "over") {
      out.push(h("p", { class: "hyh-lead" }, "The game is over."));
      return h("section", { class: "hyh-stage" }, out);
    }
    const giverName = names(view.clue_giver);
    const whose = `${cap(teamName(activeTeam))}'s turn · ${giver ? "you give" : `${giverName} gives`} the clues`;
    out.push(h("p", { class: "hyh-lead" }, whose));
    out.push(h("p", { class: "hyh-help" }, ROUND_HELP[view.round_type] ?? ""));

    if (view.phase === "pre") {
      if (legal.order && Array.isArray(view.peek)) out.push(arrangePanel(view));
      const row = [];
      if (legal.start) row.push(sendButton("start", "Start the timer", { primary: true, big: true, key: "Space" }));
      if (legal.binoculars) row.push(sendButton("binoculars", "Play BINOCULARS", { hint: "see the top cards first" }));
      for (const team of legal.raid) row.push(sendButton(`raid ${LETTERS[team]}`, `${cap(teamName(team))}: play RAID`, { hint: "guess their words too" }));
      if (row.length) out.push(h("div", { class: "hyh-actions" }, row));
      else if (!legal.order) out.push(h("p", { class: "hyh-wait" }, `Waiting for ${giverName} to start the timer…`));
    } else if (view.phase === "decision") {
      out.push(h("p", { class: "hyh-lead hyh-timeup" }, "Time is up!"));
      if (legal.extra || legal.end) {
        out.push(h("div", { class: "hyh-actions" },
          legal.extra ? sendButton("extra", `Play EXTRA TIME (${Math.min(view.extra_time_words, view.deck_size)} more words)`, { primary: true, big: true }) : null,
          legal.end ? sendButton("end", "End the turn", { big: true }) : null));
      } else {
        out.push(h("p", { class: "hyh-wait" }, `${cap(teamName(activeTeam))} decides about EXTRA TIME…`));
      }
    } else {
      if (view.word) out.push(wordCard(view));
      else if (giver) out.push(h("p", { class: "hyh-wait" }, "…"));
      else out.push(h("div", { class: "hyh-hidden-word", "aria-label": "The word is hidden: only the clue-giver sees it" }, h("span", {}, "?")));
      if (view.claim) {
        out.push(h("p", { class: "hyh-claim", role: "status" },
          `${view.claim.teams.map((t) => cap(teamName(t))).join(" and ")} ${view.claim.teams.length > 1 ? "claim" : "claims"} the word…`));
      }
      const confirm = [];
      for (const team of legal.got) {
        const own = team === activeTeam;
        confirm.push(sendButton(`got ${LETTERS[team]}`, own ? "Got it!" : `${cap(teamName(team))} got it (RAID)`,
          { primary: own, big: true, key: own ? "G" : null }));
      }
      if (legal.skip) confirm.push(sendButton("skip", "Skip (SKIP card)", { big: true, key: "S" }));
      if (legal.foul) confirm.push(sendButton("foul", "Foul", { big: true, key: "F", hint: "a clue broke the rules" }));
      if (confirm.length) out.push(h("div", { class: "hyh-actions hyh-confirm" }, confirm));
      if (legal.verdict.length) {
        out.push(h("div", { class: "hyh-verdicts" }, legal.verdict.map((team) => h("div", { class: "hyh-verdict" },
          h("span", {}, `${cap(teamName(team))} plays THEFT:`),
          sendButton(`theft ${LETTERS[team]} ok`, "right"),
          sendButton(`theft ${LETTERS[team]} miss`, "wrong")))));
      }
      if (view.clue_allowed && !view.party) { // on a shared screen clues are spoken
        out.push(h("div", { class: "hyh-typed" },
          h("label", { for: "hyh-clue" }, view.round === 2 ? "Your one-word clue" : "Type a clue (everyone sees it)"),
          h("div", { class: "hyh-typed-row" }, clueBox, h("button", { type: "button", class: "btn", "data-act": "clue", "data-key": "clue-send", disabled: ctx.busy }, "Send clue"))));
      }
      if (legal.guess) {
        out.push(h("div", { class: "hyh-typed" },
          h("label", { for: "hyh-guess" }, activeTeam === view.team ? "Guess the word" : "Guess the word (RAID)"),
          h("div", { class: "hyh-typed-row" }, guessBox, h("button", { type: "button", class: "btn btn-primary", "data-act": "guess", "data-key": "guess-send" }, "Guess"))));
      }
      for (const team of legal.theft) {
        out.push(h("div", { class: "hyh-typed hyh-theft" },
          h("label", { for: "hyh-theft" }, "Play THEFT: one guess at their word"),
          h("div", { class: "hyh-typed-row" }, theftBox, h("button", { type: "button", class: "btn", "data-act": "theft", "data-team": LETTERS[team], "data-key": "theft-send", disabled: ctx.busy }, "Play THEFT"))));
      }
      if (!giver && !legal.guess && !legal.theft.length) {
        out.push(h("p", { class: "hyh-wait" }, `${cap(teamName(activeTeam))} is guessing…`));
      }
    }
    return h("section", { class: "hyh-stage", "aria-label": "The turn" }, out);
  }

  function wordCard(view) {
    const word = view.word;
    const facts = word.points > 1 ? [hatIcon("hat phrase"), ` ${word.points} points · ${word.words} words`] : ["1 point"];
    return h("div", { class: `hyh-word${word.points > 1 ? " is-hat" : ""}`, "aria-live": "polite" },
      h("span", { class: "hyh-word-label" }, "Your word"),
      h("span", { class: "hyh-word-text", "data-word": word.text }, word.text),
      h("span", { class: "hyh-word-facts" }, facts),
      view.set_aside && view.set_aside.length
        ? h("span", { class: "hyh-aside" }, `Set aside this turn: ${view.set_aside.join(", ")}`) : null);
  }

  function arrangePanel(view) {
    const items = order.map((index, position) => h("li", { class: "hyh-peek-item" },
      h("span", { class: "hyh-peek-word" }, `${position + 1}. ${view.peek[index]}`),
      h("button", { type: "button", class: "btn btn-small", "data-act": "up", "data-index": position, "data-key": `order-${position}-up`, disabled: position === 0, "aria-label": `Move ${view.peek[index]} up` }, "↑"),
      h("button", { type: "button", class: "btn btn-small", "data-act": "down", "data-index": position, "data-key": `order-${position}-down`, disabled: position === order.length - 1, "aria-label": `Move ${view.peek[index]} down` }, "↓")));
    return h("div", { class: "hyh-peek" },
      h("p", {}, "BINOCULARS: the top cards of the deck, the first one on top. Put them in the order you want."),
      h("ol", { class: "hyh-peek-list" }, items),
      h("button", { type: "button", class: "btn btn-primary", "data-act": "order", "data-key": "order-send", disabled: ctx.busy }, "Put them back in this order"));
  }

  function teamsPanel(view) {
    const names = ctx.names;
    return h("section", { class: "hyh-teams", "aria-label": "Teams" }, view.teams.map((team) => {
      const isActive = team.team === view.active_team;
      const mine = team.team === view.team;
      const badges = [];
      if (mine) badges.push(h("span", { class: "badge badge-you" }, "your team"));
      if (team.raiding) badges.push(h("span", { class: "badge badge-hit" }, "raiding"));
      if (team.claiming) badges.push(h("span", { class: "badge badge-win" }, "claims"));
      return h("div", { class: `hyh-team${isActive ? " is-active" : ""}${mine ? " is-mine" : ""}`, "data-team": LETTERS[team.team] },
        h("div", { class: "hyh-team-head" },
          h("h3", {}, cap(teamName(team.team))),
          h("span", { class: "hyh-team-points" }, `${team.total} pts`),
          badges),
        h("p", { class: "hyh-members" }, team.members.map((seat, i) => [
          i ? ", " : "",
          h("span", { class: seat === team.clue_giver ? "hyh-giver" : null, title: seat === team.clue_giver ? "clue-giver" : null },
            names(seat), seat === team.clue_giver ? [" ", hatIcon("clue-giver")] : null),
        ])),
        h("div", { class: "hyh-held", "aria-label": "Special cards held" },
          team.held.length ? team.held.map((card) => h("span", { class: `hyh-special hyh-special-${card.split(" ")[0].toLowerCase()}` }, card))
            : h("span", { class: "muted" }, "no special cards")),
        h("div", { class: "hyh-won", "aria-label": `Won this round: ${team.round_points} points` },
          h("span", { class: "hyh-won-title" }, `Won this round · ${team.round_points}`),
          team.won.map((card) => h("span", { class: `hyh-chip${card.points > 1 ? " is-hat" : ""}` },
            card.word, card.points > 1 ? [" ", hatIcon("2 points")] : null))));
    }));
  }

  function scoreTable(view) {
    const rounds = Array.from({ length: view.rounds }, (_, i) => i + 1);
    return h("section", { class: "hyh-scores", "aria-label": "Scores by round" },
      h("table", { class: "summary-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Team"), rounds.map((r) => h("th", { scope: "col" }, `Round ${r}`)), h("th", { scope: "col" }, "Total"))),
        h("tbody", {}, view.teams.map((team) => h("tr", { class: view.winners.includes(team.team) ? "is-winner" : null },
          h("th", { scope: "row" }, cap(teamName(team.team))),
          rounds.map((r) => {
            const current = r === view.round && view.phase !== "over";
            const played = r < view.round || view.phase === "over";
            return h("td", { class: current ? "is-current" : null }, current ? String(team.round_points) : played ? String(team.scores[r - 1]) : "–");
          }),
          h("td", {}, String(team.total)))))));
  }

  function handleKey(event) {
    if (!ctx) return false;
    const legal = readLegal(ctx.legal);
    const key = event.key.toLowerCase();
    const view = ctx.view;
    if ((key === " " || key === "enter") && legal.start) {
      act("start");
      return true;
    }
    if (key === "g" && legal.got.includes(view.active_team)) {
      act(`got ${LETTERS[view.active_team]}`);
      return true;
    }
    if (key === "s" && legal.skip) {
      act("skip");
      return true;
    }
    if (key === "f" && legal.foul) {
      act("foul");
      return true;
    }
    return false;
  }

  function destroy() {
    clearInterval(timerInterval);
    root.replaceChildren();
    root.classList.remove("hyh", "is-party");
  }

  return { render: (next) => render(next), handleKey, destroy };
}
