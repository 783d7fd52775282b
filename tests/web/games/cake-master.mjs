// What the browser tests play of this game, and what a spectator must
// not see (tests/web/games.test.mjs).
export default {
  seats: ['human', 'human', 'heuristic'],
  options: undefined,
  // The data-card marks of the board that a spectator's page must not
  // show, given a seat's view and the spectator's view at one moment.
  hidden(seatView, spectatorView) {
    return [];
  },
};
