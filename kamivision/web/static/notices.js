// The notices: what to check after reading and after solving, folded into one line that
// opens on demand; every cell they list is a button that shows it, and a reading that
// changes the moves can be used at once.

import { $ } from "./dom.js";
import { edit } from "./input.js";
import { leavePlayer } from "./player.js";
import { S } from "./state.js";
import { focusCells } from "./view.js";

export function allWarnings() {
  const list = S.session.warnings.slice();
  if (S.solution) list.unshift(...S.solution.warnings);
  return list;
}

function cellName(cell) {
  const columns = S.session.columns;
  return `(${Math.floor(cell / columns)},${cell % columns})`;
}

export function renderWarnings() {
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
