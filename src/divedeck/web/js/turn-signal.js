// "Your turn", even in another tab: the tab's icon gets a yellow dot while it is this screen's turn (the title
// says so too, in table.js), and, when the player has allowed it, a browser notification (the Notifications API,
// no outside service) if the page is not being looked at. The switch is remembered in this browser.

const NOTIFY_KEY = "divedeck.notify";
const ICON = "/static/img/icon.svg";
const TURN_ICON = "/static/img/icon-turn.svg";

export function notifySupported() {
  return typeof Notification === "function";
}

export function notifyOn() {
  try {
    return notifySupported() && Notification.permission === "granted" && localStorage.getItem(NOTIFY_KEY) === "1";
  } catch {
    return false;
  }
}

/** Turn the notifications on (asking the browser's permission the first time) or off; resolves with the new
 * state. */
export async function toggleNotify() {
  if (!notifySupported()) return false;
  const on = !notifyOn();
  if (on && Notification.permission !== "granted") {
    const answer = await Notification.requestPermission();
    if (answer !== "granted") return false;
  }
  try {
    localStorage.setItem(NOTIFY_KEY, on ? "1" : "0");
  } catch {
    // private mode: for this page only
  }
  return notifyOn();
}

/** Show whether it is this screen's turn in the tab's icon; when the turn has just come and the page is not being
 * looked at, notify (if allowed). */
export function signalTurn(mine, justCame, { title = "Your turn", body = "" } = {}) {
  const link = document.querySelector('link[rel="icon"]');
  const href = mine ? TURN_ICON : ICON;
  if (link && link.getAttribute("href") !== href) link.setAttribute("href", href);
  document.documentElement.dataset.yourTurn = mine ? "1" : "0";
  if (!justCame || document.visibilityState === "visible" || !notifyOn()) return;
  try {
    const note = new Notification(title, { body, icon: TURN_ICON, tag: `divedeck-turn-${location.pathname}` });
    note.onclick = () => {
      window.focus();
      note.close();
    };
  } catch {
    // a browser that only notifies from a service worker: the title and the icon still say it
  }
}
