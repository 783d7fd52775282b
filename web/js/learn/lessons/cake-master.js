// The lesson of Cake Master, 2 players (you and a heuristic bot):
// seat 1's moves on the server's lesson table (src/server/lessons.c),
// recorded by scripts/record-lesson.mjs; notes name what the coach says
// before a move (say) and after it (after), keys of learn.cm.* in
// web/i18n/; a move without a note is taught by its kind
// (learn.cm.VERB); end: the scoring, line by line.
export default {
  game: 'cake-master',
  prefix: 'cm',
  moves: [
    {move: 'keep C0*b left W3 right P0*b', parts: ['keep C0*b']},
    {move: 'place P2:1c W1:2b C0*b:3d', parts: ['P2:1c', 'W1:2b', 'C0*b:3d']},
    {move: 'keep W1bb left W0bb right P0rr', parts: ['keep W1bb']},
    {move: 'place W1bb:2d C0rr:3a C3bb:3b', parts: ['W1bb:2d', 'C0rr:3a', 'C3bb:3b']},
    {move: 'keep P3 left P1b right P1', parts: ['keep P3']},
    {move: 'place P1rr:1a P3:1d W0rb:2a', parts: ['P1rr:1a', 'P3:1d', 'W0rb:2a']},
    {move: 'keep P2rb left C3r right P1r', parts: ['keep P2rb']},
    {move: 'place P0*:1b P2rb:2c P1rb:3c', parts: ['P0*:1b', 'P2rb:2c', 'P1rb:3c']},
    {move: 'keep W2r left P3rb right W3bb', parts: ['keep W2r']},
    {move: 'place C0*b:1d W2r:2d W1:3c', parts: ['C0*b:1d', 'W2r:2d', 'W1:3c']},
    {move: 'keep W1r left P0bb right C3r', parts: ['keep W1r']},
    {move: 'place C2:1a W1r:2c C2b:3d', parts: ['C2:1a', 'W1r:2c', 'C2b:3d']},
    {move: 'keep P3bb left C3bb right P1rr', parts: ['keep P3bb']},
    {move: 'place C2bb:2b C3:3a P3bb:3b', parts: ['C2bb:2b', 'C3:3a', 'P3bb:3b']},
    {move: 'keep W3r left C2rr right C3rr', parts: ['keep W3r']},
    {move: 'place W2bb:1b P0*:1c W3r:2a', parts: ['W2bb:1b', 'P0*:1c', 'W3r:2a']},
    {move: 'keep C1rb left W2b right W1b', parts: ['keep C1rb']},
    {move: 'place C1rb:1d P2bb:2b W1rr:3b', parts: ['C1rb:1d', 'P2bb:2b', 'W1rr:3b']},
    {move: 'keep P1rr left C1rr right P2', parts: ['keep P1rr']},
    {move: 'place P3:2c P1rr:2d W1:3d', parts: ['P3:2c', 'P1rr:2d', 'W1:3d']},
    {move: 'keep W3b left P3r right C3', parts: ['keep W3b']},
    {move: 'place C2:1c W0*r:3a W3b:3c', parts: ['C2:1c', 'W0*r:3a', 'W3b:3c']},
    {move: 'keep C2rb left P3bb right W2', parts: ['keep C2rb']},
    {move: 'place P3rr:1a C2rb:1b C1r:2a', parts: ['P3rr:1a', 'C2rb:1b', 'C1r:2a']},
  ],
  notes: {
    0: {say: 'learn.cm.first_share', after: 'learn.cm.after_first_share'},  // keep C0*b left W3 right P0*b
    1: {say: 'learn.cm.first_place'},  // place P2:1c W1:2b C0*b:3d
    7: {say: 'learn.cm.last_place', after: 'learn.cm.after_round'},  // place P0*:1b P2rb:2c P1rb:3c
    8: {say: 'learn.cm.second_round'},  // keep W2r left P3rb right W3bb
    15: {after: 'learn.cm.after_second_round'},  // place W2bb:1b P0*:1c W3r:2a
    23: {after: 'learn.cm.after_last_round'},  // place P3rr:1a C2rb:1b C1r:2a
  },
  end: ['learn.cm.end_tasty', 'learn.cm.end_stars', 'learn.cm.end_win'],
};
