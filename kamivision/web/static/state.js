// The page's state, in one object: the controls write to it and the DOM only reflects it
// (board.js's refresh draws it after every change).

export const S = {
  config: null,
  session: null,     // the server's description of the session (kamivision.web.sessions.describe)
  brush: 0,          // color id, or null for blank
  tool: "paint",     // paint | fill
  opacity: 80,       // while fixing cells: 0 shows the screenshot, 100 the reading
  photo: false,      // the step player draws the screenshot under the board
  view: null,        // {x, y, w, h}: the part of the picture shown
  home: null,        // the view that fits the board
  solution: null,    // the last answer (describe_solution), when it is for the board shown
  step: null,        // the move shown by the player (0..n), or null when editing
  source: null,      // the event stream of a running solve
  polls: null,
  cursor: 0,         // the cell the keyboard is on
};

// The colors shown: the move's board while stepping, else the session's cells.
export function cellColors() {
  if (S.step !== null && S.solution && S.solution.steps) return S.solution.boards[S.step];
  return S.session.cells;
}

export function sessionPath(suffix = "") { return `/api/sessions/${S.session.id}${suffix}`; }
