// Page-wide helpers: elements by id, the SVG namespace, plural words, the error line and
// the busy note.

export const $ = (id) => document.getElementById(id);
export const SVG = "http://www.w3.org/2000/svg";

export function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }

export function showError(message) {
  $("error-text").textContent = message;
  $("error").hidden = false;
}
export function clearError() { $("error").hidden = true; }

export function busy(text) {
  $("busy").hidden = !text;
  $("busy").textContent = text || "";
}
