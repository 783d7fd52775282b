// What the browser tests play of this game, and what a spectator must
// not see (tests/web/games.test.mjs).

// Every card code a view shows face up: cakes, the cards held after the
// shares are revealed, the shares, and the scored rounds' cakes.
function shownCodes(view) {
  const codes = new Set();
  const add = (code) => { if (typeof code === 'string') codes.add(code); };
  for (const seat of view.seats || []) {
    for (const cake of seat.cakes || []) cake.forEach(add);
    (seat.holding || []).forEach(add);
    if (seat.shared) Object.values(seat.shared).forEach(add);
  }
  for (const result of view.results || []) {
    for (const seat of result.seats || []) for (const cake of seat.cakes || []) cake.forEach(add);
  }
  return codes;
}

export default {
  seats: ['human', 'human', 'heuristic'],
  options: undefined,
  // The data-card marks of the board that a spectator's page must not
  // show, given a seat's view and the spectator's view at one moment: the
  // seat's drawn cards during the share (the spectator's view has no
  // hand), leaving out any code the spectator sees elsewhere (the deck
  // has each code once per round, but a scored round's cakes may show it).
  hidden(seatView, spectatorView) {
    const shown = shownCodes(spectatorView);
    return (seatView.hand || []).filter((code) => !shown.has(code));
  },
};
