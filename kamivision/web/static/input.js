// Touch, mouse, pen and keyboard on the board: a tap paints (or fills) a cell, a stroke
// paints several, a long press or a hover tells what a cell is, two fingers or the wheel
// zoom, a drag off the cells pans; arrows and number keys fix cells without a pointer.
// Every change goes to the server (edit), which answers with the board and its history.

import { post } from "./api.js";
import { describeCell, drawMarks, keyboardOnBoard, paintLocally, refresh, setBrush, setTool } from "./board.js";
import { $, clearError, showError } from "./dom.js";
import { step } from "./player.js";
import { S, sessionPath } from "./state.js";
import { panBy, toPicture, zoomAt } from "./view.js";

const pointers = new Map();   // pointerId -> {x, y}
let gesture = null;           // {kind: "tap"|"stroke"|"info"|"pinch"|"pan", ...}

export async function edit(body) {
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

function cellAt(clientX, clientY) {
  const element = document.elementFromPoint(clientX, clientY);
  if (element && element.classList && element.classList.contains("cell") && element.dataset.cell !== undefined) {
    return Number(element.dataset.cell);
  }
  return null;
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

// Shortcuts anywhere on the page but in a text field: undo and redo, the moves, the brush
// and the tool.
function onPageKey(event) {
  if (!S.session || event.target.tagName === "INPUT" || event.defaultPrevented) return;
  const key = event.key;
  if ((event.ctrlKey || event.metaKey) && key.toLowerCase() === "z") { event.preventDefault(); edit({ op: event.shiftKey ? "redo" : "undo" }); }
  else if ((event.ctrlKey || event.metaKey) && key.toLowerCase() === "y") { event.preventDefault(); edit({ op: "redo" }); }
  else if (S.step !== null && key === "ArrowRight") step(1);
  else if (S.step !== null && key === "ArrowLeft") step(-1);
  else if (S.step === null && /^[1-9]$/.test(key) && Number(key) <= S.session.palette.length) setBrush(Number(key) - 1);
  else if (S.step === null && key === "b") setBrush(null);
  else if (S.step === null && key === "f") setTool(S.tool === "fill" ? "paint" : "fill");
}

export function wireInput() {
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
  svg.addEventListener("focus", () => {  // by keyboard (Tab) only: a tap focuses the board too
    if (S.session && S.step === null && keyboardOnBoard()) { drawMarks(); $("info").textContent = describeCell(S.cursor); }
  });
  svg.addEventListener("blur", () => { if (S.session) drawMarks(); });
  svg.addEventListener("keydown", onBoardKey);
  document.addEventListener("keydown", onPageKey);
}
