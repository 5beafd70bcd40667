// kamivision review: saving the fixed board beside the screenshot (asking before it
// replaces a file), and finishing the review.

import { post } from "./api.js";
import { $, clearError, showError } from "./dom.js";
import { S, sessionPath } from "./state.js";

export async function save(overwrite = false) {
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

export async function finish() {
  if (S.session.dirty && !confirm("The board has changes that are not saved. Finish anyway?")) return;
  try { await post("/api/quit"); } catch (error) { /* the server is going away */ }
  const ended = document.createElement("p");
  ended.className = "ended";
  ended.textContent = "The review has ended: you can close this tab.";
  document.body.replaceChildren(ended);
}
