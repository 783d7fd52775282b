// mice-cake.js: the board of Mice Cake (rules: shared/rules/mice-cake.md).
//
// The grid of dominoes (7 rows by columns A..D, face-down pieces as backs)
// between the two families of mice: the viewer's side at the bottom (yellow
// for a spectator), each side with its lane of mice per column (placed,
// exhausted), its stash and pips.  The viewer's lane cells are the "mouse on
// X" actions; the opponent's stash pieces are the "steal X/Y" targets.  The
// dice: a roll phase's attempts come with the view (a replay shows them);
// on a live table the rolls are played at once and only the log keeps them,
// so the last round's rolls are read from the log the frame draws beside
// the board (its notation, e.g. "roll 1 B 2 4 1 2") and judged here by the
// rules file's arithmetic.

import {h, s} from '../dom.js';
import {t} from '../i18n.js';
import {readSentence, playerName} from './words.js';
import {icon} from '../icons.js';

const COLUMNS = ['A', 'B', 'C', 'D'];
const ROWS = 7;

// ---- Pieces, dice and mice as pictures --------------------------------------

// "3/4" -> [3, 4]; anything else (a face-down "??", null) -> null.
function halves(code) {
  const m = /^([0-6])\/([0-6])$/.exec(code || '');
  return m ? [Number(m[1]), Number(m[2])].sort((a, b) => a - b) : null;
}

const pipsOf = (code) => {
  const p = halves(code);
  return p ? p[0] + p[1] : 0;
};

// Pip centres in a 50x50 half (vertical layout; a horizontal domino turns them).
const SPOTS = {
  0: [], 1: [[25, 25]], 2: [[13, 13], [37, 37]], 3: [[13, 13], [25, 25], [37, 37]],
  4: [[13, 13], [37, 13], [13, 37], [37, 37]],
  5: [[13, 13], [37, 13], [25, 25], [13, 37], [37, 37]],
  6: [[13, 11], [37, 11], [13, 25], [37, 25], [13, 39], [37, 39]],
};

function pieceLabel(code) {
  const p = halves(code);
  return t('mc.piece', {piece: code, pips: p[0] + p[1]});
}

// A domino: face up (data-card) when code names a piece, else its back.
// options: {vertical, label, class}
function domino(code, options = {}) {
  const p = halves(code);
  const vertical = Boolean(options.vertical);
  const width = vertical ? 54 : 104, height = vertical ? 104 : 54;
  const label = options.label || (p ? pieceLabel(code) : t('mc.face_down'));
  const parts = [s('rect', {x: 1.5, y: 1.5, width: width - 3, height: height - 3, rx: 8,
    class: p ? 'mc-face' : 'mc-back-face'})];
  if (p) {
    parts.push(vertical
      ? s('line', {x1: 10, y1: 52, x2: 44, y2: 52, class: 'mc-divider'})
      : s('line', {x1: 52, y1: 10, x2: 52, y2: 44, class: 'mc-divider'}));
    p.forEach((value, half) => {
      for (const [x, y] of SPOTS[value]) {
        const cx = vertical ? 2 + x : 2 + half * 50 + y, cy = vertical ? 2 + half * 50 + y : 2 + x;
        parts.push(s('circle', {cx, cy, r: 5, class: 'mc-pip'}));
      }
    });
  } else {
    // The back: a chocolate tile with a small cake mark.
    const cx = width / 2, cy = height / 2;
    parts.push(s('rect', {x: 7, y: 7, width: width - 14, height: height - 14, rx: 5, class: 'mc-back-inner'}),
      s('circle', {cx, cy, r: 7, class: 'mc-back-mark'}),
      s('path', {d: `M${cx - 7} ${cy} A7 7 0 0 1 ${cx + 7} ${cy} Z`, class: 'mc-back-icing'}));
  }
  return s('svg', {viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label,
    class: `mc-domino${vertical ? ' mc-vertical' : ''}${p ? '' : ' mc-back'}${options.class ? ` ${options.class}` : ''}`,
    'data-card': p ? code : null},
  s('title', {}, label), parts);
}

// A die's face (decorative: its group carries the words).
function die(value, seat, match) {
  const spots = value ? SPOTS[value] : [];
  return s('svg', {viewBox: '0 0 44 44', class: `mc-die mc-die-${seat}${match ? ' mc-match' : ''}${value ? '' : ' mc-unrolled'}`,
    'aria-hidden': 'true'},
  s('rect', {x: 2, y: 2, width: 40, height: 40, rx: 8, class: 'mc-die-face'}),
  spots.map(([x, y]) => s('circle', {cx: 22 + (x - 25) * 0.8, cy: 22 + (y - 25) * 0.8, r: 4, class: 'mc-die-pip'})),
  !value && s('text', {x: 22, y: 29, 'text-anchor': 'middle', class: 'mc-die-q'}, '?'));
}

// A mouse (decorative): state is 'ready', 'placed' or 'tired'.
function mouse(seat, state) {
  return s('svg', {viewBox: '0 0 36 26', class: `mc-mouse mc-mouse-${seat} mc-mouse-${state}`, 'aria-hidden': 'true'},
    s('path', {d: 'M8 17 C3 17 1 13 3 9', class: 'mc-tail'}),
    s('ellipse', {cx: 17, cy: 16, rx: 10, ry: 7, class: 'mc-body'}),
    s('circle', {cx: 23, cy: 8, r: 4, class: 'mc-ear'}),
    s('ellipse', {cx: 27, cy: 14, rx: 6, ry: 5, class: 'mc-body'}),
    s('circle', {cx: 29, cy: 12.5, r: 1.2, class: 'mc-eye'}),
    s('circle', {cx: 33, cy: 15, r: 1.4, class: 'mc-nose'}),
    state === 'tired' && s('path', {d: 'M9 2.5h5.5l-5.5 6h5.5', class: 'mc-zzz'}));
}

// The seat's badge: a shape with the colour (yellow a disc, blue a
// diamond), so that colour is never alone; words name the seat beside it.
function badge(seat, extra = '') {
  return h('span', {class: `mc-badge mc-badge-${seat}${extra}`, 'aria-hidden': 'true'});
}

// ---- Reading the view ---------------------------------------------------------

// The row index (0-based) of seat's nearest piece in column c, or -1.
function nearestRow(grid, seat, c) {
  const rows = [];
  for (let r = 0; r < grid.length; r++) if (grid[r][c] !== null) rows.push(r);
  if (!rows.length) return -1;
  return seat === 1 ? rows[0] : rows[rows.length - 1];
}

function columnPieces(grid, c) {
  return grid.reduce((n, row) => n + (row[c] !== null ? 1 : 0), 0);
}

// The mice the viewer has placed: the move being built, or the plan sent.
function viewerPlan(ctx) {
  const view = ctx.view;
  // (entries: the parts of the move being built, by column, and the
  // target's: each clicked again goes back)
  const plan = {A: 0, B: 0, C: 0, D: 0, target: null, shown: false,
    entries: {A: [], B: [], C: [], D: []}, targetEntry: null};
  if (!ctx.seat || view.phase !== 'assign') return plan;
  const me = view.seats[ctx.seat - 1];
  if (me.assigned && me.assignment) return {...me.assignment, shown: true, sent: true, entries: plan.entries};
  for (const entry of ctx.partial || []) {
    let m = /^mouse on ([A-D])$/.exec(entry.name);
    if (m) {
      plan[m[1]]++;
      plan.entries[m[1]].push(entry);
    }
    m = /^steal (\d\/\d)$/.exec(entry.name);
    if (m) {
      plan.target = m[1];
      plan.targetEntry = entry;
    }
  }
  plan.shown = true;
  return plan;
}

// ---- The dice: judged as the rules file does -----------------------------------

// How many mice the dice exhaust on the attempt's piece.
function exhaustion(piece, dice, mice) {
  const p = halves(piece);
  if (!p) return 0;
  const [a, b] = p;
  if (a === 0 && b === 0) return 0;
  if (a === 0) return dice.includes(b) ? 1 : 0;
  if (a === b) return dice.filter((d) => d === a).length >= 2 ? Math.min(2, mice) : 0;
  return dice.includes(a) && dice.includes(b) ? Math.min(2, mice) : 0;
}

// The dice that match the piece's halves (drawn marked when they exhaust).
function matching(piece, dice) {
  const p = halves(piece);
  if (!p) return dice.map(() => false);
  return dice.map((d) => (p[0] === 0 ? d === p[1] : d === p[0] || d === p[1]));
}

// attempts: [{seat, column, mice, steal, piece, value, dice}]; adds sum,
// done, tired, ok and outcome (takes, steals, swaps, lost, tie, low,
// tired, pending) and returns the conflicts by column.
function judge(attempts) {
  for (const a of attempts) {
    a.sum = a.dice.reduce((x, y) => x + y, 0);
    a.done = a.dice.length >= a.mice;
    a.tired = a.done ? exhaustion(a.piece, a.dice, a.mice) : 0;
    a.ok = a.done && !a.tired && a.sum >= a.value;
    a.outcome = !a.done ? 'pending' : a.tired ? 'tired' : !a.ok ? 'low' : a.steal ? 'steals' : 'takes';
  }
  const conflicts = {};
  for (const column of COLUMNS) {
    const pair = attempts.filter((a) => a.column === column);
    if (pair.length !== 2) continue;
    const [y, b] = pair;
    const both = y.steal && b.steal;
    if (!both && (y.steal || b.steal || y.piece !== b.piece)) continue;
    const conflict = {column, steal: both, piece: both ? '0/0' : y.piece, result: 'pending'};
    conflicts[column] = conflict;
    if (!y.done || !b.done) continue;
    if (both) {
      if (y.ok && b.ok) {
        y.outcome = b.outcome = 'swaps';
        conflict.result = 'swap';
      } else conflict.result = y.ok ? 'won-1' : b.ok ? 'won-2' : 'none';
    } else if (y.ok && b.ok) {
      if (y.sum === b.sum) {
        y.outcome = b.outcome = 'tie';
        conflict.result = 'tie';
      } else {
        const loser = y.sum > b.sum ? b : y;
        loser.outcome = 'lost';
        conflict.result = y.sum > b.sum ? 'won-1' : 'won-2';
      }
    } else conflict.result = y.ok ? 'won-1' : b.ok ? 'won-2' : 'none';
    conflict.sums = [y.sum, b.sum];
  }
  return conflicts;
}

// The last round's rolls from the table's log (ctx.log, oldest first):
// the roll lines' notation gives seat, column and dice, their words the
// piece ("4 mice on 5/6: ..." or "1 mouse stealing 4/4: ...").
function rollsFromLog(log) {
  const rolls = [];
  let round = null;
  for (const item of log.slice().reverse()) {
    const move = item.move ? item.move.trim() : '';
    const m = /^roll ([12]) ([A-D])((?: [1-6])+)$/.exec(move);
    if (!m) {
      if (rolls.length) break;
      continue;
    }
    const text = item.text;
    const p = /\b(?:mice|mouse) (on|stealing) ([0-6]\/[0-6]): \d+ against (\d+)/.exec(text);
    if (!p) return null;
    const r = /End of round (\d+)/.exec(text);
    if (r) round = Number(r[1]);
    const dice = m[3].trim().split(' ').map(Number);
    rolls.unshift({seat: Number(m[1]), column: m[2], mice: dice.length, steal: p[1] === 'stealing',
      piece: p[2], value: Number(p[3]), dice});
  }
  return rolls.length ? {round, attempts: rolls} : null;
}

// ---- The board -----------------------------------------------------------------

export function render(ctx) {
  const view = ctx.view;
  const viewer = ctx.seat || null;
  const bottom = viewer || 1, top = 3 - bottom;
  const drawn = new Set();
  const click = (entry, attributes) => {
    drawn.add(entry.action);
    return ctx.clickable(entry, attributes);
  };
  const plan = viewerPlan(ctx);
  const rolling = view.phase === 'roll' && view.attempts ? view.attempts.map((a) => ({...a, dice: [...a.dice]})) : null;

  const dicePanel = h('section', {class: 'mc-dice', 'aria-label': t('mc.dice_title')});
  if (rolling) fillDice(dicePanel, ctx, rolling, view.round, true);
  else {
    fillDice(dicePanel, ctx, null, null, false);
    // The dice are rolled as soon as both sides have assigned: the view
    // after them holds none, the log does.
    const last = view.phase !== 'deal' && ctx.log.length ? rollsFromLog(ctx.log) : null;
    if (last) fillDice(dicePanel, ctx, last.attempts, last.round, false);
  }

  const board = h('div', {class: `mc-board mc-phase-${view.phase}`, 'data-viewer': viewer || 0},
    infoLine(ctx, plan, bottom),
    sidePanel(ctx, top, 'top', plan, rolling, click),
    h('div', {class: 'mc-middle'},
      field(ctx, bottom, top, plan, rolling, click),
      h('div', {class: 'mc-aside'}, dicePanel, legend())),
    sidePanel(ctx, bottom, 'bottom', plan, rolling, click));

  const rest = ctx.legal.filter((entry) => !drawn.has(entry.action));
  if (rest.length) {
    board.append(h('div', {class: 'mc-actions', role: 'group', 'aria-label': t('mc.more_actions')},
      rest.map((entry) => h('button', ctx.clickable(entry, {type: 'button', class: 'mc-action'}),
        label(entry.name) || entry.name))));
  }
  return board;
}

// A small key to the board's marks.
function legend() {
  const item = (mark, text) => h('li', {}, h('span', {class: 'mc-key-mark', 'aria-hidden': 'true'}, mark), text);
  const wide = typeof matchMedia === 'function' && matchMedia('(min-width: 900px)').matches;
  return h('details', {class: 'mc-legend', open: wide},
    h('summary', {}, t('mc.key_title')),
    h('ul', {},
      item([badge(1), badge(2)], t('mc.key_near')),
      item(mouse(1, 'tired'), t('mc.key_tired')),
      item(h('span', {class: 'mc-steal-tag mc-key-steal'}, t('mc.steal_tag')), t('mc.key_steal')),
      item(die(5, 1, true), t('mc.key_match')),
      item(h('b', {}, '≥'), t('mc.key_rule'))));
}

function seatName(ctx, seat) {
  return (ctx.names && ctx.names[seat - 1]) || t(`mc.color_${seat}`);
}

function infoLine(ctx, plan, bottom) {
  const view = ctx.view;
  let text = '';
  const other = 3 - bottom;
  if (view.phase === 'over') text = t('mc.info_over');
  else if (view.phase === 'roll') text = t('mc.info_roll');
  else if (view.phase === 'assign') {
    const me = ctx.seat && view.seats[ctx.seat - 1];
    const placed = COLUMNS.reduce((n, c) => n + plan[c], 0);
    const stealing = COLUMNS.some((c, i) => {
      const r = plan[c] > 0 ? nearestRow(view.grid, ctx.seat, i) : -1;
      return r >= 0 && view.grid[r][i] === '0/0';
    });
    if (me && stealing && !plan.target && ctx.legal.some((e) => /^steal /.test(e.name))) {
      text = t('mc.info_steal', {name: seatName(ctx, other)});
    } else if (me && ctx.legal.length) {
      text = t('mc.info_place', {left: me.ready - placed, ready: me.ready});
    } else if (me && me.assigned) {
      text = t('mc.info_sent', {name: seatName(ctx, other)});
    } else if (me && !me.to_assign) {
      text = t('mc.info_home');
    } else {
      text = t('mc.info_secret');
    }
  }
  const removed = (view.removed || []).length > 0;
  return h('div', {class: 'mc-info'},
    h('span', {class: 'mc-round'}, t('mc.round', {round: view.round})),
    h('span', {class: 'mc-phase'}, text),
    removed && h('span', {class: 'mc-removed'}, t('mc.removed', {pieces: view.removed.join(', ')})));
}

// One side: who, the mice at home (ready, exhausted), the stash and pips.
function sidePanel(ctx, seat, where, plan, rolling, click) {
  const view = ctx.view;
  const info = view.seats[seat - 1];
  const isViewer = ctx.seat === seat;
  const tired = COLUMNS.reduce((n, c) => n + (info.exhausted[c] || 0), 0);
  let placed = 0;
  if (rolling) placed = rolling.filter((a) => a.seat === seat).reduce((n, a) => n + a.mice, 0);
  else if (isViewer && plan.shown) placed = COLUMNS.reduce((n, c) => n + plan[c], 0);
  const home = view.phase === 'over' ? 4 : Math.max(0, info.ready - placed);

  let status = '';
  if (view.phase === 'assign') {
    if (!info.to_assign) status = t('mc.status_home');
    else if (info.assigned) status = t('mc.status_assigned');
    else status = t('mc.status_choosing');
  }
  const stealing = ctx.legal.filter((e) => /^steal /.test(e.name));
  const stash = info.stash.map((code) => {
    const entry = !isViewer && stealing.find((e) => e.name === `steal ${code}`);
    const chosen = !isViewer && plan.target === code;
    const piece = domino(code, {vertical: true, class: chosen ? 'mc-target' : ''});
    if (chosen && plan.targetEntry) {
      return h('span', click(plan.targetEntry, {class: 'mc-stash-piece mc-chosen mc-steal-choice', 'aria-pressed': 'true',
        'aria-label': t('mc.unsteal', {piece: code})}), piece, h('span', {class: 'mc-target-tag'}, t('mc.target')));
    }
    if (entry) {
      return h('span', click(entry, {class: 'mc-stash-piece mc-steal-choice',
        'aria-label': t('mc.steal_this', {piece: code, pips: pipsOf(code)})}), piece);
    }
    return h('span', {class: `mc-stash-piece${chosen ? ' mc-chosen' : ''}`}, piece,
      chosen && h('span', {class: 'mc-target-tag'}, t('mc.target')));
  });

  return h('section', {class: `mc-side mc-side-${seat} mc-${where}${isViewer ? ' mc-mine' : ''}`,
    'aria-label': t('mc.side_label', {name: seatName(ctx, seat), color: t(`mc.color_${seat}`)})},
  h('div', {class: 'mc-side-head'},
    badge(seat),
    h('strong', {class: 'mc-name'}, seatName(ctx, seat)),
    h('span', {class: 'mc-color'}, t(`mc.color_${seat}`), isViewer ? ` · ${t('mc.you')}` : ''),
    status && h('span', {class: `mc-status${info.assigned ? ' mc-done' : ''}`}, status),
    h('span', {class: 'mc-pips', 'data-testid': `mc-pips-${seat}`},
      h('b', {}, String(info.pips)), ' ', t('mc.pips_unit'),
      h('small', {}, ' · ', t(info.pieces === 1 ? 'mc.pieces_one' : 'mc.pieces', {count: info.pieces})))),
  h('div', {class: 'mc-side-body'},
    h('div', {class: 'mc-home'},
      h('span', {class: 'mc-home-mice', 'aria-hidden': 'true'},
        Array.from({length: home}, () => mouse(seat, 'ready')),
        view.phase !== 'over' && Array.from({length: tired}, () => mouse(seat, 'tired'))),
      h('span', {class: 'mc-home-text'},
        view.phase === 'over' ? t('mc.mice_over') :
          t('mc.mice_line', {ready: info.ready, home, tired}))),
    h('div', {class: 'mc-stash', role: 'group', 'aria-label': t('mc.stash_label', {name: seatName(ctx, seat)})},
      stash.length ? stash : h('span', {class: 'mc-empty'}, t('mc.stash_empty')))));
}

// The grid between the two lanes of mice.
function field(ctx, bottom, top, plan, rolling, click) {
  const view = ctx.view;
  const grid = view.grid;
  const order = [];
  for (let r = 0; r < ROWS; r++) order.push(r);
  if (bottom === 1) order.reverse(); // the bottom seat's front row is nearest the bottom
  const near = {1: COLUMNS.map((c, i) => nearestRow(grid, 1, i)), 2: COLUMNS.map((c, i) => nearestRow(grid, 2, i))};

  const letters = (where) => h('div', {class: `mc-row mc-letters mc-letters-${where}`, 'aria-hidden': 'true'},
    h('span', {class: 'mc-rowlabel'}), COLUMNS.map((c) => h('span', {class: 'mc-letter'}, c)));

  const rows = order.map((r) => h('div', {class: 'mc-row mc-grid-row'},
    h('span', {class: 'mc-rowlabel', 'aria-hidden': 'true'}, String(r + 1)),
    COLUMNS.map((c, i) => {
      const code = grid[r][i];
      const where = `${c}${r + 1}`;
      if (code === null) {
        return h('div', {class: 'mc-cell mc-gone'}, h('span', {class: 'visually-hidden'}, t('mc.cell_empty', {cell: where})));
      }
      const p = halves(code);
      const flags = [];
      for (const seat of [bottom, top]) {
        if (near[seat][i] !== r) continue;
        flags.push(h('span', {class: `mc-near mc-near-${seat === bottom ? 'bottom' : 'top'}`,
          title: t('mc.nearest_of', {color: t(`mc.color_${seat}`)})},
        badge(seat),
        h('span', {class: 'visually-hidden'}, t('mc.nearest_of', {color: t(`mc.color_${seat}`)}))));
      }
      const steal = code === '0/0' && flags.length > 0;
      return h('div', {class: `mc-cell${flags.length ? ' mc-is-near' : ''}${steal ? ' mc-steal-cell' : ''}`},
        domino(code, {label: p ? t('mc.cell_piece', {cell: where, piece: code, pips: p[0] + p[1]})
          : t('mc.cell_down', {cell: where})}),
        flags,
        steal && h('span', {class: 'mc-steal-tag'}, t('mc.steal_tag')));
    })));

  return h('div', {class: 'mc-field', role: 'group', 'aria-label': t('mc.grid_label')},
    lane(ctx, top, 'top', plan, rolling, near, click),
    letters('top'),
    h('div', {class: 'mc-cake'}, rows),
    letters('bottom'),
    lane(ctx, bottom, 'bottom', plan, rolling, near, click));
}

// A side's mice by column: placed (the plan or the rolls) and exhausted.
function lane(ctx, seat, where, plan, rolling, near, click) {
  const view = ctx.view;
  const info = view.seats[seat - 1];
  const isViewer = ctx.seat === seat;
  return h('div', {class: `mc-row mc-lane mc-lane-${seat} mc-lane-${where}`, role: 'group',
    'aria-label': t('mc.lane_label', {name: seatName(ctx, seat)})},
  h('span', {class: 'mc-rowlabel'}, badge(seat)),
  COLUMNS.map((c, i) => {
    let placed = 0, steal = false, target = null;
    if (rolling) {
      const a = rolling.find((x) => x.seat === seat && x.column === c);
      if (a) {
        placed = a.mice;
        steal = a.steal;
        target = a.steal ? a.piece : null;
      }
    } else if (isViewer && plan.shown) {
      placed = plan[c];
      const r = near[seat][i];
      steal = placed > 0 && r >= 0 && view.grid[r][i] === '0/0';
      target = steal ? plan.target : null;
    }
    const tired = view.phase === 'over' ? 0 : info.exhausted[c] || 0;
    const r = near[seat][i];
    const code = r >= 0 ? view.grid[r][i] : null;
    const value = code === '0/0' ? t('mc.steal_tag') : halves(code) ? t('mc.aim', {pips: pipsOf(code)}) : '';
    const words = [
      placed && t(steal ? 'mc.lane_stealing' : 'mc.lane_placed', {count: placed, column: c, piece: target || ''}),
      tired && t('mc.lane_tired', {count: tired}),
    ].filter(Boolean).join(', ');
    const inside = [
      h('span', {class: 'mc-lane-mice', 'aria-hidden': 'true'},
        Array.from({length: placed}, () => mouse(seat, 'placed')),
        Array.from({length: tired}, () => mouse(seat, 'tired'))),
      target && h('span', {class: 'mc-lane-target', 'aria-hidden': 'true', 'data-text': target}, icon('swap')),
      value && h('span', {class: 'mc-aim', 'aria-hidden': 'true', 'data-text': value}),
    ];
    const entry = isViewer && ctx.find(`mouse on ${c}`);
    const cell = entry
      ? h('div', click(entry, {class: 'mc-lane-cell mc-add',
        'aria-label': t('mc.add_mouse', {column: c, placed, aim: code === '0/0' ? t('mc.steal_tag')
          : t('mc.aim_long', {pips: pipsOf(code)})})}),
      h('span', {class: 'mc-plus', 'aria-hidden': 'true'}), inside)
      : h('div', {class: `mc-lane-cell${code === null ? ' mc-closed' : ''}`},
        inside, words && h('span', {class: 'visually-hidden'}, `${c}: ${words}`));
    // A mouse of the move being built, on this column: a button beside
    // the cell (not in it: the cell adds one) takes one back.
    const mine = isViewer && !rolling && plan.entries && plan.entries[c];
    if (!mine || !mine.length) return cell;
    return h('div', {class: 'mc-lane-slot'}, cell,
      h('button', click(mine[mine.length - 1], {type: 'button', class: 'mc-remove',
        'aria-label': t('mc.remove_mouse', {column: c})}), '−'));
  }));
}

// The dice panel: the rolls of this round (a replay's roll phase) or of the
// last one (from the log), column by column.
function fillDice(panel, ctx, attempts, round, now) {
  const title = h('h2', {}, attempts
    ? (now ? t('mc.dice_now', {round}) : round ? t('mc.dice_last', {round}) : t('mc.dice_title'))
    : t('mc.dice_title'));
  if (!attempts || !attempts.length) {
    panel.replaceChildren(title, h('p', {class: 'mc-empty'}, t('mc.dice_none')));
    return;
  }
  const conflicts = judge(attempts);
  const rows = [];
  for (const column of COLUMNS) {
    const group = attempts.filter((a) => a.column === column);
    if (!group.length) continue;
    rows.push(h('li', {class: 'mc-dice-column'},
      h('span', {class: 'mc-col-badge', 'aria-hidden': 'true'}, column),
      h('div', {class: 'mc-attempts'},
        group.map((a) => attemptLine(ctx, a)),
        conflicts[column] && conflictLine(ctx, conflicts[column]))));
  }
  panel.replaceChildren(title, h('ol', {class: 'mc-dice-list'}, rows));
}

function attemptLine(ctx, a) {
  const marks = a.outcome === 'tired' ? matching(a.piece, a.dice) : a.dice.map(() => false);
  const faces = [...a.dice.map((d, k) => die(d, a.seat, marks[k]))];
  for (let k = a.dice.length; k < a.mice; k++) faces.push(die(0, a.seat, false));
  const verdict = t(`mc.out_${a.outcome}`, {piece: a.piece, count: a.tired});
  const words = t(a.steal ? 'mc.attempt_steal' : 'mc.attempt', {
    color: t(`mc.color_${a.seat}`), count: a.mice, column: a.column, piece: a.piece,
    dice: a.dice.join(', ') || '—', sum: a.sum, value: a.value}) + ` ${verdict}`;
  return h('div', {class: `mc-attempt mc-attempt-${a.seat} mc-out-${a.outcome}`},
    h('span', {class: 'visually-hidden'}, words),
    h('div', {class: 'mc-att-top', 'aria-hidden': 'true'},
      badge(a.seat),
      h('span', {class: 'mc-att-mice'}, `${a.mice}×`, mouse(a.seat, 'placed')),
      h('span', {class: 'mc-att-piece'},
        a.steal && h('span', {class: 'mc-steal-mini'}, icon('swap')), domino(a.piece, {class: 'mc-mini'})),
      h('span', {class: 'mc-att-dice'}, faces)),
    h('div', {class: 'mc-att-bottom', 'aria-hidden': 'true'},
      h('span', {class: 'mc-att-sum'}, t('mc.sum_short', {sum: a.done ? a.sum : '…', value: a.value})),
      h('span', {class: 'mc-verdict'}, verdict)));
}

function conflictLine(ctx, conflict) {
  const names = (seat) => t(`mc.color_${seat}`);
  let text;
  if (conflict.result === 'pending') text = t('mc.conflict_pending', {piece: conflict.piece});
  else if (conflict.steal) {
    text = conflict.result === 'swap' ? t('mc.conflict_swap')
      : conflict.result === 'none' ? t('mc.conflict_steal_none')
        : t('mc.conflict_steal_one', {color: names(conflict.result === 'won-1' ? 1 : 2)});
  } else if (conflict.result === 'tie') text = t('mc.conflict_tie', {piece: conflict.piece, sum: conflict.sums[0]});
  else if (conflict.result === 'none') text = t('mc.conflict_none', {piece: conflict.piece});
  else {
    const w = conflict.result === 'won-1' ? 1 : 2;
    const [ys, bs] = conflict.sums;
    text = t('mc.conflict_won', {color: names(w), piece: conflict.piece,
      high: w === 1 ? ys : bs, low: w === 1 ? bs : ys});
  }
  return h('p', {class: 'mc-conflict'}, icon('swords'), ' ', text);
}

// ---- What the frame asks ---------------------------------------------------------

export function label(name) {
  let m = /^mouse on ([A-D])$/.exec(name);
  if (m) return t('mc.act_mouse', {column: m[1]});
  m = /^steal (\d\/\d)$/.exec(name);
  if (m) return t('mc.act_steal', {piece: m[1]});
  m = /^die (\d)$/.exec(name);
  if (m) return t('mc.act_die', {value: m[1]});
  m = /^deal (\d\/\d)$/.exec(name);
  if (m) return t('mc.act_deal', {piece: m[1]});
  return null;
}

export function score(view, seat) {
  const info = view && view.seats && view.seats[seat - 1];
  return info ? String(info.pips) : '';
}

// The end: pips in each stash, then the tiebreaks (pieces, 6/6).
export function scoring(ctx) {
  const view = ctx.view;
  if (!view || !view.seats) return null;
  const seats = view.seats;
  const [y, b] = seats;
  let reason;
  const winners = view.winners || [];
  const who = (seat) => ({name: seatName(ctx, seat), color: t(`mc.color_${seat}`)});
  if (y.pips !== b.pips) {
    reason = t('mc.win_pips', {...who(y.pips > b.pips ? 1 : 2),
      high: Math.max(y.pips, b.pips), low: Math.min(y.pips, b.pips)});
  } else if (y.pieces !== b.pieces) {
    reason = t('mc.win_pieces', {...who(y.pieces > b.pieces ? 1 : 2),
      high: Math.max(y.pieces, b.pieces), low: Math.min(y.pieces, b.pieces)});
  } else if (winners.length === 1) reason = t('mc.win_66', who(winners[0]));
  else reason = t('mc.win_shared');
  const owns66 = (info) => info.stash.includes('6/6');
  return h('section', {class: 'mc-scoring', 'aria-label': t('mc.scoring_title')},
    h('h3', {}, t('mc.scoring_title')),
    h('table', {class: 'mc-score-table'},
      h('thead', {}, h('tr', {},
        h('th', {scope: 'col'}, t('mc.score_seat')),
        h('th', {scope: 'col'}, t('mc.score_pips')),
        h('th', {scope: 'col'}, t('mc.score_pieces')),
        h('th', {scope: 'col'}, '6/6'))),
      h('tbody', {}, seats.map((info) => h('tr', {class: winners.includes(info.seat) ? 'mc-winner' : ''},
        h('th', {scope: 'row'}, badge(info.seat), ' ', h('span', {class: 'mc-score-name'}, seatName(ctx, info.seat))),
        h('td', {class: 'mc-score-num'}, String(info.pips)),
        h('td', {class: 'mc-score-num'}, String(info.pieces)),
        h('td', {}, owns66(info) ? t('mc.yes') : t('mc.no')))))),
    seats.map((info) => h('div', {class: 'mc-score-stash'},
      h('h4', {}, badge(info.seat), ' ', t('mc.stash_label', {name: seatName(ctx, info.seat)})),
      info.stash.length ? h('div', {class: 'mc-score-pieces'}, info.stash.map((code) => h('span', {class: 'mc-score-piece'},
        domino(code, {class: 'mc-mini'}), h('small', {'aria-hidden': 'true'}, String(pipsOf(code))))))
        : h('p', {}, t('mc.stash_empty')),
      info.stash.length > 0 && h('p', {class: 'mc-sum'},
        `${info.stash.map(pipsOf).join(' + ')} = ${info.pips} ${t('mc.pips_unit')}`))),
    h('p', {class: 'mc-reason'}, reason),
    (view.removed || []).length > 0 && h('p', {}, t('mc.removed_end')),
    view.stopped_by_round_limit && h('p', {}, t('mc.round_limit', {limit: view.round_limit})));
}

// ---- The log and the hints in the page's language (words.js) -------------------
//
// What mc_describe_move (src/games/mice_cake/views.c) writes:
//   The 28 pieces are shuffled face down into the grid; rows 1, 3, 5 and 7 are turned up.
//   seat N has assigned (the others) / seat N: assign A1 B3>2/5 (the seat itself)
//   roll S C d d: seat S, M mouse|mice on|stealing P: SUM against VALUE
//     then ": success", ": too low", ", but a H exhausts 1 mouse: fails",
//     ", but two Ls exhaust 2 mice: fails" or ", but a L and a H exhaust 2 mice: fails";
//   [". Both steal at the last piece, 0/0: " both succeed, so the targets
//     change hands and 0/0 leaves the game | seat N alone succeeds | neither succeeds]
//   [". Both went for the last piece of column C: " seat N takes it with the
//     higher sum, H to L | equal sums, so it stays | only seat N succeeds and
//     takes it | neither succeeds, it stays]
//   [" (seat 2 goes for this last piece too)"]
//   [". End of round R:" then, ";"-separated, " seat N stashes P P", " seat N
//     loses P", " 0/0 leaves the game", " P turns up (row R, C)", or " no
//     piece changes hands"; then ". The 500-round guard ends the game.", ".
//     The grid is empty: game over." or (". Seat N has K exhausted
//     mouse|mice sitting out round R")* and "."]

const PIECE = '\\d\\/\\d';

// "A1 B3>2/5" (an assign's columns) as words.
function assignWords(list) {
  const columns = list.trim().split(/\s+/).filter(Boolean).map((word) => /^([A-D])(\d)(?:>(\d\/\d))?$/.exec(word));
  if (columns.includes(null)) return null;
  if (!columns.length) return t('mc.log.assign_none');
  return columns.map((c) => t(c[3] ? 'mc.log.column_steal' : 'mc.log.column', {column: c[1], n: c[2], piece: c[3]}))
    .join(t('mc.log.sep'));
}

// A seat's move in notation (a hint), as words.
export function describeMove(notation) {
  const m = /^assign((?: \S+)*)$/.exec(notation);
  return m ? assignWords(m[1]) : null;
}

export function describe(entry, ctx) {
  const name = (seat) => playerName(ctx, seat, t('mc.log.seat', {seat}));
  const pieces = (list) => list.split(' ').join(t('mc.log.sep'));
  const sep = (m) => (m ? t('mc.log.clause_sep') : '');
  return readSentence(entry.text, [
    [/The (\d+) pieces are shuffled face down into the grid; rows 1, 3, 5 and 7 are turned up\./y,
      (m) => t('mc.log.deal', {n: m[1]})],
    [/seat (\d) has assigned/y, (m) => t('mc.log.assigned', {name: name(m[1])})],
    [/seat (\d): assign((?: [A-D]\d(?:>\d\/\d)?)*)/y, (m) => {
      const words = assignWords(m[2]);
      return words && t('mc.log.assign', {name: name(m[1]), columns: words});
    }],
    [new RegExp(`roll \\d ([A-D])((?: \\d)+): seat (\\d), (\\d+) (?:mouse|mice) (on|stealing) (${PIECE}): (\\d+) against (\\d+)`, 'y'),
      (m) => t(m[5] === 'on' ? 'mc.log.roll' : 'mc.log.roll_steal', {name: name(m[3]), column: m[1],
        dice: m[2].trim().split(' ').join(t('mc.log.dice_sep')), mice: m[4], piece: m[6], sum: m[7], value: m[8]})],
    [/: success/y, () => t('mc.log.success')],
    [/: too low/y, () => t('mc.log.too_low')],
    [/, but a (\d) exhausts 1 mouse: fails/y, (m) => t('mc.log.tired_one', {a: m[1]})],
    [/, but two (\d)s exhaust 2 mice: fails/y, (m) => t('mc.log.tired_double', {a: m[1]})],
    [/, but a (\d) and a (\d) exhaust 2 mice: fails/y, (m) => t('mc.log.tired_two', {a: m[1], b: m[2]})],
    [/\. Both steal at the last piece, 0\/0: /y, () => t('mc.log.both_steal')],
    [/both succeed, so the targets change hands and 0\/0 leaves the game/y, () => t('mc.log.steal_swap')],
    [/seat (\d) alone succeeds/y, (m) => t('mc.log.steal_one', {name: name(m[1])})],
    [/\. Both went for the last piece of column ([A-D]): /y, (m) => t('mc.log.both_went', {column: m[1]})],
    [/seat (\d) takes it with the higher sum, (\d+) to (\d+)/y,
      (m) => t('mc.log.conflict_won', {name: name(m[1]), high: m[2], low: m[3]})],
    [/equal sums, so it stays/y, () => t('mc.log.conflict_tie')],
    [/only seat (\d) succeeds and takes it/y, (m) => t('mc.log.conflict_one', {name: name(m[1])})],
    [/neither succeeds, it stays/y, () => t('mc.log.conflict_none')],
    [/neither succeeds/y, () => t('mc.log.steal_none')],
    [/ \(seat (\d) goes for this last piece too\)/y, (m) => t('mc.log.goes_too', {name: name(m[1])})],
    [/\. End of round (\d+):/y, (m) => t('mc.log.round_end', {round: m[1]})],
    [new RegExp(`(;)? seat (\\d) stashes (${PIECE}(?: ${PIECE})*)`, 'y'),
      (m) => sep(m[1]) + t('mc.log.stashes', {name: name(m[2]), pieces: pieces(m[3])})],
    [new RegExp(`(;)? seat (\\d) loses (${PIECE}(?: ${PIECE})*)`, 'y'),
      (m) => sep(m[1]) + t('mc.log.loses', {name: name(m[2]), pieces: pieces(m[3])})],
    [/(;)? 0\/0 leaves the game/y, (m) => sep(m[1]) + t('mc.log.removed')],
    [new RegExp(`(;)? (${PIECE}) turns up \\(row (\\d), ([A-D])\\)`, 'y'),
      (m) => sep(m[1]) + t('mc.log.turns_up', {piece: m[2], row: m[3], column: m[4]})],
    [/ no piece changes hands/y, () => t('mc.log.no_change')],
    [/\. The (\d+)-round guard ends the game\./y, (m) => t('mc.log.round_limit', {limit: m[1]})],
    [/\. The grid is empty: game over\./y, () => t('mc.log.empty')],
    [/\. Seat (\d) has (\d+) exhausted (?:mouse|mice) sitting out round (\d+)/y,
      (m) => t('mc.log.tired', {name: name(m[1]), n: m[2], round: m[3]})],
    [/\./y, () => t('mc.log.stop')],
  ]);
}

