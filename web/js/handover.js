// handover.js: handing a seat to a bot when its player is away (no live
// connection for 60 s) or out of time three moves in a row, asked twice
// (the second press confirms), and what the player is told when he comes
// back to find a bot in his seat (docs/server.md, "Handing a seat to a
// bot").  The server has the last word: it refuses while the player is
// here, saying why, and the page shows that reason.

import {h} from './dom.js';
import {t} from './i18n.js';

// The server's rule (TABLE_TIMEOUTS_TO_HAND_OVER).
const TIMEOUTS_TO_HAND_OVER = 3;

// Whether this page's player may ask to hand seat to a bot: another
// person's seat, taken, not already a bot's, and its player gone or out
// of time (the server counts the 60 s).
export function mayHandOver(snapshot, seat) {
  return Boolean(snapshot.seat) && !snapshot.over && seat.seat !== snapshot.seat &&
    seat.player === 'human' && !seat.open && !seat.zombie &&
    (!seat.connected || (seat.timeouts || 0) >= TIMEOUTS_TO_HAND_OVER);
}

// The button beside the seat, or the question and its answers once pressed.
export function handOverControls(page, seat, actions) {
  if (page.handOverAsked !== seat.seat) {
    return h('button', {type: 'button', class: 'small', 'data-focus': `hand-over-${seat.seat}`,
      onclick: () => actions.askHandOver(seat.seat)}, t('table.hand_over', {name: seat.name}));
  }
  return h('span', {class: 'hand-over-question', role: 'group', 'aria-label': t('table.hand_over', {name: seat.name})},
    ' ', t('table.hand_over_confirm', {name: seat.name}), ' ',
    h('button', {type: 'button', class: 'small', 'data-focus': `hand-over-yes-${seat.seat}`,
      onclick: () => actions.handOver(seat.seat)}, t('table.hand_over_yes')), ' ',
    h('button', {type: 'button', class: 'small', 'data-focus': `hand-over-no-${seat.seat}`,
      onclick: () => actions.askHandOver(null)}, t('table.hand_over_no')));
}

// "Whole minutes" of an absence, at least 1.
const minutes = (ms) => Math.max(1, Math.round(ms / 60000));

// What the player of this page is told when a bot has his seat: who
// handed it over and why, and how to take it back.
export function handedNotice(page, actions) {
  const snapshot = page.snapshot;
  if (!snapshot.seat || snapshot.over) return null;
  const mine = snapshot.seats[snapshot.seat - 1];
  if (!mine || !mine.zombie || !mine.handed) return null;
  const by = snapshot.seats[mine.handed.by - 1];
  const name = by ? by.name : t('lobby.seat', {seat: mine.handed.by});
  const why = mine.handed.why === 'timeouts'
    ? t('table.handed_timeouts', {name, n: TIMEOUTS_TO_HAND_OVER})
    : t('table.handed_away', {name, n: minutes(mine.handed.away_ms)});
  return h('div', {class: 'handed', role: 'alert', 'data-testid': 'handed'},
    h('p', {}, why),
    h('button', {type: 'button', 'data-focus': 'play-again', onclick: actions.playAgain}, t('table.play_again')));
}
