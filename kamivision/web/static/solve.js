// Solving: the request, the solve's progress (an event stream, or a poll every half second
// where the stream breaks), its end, and Cancel.

import { api, post, withToken } from "./api.js";
import { $, clearError, plural, showError } from "./dom.js";
import { showSolution } from "./player.js";
import { S, sessionPath } from "./state.js";

export async function solve() {
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

export function followSolve() {
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

export function stopEvents() {
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
    // The last threshold's sweep proves nothing until it ends: how far down its region counts it is.
    if (p.regions !== undefined) text += `, down to ${p.regions} of ${p.regions_from} regions`;
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

export function solveEnded() {
  $("solve").disabled = false;
  $("cancel").hidden = true;
}

export async function cancel() {
  try { await post(sessionPath("/cancel")); }
  catch (error) { showError(error.message); }
}
