// replay.js: a finished game move by move, from one seat's view or the
// spectator's, from a finished table or from a record file.  The server
// replays the record and sends each position's view with its log entry
// (GET /api/tables/ID/replay, POST /api/replay): the page keeps no rules.

import {h, replace} from './dom.js';
import {t} from './i18n.js';
import {api} from './api.js';
import {RENDERERS} from './games/index.js';
import {renderBoard, gameTitle, entryWords} from './board.js';
import {icon} from './icons.js';
import {createMotion} from './motion.js';

export function showReplay(main, id, seat) {
  const root = h('section', {class: 'replay'});
  replace(main, root);
  // seat: 0 a spectator's view, a seat's, or 'all' (every seat's board)
  const page = {id, seat: seat || 0, replay: null, step: 0, record: null, error: '',
    motion: createMotion()}; // (each step's move marked on the board, as at a table)
  const load = async () => {
    page.error = '';
    page.motion = createMotion(); // (another record or another seat's view: nothing to compare)
    try {
      page.replay = page.id ? await api.replay(page.id, page.seat)
        : await api.replayRecord(page.record, page.seat);
      page.step = Math.min(page.step, page.replay.steps.length - 1);
    } catch (error) {
      page.error = error.message;
    }
    draw();
  };
  const draw = () => drawReplay(root, page, {load, draw});
  const keys = (event) => {
    if (!page.replay || event.target.closest('input, select, textarea')) return;
    const last = page.replay.steps.length - 1;
    const moves = {ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity};
    if (!(event.key in moves)) return;
    page.step = Math.max(0, Math.min(last, page.step + moves[event.key]));
    draw();
  };
  document.addEventListener('keydown', keys);
  if (id) load();
  else draw();
  return () => document.removeEventListener('keydown', keys);
}

function drawReplay(root, page, actions) {
  const replay = page.replay;
  const upload = !page.id && h('div', {class: 'field'},
    h('label', {for: 'record-file'}, t('replay.upload')),
    h('input', {id: 'record-file', type: 'file', accept: '.txt,text/plain', onchange: async (event) => {
      const file = event.target.files[0];
      if (!file) return;
      page.record = await file.text();
      page.step = 0;
      actions.load();
    }}));
  if (!replay) {
    replace(root, h('h1', {}, t('replay.title')), upload,
      page.error && h('p', {class: 'error', role: 'alert'}, page.error));
    return;
  }
  const step = replay.steps[page.step];
  const last = replay.steps.length - 1;
  const go = (n) => () => { page.step = Math.max(0, Math.min(last, n)); actions.draw(); };
  const seats = ['all'];
  for (let n = 0; n <= replay.players; n++) seats.push(n);
  const renderer = RENDERERS[replay.game];
  // The log up to this step, as the table's log is (for boards that read it).
  const log = replay.steps.slice(1, page.step + 1);
  const snapshotFor = (seat, view) => ({game: replay.game, players: replay.players, seat: seat || null, log,
    seats: replay.names.map((name, index) => ({seat: index + 1, name})),
    view, over: page.step === last, scores: page.step === last ? replay.scores : null});
  // Everyone's replay: every seat's board, one after another.
  const boards = step.views
    ? step.views.map((view, index) => h('section', {class: 'replay-seat', 'aria-label': replay.names[index]},
      h('h2', {}, replay.names[index]), renderBoard(renderer, snapshotFor(index + 1, view), [], [], () => {})))
    : renderBoard(renderer, snapshotFor(page.seat, step.view), [], [], () => {});
  if (!step.views) page.motion.show(root.querySelector(':scope > [data-testid=board]'), boards, page.step);
  replace(root,
    h('h1', {}, t('replay.title'), ': ', gameTitle(replay.game)),
    upload,
    h('div', {class: 'replay-controls', role: 'group', 'aria-label': t('replay.controls')},
      // (drawn, not glyphs: ⏮ and ⏭ are missing from many machines' fonts, icons.js)
      h('button', {type: 'button', onclick: go(0), 'aria-label': t('replay.first')}, icon('first')),
      h('button', {type: 'button', onclick: go(page.step - 1), 'aria-label': t('replay.previous')}, icon('previous')),
      h('input', {type: 'range', min: 0, max: last, value: page.step, 'aria-label': t('replay.position'),
        oninput: (event) => go(Number(event.target.value))()}),
      h('button', {type: 'button', onclick: go(page.step + 1), 'aria-label': t('replay.next')}, icon('next')),
      h('button', {type: 'button', onclick: go(last), 'aria-label': t('replay.last')}, icon('last')),
      h('span', {class: 'step'}, t('replay.step', {step: page.step, steps: last})),
      h('label', {for: 'replay-seat'}, t('replay.seen_by')),
      h('select', {id: 'replay-seat', onchange: (event) => {
        page.seat = event.target.value === 'all' ? 'all' : Number(event.target.value);
        actions.load();
      }},
      seats.map((n) => h('option', {value: n, selected: n === page.seat},
        n === 'all' ? t('replay.everyone') : n ? replay.names[n - 1] : t('replay.spectator'))))),
    step.text && h('p', {class: 'replay-move', 'aria-live': 'polite'},
      // (the words name the player already: "Alice cuts ...")
      entryWords(renderer, step, replay.names),
      step.move && h('code', {class: 'notation'}, step.move)),
    boards,
    page.step === last && replay.scores && h('p', {class: 'scores'},
      replay.names.map((name, index) => `${name} ${replay.scores[index]}`).join(' · ')));
}
