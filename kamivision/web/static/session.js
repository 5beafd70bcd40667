// Opening a screenshot or board, and the place in the URL.  The address holds the session
// and the move shown (#s=…&step=3, the step counted from 1, none while editing): a reload,
// Back and Forward, or a tab the phone dropped and reloaded, come back to the same place
// while the session lives.

import { api, tokenQuery, withToken } from "./api.js";
import { buildBoard, buildPalette, refresh } from "./board.js";
import { $, busy, clearError, showError } from "./dom.js";
import { showSolution } from "./player.js";
import { followSolve, solveEnded, stopEvents } from "./solve.js";
import { S, sessionPath } from "./state.js";
import { fit } from "./view.js";

export async function openFile(file) {
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

export function place() {
  const hash = new URLSearchParams(location.hash.slice(1));
  const step = Number(hash.get("step"));
  return {
    s: hash.get("s") || new URLSearchParams(location.search).get("s"),
    step: Number.isInteger(step) && step > 0 ? step : null,
    error: hash.get("error"),  // a shared picture the server could not open
  };
}

export function remember(how) {
  if (!how || !S.session) return;
  let hash = "#s=" + encodeURIComponent(S.session.id);
  if (S.step !== null) hash += "&step=" + (S.step + 1);
  const url = location.pathname + tokenQuery() + hash;
  if (url === location.pathname + location.search + location.hash) return;
  if (how === "push") history.pushState(null, "", url);
  else history.replaceState(null, "", url);
}

// Go where the address says: another session (fetched), a move, or the editing view.
export async function goToPlace() {
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

export function show(session, how = "replace") {
  stopEvents();
  S.session = session;
  S.solution = null;
  S.step = null;
  S.cursor = 0;
  S.photo = false;
  // Nothing of the last puzzle stays: its bubble, progress, verdict, notices and moves.
  for (const id of ["info", "progress", "verdict", "verdict-more", "step-text", "step-count", "save-status"]) $(id).textContent = "";
  $("verdict-box").open = false;
  $("overlay-box").hidden = true;
  $("step-palette").replaceChildren();
  $("notices").open = false;
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
