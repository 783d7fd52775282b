// What the browser tests play of this game, and what a spectator must
// not see (tests/web/games.test.mjs).
export default {
  seats: ['human', 'human', 'heuristic'],
  options: undefined,
  // The data-card marks of the board that a spectator's page must not
  // show, given a seat's view and the spectator's view at one moment.
  // piece o' Cake hides nothing from a spectator that a seat sees: the
  // served cake, the cuts, every collection and every eaten count are
  // public, and the stacks to come are hidden from everybody alike.
  hidden(seatView, spectatorView) {
    return [];
  },
};
