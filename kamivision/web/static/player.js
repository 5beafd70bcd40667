// The step player: the verdict, then one move at a time (the region outlined, the color
// to pick, the marker numbered), Back to editing.

import { buildPalette, refresh } from "./board.js";
import { $, plural } from "./dom.js";
import { remember } from "./session.js";
import { S } from "./state.js";

export function showSolution(solution, how = "push") {
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

export function renderStep() {
  const solution = S.solution;
  const moves = solution.moves;
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
}

export function step(delta) {
  if (S.step === null || !S.solution.steps) return;
  const next = Math.max(0, Math.min(S.solution.moves.length, S.step + delta));
  if (next === S.step) return;
  S.step = next;
  refresh();
  remember("push");
  // After the last move, the keyboard goes on to what comes next: another screenshot.
  if (S.step === S.solution.moves.length) $("file").focus({ preventScroll: true });
}

export function leavePlayer() { S.step = null; refresh(); remember("push"); $("solve").focus({ preventScroll: true }); }
