// Drawing the board: the cells over the screenshot, the marks (uncertain, flagged, edited
// and hidden cells, the keyboard's cursor, the move's region and marker), the palette, and
// refresh(), which draws the whole page from the state after every change.

import { withToken } from "./api.js";
import { $, SVG } from "./dom.js";
import { allWarnings, renderWarnings } from "./notices.js";
import { renderStep } from "./player.js";
import { S, cellColors, sessionPath } from "./state.js";

export function buildBoard() {
  const s = S.session;
  const picture = $("picture");
  picture.setAttribute("width", s.image.width);
  picture.setAttribute("height", s.image.height);
  picture.setAttribute("href", withToken(sessionPath("/image")));
  const group = $("cells");
  group.replaceChildren();
  s.polygons.forEach((points, i) => {
    const polygon = document.createElementNS(SVG, "polygon");
    polygon.setAttribute("points", points.join(" "));
    polygon.setAttribute("class", "cell");
    polygon.dataset.cell = i;
    group.appendChild(polygon);
  });
}

export function refresh() {
  const s = S.session;
  const colors = cellColors();
  // The step board is drawn flat, as the game shows it (the screenshot only on request);
  // while fixing cells the slider fades between the screenshot and the reading.
  const flat = S.step !== null && !S.photo;
  const opacity = S.step !== null ? (flat ? 1 : 0.8) : S.opacity / 100;
  $("opacity").value = S.opacity;
  $("step-photo").checked = S.photo;
  $("board").classList.toggle("flat", flat);
  $("info").textContent = "";  // a bubble lasts until the next action
  const polygons = $("cells").children;
  for (let i = 0; i < polygons.length; i++) {
    const value = colors[i];
    const polygon = polygons[i];
    if (value === null) {
      polygon.setAttribute("class", "cell blank");
      polygon.style.fill = "";
      polygon.style.stroke = "";
      polygon.style.fillOpacity = Math.max(opacity, 0.35);
    } else {
      polygon.setAttribute("class", "cell");
      polygon.style.fill = s.palette[value] || "#888";
      polygon.style.stroke = flat ? polygon.style.fill : "";  // no seams between cells of one color
      polygon.style.fillOpacity = opacity;
    }
  }
  drawMarks();
  $("undo").disabled = !s.can_undo || S.step !== null;
  $("redo").disabled = !s.can_redo || S.step !== null;
  $("edit-panel").hidden = S.step !== null;
  $("player").hidden = S.step === null;
  const solved = S.solution !== null;
  $("dl-overlay").classList.toggle("disabled", !solved);
  $("dl-gif").classList.toggle("disabled", !solved || !S.solution.steps);  // too large to animate: no GIF
  renderWarnings();
  if (S.step !== null) renderStep();
  $("overlay-box").hidden = !solved;
  document.body.classList.toggle("playing", S.step !== null);
  sizePanel();
}

// A cell painted at once while a finger strokes over it (the server's answer redraws it).
export function paintLocally(cell, value) {
  const polygon = $("cells").children[cell];
  if (value === null) { polygon.setAttribute("class", "cell blank"); polygon.style.fill = ""; }
  else { polygon.setAttribute("class", "cell"); polygon.style.fill = S.session.palette[value]; polygon.style.fillOpacity = Math.max(S.opacity / 100, 0.6); }
}

// On a phone the page does not scroll: while stepping, the panel under the board is as
// tall as the move's controls (and the notices' line), so the board gets the rest.
const PHONE = window.matchMedia("(max-width: 760px)");
function sizePanel() {
  const side = $("side");
  side.style.maxHeight = "";
  if (!PHONE.matches || S.step === null) return;
  const last = $("notices").hidden ? $("back-to-edit").parentElement : $("notices");
  const top = side.getBoundingClientRect().top - side.scrollTop;
  const bottom = last.getBoundingClientRect().bottom;
  side.style.maxHeight = `${Math.ceil(bottom - top + 8)}px`;
}

export function keyboardOnBoard() {
  const board = $("board");
  return document.activeElement === board && board.matches(":focus-visible");
}

export function outline(cell, cls) {
  const polygon = document.createElementNS(SVG, "polygon");
  polygon.setAttribute("points", S.session.polygons[cell].join(" "));
  polygon.setAttribute("class", cls);
  return polygon;
}

export function drawMarks() {
  const s = S.session;
  const marks = $("marks");
  marks.replaceChildren();
  if (S.step === null) {
    for (const cell of s.hidden) marks.appendChild(outline(cell, "hidden-cell"));
    for (const cell of s.edited) marks.appendChild(outline(cell, "edited"));
    for (const cell of s.uncertain) marks.append(outline(cell, "unsure-under"), outline(cell, "unsure"));
    for (const w of allWarnings()) {
      if (w.changes) for (const [cell] of w.changes) if (!s.edited.includes(cell)) marks.append(outline(cell, "flagged-under"), outline(cell, "flagged"));
    }
    if (keyboardOnBoard()) marks.append(outline(S.cursor, "cursor-under"), outline(S.cursor, "cursor"));
    return;
  }
  const moves = S.solution.moves;
  if (S.solution.steps && S.step < moves.length) {
    const move = moves[S.step];
    marks.append(boundary(move.region, "region-under"), boundary(move.region, "region"));
    const [x, y] = s.centres[move.cell];
    const radius = markerRadius();
    const marker = document.createElementNS(SVG, "g");
    marker.setAttribute("class", "marker");
    const halo = document.createElementNS(SVG, "circle");
    halo.setAttribute("cx", x); halo.setAttribute("cy", y); halo.setAttribute("r", radius);
    halo.setAttribute("class", "halo");
    const circle = document.createElementNS(SVG, "circle");
    circle.setAttribute("cx", x); circle.setAttribute("cy", y); circle.setAttribute("r", radius);
    circle.setAttribute("fill", s.palette[move.color]);
    const text = document.createElementNS(SVG, "text");
    text.setAttribute("x", x); text.setAttribute("y", y);
    text.setAttribute("font-size", radius * 1.1);
    text.setAttribute("fill", s.ink[move.color]);  // dark or light, 4.5:1 or more on the color
    text.textContent = S.step + 1;
    marker.append(halo, circle, text);
    marks.appendChild(marker);
  }
}

// The outline of a group of cells: the polygon edges that only one of them has.
function boundary(cells, cls) {
  const edges = new Map();
  for (const cell of cells) {
    const p = S.session.polygons[cell];
    const n = p.length / 2;
    for (let i = 0; i < n; i++) {
      const a = [p[2 * i], p[2 * i + 1]], b = [p[2 * ((i + 1) % n)], p[2 * ((i + 1) % n) + 1]];
      const ka = a.map((v) => Math.round(v)).join(","), kb = b.map((v) => Math.round(v)).join(",");
      const key = ka < kb ? ka + "|" + kb : kb + "|" + ka;
      const seen = edges.get(key);
      edges.set(key, seen ? null : [a, b]);
    }
  }
  let d = "";
  for (const edge of edges.values()) if (edge) d += `M${edge[0][0]} ${edge[0][1]}L${edge[1][0]} ${edge[1][1]}`;
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", d);
  path.setAttribute("class", cls);
  return path;
}

// The marker: most of a cell's width, and never under 11 pixels on the screen (a phone
// shows a tall board a few pixels a cell).
function markerRadius() {
  const p = S.session.polygons[0];
  const xs = p.filter((_, i) => i % 2 === 0);
  const rect = $("board").getBoundingClientRect();
  const perPixel = rect.width && rect.height ? Math.max(S.view.w / rect.width, S.view.h / rect.height) : 0;
  return Math.max(6, (Math.max(...xs) - Math.min(...xs)) * 0.42, 11 * perPixel);
}

// The palette: buttons to pick the brush while fixing cells; in the step player, a
// picture of the game's swatches (not buttons: the step text names the color to pick).
export function buildPalette(container, editable) {
  const s = S.session;
  container.replaceChildren();
  s.palette.forEach((hex, k) => {
    const button = document.createElement(editable ? "button" : "span");
    button.className = "swatch";
    button.style.background = hex;
    button.style.color = s.ink[k];
    button.dataset.color = k;
    button.title = s.labels[k];
    button.innerHTML = `<b aria-hidden="true">${k + 1}</b><span aria-hidden="true"></span>`;
    button.querySelector("span").textContent = s.names[k];
    if (editable) {
      button.setAttribute("aria-label", s.labels[k]);
      button.addEventListener("click", () => setBrush(k));
    }
    container.appendChild(button);
  });
  if (editable) {
    const blank = document.createElement("button");
    blank.className = "swatch blank";
    blank.dataset.color = "blank";
    blank.title = "blank (no paper)";
    blank.setAttribute("aria-label", "blank (no paper)");
    blank.innerHTML = '<b aria-hidden="true">∅</b><span aria-hidden="true">blank</span>';
    blank.addEventListener("click", () => setBrush(null));
    container.appendChild(blank);
    markBrush();
  }
}

export function setBrush(value) { S.brush = value; markBrush(); }
function markBrush() {
  for (const b of $("palette").children) {
    const value = b.dataset.color === "blank" ? null : Number(b.dataset.color);
    b.classList.toggle("active", value === S.brush);
    b.setAttribute("aria-pressed", String(value === S.brush));
  }
}

export function setTool(tool) {
  S.tool = tool;
  for (const [id, name] of [["tool-paint", "paint"], ["tool-fill", "fill"]]) {
    $(id).classList.toggle("active", tool === name);
    $(id).setAttribute("aria-pressed", String(tool === name));
  }
}

export function describeCell(cell) {
  const s = S.session;
  const columns = s.columns;
  const row = Math.floor(cell / columns), column = cell % columns;
  const value = cellColors()[cell];
  const what = value === null ? "blank" : s.labels[value];
  let text = `row ${row}, column ${column}: ${what}`;
  if (S.step === null && s.screenshot) {
    const read = s.read[cell];
    const confidence = s.confidence[cell];
    if (s.edited.includes(cell)) text += ` (you changed it; read as ${read === null ? "blank" : s.labels[read]})`;
    else text += `, confidence ${confidence.toFixed(2)}`;
    if (s.hidden.includes(cell)) text += " (hidden at the screen's edge: guessed)";
    else if (s.uncertain.includes(cell)) text += " (uncertain: check it)";
  }
  return text;
}
