// app.js: the page's routes, all in the address's fragment so that the
// server serves one page and a token in an invitation never reaches it:
//
//   #/                      the lobby
//   #/join/ID/TOKEN         an invitation: keeps the seat, goes to it
//   #/table/ID[/SEAT]       a table, from a held seat or as a spectator
//   #/replay/ID[/SEAT]      a finished table, move by move
//   #/replay                a record from a file, move by move
//   #/learn/GAME[/ID]       Learn to play: a guided game (learn/learn.js)
//   #/review/ID             a finished table's review
//   #/review                a record's review, from a file

import {h, replace} from './dom.js';
import {t, setLanguage, currentLanguage, LANGUAGES} from './i18n.js';
import {api} from './api.js';
import {holdSeat, heldSeats} from './seats.js';
import {showLobby} from './lobby.js';
import {showTable} from './table.js';
import {showReplay} from './replay.js';
import {showLearn} from './learn/learn.js';
import {showReview} from './review.js';

const main = document.getElementById('main');
let leave = null; // what the current page does when left (closing its socket)

function header() {
  const select = h('select', {id: 'language', 'aria-label': t('app.language'),
    onchange: (event) => { setLanguage(event.target.value); route(); }},
  Object.entries(LANGUAGES).map(([code, name]) =>
    h('option', {value: code, selected: code === currentLanguage()}, name)));
  return h('header', {class: 'app-header'},
    h('a', {href: '#/', class: 'brand'}, 'gateau'),
    h('nav', {'aria-label': t('app.navigation')},
      h('a', {href: '#/'}, t('app.lobby')),
      h('a', {href: '#/replay'}, t('app.replay')),
      h('a', {href: '#/review'}, t('app.review'))),
    select);
}

async function join(id, token) {
  // The server says which seat a token opens.
  try {
    const snapshot = await api.table(id, token);
    if (snapshot.seat) holdSeat(id, snapshot.seat, token);
    location.replace(`#/table/${id}${snapshot.seat ? `/${snapshot.seat}` : ''}`);
  } catch (error) {
    replace(main, h('p', {class: 'error', role: 'alert'}, t('app.bad_link', {reason: error.message})));
  }
}

export function route() {
  if (leave) leave();
  leave = null;
  document.documentElement.lang = currentLanguage();
  const parts = location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  replace(document.getElementById('top'), header());
  const [page, id, extra] = parts;
  if (page === 'join' && id && extra) return join(id, extra);
  if (page === 'table' && id) {
    leave = showTable(main, id, extra ? Number(extra) : null);
    return;
  }
  if (page === 'learn' && id) {
    leave = showLearn(main, id, extra || null);
    return;
  }
  if (page === 'replay') {
    leave = showReplay(main, id || null, extra !== undefined ? Number(extra) : null);
    return;
  }
  if (page === 'review') {
    leave = showReview(main, id || null);
    return;
  }
  leave = showLobby(main, heldSeats);
}

window.addEventListener('hashchange', route);
route();
