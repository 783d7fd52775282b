// board.js: what the frame (table.js, replay.js) hands a game's renderer,
// and the few things it asks of it with defaults.

import {h, s, scrollRegion} from './dom.js';
import {t, currentLanguage} from './i18n.js';

const TITLES = {
  'piece-o-cake': "piece o' Cake",
  'maries-table': "Marie's Table",
  'cake-master': 'Cake Master',
  'mice-cake': 'Mice Cake',
};

export function gameTitle(game) {
  return t(`game.${game}`) === `game.${game}` ? TITLES[game] || game : t(`game.${game}`);
}

export function actionLabel(renderer, name) {
  return (renderer && renderer.label && renderer.label(name)) || name;
}

// A log entry's words in the page's language, from the renderer's
// describe(entry, ctx) (games/words.js), English included (the server's
// sentences keep close to the notation: "seat 1: cut 1-4 5-11"); null for
// a sentence the renderer does not know.  moveWords does the same for a
// move in notation (a hint).
export function logWords(renderer, entry, names) {
  if (!renderer || !renderer.describe || typeof entry.text !== 'string') return null;
  try {
    return renderer.describe(entry, {names, t}) || null;
  } catch {
    return null;
  }
}

export function moveWords(renderer, notation, names) {
  if (!renderer || !renderer.describeMove || typeof notation !== 'string') return null;
  try {
    return renderer.describeMove(notation, {names, t}) || null;
  } catch {
    return null;
  }
}

// A log entry as the page shows it: its words, or, for a sentence the
// renderer does not know, the server's with the players named.
export function entryWords(renderer, entry, names) {
  return logWords(renderer, entry, names) ||
    String(entry.text || '').replace(/\bseat ([1-6])\b/g, (whole, seat) => names[seat - 1] || whole);
}

// The server's note on a move it made for a seat whose clock ran out
// (src/server/workers.c), in the page's language.
export function noteWords(note, names) {
  const found = currentLanguage() !== 'en' && /^seat (\d)'s time ran out: heuristic moved for it$/.exec(note);
  return found ? t('table.note_time_out', {name: names[found[1] - 1] || found[1]}) : note;
}

export function scoreOf(renderer, view, seat) {
  if (renderer && renderer.score) return renderer.score(view, seat);
  const entry = view && view.seats && view.seats[seat - 1];
  return entry && entry.score !== undefined ? entry.score : '';
}

// The renderer's context:
//   view      the seat's view (the engine's gateau_state_view_json)
//   seat      the viewer's seat (1-based), or null for a spectator
//   players, names, over, scores (at the end), game
//   legal     the actions this seat may take next ([] when none): draw
//             each as something to click, with clickable(entry, attributes)
//   partial   the parts of the move built so far [{action, name}], in the
//             order chosen (draw them as chosen; choosing one again with
//             clickable(entry) takes it out)
//   setParts(parts)  makes the move built parts (a list of partial's and
//             legal's entries): for a board that changes a part in place
//   log       the moves so far as this viewer saw them, oldest first
//             [{n, seat, text, move}] (the snapshot's log)
//   find(test)  the legal entry whose name equals test (a string) or
//             matches it (a RegExp), or null
//   clickable(entry, attributes)  the attributes that make an element
//             play entry when clicked or when Enter/Space is pressed on
//             it: data-action, role=button, tabindex, aria-label, class
//             "legal" (and data-undo for an entry of partial, which a
//             click takes back); attributes given are kept (class is
//             added to)
//   t, lang, h, s, scrollRegion: the catalogue and the element builders
export function boardContext(renderer, snapshot, legal, partial, choose, setParts = () => {}) {
  const find = (test) => legal.find((entry) =>
    (test instanceof RegExp ? test.test(entry.name) : entry.name === test)) || null;
  const clickable = (entry, attributes = {}) => {
    const play = (event) => {
      event.preventDefault();
      event.stopPropagation();
      choose(entry);
    };
    return {
      ...attributes,
      class: `${attributes.class ? `${attributes.class} ` : ''}legal`,
      'data-action': entry.action,
      // (a part of the move being built: clicked, it goes back)
      'data-undo': partial.includes(entry) ? 'true' : null,
      role: attributes.role || 'button',
      tabindex: 0,
      'aria-label': attributes['aria-label'] || actionLabel(renderer, entry.name),
      onclick: play,
      onkeydown: (event) => {
        if (event.key === 'Enter' || event.key === ' ') play(event);
      },
    };
  };
  return {
    game: snapshot.game, view: snapshot.view, seat: snapshot.seat || null,
    players: snapshot.players, names: snapshot.seats.map((seat) => seat.name),
    over: snapshot.over, scores: snapshot.scores || null, log: snapshot.log || [],
    legal, partial, find, clickable, setParts, t, lang: currentLanguage(), h, s, scrollRegion,
  };
}

export function renderBoard(renderer, snapshot, legal, partial, choose, setParts) {
  const ctx = boardContext(renderer, snapshot, legal, partial, choose, setParts);
  return h('div', {class: `board board-${snapshot.game}`, 'data-testid': 'board'},
    renderer ? renderer.render(ctx) : h('pre', {}, JSON.stringify(snapshot.view, null, 1)));
}
