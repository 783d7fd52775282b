// takeback.js: taking one's last move back (docs/server.md, "Taking a
// move back").  The page offers it while that move is still the last
// thing that happened at the table (no other seat has acted, no chance
// has followed, the clock's stand-in did not make it); the server has the
// last word, and refuses once anything hidden has been shown (a phase of
// hidden choices ended, a piece turned up), saying why.

import {h} from './dom.js';
import {t} from './i18n.js';

// Whether the seat's own move is the table's last.
export function canTakeBack(snapshot) {
  if (!snapshot.seat || snapshot.over) return false;
  const last = snapshot.log[snapshot.log.length - 1];
  return Boolean(last && last.seat === snapshot.seat && !last.note);
}

export function takeBackButton(page, onClick) {
  return h('p', {class: 'undo-move'},
    h('button', {type: 'button', 'data-testid': 'undo-move', 'data-focus': 'undo-move',
      disabled: page.busy, onclick: onClick}, t('table.undo_move')));
}
