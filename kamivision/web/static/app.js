// kamivision's page: open a screenshot, fix misread cells, solve, step through the moves.
// Plain JavaScript modules (no build step) over the JSON API of kamivision/web/app.py; the
// server holds the board and its undo history (kamivision.review.ReviewModel), the page
// draws what it answers.  The state is one object (state.js) that the DOM reflects:
//
//   api.js      requests, with the token        state.js   the state
//   dom.js      small page-wide helpers         board.js   drawing the board; refresh()
//   view.js     zoom and pan                    input.js   touch, mouse, pen and keys
//   notices.js  what to check                   solve.js   solving and its progress
//   player.js   the moves, one at a time        session.js opening, the place in the URL
//   review.js   saving a review                 app.js     the controls wired; the start

import { api, withToken } from "./api.js";
import { refresh, setTool } from "./board.js";
import { $, clearError, showError } from "./dom.js";
import { edit, wireInput } from "./input.js";
import { leavePlayer, step } from "./player.js";
import { finish, save } from "./review.js";
import { goToPlace, openFile, place, show } from "./session.js";
import { cancel, solve } from "./solve.js";
import { S, sessionPath } from "./state.js";
import { setView, zoomCentre } from "./view.js";

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
  wireInput();
  $("zoom-in").addEventListener("click", () => zoomCentre(1.4));
  $("zoom-out").addEventListener("click", () => zoomCentre(1 / 1.4));
  $("zoom-fit").addEventListener("click", () => setView(S.home));
  $("tool-paint").addEventListener("click", () => setTool("paint"));
  $("tool-fill").addEventListener("click", () => setTool("fill"));
  $("undo").addEventListener("click", () => edit({ op: "undo" }));
  $("redo").addEventListener("click", () => edit({ op: "redo" }));
  $("opacity").addEventListener("input", () => { S.opacity = Number($("opacity").value); refresh(); });
  $("step-photo").addEventListener("change", () => { S.photo = $("step-photo").checked; refresh(); });
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
}

// The state and the error line, for the console (and the browser tests, which use them).
Object.assign(window, { S, showError });

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
