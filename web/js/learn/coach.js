// coach.js: the guide of a "Learn to play" table (docs/web.md, "Lessons").
//
// The table is the real one (table.js, the server's engine and bots); the
// coach only says what to do and why, marks where to click, and narrows
// the clicks the board offers to the part the lesson teaches next.  The
// lesson's game is fixed (the server's lessons.c: a fixed seed and
// deterministic bots), so the script (lessons/GAME.js) lists seat 1's
// moves in advance, each as the parts to click in order.  The coach keeps
// no state of its own: the step is the number of moves seat 1 has made,
// read from the table's log, so a reload resumes where the learner was.
// Should the table ever leave the script (a part the step names is not
// offered), the coach says so and lets every legal click through.

import {h} from '../dom.js';
import {t} from '../i18n.js';
import {moveWords, actionLabel} from '../board.js';
import {RENDERERS} from '../games/index.js';

export const LEARNER = 1; // the lesson's seat: the others are bots

// How many moves the learner has made: the step he is on.
export function stepOf(snapshot) {
  return snapshot.log.filter((entry) => entry.seat === LEARNER && entry.move).length;
}

// Whether the learner is the only seat still to move (a step waits for
// the bots' moves of a simultaneous phase, as the script was recorded).
function learnersTurn(snapshot) {
  const toMove = snapshot.to_move || [];
  return !snapshot.over && Boolean(snapshot.legal && snapshot.legal.length) &&
    toMove.length === 1 && toMove[0] === LEARNER;
}

export function createCoach(lesson) {
  // Where the learner is: the step, its move, and the part to click next
  // (null when every part is chosen: then Send).
  const where = (snapshot, partial) => {
    const step = stepOf(snapshot);
    const move = lesson.moves[step] || null;
    const chosen = partial.map((entry) => entry.name);
    const onScript = move !== null && chosen.every((name, i) => name === move.parts[i]);
    const next = onScript && chosen.length < move.parts.length ? move.parts[chosen.length] : null;
    return {step, move, onScript, next};
  };

  let drawn = {key: null, node: null}; // the panel drawn last, and what from
  const drawPanel = (snapshot, partial, complete) =>
    h('section', {class: 'learn-panel', 'aria-label': t('learn.panel'), 'data-testid': 'learn'},
      h('h2', {}, t('learn.heading', {game: t(`game.${lesson.game}`)})),
      h('div', {'aria-live': 'polite'}, ...panelWords(lesson, snapshot, partial, complete, where)));

  return {
    lesson,

    // The parts the board may offer now: the one the step teaches next
    // (none while the bots play, or once the move is built); everything
    // when the table left the script.
    offer(snapshot, partial, offered) {
      if (!learnersTurn(snapshot)) return [];
      const {onScript, next} = where(snapshot, partial);
      if (next === null) return onScript ? [] : offered;
      const taught = offered.filter((entry) => entry.name === next);
      return taught.length ? taught : offered;
    },

    // Whether Send may be pressed: every part of the step's move chosen.
    ready(snapshot, partial) {
      const {move, onScript} = where(snapshot, partial);
      return !onScript || partial.length === move.parts.length;
    },

    // The guide's panel, above the board: the same element while its
    // words stay the same, so that its live region speaks only of news.
    panel(snapshot, partial, complete) {
      const key = JSON.stringify([stepOf(snapshot), partial.map((entry) => entry.name), complete,
        snapshot.over, learnersTurn(snapshot)]);
      if (key !== drawn.key) drawn = {key, node: drawPanel(snapshot, partial, complete)};
      return drawn.node;
    },

    // Marks what to click now (after the page is drawn): the board's
    // elements of the part taught, or Send, or at the end the scoring.
    mark(root, snapshot, partial, complete) {
      for (const element of root.querySelectorAll('.learn-here')) element.classList.remove('learn-here');
      const targets = [];
      if (snapshot.over) {
        targets.push(root.querySelector('[data-testid="end"]'));
      } else if (learnersTurn(snapshot)) {
        const {next, onScript} = where(snapshot, partial);
        if (!onScript) return;
        if (next === null) {
          if (complete) targets.push(root.querySelector('[data-testid="send"]'));
        } else {
          targets.push(...root.querySelectorAll('.board .legal[data-action]:not([data-undo])'));
        }
      }
      for (const element of targets) if (element) element.classList.add('learn-here');
    },
  };
}

// The panel's words: what happened at the last step, what to do at this
// one and why, and what to click; at the end, the scoring line by line.
function panelWords(lesson, snapshot, partial, complete, where) {
  const {step, move, onScript, next} = where(snapshot, partial);
  const total = lesson.moves.length;
  const note = (index) => (lesson.notes && lesson.notes[index]) || {};
  const before = step > 0 && note(step - 1).after;
  const happened = before && h('p', {class: 'learn-after', 'data-testid': 'learn-after'},
    h('strong', {}, t('learn.what_happened')), ' ', t(before));
  // (a lesson's link opened where its seat is not held: a spectator's page)
  if (snapshot.seat !== LEARNER) {
    return [h('p', {'data-testid': 'learn-not-yours'}, t('learn.not_yours'), ' ',
      h('a', {href: `#/learn/${lesson.game}`}, t('learn.start_own')))];
  }
  if (snapshot.over) {
    return [happened,
      h('p', {'data-testid': 'learn-end'}, t('learn.over')),
      h('ol', {class: 'learn-scoring', 'data-testid': 'learn-scoring'},
        lesson.end.map((key) => h('li', {}, t(key)))),
      h('p', {}, h('a', {href: `#/learn/${lesson.game}`}, t('learn.restart')), ' · ',
        t('learn.again'), ' ', h('a', {href: '#/'}, t('app.lobby')))];
  }
  if (!learnersTurn(snapshot)) {
    return [happened, h('p', {class: 'learn-wait', 'data-testid': 'learn-wait'}, t('learn.wait'))];
  }
  if (!move || !onScript) {
    return [h('p', {class: 'learn-off', 'data-testid': 'learn-off'}, t('learn.off_script'))];
  }
  const verb = move.move.split(' ')[0];
  // (the move in words, on a page in another language than the server's)
  const words = moveWords(RENDERERS[lesson.game], move.move, snapshot.seats.map((seat) => seat.name));
  return [
    h('p', {class: 'learn-step'}, t('learn.step', {step: step + 1, total})),
    happened,
    h('p', {class: 'learn-say', 'data-testid': 'learn-say'},
      t(note(step).say || `learn.${lesson.prefix}.${verb}`)),
    h('p', {class: 'learn-move'}, t('learn.the_move'), ' ', h('code', {}, move.move), words ? ` (${words})` : ''),
    h('p', {class: 'learn-do', 'data-testid': 'learn-do'},
      // (the part named too: what the ring shows, for those who do not see it)
      next !== null ? t('learn.click', {part: actionLabel(RENDERERS[lesson.game], next),
        done: partial.length, parts: move.parts.length})
        : complete ? t('learn.send', {send: t('table.send')}) : t('learn.wait')),
  ];
}
