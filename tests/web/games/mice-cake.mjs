// What the browser tests play of this game, and what a spectator must
// not see (tests/web/games.test.mjs).
//
// Mice Cake hides the face-down pieces from everybody (both views show
// them as "??") and a seat's assignment while assigning (mice, not
// pieces); so a seat's view names no piece the spectator's does not.
// hidden() still compares the two: any piece a seat's view shows face up
// (grid or stash) that the spectator's view does not.
const shown = (view) => {
  const pieces = new Set();
  for (const row of view.grid || []) for (const cell of row) if (cell && cell !== '??') pieces.add(cell);
  for (const seat of view.seats || []) for (const piece of seat.stash || []) pieces.add(piece);
  return pieces;
};

export default {
  seats: ['human', 'human'],
  options: undefined,
  // The data-card marks of the board that a spectator's page must not
  // show, given a seat's view and the spectator's view at one moment.
  hidden(seatView, spectatorView) {
    const public_ = shown(spectatorView);
    return [...shown(seatView)].filter((piece) => !public_.has(piece));
  },
};
