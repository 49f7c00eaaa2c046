// Hold your Hat in the browser: the board drawn from one seat's view, the sand timer and the summaries.
//
// The page holds no rule. What it shows comes from the view (the word reaches the clue-giver's view alone), the
// static data sent once (team names and colours, the rounds, the colours of the words, party or not) and the legal
// actions as records: each button is a record, with the record's own label. A record whose notation ends in `?`
// (`guess ?`, `theft B ?`) means "you may type here": the typed text replaces the `?`. The log lines come written.
//
// Two ways to play, from the same board: online, each player in their own browser (the clue-giver sees the word and
// confirms spoken guesses; teammates type guesses), or party (one screen passed around: the page shows the
// clue-giver's view, with big buttons, the other teams' RAID and THEFT as buttons, and a beep at the end of time;
// typed clues and guesses are allowed there too, HYH-A29, so when the clue-giver is not at this screen, a bot say,
// it shows a seat of this screen in the guessing team: its guess box and the clues, never the word).
//
// From the log (the events as this seat received them, `ctx.log`): the clue-giver's feed of the guesses at the
// current word, the guesser's "no" / "close!" beside the box (the server marks a guess close, HYH-A28), and the
// recap of the last turn's words won.

import { h, presenceBadge, replaceChildren, useStylesheet } from "../util.js";

export const name = "hold-your-hat";
export const title = "Hold your Hat";
/** The cover between two people at one screen: what its button reveals (there are no cards in this game). */
export const coverReveal = "show my screen";

/** Keyboard shortcuts for the clue-giver (table.js shows them under the log). */
export const keyHelp = [[["Space"], "start the timer"], [["G"], "got it"], [["S"], "skip"], [["F"], "foul (the clue-giver's keys)"]];

let known = null; // the static data of the last board drawn: team names and members for the header and summaries

/** Hold your Hat's stylesheet (the table page is shared by the games): pages wait for it to draw a board. */
export const stylesheet = "/static/css/hold-your-hat.css";

/** Hold your Hat draws no cards from deck data. */
export function makeDeck() {
  return null;
}

/** The seat the table waits for: the active team's clue-giver. A shared screen (hot-seat, `local` says which seats
 * are on it, `static` gives the teams) shows the clue-giver's view when the clue-giver is on this screen; else a
 * seat of this screen in the active team, then in a raiding team (who may type guesses at a party, HYH-A29): its
 * view never holds the word. */
export function activeSeat(view, { isLocal = null, static: data = null } = {}) {
  if (!view || !Number.isInteger(view.clue_giver)) return null;
  const giver = view.clue_giver;
  if (!isLocal || isLocal(giver)) return giver;
  const members = (data || known)?.teams?.map((team) => team.members || []) || [];
  const raiding = (view.teams || []).filter((team) => team.raiding).map((team) => team.team);
  for (const team of [view.active_team, ...raiding]) {
    const seat = (members[team] || []).find((s) => s !== giver && isLocal(s));
    if (seat !== undefined) return seat;
  }
  return giver;
}

function teamName(team) {
  return known?.teams?.[team]?.name ?? `Team ${team + 1}`;
}

/** The hat of the hat phrases and of the clue-giver, drawn in SVG (no emoji font needed). */
function hatIcon(label = null) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "hyh-hat");
  if (label) svg.setAttribute("aria-label", label);
  svg.setAttribute(label ? "role" : "aria-hidden", label ? "img" : "true");
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
  return `${teamName(view.active_team)}'s turn`;
}

export function eventTone(event) {
  if (["round_end", "game_over", "timeout"].includes(event.kind)) return "major";
  if (["round_start", "won"].includes(event.kind)) return "round";
  if (["word", "special_draw", "no_special", "order", "claim"].includes(event.kind)) return "minor";
  return "";
}

export function findSummary(events) {
  const roundEnd = events.findLast((event) => event.kind === "round_end") ?? null;
  const gameOver = events.findLast((event) => event.kind === "game_over") ?? null;
  return roundEnd || gameOver ? { roundEnd, gameOver } : null;
}

/** The round's points and the totals per team (and the winners once the game is over). */
export function summaryElement(roundEnd, gameOver, { names = (s) => `seat ${s}` } = {}) {
  const over = gameOver && gameOver.kind === "game_over";
  const totals = (over && gameOver.totals) || (roundEnd && roundEnd.totals) || [];
  const winners = new Set(over ? gameOver.winners : []);
  const label = (team) => {
    const members = known?.teams?.[team]?.members.map((s) => names(s)).join(", ");
    return members ? `${teamName(team)} (${members})` : teamName(team);
  };
  const rows = totals.map((total, team) => h("tr", { class: winners.has(team) ? "is-winner" : null },
    h("th", { scope: "row" }, label(team), winners.has(team) ? h("span", { class: "badge badge-win" }, "winner") : null),
    h("td", {}, roundEnd ? `+${roundEnd.points[team]}` : "–"),
    h("td", {}, String(total))));
  let heading = roundEnd ? `Round ${roundEnd.round} over` : "Game over";
  if (over) {
    const best = gameOver.totals[gameOver.winners[0]];
    const who = gameOver.winners.map(teamName).join(" and ");
    heading = gameOver.winners.length > 1 ? `Game over: ${who} share the victory with ${best} points`
      : `Game over: ${who} won with ${best} points`;
  }
  return h("div", { class: "summary hyh-summary" },
    h("h2", { class: "summary-title" }, heading),
    h("table", { class: "summary-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Team"), h("th", { scope: "col" }, "This round"), h("th", { scope: "col" }, "Total"))),
      h("tbody", {}, rows)));
}

/** The legal records by kind (the action's type, as the server names it). */
function byKind(legal) {
  const out = {};
  for (const record of legal || []) (out[record.kind] ||= []).push(record);
  return out;
}

/** Typed text as it is sent: spaces tidied. */
function tidy(text) {
  return String(text).replace(/\s+/g, " ").trim();
}

/** A typed text put into a record's `?` (a JSON string, as the notation quotes typed text). */
function typed(record, text) {
  return record.notation.replace(/\?$/, JSON.stringify(tidy(text)));
}

/** The events after the last one of `kinds` in `log` (all of them if there is none). */
function since(log, kinds) {
  for (let i = log.length - 1; i >= 0; i -= 1) if (kinds.includes(log[i].kind)) return log.slice(i + 1);
  return log;
}

/** A typed guess or THEFT's text as this seat may read it: a wrong one is public, a right one its author's and the
 * clue-giver's. */
function guessText(event) {
  return event.said ?? event.text ?? null;
}

/** How a guess went, in the words the page shows beside it. */
function verdict(event) {
  if (event.result === "wrong") return event.close ? "close!" : "no";
  if (event.result === "right") return "right!";
  if (event.result === "ignored") return "already claimed";
  return "";
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

/** Draw the board into `root`; `api.act(notation)` sends an action. Returns {render(ctx), handleKey(event), destroy()}. */
export function createBoard(root, api) {
  useStylesheet(stylesheet);
  let ctx = null;
  let legal = {};
  let offset = null; // server clock - this page's clock (ms), estimated from the views' `now` (a lower bound)
  let lastNow = null;
  let beepedFor = null; // the timer end that has already beeped
  let order = null; // the clue-giver's new order of the BINOCULARS cards: indexes into view.peek
  // Per box, the text sent and the last log event at the time: the box is emptied once the log shows the text
  // arrived, so a refused clue or guess stays in its box to be fixed.
  const sent = {};
  root.classList.add("hyh");
  root.dataset.beeps = "0";

  // Text boxes live across renders, so that typing is never lost when an update arrives.
  const boxes = {
    guess: textBox("hyh-guess", "Your guess", 80),
    theft: textBox("hyh-theft", "THEFT: your guess", 80),
    clue: textBox("hyh-clue", "Type a clue", 140),
  };
  for (const [kind, box] of Object.entries(boxes)) {
    box.addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      event.preventDefault();
      root.querySelector(`[data-act="${kind}"]`)?.click();
    });
  }

  function textBox(id, label, max) {
    return h("input", {
      type: "text", id, class: "hyh-input", maxlength: max, autocomplete: "off", autocapitalize: "off", spellcheck: "false",
      "aria-label": label, placeholder: label,
    });
  }

  const timerInterval = setInterval(tickClock, 200);
  // A replay's clock stands at each step's own time: the sand timer shows what was left then. A live table's is the
  // table's clock as the server tells it (it stands still while the table is paused); else an estimate from the
  // view's times.
  const serverNow = () => (api.replay ? (ctx?.view.now ?? 0) : ctx?.clock?.() ?? Date.now() + (offset ?? 0));
  const turnMs = () => ctx.static?.turn_ms ?? 60_000;

  function act(notation) {
    unlockAudio();
    if (!ctx || ctx.busy || !notation) return;
    api.act(notation);
  }

  /** The typed text of `kind`'s box sent as `make(text)`; the box keeps it until the log shows it was taken. */
  function submit(kind, make) {
    const text = tidy(boxes[kind].value);
    if (!text || !ctx || ctx.busy) return;
    sent[kind] = { text, after: (ctx.log || []).at(-1) ?? null };
    act(make(text));
  }

  const ARRIVED = { clue: ["clue"], guess: ["guess"], theft: ["theft"] };

  /** Empty the boxes whose text the log now shows (and that still hold it). */
  function clearArrived() {
    const log = ctx.log || [];
    for (const [kind, pending] of Object.entries(sent)) {
      const start = pending.after ? log.indexOf(pending.after) + 1 : 0;
      const arrived = log.slice(start).some((event) => ARRIVED[kind].includes(event.kind) && event.seat === ctx.seat
        && tidy(event.kind === "clue" ? event.text : guessText(event) ?? "") === pending.text);
      if (!arrived) continue;
      if (tidy(boxes[kind].value) === pending.text) boxes[kind].value = "";
      delete sent[kind];
    }
  }

  root.addEventListener("click", (event) => {
    const target = event.target.closest("[data-act]");
    if (!target || !root.contains(target) || !ctx) return;
    event.preventDefault();
    unlockAudio();
    const kind = target.dataset.act;
    if (kind === "send") act(target.dataset.action);
    else if (kind === "guess") submit("guess", (t) => typed(legal.guess[0], t));
    else if (kind === "theft") submit("theft", (t) => typed(legal.theft[0], t));
    else if (kind === "clue") submit("clue", (t) => `clue ${JSON.stringify(t)}`);
    else if (kind === "up" || kind === "down") moveInOrder(Number(target.dataset.index), kind === "up" ? -1 : 1);
    else if (kind === "order") act(arranged()?.notation);
  });

  function moveInOrder(index, step) {
    const to = index + step;
    if (!order || to < 0 || to >= order.length) return;
    [order[index], order[to]] = [order[to], order[index]];
    render(ctx, `order-${to}-${step < 0 ? "up" : "down"}`);
  }

  /** The legal order whose words are the clue-giver's arrangement. */
  function arranged() {
    const words = order.map((i) => ctx.view.peek[i]).join("\n");
    return (legal.order || []).find((record) => record.cards.join("\n") === words);
  }

  /** The clock's text, every fifth of a second; and the beep when it reaches zero. The beep does not need the
   * board on screen: in party mode the hot-seat cover may already hide it when the turn ends. */
  function tickClock() {
    if (!ctx) return;
    const view = ctx.view;
    const running = view.timer !== null && view.timer !== undefined;
    const left = running ? Math.max(0, view.timer - serverNow()) : turnMs();
    if (running && left <= 0 && !api.replay) timeUp(view.timer);
    const el = root.querySelector(".hyh-clock");
    if (!el) return;
    const seconds = Math.ceil(left / 1000);
    el.textContent = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
    el.classList.toggle("is-low", running && left <= 10_000);
    const bar = root.querySelector(".hyh-bar-fill");
    if (bar) bar.style.width = `${Math.max(0, Math.min(100, (100 * left) / turnMs()))}%`;
  }

  function timeUp(timer) {
    if (beepedFor === timer) return;
    beepedFor = timer;
    root.dataset.beeps = String(Number(root.dataset.beeps) + 1);
    if (ctx.static?.party || ctx.seat === ctx.view.clue_giver) beep();
  }

  function render(next, focusKey = null) {
    const active = document.activeElement;
    const keep = focusKey || (root.contains(active) ? active.dataset.key || active.id : null);
    const caret = active && active.tagName === "INPUT" ? [active.selectionStart, active.selectionEnd] : null;
    const before = ctx && ctx.view;
    ctx = next;
    const { view } = ctx;
    known = ctx.static;
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
    legal = byKind(ctx.legal);
    clearArrived();
    if (!Array.isArray(view.peek)) order = null;
    else if (!order || order.length !== view.peek.length) order = view.peek.map((_, i) => i);
    root.classList.toggle("is-party", Boolean(ctx.static?.party));
    const giver = ctx.seat !== null && ctx.seat !== undefined && ctx.seat === view.clue_giver;
    replaceChildren(root,
      statusLine(view),
      h("div", { class: "hyh-main" }, view.phase === "over" ? null : timerPanel(view), stage(view, giver)),
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

  function roundInfo(view) {
    return ctx.static?.rounds?.[view.round - 1] ?? { name: view.round_type, help: "" };
  }

  function statusLine(view) {
    const data = ctx.static || {};
    const bits = [
      h("span", { class: "pill pill-accent" }, `Round ${view.round} of ${data.rounds?.length ?? view.round}: ${roundInfo(view).name}`),
      h("span", { class: "pill hyh-color", style: `--hyh-color:${data.word_colors?.[view.color] ?? "#fff"}` },
        h("span", { class: "hyh-color-dot", "aria-hidden": "true" }), `Colour ${view.color}`),
      h("span", { class: "pill" }, `Deck ${view.deck_size}`),
    ];
    if (view.set_aside_count) bits.push(h("span", { class: "pill" }, `Set aside ${view.set_aside_count}`));
    bits.push(h("span", { class: "pill" }, data.judging === "auto" ? "Typed guesses" : data.party ? "Spoken or typed guesses" : "Spoken guesses"));
    if (data.party) bits.push(h("span", { class: "pill pill-accent" }, "Party mode"));
    return h("div", { class: "hyh-status" }, bits);
  }

  function timerPanel(view) {
    const running = view.timer !== null && view.timer !== undefined;
    const paused = running && ctx.paused;
    const label = paused ? "Paused" : running ? (view.phase === "extra" ? "EXTRA TIME" : "Sand timer") : "Timer stopped";
    return h("section", { class: `hyh-timer${running && !paused ? " is-running" : ""}${paused ? " is-paused" : ""}`, "aria-label": "Sand timer" },
      h("span", { class: "hyh-timer-label" }, label),
      h("span", { class: "hyh-clock", role: "timer", "aria-live": "off" }, ""),
      h("div", { class: "hyh-bar", "aria-hidden": "true" }, h("div", { class: "hyh-bar-fill" })));
  }

  /** A button for a legal record, with the record's own words. */
  function button(record, { primary = false, big = false, key = null } = {}) {
    return h("button", {
      type: "button", class: `btn${primary ? " btn-primary" : ""}${big ? " btn-big" : ""}`, "data-act": "send",
      "data-action": record.notation, "data-key": `act-${record.notation}`, disabled: ctx.busy,
    }, record.label, key ? h("kbd", {}, key) : null);
  }

  const buttons = (kind, options) => (legal[kind] || []).map((record) => button(record, options(record)));

  function typedBox(kind, label, send, primary = false, after = null) {
    return h("div", { class: `hyh-typed hyh-${kind}` },
      h("label", { for: `hyh-${kind}` }, label),
      h("div", { class: "hyh-typed-row" }, boxes[kind],
        h("button", { type: "button", class: `btn${primary ? " btn-primary" : ""}`, "data-act": kind, "data-key": `${kind}-send`, disabled: ctx.busy }, send)),
      after);
  }

  /** The typed guesses at the current word, newest first, as this seat may read them: the clue-giver's feed. */
  function guessFeed() {
    const guesses = since(ctx.log || [], ["word", "turn_start"])
      .filter((event) => (event.kind === "guess" || event.kind === "theft") && guessText(event));
    if (!guesses.length && ctx.static?.party) return null; // spoken guesses: nothing is typed
    const items = guesses.slice(-8).reverse().map((event) => h("li", { class: `hyh-feed-item is-${event.close ? "close" : event.result}` },
      h("span", { class: "hyh-feed-who" }, event.kind === "theft" ? `${teamName(event.team)} THEFT` : ctx.names(event.seat)),
      h("span", { class: "hyh-feed-text" }, `“${guessText(event)}”`),
      h("span", { class: "hyh-feed-verdict" }, verdict(event))));
    return h("section", { class: "hyh-feed", "aria-label": "Guesses at this word" },
      h("h3", { class: "hyh-feed-title" }, "Guesses"),
      items.length ? h("ol", { class: "hyh-feed-list", "aria-live": "polite" }, items) : h("p", { class: "hyh-wait" }, "No guess yet."));
  }

  /** How this seat's last guess at the current word went, beside the guess box. */
  function feedback() {
    const mine = since(ctx.log || [], ["word", "turn_start"]).filter((event) => event.kind === "guess" && event.seat === ctx.seat && guessText(event));
    const last = mine.at(-1);
    const word = last ? verdict(last) : "";
    return h("p", { class: `hyh-feedback${last ? ` is-${last.close ? "close" : last.result}` : ""}`, role: "status", "aria-live": "polite" },
      last && word ? [h("span", { class: "hyh-feedback-text" }, `“${guessText(last)}”`), " ", h("strong", {}, word)] : "");
  }

  /** The last turn in one line per team that won words: "Team A got 5: crab, sea horse (2)". */
  function recap() {
    const log = ctx.log || [];
    const end = log.findLastIndex((event) => event.kind === "turn_end");
    if (end < 0) return null;
    const turn = since(log.slice(0, end), ["turn_start"]);
    const won = new Map();
    for (const event of turn) {
      if (event.kind !== "won") continue;
      const entry = won.get(event.team) || { points: 0, words: [] };
      entry.points += event.points;
      entry.words.push(event.points > 1 ? `${event.word} (${event.points})` : event.word);
      won.set(event.team, entry);
    }
    const who = log[end].team;
    const lines = won.size ? [...won].map(([team, entry]) => `${teamName(team)} got ${entry.points}: ${entry.words.join(", ")}`)
      : [`${teamName(who)} got nothing this turn`];
    return h("p", { class: "hyh-recap", role: "status" }, h("span", { class: "hyh-recap-title" }, "Last turn"), lines.join(" · "));
  }

  function stage(view, giver) {
    const out = [];
    if (view.phase === "over") return h("section", { class: "hyh-stage" }, h("p", { class: "hyh-lead" }, "The game is over."));
    const team = teamName(view.active_team);
    const giverName = ctx.names(view.clue_giver);
    if (view.phase === "pre") out.push(recap());
    out.push(h("p", { class: "hyh-lead" }, `${team}'s turn · ${giver ? "you give" : `${giverName} gives`} the clues`));
    out.push(h("p", { class: "hyh-help" }, roundInfo(view).help));
    if (view.phase === "pre") {
      if (legal.order && Array.isArray(view.peek)) out.push(arrangePanel(view));
      const row = [...buttons("start", () => ({ primary: true, big: true, key: "Space" })), ...buttons("binoculars", () => ({})),
        ...buttons("raid", () => ({}))];
      if (row.length) out.push(h("div", { class: "hyh-actions" }, row));
      else if (!legal.order) out.push(h("p", { class: "hyh-wait" }, `Waiting for ${giverName} to start the timer…`));
    } else if (view.phase === "decision") {
      out.push(h("p", { class: "hyh-lead hyh-timeup" }, "Time is up!"));
      const row = [...buttons("extratime", () => ({ primary: true, big: true })), ...buttons("endturn", () => ({ big: true }))];
      out.push(row.length ? h("div", { class: "hyh-actions" }, row) : h("p", { class: "hyh-wait" }, `${team} decides about EXTRA TIME…`));
    } else {
      if (view.word) out.push(h("div", { class: "hyh-word-row" }, wordCard(view), guessFeed()));
      else if (giver) out.push(h("p", { class: "hyh-wait" }, "…"));
      else out.push(h("div", { class: "hyh-hidden-word", "aria-label": "The word is hidden: only the clue-giver sees it" }, h("span", {}, "?")));
      if (view.claim) {
        const teams = view.claim.teams;
        out.push(h("p", { class: "hyh-claim", role: "status" }, `${teams.map(teamName).join(" and ")} ${teams.length > 1 ? "claim" : "claims"} the word…`));
      }
      const confirm = [...buttons("got", (r) => ({ primary: r.target === view.active_team, big: true, key: r.target === view.active_team ? "G" : null })),
        ...buttons("skip", () => ({ big: true, key: "S" })), ...buttons("foul", () => ({ big: true, key: "F" }))];
      if (confirm.length) out.push(h("div", { class: "hyh-actions hyh-confirm" }, confirm));
      if (legal.theftverdict) out.push(h("div", { class: "hyh-verdicts" }, buttons("theftverdict", () => ({}))));
      if (view.clue_allowed && !api.replay) out.push(typedBox("clue", view.round === 2 ? "Your one-word clue" : view.round === 3 ? "Pictures only: emoji, no letters"
        : ctx.static?.party ? "Say your clues; type one too if you like (it shows on the screen)" : "Type a clue (everyone sees it)", "Send clue"));
      if (!giver && (legal.guess || legal.theft) && view.clues?.length) out.push(clueList(view));
      if (legal.guess) out.push(typedBox("guess", legal.guess[0].label, "Guess", true, feedback()));
      if (legal.theft) out.push(typedBox("theft", legal.theft[0].label, "Play THEFT"));
      if (!giver && !legal.guess && !legal.theft) {
        // The other teams follow the turn as it happens: the clues and the guesses they may read, never the word.
        out.push(h("p", { class: "hyh-wait" }, `${team} is guessing…`));
        if (view.clues?.length || !ctx.static?.party) {
          out.push(h("div", { class: "hyh-follow" }, view.clues?.length ? clueList(view) : null, guessFeed()));
        }
      }
    }
    return h("section", { class: "hyh-stage", "aria-label": "The turn" }, out);
  }

  /** The typed clues at the current word, for its guessers (the log has them too). */
  function clueList(view) {
    return h("section", { class: "hyh-clues", "aria-label": "Clues at this word" },
      h("h3", { class: "hyh-feed-title" }, "Clues"),
      h("ol", { class: "hyh-clue-list", "aria-live": "polite" }, view.clues.slice(-6).map((clue) => h("li", {}, `“${clue}”`))));
  }

  /** The word's longest part, for the card to size its letters so that no part breaks mid-word on a phone. */
  function fitted(element, text) {
    element.style.setProperty("--longest", String(Math.max(4, ...text.split(/\s+/).map((part) => part.length))));
    return element;
  }

  function wordCard(view) {
    const word = view.word;
    const facts = word.points > 1 ? [hatIcon("hat phrase"), ` ${word.points} points · ${word.words} words`] : ["1 point"];
    return h("div", { class: `hyh-word${word.points > 1 ? " is-hat" : ""}`, "aria-live": "polite" },
      h("span", { class: "hyh-word-label" }, "Your word"),
      fitted(h("span", { class: "hyh-word-text", "data-word": word.text }, word.text), word.text),
      h("span", { class: "hyh-word-facts" }, facts),
      view.set_aside?.length ? h("span", { class: "hyh-aside" }, `Set aside this turn: ${view.set_aside.join(", ")}`) : null);
  }

  function arrangePanel(view) {
    const items = order.map((index, position) => h("li", { class: "hyh-peek-item" },
      h("span", { class: "hyh-peek-word" }, `${position + 1}. ${view.peek[index]}`),
      h("button", { type: "button", class: "btn btn-small", "data-act": "up", "data-index": position, "data-key": `order-${position}-up`, disabled: position === 0, "aria-label": `Move ${view.peek[index]} up` }, "↑"),
      h("button", { type: "button", class: "btn btn-small", "data-act": "down", "data-index": position, "data-key": `order-${position}-down`, disabled: position === order.length - 1, "aria-label": `Move ${view.peek[index]} down` }, "↓")));
    return h("div", { class: "hyh-peek" },
      h("p", {}, "BINOCULARS: the top cards of the deck, the first one on top. Put them in the order you want."),
      h("ol", { class: "hyh-peek-list" }, items),
      h("button", { type: "button", class: "btn btn-primary", "data-act": "order", "data-key": "order-send", disabled: ctx.busy }, legal.order[0].label));
  }

  function teamsPanel(view) {
    const teams = ctx.static?.teams || [];
    return h("section", { class: "hyh-teams", "aria-label": "Teams" }, view.teams.map((team) => {
      const facts = teams[team.team] || { letter: "", color: "", members: [] };
      const mine = team.team === view.team;
      const badges = [mine ? h("span", { class: "badge badge-you" }, "your team") : null,
        team.raiding ? h("span", { class: "badge badge-hit" }, "raiding") : null,
        team.claiming ? h("span", { class: "badge badge-win" }, "claims") : null];
      return h("div", { class: `hyh-team${team.team === view.active_team ? " is-active" : ""}${mine ? " is-mine" : ""}`, "data-team": facts.letter, style: `--hyh-team:${facts.color}` },
        h("div", { class: "hyh-team-head" }, h("h3", {}, teamName(team.team)), h("span", { class: "hyh-team-points" }, `${team.total} pts`), badges),
        h("p", { class: "hyh-members" }, facts.members.map((seat, i) => [
          i ? ", " : "",
          h("span", { class: seat === team.clue_giver ? "hyh-giver" : null, title: seat === team.clue_giver ? "clue-giver" : null },
            ctx.names(seat), seat === team.clue_giver ? [" ", hatIcon("clue-giver")] : null),
          seat === ctx.seat ? null : [" ", presenceBadge((ctx.seats || [])[seat])],
        ])),
        h("div", { class: "hyh-held", "aria-label": "Special cards held" },
          team.held.length ? team.held.map((card) => h("span", { class: `hyh-special hyh-special-${card.split(" ")[0].toLowerCase()}` }, card))
            : h("span", { class: "muted" }, "no special cards")),
        h("div", { class: "hyh-won", "aria-label": `Won this round: ${team.round_points} points` },
          h("span", { class: "hyh-won-title" }, `Won this round · ${team.round_points}`),
          team.won.map((card) => h("span", { class: `hyh-chip${card.points > 1 ? " is-hat" : ""}` }, card.word, card.points > 1 ? [" ", hatIcon("2 points")] : null))));
    }));
  }

  function scoreTable(view) {
    const rounds = (ctx.static?.rounds || []).map((_, i) => i + 1);
    const over = view.phase === "over";
    return h("section", { class: "hyh-scores", "aria-label": "Scores by round" },
      h("table", { class: "summary-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Team"), rounds.map((r) => h("th", { scope: "col" }, `Round ${r}`)), h("th", { scope: "col" }, "Total"))),
        h("tbody", {}, view.teams.map((team) => h("tr", { class: view.winners.includes(team.team) ? "is-winner" : null },
          h("th", { scope: "row" }, teamName(team.team)),
          rounds.map((r) => {
            const current = r === view.round && !over;
            return h("td", { class: current ? "is-current" : null }, current ? String(team.round_points) : r < view.round || over ? String(team.scores[r - 1]) : "–");
          }),
          h("td", {}, String(team.total)))))));
  }

  /** The clue-giver's keys: each presses the button of its record, if there is one. */
  function handleKey(event) {
    if (!ctx) return false;
    const key = event.key.toLowerCase();
    const record = key === " " || key === "enter" ? legal.start?.[0]
      : key === "g" ? legal.got?.find((r) => r.target === ctx.view.active_team)
        : key === "s" ? legal.skip?.[0] : key === "f" ? legal.foul?.[0] : null;
    if (!record) return false;
    act(record.notation);
    return true;
  }

  function destroy() {
    clearInterval(timerInterval);
    root.replaceChildren();
    root.classList.remove("hyh", "is-party");
  }

  return { render: (next) => render(next), handleKey, destroy };
}
