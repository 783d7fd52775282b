// What the browser tests play of this game, and what a spectator must
// not see (tests/web/games.test.mjs).
export default {
  seats: ['human', 'human', 'heuristic', 'random'],
  options: undefined,
  // The data-card marks of the board that a spectator's page must not
  // show, given a seat's view and the spectator's view at one moment:
  // during the draft, the hand this seat was passed (hand-V), the pair it
  // kept face down (mine-V) and what it passed on (passed-V); during the
  // vote, this seat's vote while the spectator sees it hidden (vote-sS-V).
  hidden(seatView, spectatorView) {
    const marks = [];
    const draft = seatView.draft;
    if (draft && draft.seen) {
      if (draft.kept) {
        for (const v of draft.kept) marks.push(`mine-${v}`);
        for (const v of draft.passed || []) marks.push(`passed-${v}`);
      } else {
        for (const v of draft.seen) marks.push(`hand-${v}`);
      }
    }
    if (seatView.phase === 'vote') {
      const mine = seatView.revealed.find((round) => round.round === seatView.round);
      const theirs = spectatorView.revealed.find((round) => round.round === spectatorView.round);
      const seat = seatView.seat;
      const vote = mine && mine.seats[seat - 1].vote;
      const shown = theirs && theirs.seats[seat - 1].vote;
      if ((vote === 'up' || vote === 'down') && shown !== vote) marks.push(`vote-s${seat}-${vote}`);
    }
    return marks;
  },
};
