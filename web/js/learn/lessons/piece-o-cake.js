// The lesson of piece o' Cake, 3 players (you and two heuristic bots), 1 round:
// seat 1's moves on the server's lesson table (src/server/lessons.c),
// recorded by scripts/record-lesson.mjs; notes name what the coach says
// before a move (say) and after it (after), keys of learn.poc.* in
// web/i18n/; a move without a note is taught by its kind
// (learn.poc.VERB); end: the scoring, line by line.
export default {
  game: 'piece-o-cake',
  prefix: 'poc',
  moves: [
    {move: 'cut 10-3 4-8 9', parts: ['cut after 3', 'cut after 8', 'cut after 9']},
    {move: 'take 9 c', parts: ['take 9', 'collect']},
    {move: 'take 10-1 ecc', parts: ['take 10-1', 'eat', 'collect', 'collect']},
    {move: 'take 1-5 ccccc', parts: ['take 1-5', 'collect', 'collect', 'collect', 'collect', 'collect']},
    {move: 'cut 10-2 3-6 7-9', parts: ['cut after 2', 'cut after 6', 'cut after 9']},
    {move: 'take 7-9 cce', parts: ['take 7-9', 'collect', 'collect', 'eat']},
    {move: 'take 4-7 ccee', parts: ['take 4-7', 'collect', 'collect', 'eat', 'eat']},
  ],
  notes: {
    0: {say: 'learn.poc.first_cut', after: 'learn.poc.after_first_cut'},  // cut 10-3 4-8 9
    1: {say: 'learn.poc.left_over'},  // take 9 c
    2: {say: 'learn.poc.eat_or_collect'},  // take 10-1 ecc
    3: {say: 'learn.poc.collect_all', after: 'learn.poc.after_collect_all'},  // take 1-5 ccccc
    4: {say: 'learn.poc.second_cut'},  // cut 10-2 3-6 7-9
    5: {say: 'learn.poc.take_or_forfeit'},  // take 7-9 cce
    6: {after: 'learn.poc.after_last'},  // take 4-7 ccee
  },
  end: ['learn.poc.end_majority', 'learn.poc.end_eaten', 'learn.poc.end_total'],
};
