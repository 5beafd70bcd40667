// kamivision's page: open a screenshot, fix misread cells, solve, step through the moves.
// Plain JavaScript over the JSON API of kamivision/web/app.py; the server holds the board
// and its undo history (kamivision.review.ReviewModel), the page draws what it answers.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const params = new URLSearchParams(location.search);
const token = params.get("token") || "";

const S = {
  config: null,
  session: null,     // the server's description of the session (kamivision.web.sessions.describe)
  brush: 0,          // color id, or null for blank
  tool: "paint",     // paint | fill
  view: null,        // {x, y, w, h}: the part of the picture shown
  home: null,        // the view that fits the board
  solution: null,    // the last answer (describe_solution), when it is for the board shown
  step: null,        // the move shown by the player (0..n), or null when editing
  source: null,      // the event stream of a running solve
  polls: null,
  cursor: 0,         // the cell the keyboard is on
};

// ------------------------------------------------------------------ talking to the server

function withToken(path) {
  if (!token) return path;
  return path + (path.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(token);
}

async function api(path, options = {}) {
  const headers = Object.assign({ "X-Kamivision": "1" }, options.headers || {});
  if (token) headers["X-Kamivision-Token"] = token;
  let response;
  try {
    response = await fetch(path, Object.assign({}, options, { headers }));
  } catch (error) {
    throw new Error("the server cannot be reached: is kamivision serve still running?");
  }
  let body = null;
  try { body = await response.json(); } catch (error) { body = null; }
  if (!response.ok) {
    const message = body && body.error ? body.error : `the server answered ${response.status}`;
    const failure = new Error(message);
    failure.status = response.status;
    failure.body = body;
    throw failure;
  }
  return body;
}

function post(path, body) {
  return api(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}) });
}

function sessionPath(suffix = "") { return `/api/sessions/${S.session.id}${suffix}`; }

function showError(message) {
  $("error-text").textContent = message;
  $("error").hidden = false;
}
function clearError() { $("error").hidden = true; }

// ------------------------------------------------------------------ opening

async function openFile(file) {
  clearError();
  if (!file) return;
  if (S.config && file.size > S.config.max_upload) {
    showError(`${file.name}: the file is larger than ${Math.round(S.config.max_upload / 1e6)} MB`);
    return;
  }
  $("title").textContent = `reading ${file.name}…`;
  busy(`Reading ${file.name}…`);
  try {
    const session = await api("/api/sessions", {
      method: "POST",
      headers: { "X-Filename": encodeURIComponent(file.name), "Content-Type": "application/octet-stream" },
      body: file,
    });
    // The last screenshot's session stays: another tab may be showing it, and Back
    // returns to it (the server drops idle sessions when it needs the room).
    show(session, "push");
  } catch (error) {
    $("title").textContent = S.session ? S.session.name : "";
    showError(error.message);
  } finally {
    busy(null);
  }
}

function busy(text) {
  $("busy").hidden = !text;
  $("busy").textContent = text || "";
}

// ------------------------------------------------------------------ the place in the URL
// The address holds the session and the move shown (#s=…&step=3, the step counted from 1,
// none while editing): a reload, Back and Forward, or a tab the phone dropped and
// reloaded, come back to the same place while the session lives.

function place() {
  const hash = new URLSearchParams(location.hash.slice(1));
  const step = Number(hash.get("step"));
  return {
    s: hash.get("s") || params.get("s"),
    step: Number.isInteger(step) && step > 0 ? step : null,
    error: hash.get("error"),  // a shared picture the server could not open
  };
}

function remember(how) {
  if (!how || !S.session) return;
  const query = token ? "?" + new URLSearchParams({ token }) : "";
  let hash = "#s=" + encodeURIComponent(S.session.id);
  if (S.step !== null) hash += "&step=" + (S.step + 1);
  const url = location.pathname + query + hash;
  if (url === location.pathname + location.search + location.hash) return;
  if (how === "push") history.pushState(null, "", url);
  else history.replaceState(null, "", url);
}

// Go where the address says: another session (fetched), a move, or the editing view.
async function goToPlace() {
  const want = place();
  if (want.error) {
    showError(want.error);
    history.replaceState(null, "", location.pathname + location.search);
  }
  if (!want.s) {
    if (S.session && !(S.config && S.config.review)) leaveSession();
    return;
  }
  if (!S.session || S.session.id !== want.s) {
    try {
      show(await api(`/api/sessions/${encodeURIComponent(want.s)}`), null);
    } catch (error) {
      leaveSession();
      showError(error.status === 404
        ? "that screenshot is no longer on the server (sessions end after an idle hour): open it again"
        : error.message);
      return;
    }
  }
  if (want.step !== null && S.solution && S.solution.steps) {
    S.step = Math.min(want.step - 1, S.solution.moves.length);
    refresh();
  } else if (want.step === null && S.step !== null) {
    S.step = null;
    refresh();
  }
  remember("replace");
}

function leaveSession() {
  stopEvents();
  S.session = null;
  S.solution = null;
  S.step = null;
  $("work").hidden = true;
  $("start").hidden = false;
  $("title").textContent = "";
}

function show(session, how = "replace") {
  stopEvents();
  S.session = session;
  S.solution = null;
  S.step = null;
  S.cursor = 0;
  // Nothing of the last puzzle stays: its bubble, progress, verdict, notices and moves.
  for (const id of ["info", "progress", "verdict", "verdict-more", "step-text", "step-count", "save-status"]) $(id).textContent = "";
  $("verdict-box").open = false;
  $("overlay-box").hidden = true;
  $("step-palette").replaceChildren();
  $("notices").open = false;
  $("step-photo").checked = false;
  solveEnded();
  S.brush = session.palette.length ? 0 : null;
  $("title").textContent = session.name + (session.par != null ? ` · counter ${session.par}` : "");
  $("start").hidden = true;
  $("work").hidden = false;
  $("review-panel").hidden = !session.save;
  $("open-label").hidden = Boolean(session.save);  // a review saves its own screenshot's board
  if (session.save) $("save").textContent = `Save ${session.save.name}`;
  $("dl-board").href = withToken(sessionPath("/board.json"));
  $("dl-overlay").href = withToken(sessionPath("/overlay.png"));
  $("dl-gif").href = withToken(sessionPath("/solution.gif"));
  buildBoard();
  buildPalette($("palette"), true);
  fit();
  refresh();
  remember(how);
  const solve = session.solve;
  if (solve && !["idle", "done", "cancelled", "failed"].includes(solve.state)) followSolve();
  else if (solve && solve.solution && session.solved) showSolution(solve.solution, null);
}

// ------------------------------------------------------------------ drawing the board

function buildBoard() {
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

function cellColors() {
  if (S.step !== null && S.solution && S.solution.steps) return S.solution.boards[S.step];
  return S.session.cells;
}

function refresh() {
  const s = S.session;
  const colors = cellColors();
  // The step board is drawn flat, as the game shows it (the screenshot only on request);
  // while fixing cells the slider fades between the screenshot and the reading.
  const flat = S.step !== null && !$("step-photo").checked;
  const opacity = S.step !== null ? (flat ? 1 : 0.8) : $("opacity").value / 100;
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

function keyboardOnBoard() {
  const board = $("board");
  return document.activeElement === board && board.matches(":focus-visible");
}

function outline(cell, cls) {
  const polygon = document.createElementNS(SVG, "polygon");
  polygon.setAttribute("points", S.session.polygons[cell].join(" "));
  polygon.setAttribute("class", cls);
  return polygon;
}

function drawMarks() {
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
function buildPalette(container, editable) {
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

function setBrush(value) { S.brush = value; markBrush(); }
function markBrush() {
  for (const b of $("palette").children) {
    const value = b.dataset.color === "blank" ? null : Number(b.dataset.color);
    b.classList.toggle("active", value === S.brush);
    b.setAttribute("aria-pressed", String(value === S.brush));
  }
}

function setTool(tool) {
  S.tool = tool;
  for (const [id, name] of [["tool-paint", "paint"], ["tool-fill", "fill"]]) {
    $(id).classList.toggle("active", tool === name);
    $(id).setAttribute("aria-pressed", String(tool === name));
  }
}

function describeCell(cell) {
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

// ------------------------------------------------------------------ zoom and pan

function setView(view) {
  S.view = view;
  $("board").setAttribute("viewBox", `${view.x} ${view.y} ${view.w} ${view.h}`);
}

// The view that fits the board: the cells the screenshot shows (those the phone hides at
// its edges take no room), within the picture.
function fit() {
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

function toPicture(clientX, clientY) {
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

function zoomAt(factor, px, py) {
  const v = shownBox();
  const limit = S.home.w / 12;
  if (v.w / factor < limit) factor = v.w / limit;
  if (v.w / factor > S.home.w * 3) factor = v.w / (S.home.w * 3);
  setView({ x: px - (px - v.x) / factor, y: py - (py - v.y) / factor, w: v.w / factor, h: v.h / factor });
}

function panBy(dx, dy) {
  const v = shownBox();
  setView({ x: v.x - dx, y: v.y - dy, w: v.w, h: v.h });
}

function zoomCentre(factor) {
  const v = shownBox();
  zoomAt(factor, v.x + v.w / 2, v.y + v.h / 2);
}

function focusCells(cells) {
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

// ------------------------------------------------------------------ touch, mouse and pen

const pointers = new Map();   // pointerId -> {x, y}
let gesture = null;           // {kind: "tap"|"stroke"|"info"|"pinch"|"pan", ...}

function cellAt(clientX, clientY) {
  const element = document.elementFromPoint(clientX, clientY);
  if (element && element.classList && element.classList.contains("cell") && element.dataset.cell !== undefined) {
    return Number(element.dataset.cell);
  }
  return null;
}

function paintLocally(cell, value) {
  const polygon = $("cells").children[cell];
  if (value === null) { polygon.setAttribute("class", "cell blank"); polygon.style.fill = ""; }
  else { polygon.setAttribute("class", "cell"); polygon.style.fill = S.session.palette[value]; polygon.style.fillOpacity = Math.max($("opacity").value / 100, 0.6); }
}

function startPinch() {
  const [a, b] = [...pointers.values()];
  gesture = { kind: "pinch", distance: Math.hypot(a.x - b.x, a.y - b.y), mid: [(a.x + b.x) / 2, (a.y + b.y) / 2] };
}

function onPointerDown(event) {
  const svg = $("board");
  svg.setPointerCapture(event.pointerId);
  pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
  if (pointers.size === 2) {
    if (gesture && gesture.kind === "stroke") refresh();  // a second finger: zoom, not paint
    if (gesture && gesture.timer) clearTimeout(gesture.timer);
    startPinch();
    return;
  }
  if (pointers.size > 2) return;
  if (event.pointerType === "mouse" && (event.button === 1 || event.button === 2 || event.shiftKey)) {
    gesture = { kind: "pan", last: [event.clientX, event.clientY] };
    event.preventDefault();
    return;
  }
  if (event.button !== 0 && event.pointerType === "mouse") return;
  const cell = cellAt(event.clientX, event.clientY);
  if (cell === null) { gesture = { kind: "pan", last: [event.clientX, event.clientY] }; return; }
  gesture = { kind: "tap", cell, cells: [cell] };
  gesture.timer = setTimeout(() => {
    if (gesture && gesture.kind === "tap") {  // a long press: show what the cell is, change nothing
      gesture.kind = "info";
      $("info").textContent = describeCell(cell);
    }
  }, 450);
}

function onPointerMove(event) {
  if (!pointers.has(event.pointerId)) {
    if (event.pointerType === "mouse") {  // hover: what the cell is
      const cell = cellAt(event.clientX, event.clientY);
      if (cell !== null) $("info").textContent = describeCell(cell);
    }
    return;
  }
  const previous = pointers.get(event.pointerId);
  pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
  if (!gesture) return;
  if (gesture.kind === "pinch" && pointers.size === 2) {
    const [a, b] = [...pointers.values()];
    const distance = Math.hypot(a.x - b.x, a.y - b.y);
    const mid = [(a.x + b.x) / 2, (a.y + b.y) / 2];
    const [px, py] = toPicture(mid[0], mid[1]);
    const [qx, qy] = toPicture(gesture.mid[0], gesture.mid[1]);
    panBy(px - qx, py - qy);
    const [cx, cy] = toPicture(mid[0], mid[1]);
    zoomAt(distance / gesture.distance, cx, cy);
    gesture.distance = distance; gesture.mid = mid;
    return;
  }
  if (gesture.kind === "pan") {
    const [px, py] = toPicture(event.clientX, event.clientY);
    const [qx, qy] = toPicture(gesture.last[0], gesture.last[1]);
    panBy(px - qx, py - qy);
    gesture.last = [event.clientX, event.clientY];
    return;
  }
  const cell = cellAt(event.clientX, event.clientY);
  if (cell === null) return;
  if (gesture.kind === "info") { $("info").textContent = describeCell(cell); return; }
  if (S.step !== null || S.tool !== "paint") return;  // dragging paints only with the paint tool
  if (gesture.kind === "tap" && cell !== gesture.cell) {
    clearTimeout(gesture.timer);
    gesture.kind = "stroke";
    paintLocally(gesture.cell, S.brush);
  }
  if (gesture.kind === "stroke" && !gesture.cells.includes(cell)) {
    gesture.cells.push(cell);
    paintLocally(cell, S.brush);
  }
  void previous;
}

async function onPointerUp(event) {
  if (!pointers.has(event.pointerId)) return;
  pointers.delete(event.pointerId);
  const done = gesture;
  if (pointers.size > 0) {
    if (done && done.kind === "pinch") {  // one finger left: go on panning with it
      const [p] = [...pointers.values()];
      gesture = { kind: "pan", last: [p.x, p.y] };
    }
    return;
  }
  gesture = null;
  if (!done) return;
  if (done.timer) clearTimeout(done.timer);
  if (event.type === "pointercancel") { refresh(); return; }
  if (done.kind === "tap") {
    if (S.step !== null) { $("info").textContent = describeCell(done.cell); return; }
    if (S.tool === "fill") await edit({ op: "fill", cell: done.cell, color: S.brush });
    else await edit({ op: "paint", cells: [done.cell], color: S.brush });
    $("info").textContent = describeCell(done.cell);
  } else if (done.kind === "stroke") {
    await edit({ op: "paint", cells: done.cells, color: S.brush });
  }
}

async function edit(body) {
  clearError();
  try {
    const state = await post(sessionPath("/edit"), body);
    Object.assign(S.session, state);
    if (!state.solved) S.solution = null;
  } catch (error) {
    showError(error.message);
  }
  refresh();
}

// ------------------------------------------------------------------ warnings

function allWarnings() {
  const list = S.session.warnings.slice();
  if (S.solution) list.unshift(...S.solution.warnings);
  return list;
}

function cellName(cell) {
  const columns = S.session.columns;
  return `(${Math.floor(cell / columns)},${cell % columns})`;
}

// Notices fold into one line that opens on demand; every cell they list is a button.
function renderWarnings() {
  const box = $("warnings");
  box.replaceChildren();
  const warnings = allWarnings();
  const cells = new Set(warnings.flatMap((w) => w.cells || []));
  const serious = warnings.some((w) => w.changes || /misread/.test(w.text));
  $("notices").hidden = warnings.length === 0;
  $("notices").classList.toggle("serious", serious);
  $("notices-line").textContent = `${warnings.length} ${warnings.length === 1 ? "notice" : "notices"}` +
    (cells.size ? ` · ${cells.size} ${cells.size === 1 ? "cell" : "cells"} to check` : "");
  for (const w of warnings) {
    const div = document.createElement("div");
    div.className = "warning" + (w.changes || /misread/.test(w.text) ? " serious" : "");
    const text = document.createElement("div");
    text.textContent = w.text;
    div.appendChild(text);
    if (w.cells && w.cells.length) {
      const row = document.createElement("div");
      row.className = "row";
      for (const cell of w.cells) {
        const b = document.createElement("button");
        b.textContent = cellName(cell);
        b.title = "Show this cell";
        b.addEventListener("click", () => { if (S.step !== null) leavePlayer(); focusCells([cell]); });
        row.appendChild(b);
      }
      if (w.changes && S.step === null) {
        const apply = document.createElement("button");
        apply.textContent = "Use this reading";
        apply.addEventListener("click", () => applyChanges(w.changes));
        row.appendChild(apply);
      }
      div.appendChild(row);
    }
    box.appendChild(div);
  }
}

async function applyChanges(changes) {
  for (const [cell, color] of changes) await edit({ op: "paint", cells: [cell], color });
}

// ------------------------------------------------------------------ solving

async function solve() {
  clearError();
  const seconds = Number($("seconds").value);
  try {
    await post(sessionPath("/solve"), { max_seconds: seconds });
  } catch (error) {
    showError(error.message);
    return;
  }
  followSolve();
}

function followSolve() {
  stopEvents();
  $("solve").disabled = true;
  $("cancel").hidden = false;
  $("progress").textContent = "starting…";
  if (window.EventSource) {
    const source = new EventSource(withToken(sessionPath("/events")));
    S.source = source;
    source.onmessage = (event) => onSolveState(JSON.parse(event.data));
    source.onerror = () => {  // the stream broke: ask every half second instead
      stopEvents();
      poll();
    };
  } else {
    poll();
  }
}

function poll() {
  S.polls = setInterval(async () => {
    try { onSolveState(await api(sessionPath("/solve"))); }
    catch (error) { stopEvents(); showError(error.message); solveEnded(); }
  }, 500);
}

function stopEvents() {
  if (S.source) { S.source.close(); S.source = null; }
  if (S.polls) { clearInterval(S.polls); S.polls = null; }
}

function progressText(state) {
  const p = state.progress || {};
  const secs = state.seconds !== undefined ? `, ${state.seconds.toFixed(1)} s of ${state.max_seconds} s` : "";
  if (state.state === "queued") return `waiting for the solver: ${plural(state.ahead || 0, "solve")} ahead`;
  if (state.state === "checking") return "solved; trying other readings of the uncertain cells against the counter…";
  if (p.best !== undefined) return `improving: best ${plural(p.best, "move")} so far, at least ${p.bound} needed${secs}`;
  if (p.expanded !== undefined) {
    let text = `searching: ${p.expanded.toLocaleString()} states, at least ${p.bound} moves needed`;
    if (p.found !== undefined) text += `, ${plural(p.found, "move")} found`;
    return text + secs;
  }
  return `searching${secs}`;
}

function onSolveState(state) {
  if (["queued", "running", "checking"].includes(state.state)) {
    $("progress").textContent = progressText(state);
    return;
  }
  stopEvents();
  solveEnded();
  if (state.state === "done" && state.solution) {
    $("progress").textContent = `solved in ${state.solution.seconds} s`;  // the verdict is in the player
    if (state.edit) Object.assign(S.session, state.edit);  // no notice left over from before the solve
    showSolution(state.solution);
  } else if (state.state === "cancelled") {
    $("progress").textContent = "stopped before any answer was found";
  } else if (state.state === "failed") {
    $("progress").textContent = "";
    showError(state.error || "the solve failed");
  }
}

function solveEnded() {
  $("solve").disabled = false;
  $("cancel").hidden = true;
}

async function cancel() {
  try { await post(sessionPath("/cancel")); }
  catch (error) { showError(error.message); }
}

// ------------------------------------------------------------------ the step player

function showSolution(solution, how = "push") {
  S.solution = solution;
  $("overlay-picture").removeAttribute("src");
  $("overlay-box").open = false;
  $("overlay-box").hidden = false;
  // The verdict once, folded to its first sentence; a tap opens the rest.
  const full = solution.verdict + (solution.stopped ? ` (${solution.stopped.toLowerCase()})` : "") +
    (solution.summary ? `. ${solution.summary}.` : "");
  const cut = full.indexOf(". ");
  $("verdict").textContent = cut < 0 ? full : full.slice(0, cut + 1);
  $("verdict-more").textContent = cut < 0 ? "" : full.slice(cut + 2);
  $("verdict-box").open = false;
  buildPalette($("step-palette"), false);
  S.step = 0;
  refresh();
  remember(how);
  // Move 1 in view, and the keyboard on Next (the focus was on Solve, now hidden away).
  $("player").scrollIntoView({ block: "nearest" });
  $("next").focus({ preventScroll: true });
}

function renderStep() {
  const solution = S.solution;
  const moves = solution.moves;
  const s = S.session;
  $("step-count").textContent = `${Math.min(S.step + 1, moves.length)} / ${moves.length}`;
  $("prev").disabled = S.step === 0 || !solution.steps;
  $("next").disabled = S.step >= moves.length || !solution.steps;
  for (const b of $("step-palette").children) b.classList.remove("pick");
  if (!solution.steps) {
    $("step-text").textContent = `${plural(moves.length, "move")}: too many cells and moves to step through ` +
      "on this page. The moves picture, the animation and the board file have them.";
  } else if (S.step < moves.length) {
    const move = moves[S.step];
    $("step-text").textContent =
      `Move ${S.step + 1} of ${moves.length}: pick ${move.label}, ` +
      `then tap the outlined region (row ${move.row}, column ${move.column}).`;
    const pick = $("step-palette").children[move.color];
    if (pick) pick.classList.add("pick");
  } else {
    $("step-text").textContent = moves.length
      ? `Done: after ${plural(moves.length, "move")} the board is one color.`
      : "The board is one color already.";
  }
  void s;
}

function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }

function step(delta) {
  if (S.step === null || !S.solution.steps) return;
  const next = Math.max(0, Math.min(S.solution.moves.length, S.step + delta));
  if (next === S.step) return;
  S.step = next;
  refresh();
  remember("push");
  // After the last move, the keyboard goes on to what comes next: another screenshot.
  if (S.step === S.solution.moves.length) $("file").focus({ preventScroll: true });
}

function leavePlayer() { S.step = null; refresh(); remember("push"); $("solve").focus({ preventScroll: true }); }

// ------------------------------------------------------------------ review: saving and finishing

async function save(overwrite = false) {
  clearError();
  try {
    const answer = await post(sessionPath("/save"), { overwrite });
    S.session.dirty = false;
    $("save-status").textContent = `saved ${answer.saved}`;
  } catch (error) {
    if (error.status === 409 && error.body && error.body.exists) {
      if (confirm(error.message)) return save(true);
      $("save-status").textContent = "not saved";
      return;
    }
    showError(error.message);
  }
}

async function finish() {
  if (S.session.dirty && !confirm("The board has changes that are not saved. Finish anyway?")) return;
  try { await post("/api/quit"); } catch (error) { /* the server is going away */ }
  const ended = document.createElement("p");
  ended.className = "ended";
  ended.textContent = "The review has ended: you can close this tab.";
  document.body.replaceChildren(ended);
}

// ------------------------------------------------------------------ wiring

function wire() {
  $("file").addEventListener("change", (event) => { openFile(event.target.files[0]); event.target.value = ""; });
  $("error-close").addEventListener("click", clearError);
  document.addEventListener("dragover", (event) => { event.preventDefault(); document.body.classList.add("over"); });
  document.addEventListener("dragleave", () => document.body.classList.remove("over"));
  document.addEventListener("drop", (event) => {
    event.preventDefault();
    document.body.classList.remove("over");
    if (event.dataTransfer.files.length) openFile(event.dataTransfer.files[0]);
  });
  const svg = $("board");
  svg.addEventListener("pointerdown", onPointerDown);
  svg.addEventListener("pointermove", onPointerMove);
  svg.addEventListener("pointerup", onPointerUp);
  svg.addEventListener("pointercancel", onPointerUp);
  svg.addEventListener("contextmenu", (event) => event.preventDefault());
  svg.addEventListener("wheel", (event) => {
    event.preventDefault();
    const [px, py] = toPicture(event.clientX, event.clientY);
    zoomAt(Math.exp(-event.deltaY * 0.0015), px, py);
  }, { passive: false });
  // A mouse leaving the board clears the hover line; a finger lifting leaves what it showed.
  svg.addEventListener("pointerleave", (event) => {
    if (event.pointerType === "mouse" && !pointers.size) $("info").textContent = "";
  });
  $("zoom-in").addEventListener("click", () => zoomCentre(1.4));
  $("zoom-out").addEventListener("click", () => zoomCentre(1 / 1.4));
  $("zoom-fit").addEventListener("click", () => setView(S.home));
  $("tool-paint").addEventListener("click", () => setTool("paint"));
  $("tool-fill").addEventListener("click", () => setTool("fill"));
  $("undo").addEventListener("click", () => edit({ op: "undo" }));
  $("redo").addEventListener("click", () => edit({ op: "redo" }));
  $("opacity").addEventListener("input", refresh);
  $("step-photo").addEventListener("change", refresh);
  $("solve").addEventListener("click", solve);
  $("cancel").addEventListener("click", cancel);
  $("prev").addEventListener("click", () => step(-1));
  $("next").addEventListener("click", () => step(1));
  $("back-to-edit").addEventListener("click", leavePlayer);
  $("save").addEventListener("click", () => save(false));
  $("overlay-box").addEventListener("toggle", () => {
    if ($("overlay-box").open && S.solution && !$("overlay-picture").getAttribute("src")) {
      $("overlay-picture").src = withToken(sessionPath(`/overlay.png?v=${S.solution.seconds}-${S.solution.length}`));
    }
  });
  window.addEventListener("beforeunload", (event) => {
    if (S.session && S.session.save && S.session.dirty) { event.preventDefault(); event.returnValue = ""; }
  });
  $("finish").addEventListener("click", finish);
  for (const link of [$("dl-overlay"), $("dl-gif")]) {
    link.addEventListener("click", (event) => { if (link.classList.contains("disabled")) event.preventDefault(); });
  }
  svg.addEventListener("focus", () => {  // by keyboard (Tab) only: a tap focuses the board too
    if (S.session && S.step === null && keyboardOnBoard()) { drawMarks(); $("info").textContent = describeCell(S.cursor); }
  });
  svg.addEventListener("blur", () => { if (S.session) drawMarks(); });
  svg.addEventListener("keydown", onBoardKey);
  document.addEventListener("keydown", (event) => {
    if (!S.session || event.target.tagName === "INPUT" || event.defaultPrevented) return;
    const key = event.key;
    if ((event.ctrlKey || event.metaKey) && key.toLowerCase() === "z") { event.preventDefault(); edit({ op: event.shiftKey ? "redo" : "undo" }); }
    else if ((event.ctrlKey || event.metaKey) && key.toLowerCase() === "y") { event.preventDefault(); edit({ op: "redo" }); }
    else if (S.step !== null && key === "ArrowRight") step(1);
    else if (S.step !== null && key === "ArrowLeft") step(-1);
    else if (S.step === null && /^[1-9]$/.test(key) && Number(key) <= S.session.palette.length) setBrush(Number(key) - 1);
    else if (S.step === null && key === "b") setBrush(null);
    else if (S.step === null && key === "f") setTool(S.tool === "fill" ? "paint" : "fill");
  });
}

// The board by keyboard: arrows move a cursor between cells, a number key paints the
// cell that color, b blanks it, Enter or Space paints (or fills) with the picked color.
async function onBoardKey(event) {
  if (!S.session || S.step !== null || event.ctrlKey || event.metaKey || event.altKey) return;
  const s = S.session;
  const row = Math.floor(S.cursor / s.columns), column = S.cursor % s.columns;
  const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
  let color;
  if (moves[event.key]) {
    const [dr, dc] = moves[event.key];
    const r = Math.max(0, Math.min(s.rows - 1, row + dr)), c = Math.max(0, Math.min(s.columns - 1, column + dc));
    S.cursor = r * s.columns + c;
    event.preventDefault();
    drawMarks();
    $("info").textContent = describeCell(S.cursor);
    return;
  } else if (/^[1-9]$/.test(event.key) && Number(event.key) <= s.palette.length) {
    color = Number(event.key) - 1;
  } else if (event.key === "b") {
    color = null;
  } else if (event.key === "Enter" || event.key === " ") {
    color = S.brush;
  } else {
    return;
  }
  event.preventDefault();
  setBrush(color);
  if (S.tool === "fill") await edit({ op: "fill", cell: S.cursor, color });
  else await edit({ op: "paint", cells: [S.cursor], color });
  $("info").textContent = describeCell(S.cursor);
}

async function start() {
  wire();
  // The manifest (home screen, share sheet) carries the token, as every request does.
  const manifest = document.createElement("link");
  manifest.rel = "manifest";
  manifest.href = withToken("manifest.webmanifest");
  document.head.appendChild(manifest);
  try {
    S.config = await api("/api/config");
  } catch (error) {
    showError(error.message);
    return;
  }
  $("seconds").value = S.config.default_seconds;
  $("seconds").max = S.config.max_seconds;
  window.addEventListener("popstate", goToPlace);
  if (S.config.review && place().s !== S.config.review) {
    try { show(await api(`/api/sessions/${encodeURIComponent(S.config.review)}`)); }
    catch (error) { showError(error.message); }
  } else {
    await goToPlace();
  }
}

start();
