// The lesson of Mice Cake, 2 players (you are yellow, a heuristic bot is blue):
// seat 1's moves on the server's lesson table (src/server/lessons.c),
// recorded by scripts/record-lesson.mjs; notes name what the coach says
// before a move (say) and after it (after), keys of learn.mc.* in
// web/i18n/; a move without a note is taught by its kind
// (learn.mc.VERB); end: the scoring, line by line.
export default {
  game: 'mice-cake',
  prefix: 'mc',
  moves: [
    {move: 'assign A4', parts: ['mouse on A', 'mouse on A', 'mouse on A', 'mouse on A']},
    {move: 'assign C3>3/3 D1', parts: ['mouse on C', 'mouse on C', 'mouse on C', 'steal 3/3', 'mouse on D']},
    {move: 'assign B1 C1 D2', parts: ['mouse on B', 'mouse on C', 'mouse on D', 'mouse on D']},
    {move: 'assign D2', parts: ['mouse on D', 'mouse on D']},
    {move: 'assign D2', parts: ['mouse on D', 'mouse on D']},
    {move: 'assign B3 C1', parts: ['mouse on B', 'mouse on B', 'mouse on B', 'mouse on C']},
    {move: 'assign A4', parts: ['mouse on A', 'mouse on A', 'mouse on A', 'mouse on A']},
    {move: 'assign B2 C2', parts: ['mouse on B', 'mouse on B', 'mouse on C', 'mouse on C']},
    {move: 'assign B2 C2', parts: ['mouse on B', 'mouse on B', 'mouse on C', 'mouse on C']},
    {move: 'assign B2 C2', parts: ['mouse on B', 'mouse on B', 'mouse on C', 'mouse on C']},
    {move: 'assign A3 C1', parts: ['mouse on A', 'mouse on A', 'mouse on A', 'mouse on C']},
    {move: 'assign A3 C1', parts: ['mouse on A', 'mouse on A', 'mouse on A', 'mouse on C']},
    {move: 'assign A2', parts: ['mouse on A', 'mouse on A']},
    {move: 'assign A4', parts: ['mouse on A', 'mouse on A', 'mouse on A', 'mouse on A']},
    {move: 'assign A4', parts: ['mouse on A', 'mouse on A', 'mouse on A', 'mouse on A']},
  ],
  notes: {
    0: {say: 'learn.mc.first_assign', after: 'learn.mc.after_too_low'},  // assign A4
    1: {say: 'learn.mc.steal', after: 'learn.mc.after_steal'},  // assign C3>3/3 D1
    2: {after: 'learn.mc.after_exhausted'},  // assign B1 C1 D2
    3: {say: 'learn.mc.sit_out'},  // assign D2
    14: {after: 'learn.mc.after_last'},  // assign A4
  },
  end: ['learn.mc.end_pips', 'learn.mc.end_tie'],
};
