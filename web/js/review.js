// review.js: a finished game reviewed move by move (docs/review.md), from
// a finished table (#/review/ID) or from a record file (#/review).
//
// The server does the work in the background (POST .../review, then its
// progress); the page draws what it sends: each seat's win chance over the
// game as a graph, every move's mark in a list, and at each move the
// position as its mover saw it, the move played and the better one the
// search found.  The positions come from the server's replay with every
// seat's view (seat=all), so the page keeps no rules.

import {h, s, replace, scrollRegion} from './dom.js';
import {t} from './i18n.js';
import {api} from './api.js';
import {RENDERERS} from './games/index.js';
import {renderBoard, gameTitle, moveWords} from './board.js';
import {createMotion} from './motion.js';
import {icon} from './icons.js';

// Marks as chess sites write them.
const MARKS = {inaccuracy: '?!', mistake: '?', blunder: '??'};
const POLL_MS = 1000;

export function showReview(main, id) {
  const root = h('section', {class: 'review'});
  replace(main, root);
  const page = {id, record: null, uploadId: null, progress: null, review: null, replay: null,
    move: 0, error: '', stopped: false, timer: null};
  const draw = () => drawReview(root, page, actions);
  const actions = {
    draw,
    // Asks for the review (the table's, or the record's) and follows it.
    ask: async () => {
      page.error = '';
      try {
        const answer = page.id ? await api.askReview(page.id) : await api.reviewRecord(page.record);
        if (answer.id) page.uploadId = answer.id;
        await follow(answer);
      } catch (error) {
        page.error = error.message;
        draw();
      }
    },
  };
  const follow = async (answer) => {
    if (page.stopped) return;
    if (answer.state === 'done') {
      page.review = answer.review;
      page.progress = null;
      page.replay = page.id ? await api.replay(page.id, 'all') : await api.replayRecord(page.record, 'all');
      goTo(page, firstMarked(page.review), true);
      draw();
      return;
    }
    if (answer.state === 'none') { // (never asked for: the button asks)
      draw();
      return;
    }
    if (answer.state === 'failed') {
      page.error = answer.error || t('review.failed');
      page.progress = null;
      draw();
      return;
    }
    page.progress = answer;
    draw();
    page.timer = setTimeout(async () => {
      try {
        await follow(page.id ? await api.review(page.id) : await api.uploadedReview(page.uploadId));
      } catch (error) {
        page.error = error.message;
        draw();
      }
    }, POLL_MS);
  };
  const keys = (event) => {
    if (!page.review || event.target.closest('input, select, textarea')) return;
    const moves = {ArrowLeft: -1, ArrowRight: 1};
    if (!(event.key in moves)) return;
    goTo(page, page.move + moves[event.key], false);
    draw();
  };
  document.addEventListener('keydown', keys);
  if (id) {
    // A review kept with the table is shown at once; else a button asks.
    api.review(id).then(follow).catch((error) => {
      page.error = error.message;
      draw();
    });
  }
  draw();
  return () => {
    page.stopped = true;
    clearTimeout(page.timer);
    document.removeEventListener('keydown', keys);
  };
}

// The first move worth looking at: the first marked one, else the first.
function firstMarked(review) {
  const index = review.moves.findIndex((move) => MARKS[move.class]);
  return index < 0 ? 0 : index;
}

// To the move at index: picked (clicked, or the first marked one at the
// opening), a marked move's board shows its better move; stepped to
// (arrows, previous and next), the move played.
function goTo(page, index, picked) {
  page.move = Math.max(0, Math.min(page.review.moves.length - 1, index));
  page.showBetter = picked && Boolean(MARKS[page.review.moves[page.move].class]);
}

const percent = (x) => `${Math.round(100 * x)}%`;
const points = (x) => x.toFixed(2);

function drawReview(root, page, actions) {
  const title = h('h1', {}, t('review.title'), page.review ? [': ', gameTitle(page.review.game)] : null);
  const upload = !page.id && h('div', {class: 'field'},
    h('label', {for: 'review-file'}, t('replay.upload')),
    h('input', {id: 'review-file', type: 'file', accept: '.txt,text/plain', onchange: async (event) => {
      const file = event.target.files[0];
      if (!file) return;
      page.record = await file.text();
      page.review = null;
      actions.ask();
    }}));
  const error = page.error && h('p', {class: 'error', role: 'alert'}, page.error);
  if (!page.review) {
    const progress = page.progress && h('div', {class: 'review-progress'},
      h('p', {'aria-live': 'polite'}, page.progress.state === 'queued'
        ? t('review.queued', {position: page.progress.position || 1})
        : t('review.running', {done: page.progress.done, total: page.progress.total || '…'})),
      h('progress', {max: page.progress.total || 1, value: page.progress.done || 0,
        'aria-label': t('review.progress')}));
    const ask = page.id && !page.progress && h('p', {},
      h('button', {type: 'button', class: 'primary', onclick: actions.ask}, t('review.ask')),
      ' ', t('review.ask_why'));
    replace(root, title, upload, h('p', {class: 'hint'}, t('review.about')), ask, progress, error);
    return;
  }
  const review = page.review;
  const names = page.replay ? page.replay.names : review.seats.map((seat) => t('review.seat', {seat: seat.seat}));
  replace(root, title, upload, error,
    summary(review, names),
    graph(review, names, page, actions),
    h('div', {class: 'review-body'},
      moveDetail(review, names, page, actions),
      moveList(review, names, page, actions)),
    h('p', {class: 'hint'}, howSure(review)));
}

// The review's budget in words: its iterations a search, or (0, a server
// left at its default) the game's own budget, whose number the JSON does
// not give.
function howSure(review) {
  return review.iterations > 0
    ? t('review.how_sure', {iterations: review.iterations, repeats: review.repeats})
    : t('review.how_sure_default', {repeats: review.repeats});
}

function summary(review, names) {
  return scrollRegion({class: 'review-summary-scroll', 'aria-label': t('review.summary')},
    h('table', {class: 'review-summary'},
      h('caption', {}, t('review.summary')),
      h('thead', {}, h('tr', {},
        h('th', {scope: 'col'}, t('review.player')),
        h('th', {scope: 'col'}, t('review.accuracy')),
        ['inaccuracy', 'mistake', 'blunder'].map((kind) => h('th', {scope: 'col'}, t(`review.class.${kind}`), ` ${MARKS[kind]}`)),
        h('th', {scope: 'col'}, t('review.moves')))),
      h('tbody', {}, review.seats.map((seat, index) => h('tr', {},
        h('th', {scope: 'row'}, h('span', {class: `review-swatch seat-${index + 1}`, 'aria-hidden': 'true'}),
          h('span', {class: 'review-name'}, names[index])),
        h('td', {}, seat.accuracy.toFixed(1)),
        h('td', {}, String(seat.inaccuracy)),
        h('td', {}, String(seat.mistake)),
        h('td', {}, String(seat.blunder)),
        h('td', {}, String(seat.moves)))))));
}

// Each seat's win chance before each of its moves, over the game: one line
// a seat, a dot a move (marked moves larger), a click goes to the move.
function graph(review, names, page, actions) {
  const width = 640, height = 180, pad = 24;
  const last = Math.max(1, review.moves[review.moves.length - 1].number);
  const x = (number) => pad + (width - 2 * pad) * (number / last);
  const y = (win) => height - pad - (height - 2 * pad) * win;
  const lines = review.seats.map((seat, index) => {
    const points = review.moves.filter((move) => move.seat === index + 1);
    return s('polyline', {class: `review-line seat-${index + 1}`, fill: 'none',
      points: points.map((move) => `${x(move.number)},${y(move.win_before)}`).join(' ')});
  });
  const dots = review.moves.map((move, index) => s('circle', {
    class: `review-dot seat-${move.seat} ${move.class}${index === page.move ? ' current' : ''}`,
    cx: x(move.number), cy: y(move.win_before), r: MARKS[move.class] ? 5 : 3,
    onclick: () => { goTo(page, index, true); actions.draw(); }},
  s('title', {}, `${names[move.seat - 1]}: ${move.move} (${percent(move.win_before)})`)));
  const grid = [0, 0.5, 1].map((win) => [
    s('line', {class: 'review-grid', x1: pad, x2: width - pad, y1: y(win), y2: y(win)}),
    s('text', {x: 2, y: y(win) + 4, class: 'review-axis'}, percent(win))]);
  return h('figure', {class: 'review-graph'},
    s('svg', {viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': t('review.graph')}, grid, lines, dots),
    h('figcaption', {}, t('review.graph'), ': ',
      review.seats.map((seat, index) => h('span', {class: 'review-legend'},
        h('span', {class: `review-swatch seat-${index + 1}`, 'aria-hidden': 'true'}), h('span', {}, names[index])))));
}

function moveText(renderer, notation, names) {
  return moveWords(renderer, notation, names) || notation;
}

// A board of the mover's view, at the move's position.
function moverBoard(review, names, replay, move, view) {
  return renderBoard(RENDERERS[review.game], {game: review.game, players: review.players, seat: move.seat,
    log: replay.steps.slice(1, move.number), seats: names.map((name, index) => ({seat: index + 1, name})),
    view, over: false, scores: null}, [], [], () => {});
}

// The board after the move played, or after the better one (the server
// adds best_view), with what the move changed marked as a table marks the
// last move (motion.js compares it with the board before the move).
function afterBoard(review, names, page, move) {
  const step = page.replay && page.replay.steps[move.number - 1];
  const next = page.replay && page.replay.steps[move.number];
  const viewOf = (entry) => entry && (entry.views ? entry.views[move.seat - 1] : entry.view);
  const better = page.showBetter && move.best_view;
  const after = better ? move.best_view : viewOf(next);
  if (!viewOf(step) || !after) return null;
  const before = moverBoard(review, names, page.replay, move, viewOf(step));
  const board = moverBoard(review, names, page.replay, move, after);
  const motion = createMotion();
  motion.show(null, before, 0);
  motion.show(before, board, 1);
  board.classList.add(better ? 'review-board-better' : 'review-board-played');
  return board;
}

// The move at page.move: the move played, the better one the search
// found, their numbers, and the board after either.
function moveDetail(review, names, page, actions) {
  const move = review.moves[page.move];
  const renderer = RENDERERS[review.game];
  const go = (n) => () => { goTo(page, n, false); actions.draw(); };
  const same = move.best === move.move;
  const show = (better) => () => { page.showBetter = better; actions.draw(); };
  const choice = !same && move.best_view && h('div', {class: 'review-which', role: 'group', 'aria-label': t('review.board_shows')},
    h('button', {type: 'button', 'aria-pressed': String(!page.showBetter), onclick: show(false)}, t('review.show_played')),
    h('button', {type: 'button', 'aria-pressed': String(Boolean(page.showBetter)), onclick: show(true)}, t('review.show_better')));
  return h('section', {class: 'review-move', 'aria-labelledby': 'review-move-heading'},
    h('div', {class: 'replay-controls', role: 'group', 'aria-label': t('replay.controls')},
      h('button', {type: 'button', onclick: go(page.move - 1), 'aria-label': t('replay.previous')}, icon('previous')),
      h('span', {class: 'step'}, t('review.move_of', {move: page.move + 1, moves: review.moves.length})),
      h('button', {type: 'button', onclick: go(page.move + 1), 'aria-label': t('replay.next')}, icon('next'))),
    h('h2', {id: 'review-move-heading'}, names[move.seat - 1], ': ', moveText(renderer, move.move, names),
      MARKS[move.class] && h('span', {class: `review-mark ${move.class}`}, ` ${MARKS[move.class]} `, t(`review.class.${move.class}`))),
    h('dl', {class: 'review-numbers'},
      h('dt', {}, t('review.win_before')), h('dd', {}, percent(move.win_before)),
      h('dt', {}, t('review.win_played')), h('dd', {}, percent(move.win_played)),
      !same && [h('dt', {}, t('review.better')), h('dd', {class: 'review-better'},
        moveText(renderer, move.best, names), ' (', percent(move.win_best), ') ',
        h('code', {class: 'notation'}, move.best))],
      h('dt', {}, t('review.given_away')), h('dd', {},
        t('review.loss', {loss: percent(move.loss), noise: percent(move.noise)})),
      // Where the chance to win was all but settled, the score was judged too.
      move.by_score && [h('dt', {}, t('review.score_given_away')), h('dd', {class: 'review-score-loss'},
        t('review.score_loss', {loss: points(move.score_loss), noise: points(move.score_noise)}))]),
    choice,
    h('p', {class: 'review-board-caption'}, t(page.showBetter && move.best_view ? 'review.after_better' : 'review.after_played')),
    afterBoard(review, names, page, move));
}

function moveList(review, names, page, actions) {
  return h('ol', {class: 'review-list', 'aria-label': t('review.list')},
    review.moves.map((move, index) => h('li', {class: index === page.move ? 'current' : null},
      h('button', {type: 'button', class: 'link', 'aria-current': index === page.move ? 'step' : null,
        onclick: () => { goTo(page, index, true); actions.draw(); }},
      `${move.number}. ${names[move.seat - 1]}: `, h('code', {}, move.move),
      MARKS[move.class] && h('span', {class: `review-mark ${move.class}`}, ` ${MARKS[move.class]}`)))));
}
