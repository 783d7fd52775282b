// words.js: the log in the page's language.  The server writes each move
// of the log in English (the games' describe_move, src/games/*/views.c); a
// renderer's describe(entry, ctx) reads that sentence back with a list of
// rules, one per phrase the C code can write, and says it again from the
// catalogue.  A sentence it does not know wholly gives null: the page then
// shows the server's words (nothing is lost, it is only left in English).
//
//   rules: [[/sticky regexp/y, (match) => words], ...], tried in order at
//   each point of the text; the first that matches there says its words and
//   the reading goes on after it.  words null: the sentence is not known.

export function readSentence(text, rules) {
  let at = 0, out = '';
  while (at < text.length) {
    let matched = false;
    for (const [pattern, say] of rules) {
      pattern.lastIndex = at;
      const found = pattern.exec(text);
      if (!found || !found[0].length) continue;
      const words = say(found);
      if (words === null || words === undefined) return null;
      out += words;
      at += found[0].length;
      matched = true;
      break;
    }
    if (!matched) return null;
  }
  return out;
}

// The player in a seat (numbered from 1): the table's name for it, or the
// game's words for the seat.
export function playerName(ctx, seat, fallback) {
  return (ctx.names && ctx.names[Number(seat) - 1]) || fallback;
}

// The items of a list the engine writes ("a, b and c", or with ";" or ","
// between items), split.
export function items(list, separator = /\s*(?:,|;| and )\s*/) {
  return list.trim().split(separator).filter(Boolean);
}
