// /join (or /join#CODE from the room's QR code): a code and a name give this phone a seat of the room's table,
// with its own seat token, exactly like an invite link; then the normal table page plays it. The token is kept
// per room code and sent with the next join, so this phone gets its own seat back; a name alone never takes a
// seat somebody holds (only once the room's screen let that seat back in: a phone that died). docs/protocol.md.

const $ = (id) => document.getElementById(id);
const NAME_KEY = "divedeck.name"; // shared with the table page: the name this browser last typed
const SEAT_KEY = "divedeck.room-seat."; // + room code: the seat token this phone was given in that room

/** The code as the server reads it: letters only, upper case. */
function normalCode(text) {
  return text.toUpperCase().replace(/[^A-Z]/g, "");
}

function keptToken(code) {
  try {
    return localStorage.getItem(SEAT_KEY + code) || null;
  } catch {
    return null;
  }
}

function remembered() {
  try {
    return localStorage.getItem(NAME_KEY) || "";
  } catch {
    return "";
  }
}

function showError(text) {
  const box = $("join-error");
  box.textContent = text;
  box.hidden = !text;
}

async function join(event) {
  event.preventDefault();
  const code = $("join-code").value.trim();
  const name = $("join-name").value.trim();
  if (!code || !name) {
    showError(!code ? "Type the room code from the shared screen." : "Type your name.");
    return;
  }
  const button = $("join-button");
  button.disabled = true;
  showError("");
  try {
    const response = await fetch("/api/rooms/join", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ code, name, token: keptToken(normalCode(code)) }),
    });
    const data = await response.json().catch(() => null);
    if (!response.ok) throw new Error((data && data.error && data.error.message) || `the server answered ${response.status}`);
    try {
      localStorage.setItem(NAME_KEY, name);
      localStorage.setItem(SEAT_KEY + normalCode(code), data.token);
    } catch {
      // private mode
    }
    location.assign(`/table/${encodeURIComponent(data.table)}#seat=${data.seat}&token=${encodeURIComponent(data.token)}`);
  } catch (error) {
    showError(error.message);
    button.disabled = false;
  }
}

const fromLink = decodeURIComponent(location.hash.replace(/^#/, "")).toUpperCase().replace(/[^A-Z]/g, "").slice(0, 6);
if (fromLink) $("join-code").value = fromLink;
$("join-name").value = remembered();
$("join-form").addEventListener("submit", join);
(fromLink ? $("join-name") : $("join-code")).focus();
