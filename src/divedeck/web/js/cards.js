// Cards drawn by code as SVG: value, name, colour AND symbol + letter, so colour is never the only cue.
//
// A card is named by its face, the colour letter and the value ("Y3"). The deck's data (colours with their letter
// and symbol, the value names) is the game's static data, sent once by the server (`welcome.static`); the page
// keeps no copy of any deck, so a custom card file draws with its own names and colours.

// Inks per colour name: `band` behind the value, `text` on the band, `ink` for the drawing, `tint` for the body.
// Band/text pairs keep a contrast of at least 4.5:1. The bands step down in lightness (yellow, green, red, blue,
// purple) as well as in hue, so deuteranopes and protanopes tell every pair apart even before the symbol and the
// letter (tests/browser/test_accessibility.py checks them under simulated colour blindness).
export const PALETTE = {
  yellow: { band: "#f5c518", text: "#2b2100", ink: "#7a5a00", tint: "#fff7d9" },
  red: { band: "#d0343e", text: "#ffffff", ink: "#9e1f2a", tint: "#fde6e7" },
  green: { band: "#3bb26f", text: "#03200d", ink: "#17603a", tint: "#e0f3e7" },
  blue: { band: "#2a5db8", text: "#ffffff", ink: "#1d4a94", tint: "#e0ebf9" },
  purple: { band: "#3d1f73", text: "#ffffff", ink: "#3d1f73", tint: "#eee6f9" },
};
const LANTERN = { band: "#14233b", text: "#ffe27a", ink: "#14233b", tint: "#dfe8f1" };

function paletteFor(color, index) {
  if (color && PALETTE[color.name]) return PALETTE[color.name];
  // A colour from a custom card file: pick an even hue, dark enough for white text.
  const hue = Math.round((index * 137.5 + 20) % 360);
  return {
    band: `hsl(${hue} 55% 34%)`, text: "#ffffff", ink: `hsl(${hue} 60% 26%)`, tint: `hsl(${hue} 60% 94%)`,
  };
}

/**
 * Everything needed to draw and name cards of one deck. `meta` is the server's card data, {colors, value_names}
 * or {colors, values: [{value, name}]}; what it lacks draws plainly (a letter for a colour, a number for a name).
 */
export class Deck {
  constructor(meta = null) {
    const source = meta && typeof meta === "object" ? meta : {};
    const colors = Array.isArray(source.colors) ? source.colors : [];
    this.colors = colors.map((c, i) => ({
      name: String(c.name ?? `colour ${i + 1}`),
      letter: String(c.letter ?? "?"),
      symbol: String(c.symbol ?? c.letter ?? "?"),
    }));
    let names = source.value_names;
    if (!Array.isArray(names) && Array.isArray(source.values)) names = source.values.map((v) => v.name ?? String(v.value));
    this.valueNames = Array.isArray(names) ? names.map(String) : [];
    this.lanternfishName = String(source.lanternfish_name ?? source.lanternfish?.name ?? "");
    this.byLetter = new Map(this.colors.map((c, i) => [c.letter, { ...c, index: i, palette: paletteFor(c, i) }]));
  }

  /** {label, letter, value, color, palette, name, valueName} for a face like "Y3" (unknown letters still draw). */
  face(label) {
    const text = String(label);
    const letter = text.charAt(0);
    const value = Number.parseInt(text.slice(1), 10);
    // A letter the deck data does not name still gets a hue of its own, so two colours never look alike.
    const hue = this.colors.length + letter.charCodeAt(0);
    const color = this.byLetter.get(letter) || { name: letter, letter, symbol: letter, index: hue, palette: paletteFor(null, hue) };
    const valueName = this.valueNames[value] ?? String(value);
    return { label: text, letter, value, color, palette: color.palette, valueName };
  }

  /** "yellow 3 Turtle (Y3)": what a screen reader says. */
  describe(label) {
    const f = this.face(label);
    return `${f.color.name} ${f.value} ${f.valueName} (${f.label})`;
  }
}

// -- drawing -----------------------------------------------------------------------------------------------

const SVG_NS = "http://www.w3.org/2000/svg";

function esc(text) {
  return String(text).replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[ch]));
}

// The five default symbols as paths, so they look the same whatever fonts the machine has. Centred on (0, 0),
// about 20 units across.
const SYMBOL_PATHS = {
  "☀": (fill) => {
    let rays = "";
    for (let i = 0; i < 8; i += 1) {
      const a = (i * Math.PI) / 4;
      const x1 = (Math.cos(a) * 6.5).toFixed(2), y1 = (Math.sin(a) * 6.5).toFixed(2);
      const x2 = (Math.cos(a) * 10).toFixed(2), y2 = (Math.sin(a) * 10).toFixed(2);
      rays += `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="${fill}" stroke-width="2.2" stroke-linecap="round"/>`;
    }
    return `<circle r="4.8" fill="${fill}"/>${rays}`;
  },
  "♥": (fill) => `<path d="M0 8.5 C-3 6 -9.5 1.5 -9.5 -3.2 C-9.5 -6.6 -7 -8.8 -4.4 -8.8 C-2.4 -8.8 -0.9 -7.6 0 -6 C0.9 -7.6 2.4 -8.8 4.4 -8.8 C7 -8.8 9.5 -6.6 9.5 -3.2 C9.5 1.5 3 6 0 8.5 Z" fill="${fill}"/>`,
  "♣": (fill) => `<circle cx="0" cy="-4.6" r="4.4" fill="${fill}"/><circle cx="-4.8" cy="2" r="4.4" fill="${fill}"/><circle cx="4.8" cy="2" r="4.4" fill="${fill}"/><path d="M-1.3 1 L1.3 1 L2.6 9.5 L-2.6 9.5 Z" fill="${fill}"/>`,
  "◆": (fill) => `<path d="M0 -10 L7.5 0 L0 10 L-7.5 0 Z" fill="${fill}"/>`,
  "★": (fill) => {
    const pts = [];
    for (let i = 0; i < 10; i += 1) {
      const r = i % 2 ? 4.3 : 10;
      const a = -Math.PI / 2 + (i * Math.PI) / 5;
      pts.push(`${(Math.cos(a) * r).toFixed(2)},${(Math.sin(a) * r).toFixed(2)}`);
    }
    return `<polygon points="${pts.join(" ")}" fill="${fill}"/>`;
  },
};

/** A colour symbol at (x, y), `size` units across: a path for the default symbols, text otherwise. */
function symbolMarkup(symbol, x, y, size, fill) {
  const draw = SYMBOL_PATHS[symbol];
  if (draw) return `<g transform="translate(${x} ${y}) scale(${size / 20})">${draw(fill)}</g>`;
  return `<text x="${x}" y="${y + size * 0.36}" font-size="${size}" text-anchor="middle" fill="${fill}">${esc(symbol)}</text>`;
}

function fish(x, y, s, body, stroke, flip = false) {
  // A small fish facing right (or left), body centred on (x, y), s = scale.
  const dir = flip ? -1 : 1;
  return `<g transform="translate(${x} ${y}) scale(${dir * s} ${s})">`
    + `<path d="M-12 0 C-6 -8 6 -8 11 0 C6 8 -6 8 -12 0 Z" fill="${body}" stroke="${stroke}" stroke-width="1.6"/>`
    + `<path d="M-11 0 L-18 -6 L-17 0 L-18 6 Z" fill="${body}" stroke="${stroke}" stroke-width="1.6" stroke-linejoin="round"/>`
    + `<circle cx="5.5" cy="-1.5" r="1.6" fill="${stroke}"/></g>`;
}

// The creature of each value, drawn in the card's ink around (50, 80).
const CREATURES = [
  // 0 Beach: sun, sea and sand
  (p) => `<circle cx="62" cy="66" r="10" fill="${p.band}" stroke="${p.ink}" stroke-width="1.6"/>`
    + `<path d="M20 84 q7.5 -7 15 0 t15 0 t15 0 t15 0" fill="none" stroke="${p.ink}" stroke-width="2.4" stroke-linecap="round"/>`
    + `<path d="M18 100 Q50 84 82 100 L82 104 L18 104 Z" fill="${p.band}" stroke="${p.ink}" stroke-width="1.6" stroke-linejoin="round"/>`,
  // 1 School of Fish
  (p) => fish(36, 66, 0.9, p.tint, p.ink) + fish(62, 80, 0.9, p.band, p.ink) + fish(36, 94, 0.9, p.tint, p.ink),
  // 2 Clownfish: a bigger fish with two pale stripes
  (p) => `<g transform="translate(52 80) scale(1.7)">`
    + `<path d="M-12 0 C-6 -9 6 -9 11 0 C6 9 -6 9 -12 0 Z" fill="${p.band}" stroke="${p.ink}" stroke-width="1.1"/>`
    + `<path d="M-2 -6.6 C-4 -2 -4 2 -2 6.6" stroke="#ffffff" stroke-width="2.6" fill="none"/>`
    + `<path d="M5 -5.2 C3.4 -2 3.4 2 5 5.2" stroke="#ffffff" stroke-width="2.2" fill="none"/>`
    + `<path d="M-11 0 L-18 -6 L-17 0 L-18 6 Z" fill="${p.band}" stroke="${p.ink}" stroke-width="1.1" stroke-linejoin="round"/>`
    + `<circle cx="7.5" cy="-1.5" r="1.2" fill="${p.ink}"/></g>`,
  // 3 Turtle: shell, head and flippers
  (p) => `<g stroke="${p.ink}" stroke-width="1.6" stroke-linejoin="round">`
    + `<ellipse cx="50" cy="62" rx="6" ry="6.5" fill="${p.tint}"/>`
    + `<path d="M33 70 l-9 -6 l2 10 Z M67 70 l9 -6 l-2 10 Z M35 92 l-9 5 l9 3 Z M65 92 l9 5 l-9 3 Z" fill="${p.tint}"/>`
    + `<ellipse cx="50" cy="82" rx="19" ry="16" fill="${p.band}"/>`
    + `<path d="M50 70 l7 5 l0 9 l-7 5 l-7 -5 l0 -9 Z" fill="none" stroke="${p.tint}"/>`
    + `<path d="M50 70 V66.5 M57 75 L66 70 M57 84 L66 90 M43 75 L34 70 M43 84 L34 90 M50 89 V98" fill="none" stroke="${p.tint}"/>`
    + `</g>`,
  // 4 Ray: a kite-shaped body with a long tail
  (p) => `<path d="M50 62 C60 66 74 74 82 80 C72 84 60 88 50 96 C40 88 28 84 18 80 C26 74 40 66 50 62 Z" fill="${p.band}" stroke="${p.ink}" stroke-width="1.6" stroke-linejoin="round"/>`
    + `<path d="M50 96 C51 103 55 108 62 110" fill="none" stroke="${p.ink}" stroke-width="1.8" stroke-linecap="round"/>`
    + `<circle cx="45" cy="72" r="1.6" fill="${p.tint}"/><circle cx="55" cy="72" r="1.6" fill="${p.tint}"/>`,
];

function lanternfishArt(p) {
  return `<path d="M58 66 C54 58 48 56 44 58" fill="none" stroke="${p.text}" stroke-width="1.6"/>`
    + `<circle cx="44" cy="58" r="4.2" fill="${p.text}"/><circle cx="44" cy="58" r="8" fill="${p.text}" opacity="0.25"/>`
    + `<path d="M26 82 C34 66 60 64 72 78 C66 80 64 84 72 88 C60 98 34 98 26 82 Z" fill="#2e4a70" stroke="${p.text}" stroke-width="1.4" stroke-linejoin="round"/>`
    + `<path d="M26 82 L16 74 L18 82 L16 90 Z" fill="#2e4a70" stroke="${p.text}" stroke-width="1.4" stroke-linejoin="round"/>`
    + `<circle cx="60" cy="76" r="2.6" fill="${p.text}"/>`;
}

function frame(p, inner, { dim = false } = {}) {
  return `<svg xmlns="${SVG_NS}" viewBox="0 0 100 140" class="card-svg${dim ? " is-dim" : ""}" aria-hidden="true" focusable="false">`
    + `<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="${p.tint}" stroke="${p.ink}" stroke-width="3"/>`
    + `<path d="M3 11 A8 8 0 0 1 11 3 H89 A8 8 0 0 1 97 11 V40 H3 Z" fill="${p.band}"/>`
    + inner + `</svg>`;
}

/** SVG markup of a reef card face. */
export function cardMarkup(deck, label) {
  const f = deck.face(label);
  const p = f.palette;
  const art = Number.isInteger(f.value) && CREATURES[f.value] ? CREATURES[f.value](p) : "";
  const name = f.valueName.length > 12 ? `<tspan font-size="10">${esc(f.valueName)}</tspan>` : esc(f.valueName);
  return frame(p,
    `<text x="10" y="34" font-size="34" font-weight="800" fill="${p.text}" class="card-value">${esc(f.value)}</text>`
    + symbolMarkup(f.color.symbol, 75, 21, 22, p.text)
    + `<text x="92" y="36" font-size="12" font-weight="800" text-anchor="end" fill="${p.text}">${esc(f.letter)}</text>`
    + art
    + `<text x="50" y="128" font-size="12" font-weight="700" text-anchor="middle" fill="${p.ink}">${name}</text>`);
}

/** SVG markup of the Lanternfish (the colourless card of value `value` under every personal pile). */
export function lanternfishMarkup(deck, value = 5) {
  const p = LANTERN;
  return frame(p,
    `<text x="10" y="34" font-size="34" font-weight="800" fill="${p.text}">${esc(value)}</text>`
    + `<circle cx="80" cy="20" r="6" fill="${p.text}"/><circle cx="80" cy="20" r="11" fill="${p.text}" opacity="0.22"/>`
    + lanternfishArt({ ...p, text: "#ffe27a" })
    + `<text x="50" y="128" font-size="12" font-weight="700" text-anchor="middle" fill="${p.ink}">${esc(deck.lanternfishName)}</text>`);
}

/** SVG markup of a card back (the draw deck). */
export function backMarkup() {
  return `<svg xmlns="${SVG_NS}" viewBox="0 0 100 140" class="card-svg" aria-hidden="true" focusable="false">`
    + `<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="#0d3b66" stroke="#e8f4ff" stroke-width="3"/>`
    + `<rect x="9" y="9" width="82" height="122" rx="5" fill="none" stroke="#5fb3d9" stroke-width="1.5"/>`
    + [40, 58, 76, 94, 112].map((y) => `<path d="M14 ${y} q9 -7 18 0 t18 0 t18 0 t18 0" fill="none" stroke="#2b83b8" stroke-width="2.2" stroke-linecap="round"/>`).join("")
    + `<circle cx="50" cy="24" r="7" fill="none" stroke="#bfe6ff" stroke-width="1.6"/><circle cx="62" cy="18" r="3.5" fill="none" stroke="#bfe6ff" stroke-width="1.4"/>`
    + `</svg>`;
}

/** A text-sized chip for a card in running text (the log, summaries): the symbol, then the card in words ("yellow 3",
 * never its code) on its colour. */
export function cardChip(deck, label) {
  const span = document.createElement("span");
  if (label === "??" || label === undefined || label === null) {
    span.className = "chip chip-unknown";
    span.textContent = "??";
    span.title = "a card you cannot see";
    return span;
  }
  const f = deck.face(label);
  span.className = "chip";
  span.style.setProperty("--chip-bg", f.palette.band);
  span.style.setProperty("--chip-fg", f.palette.text);
  span.innerHTML = `<svg viewBox="-11 -11 22 22" class="chip-symbol" aria-hidden="true" focusable="false">${symbolMarkup(f.color.symbol, 0, 0, 20, f.palette.text)}</svg>${esc(`${f.color.name} ${f.value}`)}`;
  span.setAttribute("aria-label", `${f.color.name} ${f.value} (${f.valueName})`);
  span.setAttribute("role", "img");
  return span;
}

/** An element holding a card's SVG; `label` null draws a card back. */
export function cardElement(deck, label, { tag = "div", className = "", lanternfish = null } = {}) {
  const el = document.createElement(tag);
  el.className = `card ${className}`.trim();
  if (lanternfish !== null) {
    el.innerHTML = lanternfishMarkup(deck, lanternfish);
    el.dataset.card = "lanternfish";
  } else if (label === null) {
    el.innerHTML = backMarkup();
  } else {
    el.innerHTML = cardMarkup(deck, label);
    el.dataset.card = label;
  }
  return el;
}
