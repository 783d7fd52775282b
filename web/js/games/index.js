// games/index.js: one renderer per game, by the server's game name.
//
// A renderer is a module with:
//   render(ctx) -> Node     the board, drawn from ctx.view (the seat's view
//                           JSON); every legal action in ctx.legal is drawn
//                           as something to click, made with
//                           ctx.clickable(entry, attributes)
//   label(name) -> string   optional: an action's name in the page's
//                           language (the server's names are English)
//   describe(entry, ctx) -> string|null  optional: a log entry's sentence
//                           (the server's English) in the page's language;
//                           ctx {names, t}; null when not known (words.js)
//   describeMove(notation, ctx) -> string|null  optional: a move in
//                           notation (a hint's) as words
//   score(view, seat) -> string  optional: a seat's score so far
//   scoring(ctx) -> Node    optional: the end's scoring broken down
// ctx is described in table.js (boardContext).

import * as pieceOCake from './piece-o-cake.js';
import * as mariesTable from './maries-table.js';
import * as cakeMaster from './cake-master.js';
import * as miceCake from './mice-cake.js';

export const RENDERERS = {
  'piece-o-cake': pieceOCake,
  'maries-table': mariesTable,
  'cake-master': cakeMaster,
  'mice-cake': miceCake,
};
