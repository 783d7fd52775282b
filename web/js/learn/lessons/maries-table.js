// The lesson of Marie's Table, 3 players (you and two heuristic bots), 6 rounds:
// seat 1's moves on the server's lesson table (src/server/lessons.c),
// recorded by scripts/record-lesson.mjs; notes name what the coach says
// before a move (say) and after it (after), keys of learn.mt.* in
// web/i18n/; a move without a note is taught by its kind
// (learn.mt.VERB); end: the scoring, line by line.
export default {
  game: 'maries-table',
  prefix: 'mt',
  moves: [
    {move: 'keep 6 6', parts: ['keep 6', 'keep 6']},
    {move: 'up', parts: ['up']},
    {move: 'eat', parts: ['eat']},
    {move: 'keep 4 7', parts: ['keep 4', 'keep 7']},
    {move: 'down', parts: ['down']},
    {move: 'take 2', parts: ['take 2']},
    {move: 'eat 4 5', parts: ['eat 4 5']},
    {move: 'down', parts: ['down']},
    {move: 'eat', parts: ['eat']},
    {move: 'keep 5 7', parts: ['keep 5', 'keep 7']},
    {move: 'up', parts: ['up']},
    {move: 'eat', parts: ['eat']},
    {move: 'keep 2 6', parts: ['keep 2', 'keep 6']},
    {move: 'down', parts: ['down']},
    {move: 'take 2', parts: ['take 2']},
    {move: 'eat', parts: ['eat']},
    {move: 'up', parts: ['up']},
    {move: 'eat', parts: ['eat']},
  ],
  notes: {
    0: {say: 'learn.mt.first_keep'},  // keep 6 6
    1: {say: 'learn.mt.first_vote', after: 'learn.mt.after_first_vote'},  // up
    2: {say: 'learn.mt.first_eat'},  // eat
    3: {say: 'learn.mt.second_keep'},  // keep 4 7
    4: {say: 'learn.mt.vote_down', after: 'learn.mt.after_swap'},  // down
    5: {say: 'learn.mt.take_pair'},  // take 2
    6: {say: 'learn.mt.eat_both', after: 'learn.mt.after_eat_both'},  // eat 4 5
    7: {say: 'learn.mt.youngest_vote', after: 'learn.mt.after_lone_vote'},  // down
    13: {after: 'learn.mt.after_second_swap'},  // down
  },
  end: ['learn.mt.end_eaten', 'learn.mt.end_kept', 'learn.mt.end_tie'],
};
