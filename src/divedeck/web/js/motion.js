// Motion and attention for any game's board, knowing no rule: cards (elements with `data-card`) that change
// place between two renders fly from where they were (hand to pile), and cards that appear fly in from the deck
// (`.deck-card`) where the board shows one, or from the place their `data-from` names (an element's
// `data-origin`: a seat's panel). Short Web Animations, none at all when the system asks for reduced motion.
// And "your turn": a short sound and a vibration where the browser allows them, unless muted.

const FLIGHT_MS = 260;
const MUTE_KEY = "divedeck.mute";

export function reducedMotion() {
  return globalThis.matchMedia ? globalThis.matchMedia("(prefers-reduced-motion: reduce)").matches : false;
}

function rects(root) {
  const byLabel = new Map();
  for (const el of root.querySelectorAll("[data-card]")) {
    const rect = el.getBoundingClientRect();
    if (!rect.width) continue;
    const list = byLabel.get(el.dataset.card) || [];
    list.push(rect);
    byLabel.set(el.dataset.card, list);
  }
  const deck = root.querySelector(".deck-card");
  // Places a card may come from when no copy of it was on the board (a seat's panel: `data-origin`).
  const origins = new Map([...root.querySelectorAll("[data-origin]")].map((el) => [el.dataset.origin, el.getBoundingClientRect()]));
  return { byLabel, deck: deck ? deck.getBoundingClientRect() : null, origins };
}

const near = (a, b) => Math.abs(a.left - b.left) < 2 && Math.abs(a.top - b.top) < 2;

function fly(el, from, to) {
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  if (Math.abs(dx) < 2 && Math.abs(dy) < 2) return;
  el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
    { duration: FLIGHT_MS, easing: "cubic-bezier(.2,.7,.3,1)" });
}

/** Run `render` (which redraws `root`), then fly the cards that moved or appeared. */
export function withFlights(root, render) {
  if (reducedMotion() || !root || typeof Element.prototype.animate !== "function") return render();
  const before = rects(root);
  const result = render();
  const unmatched = new Map([...before.byLabel].map(([label, list]) => [label, [...list]]));
  const arrivals = [];
  for (const el of root.querySelectorAll("[data-card]")) {
    const rect = el.getBoundingClientRect();
    if (!rect.width) continue;
    const old = unmatched.get(el.dataset.card) || [];
    const same = old.findIndex((r) => near(r, rect));
    if (same >= 0) old.splice(same, 1);
    else arrivals.push([el, rect]);
  }
  for (const [el, rect] of arrivals) {
    const old = unmatched.get(el.dataset.card) || [];
    const from = old.length ? old.shift() : before.origins.get(el.dataset.from) || before.deck;
    if (from) fly(el, from, rect);
  }
  return result;
}

export function muted() {
  try {
    return localStorage.getItem(MUTE_KEY) === "1";
  } catch {
    return false;
  }
}

export function setMuted(value) {
  try {
    localStorage.setItem(MUTE_KEY, value ? "1" : "0");
  } catch {
    // private mode: the switch holds for this page only
  }
}

let audio = null;

/** "Your turn": a short soft tone and a short vibration, where allowed and not muted. */
export function yourTurn() {
  if (muted()) return;
  try {
    navigator.vibrate?.(80);
  } catch {
    // not allowed
  }
  try {
    audio = audio || new AudioContext();
    if (audio.state === "suspended") return; // no gesture on this page yet: the browser allows no sound
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.25);
  } catch {
    // no Web Audio here
  }
}
