// learn.js: "Learn to play" (docs/web.md, "Lessons"): #/learn/GAME makes
// the game's lesson table on the server (POST /api/tables {"lesson": GAME}:
// a fixed deal, bots that play the same every time), keeps its seat 1 and
// moves to #/learn/GAME/ID, which is that table with its coach.

import {h, replace} from '../dom.js';
import {t} from '../i18n.js';
import {api} from '../api.js';
import {holdSeat} from '../seats.js';
import {showTable} from '../table.js';
import {createCoach, LEARNER} from './coach.js';
import {LESSONS} from './lessons/index.js';

// Returns what the page does when left (as the other pages do).
export function showLearn(main, game, id) {
  const lesson = LESSONS[game];
  if (!lesson) {
    replace(main, h('p', {class: 'error', role: 'alert'}, t('learn.no_lesson')));
    return null;
  }
  if (id) return showTable(main, id, LEARNER, createCoach(lesson));
  let left = false;
  replace(main, h('p', {}, t('table.loading')));
  api.createTable({lesson: game}).then((made) => {
    if (left) return;
    const seat = made.seats.find((entry) => entry.seat === LEARNER);
    holdSeat(made.id, LEARNER, seat.token);
    location.replace(`#/learn/${game}/${made.id}`);
  }).catch((error) => {
    if (!left) replace(main, h('p', {class: 'error', role: 'alert'}, t('learn.cannot_start', {reason: error.message})));
  });
  return () => { left = true; };
}
