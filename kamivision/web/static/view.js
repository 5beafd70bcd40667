// Zoom and pan: the part of the picture shown (S.view), the view that fits the board
// (S.home), and a look at given cells.

import { describeCell, outline } from "./board.js";
import { $ } from "./dom.js";
import { S } from "./state.js";

export function setView(view) {
  S.view = view;
  $("board").setAttribute("viewBox", `${view.x} ${view.y} ${view.w} ${view.h}`);
}

// The view that fits the board: the cells the screenshot shows (those the phone hides at
// its edges take no room), within the picture.
export function fit() {
  const s = S.session;
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  const hidden = new Set(s.hidden.length < s.polygons.length ? s.hidden : []);
  for (const [cell, p] of s.polygons.entries()) {
    if (hidden.has(cell)) continue;
    for (let i = 0; i < p.length; i += 2) {
      x0 = Math.min(x0, p[i]); x1 = Math.max(x1, p[i]);
      y0 = Math.min(y0, p[i + 1]); y1 = Math.max(y1, p[i + 1]);
    }
  }
  x0 = Math.max(x0, 0); y0 = Math.max(y0, 0);
  x1 = Math.min(x1, s.image.width); y1 = Math.min(y1, s.image.height);
  const margin = 0.03 * (x1 - x0);
  S.home = { x: x0 - margin, y: y0 - margin, w: x1 - x0 + 2 * margin, h: y1 - y0 + 2 * margin };
  setView(S.home);
}

export function toPicture(clientX, clientY) {
  const svg = $("board");
  const point = new DOMPoint(clientX, clientY).matrixTransform(svg.getScreenCTM().inverse());
  return [point.x, point.y];
}

// The visible box in picture units (the viewBox is letterboxed into the element).
function shownBox() {
  const svg = $("board");
  const [x0, y0] = toPicture(svg.getBoundingClientRect().left, svg.getBoundingClientRect().top);
  const [x1, y1] = toPicture(svg.getBoundingClientRect().right, svg.getBoundingClientRect().bottom);
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

export function zoomAt(factor, px, py) {
  const v = shownBox();
  const limit = S.home.w / 12;
  if (v.w / factor < limit) factor = v.w / limit;
  if (v.w / factor > S.home.w * 3) factor = v.w / (S.home.w * 3);
  setView({ x: px - (px - v.x) / factor, y: py - (py - v.y) / factor, w: v.w / factor, h: v.h / factor });
}

export function panBy(dx, dy) {
  const v = shownBox();
  setView({ x: v.x - dx, y: v.y - dy, w: v.w, h: v.h });
}

export function zoomCentre(factor) {
  const v = shownBox();
  zoomAt(factor, v.x + v.w / 2, v.y + v.h / 2);
}

export function focusCells(cells) {
  if (!cells.length) return;
  const s = S.session;
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const cell of cells) {
    const p = s.polygons[cell];
    for (let i = 0; i < p.length; i += 2) {
      x0 = Math.min(x0, p[i]); x1 = Math.max(x1, p[i]);
      y0 = Math.min(y0, p[i + 1]); y1 = Math.max(y1, p[i + 1]);
    }
  }
  const size = Math.max(x1 - x0, y1 - y0, S.home.w / 3);
  setView({ x: (x0 + x1) / 2 - size / 2, y: (y0 + y1) / 2 - size / 2, w: size, h: size });
  const marks = $("marks");
  for (const cell of cells) {
    const flash = outline(cell, "focus");
    marks.appendChild(flash);
    setTimeout(() => flash.remove(), 3200);
  }
  if (cells.length === 1) $("info").textContent = describeCell(cells[0]);
}
