// The lessons, one per game (docs/web.md, "Lessons"): each lists seat 1's
// moves of the server's lesson table (recorded by scripts/record-lesson.mjs)
// and the catalogue keys of what the coach says about them.

import pieceOCake from './piece-o-cake.js';
import mariesTable from './maries-table.js';
import cakeMaster from './cake-master.js';
import miceCake from './mice-cake.js';

export const LESSONS = {
  'piece-o-cake': pieceOCake,
  'maries-table': mariesTable,
  'cake-master': cakeMaster,
  'mice-cake': miceCake,
};
