// piece o' Cake: the round cake of 11 slices seen from above, cut by
// clicking the gaps between slices, pieces taken by clicking them and
// each slice then eaten or collected; beside it the ledger of what every
// player has collected (with the majorities as they stand), eaten and
// scored, and what is still to come.  Drawn from the view alone.
//
// The view (gateau's piece-o-cake view JSON): round, rounds, phase
// ("cut", "choose", "over"), cake (1..5), server, slices (11 letters,
// positions 1..11 clockwise), cut_after (gaps: N is between positions N
// and N+1, 11 between 11 and 1), pieces [{piece: "a-b", taken_by}],
// to_act, seats [{collected, eaten, banked, score}], removed, unseen.
//
// Actions: "cut after N" (gaps chosen in any order; "cut done" is implied
// by two or more, and alone serves the whole cake), "take a-b" followed by
// one "eat"/"collect" per slice of the piece clockwise, "eat X" (eat all
// one's collected X) and "pass".  A gap chosen is clicked again to take it
// back, the piece chosen to put it back, a slice decided to turn it over
// (eat <-> collect); the move is sent by the page's Send button.

import {t} from '../i18n.js';
import {readSentence, playerName, items} from './words.js';

// The varieties: letter, slices in the game (= majority bonus), dollops
// (points when eaten), colour, and the letter's colour on it.
export const VARIETIES = [
  {letter: 'P', bonus: 3, dollops: 1, fill: '#7b3f7a', ink: '#ffffff'},
  {letter: 'A', bonus: 4, dollops: 1, fill: '#f6a54a', ink: '#2b1a0a'},
  {letter: 'R', bonus: 5, dollops: 1, fill: '#c8102e', ink: '#ffffff'},
  {letter: 'B', bonus: 7, dollops: 2, fill: '#2f2452', ink: '#ffffff'},
  {letter: 'K', bonus: 8, dollops: 2, fill: '#6aa033', ink: '#10240a'},
  {letter: 'G', bonus: 9, dollops: 2, fill: '#d8e08a', ink: '#2b2a0a'},
  {letter: 'S', bonus: 10, dollops: 2, fill: '#f06a8a', ink: '#2b0a12'},
  {letter: 'C', bonus: 11, dollops: 3, fill: '#5a3418', ink: '#ffffff'},
];
const VARIETY = Object.fromEntries(VARIETIES.map((v) => [v.letter, v]));
const LETTERS = VARIETIES.map((v) => v.letter);
const POSITIONS = 11;
const CAKES = 5;

const varietyName = (letter) => t(`poc.v.${letter}`);

// ---- Action names ---------------------------------------------------------------

function parseAction(name) {
  let m;
  if ((m = /^cut after (\d+)$/.exec(name))) return {kind: 'cut', gap: Number(m[1])};
  if (name === 'cut done') return {kind: 'done'};
  if ((m = /^take (\d+(?:-\d+)?)$/.exec(name))) return {kind: 'take', piece: m[1]};
  if (name === 'eat') return {kind: 'slice', eat: true};
  if (name === 'collect') return {kind: 'slice', eat: false};
  if ((m = /^eat ([A-Z])$/.exec(name)) && VARIETY[m[1]]) return {kind: 'forfeit', letter: m[1]};
  if (name === 'pass') return {kind: 'pass'};
  return {kind: 'other'};
}

export function label(name) {
  const a = parseAction(name);
  switch (a.kind) {
    case 'cut': return t('poc.act.cut_after', {a: a.gap, b: a.gap % POSITIONS + 1});
    case 'done': return t('poc.act.cut_done');
    case 'take': return t('poc.act.take', {piece: a.piece});
    case 'slice': return t(a.eat ? 'poc.act.eat' : 'poc.act.collect');
    case 'forfeit': return t('poc.act.eat_variety', {variety: varietyName(a.letter)});
    case 'pass': return t('poc.act.pass');
    default: return name;
  }
}

// "a-b" or "a": the positions of a piece, clockwise.
function piecePositions(piece) {
  const [a, b = a] = String(piece).split('-').map(Number);
  const list = [];
  for (let p = a; ; p = p % POSITIONS + 1) {
    list.push(p);
    if (p === b || list.length >= POSITIONS) break;
  }
  return list;
}

// The pieces the gaps make (fewer than two cuts leave the cake whole).
function piecesOfCuts(cuts) {
  const gaps = [...new Set(cuts)].sort((x, y) => x - y);
  if (gaps.length < 2) return [{positions: piecePositions('1-11'), whole: true}];
  return gaps.map((gap, i) => {
    const next = gaps[(i + 1) % gaps.length];
    return {positions: piecePositions(`${gap % POSITIONS + 1}-${next}`)};
  });
}

// ---- Scores ----------------------------------------------------------------------

// The majorities as they stand: per variety, the seats with the most (at
// least one) collected slices.
function majorities(view) {
  const result = {};
  for (const letter of LETTERS) {
    const counts = view.seats.map((seat) => (seat.collected && seat.collected[letter]) || 0);
    const best = Math.max(0, ...counts);
    result[letter] = best > 0 ? view.seats.filter((seat, i) => counts[i] === best).map((seat) => seat.seat) : [];
  }
  return result;
}

// A seat's score in the round under way, as the rules count it.
function roundScore(view, seatIndex, held) {
  const seat = view.seats[seatIndex];
  let bonus = 0, eatenPoints = 0, eatenSlices = 0;
  for (const v of VARIETIES) {
    if (held[v.letter].includes(seat.seat)) bonus += v.bonus;
    const eaten = (seat.eaten && seat.eaten[v.letter]) || 0;
    eatenSlices += eaten;
    eatenPoints += eaten * v.dollops;
  }
  return {bonus, eatenPoints, eatenSlices};
}

export function score(view, seat) {
  const entry = view && view.seats && view.seats[seat - 1];
  return entry && entry.score !== undefined ? entry.score : '';
}

// ---- Small pieces of HTML -----------------------------------------------------

function chip(ctx, letter, extra = {}) {
  const v = VARIETY[letter] || {fill: '#999', ink: '#000'};
  return ctx.h('span', {class: 'poc-chip', style: `background:${v.fill};color:${v.ink}`,
    title: varietyName(letter), ...extra}, letter);
}

function seatBadge(ctx, seat) {
  return ctx.h('span', {class: `poc-seat poc-seat-${seat}`, 'aria-hidden': 'true'}, String(seat));
}

function dollopDots(ctx, n) {
  return ctx.h('span', {class: 'poc-dollops', 'aria-label': t('poc.dollops', {n}), role: 'img'},
    '●'.repeat(n));
}

// ---- The cake (SVG) --------------------------------------------------------------

const SIZE = 460, C = SIZE / 2, R = 160, R0 = 70;
const STEP = 360 / POSITIONS;
const rad = (deg) => (deg * Math.PI) / 180;
const at = (r, deg, dx = 0, dy = 0) => [C + dx + r * Math.sin(rad(deg)), C + dy - r * Math.cos(rad(deg))];
const fmt = (n) => n.toFixed(2);
const pt = (r, deg, dx, dy) => at(r, deg, dx, dy).map(fmt).join(' ');

function wedgePath(from, to, r0, r1, dx = 0, dy = 0) {
  return `M ${pt(r0, from, dx, dy)} L ${pt(r1, from, dx, dy)} ` +
    `A ${r1} ${r1} 0 0 1 ${pt(r1, to, dx, dy)} L ${pt(r0, to, dx, dy)} ` +
    `A ${r0} ${r0} 0 0 0 ${pt(r0, from, dx, dy)} Z`;
}

// The slices of one position: wedge, dollops of cream, letter badge.
function sliceGraphic(ctx, position, letter, offset, marks) {
  const {s} = ctx;
  const v = VARIETY[letter] || {fill: '#bbb', ink: '#000', dollops: 0};
  const from = (position - 1) * STEP, to = position * STEP, mid = from + STEP / 2;
  const [dx, dy] = offset;
  const dots = [];
  for (let i = 0; i < v.dollops; i++) {
    const spread = v.dollops === 1 ? 0 : (i - (v.dollops - 1) / 2) * 8.5;
    const [x, y] = at(R - 15, mid + spread, dx, dy);
    dots.push(s('circle', {class: 'poc-dollop', cx: fmt(x), cy: fmt(y), r: 6.2}),
      s('circle', {class: 'poc-dollop-shine', cx: fmt(x - 1.6), cy: fmt(y - 1.8), r: 2}));
  }
  const [bx, by] = at(R0 + 27, mid, dx, dy);
  const [nx, ny] = at(R + 17, mid);
  const title = t('poc.slice_title', {pos: position, variety: varietyName(letter), n: v.dollops});
  return s('g', {class: `poc-slice${marks.current ? ' current' : ''}`, 'data-card': letter},
    s('title', {}, title),
    s('path', {class: 'poc-wedge', d: wedgePath(from, to, R0, R, dx, dy), fill: v.fill}),
    s('path', {class: 'poc-icing', d: wedgePath(from, to, R - 4, R, dx, dy)}),
    dots,
    s('circle', {class: 'poc-badge', cx: fmt(bx), cy: fmt(by), r: 13}),
    s('text', {class: 'poc-badge-letter', x: fmt(bx), y: fmt(by + 5.2), 'text-anchor': 'middle'}, letter),
    s('text', {class: 'poc-position', x: fmt(nx), y: fmt(ny + 4.5), 'text-anchor': 'middle',
      'aria-hidden': 'true'}, String(position)),
    marks.decision !== undefined && decisionMark(ctx, mid, dx, dy, marks.decision, marks.turn),
    marks.current && s('path', {class: 'poc-current-ring', d: wedgePath(from, to, R0, R, dx, dy)}));
}

function decisionMark(ctx, mid, dx, dy, eat, turn) {
  const {s} = ctx;
  const [x, y] = at(R0 + 53, mid, dx, dy);
  const kind = `poc-decision ${eat ? 'eat' : 'collect'}`;
  return s('g', turn ? {...turn, class: `${turn.class} ${kind}`} : {class: kind},
    s('title', {}, t(eat ? 'poc.to_eat' : 'poc.to_collect')),
    eat ? s('circle', {cx: fmt(x), cy: fmt(y), r: 10.5}) :
      s('rect', {x: fmt(x - 9.5), y: fmt(y - 9.5), width: 19, height: 19, rx: 3}),
    s('text', {x: fmt(x), y: fmt(y + 4.5), 'text-anchor': 'middle'}, t(eat ? 'poc.eat_short' : 'poc.collect_short')));
}

// The attributes of an element that, clicked, makes the move built parts
// (ctx.setParts) rather than adding entry to it.
function settingParts(ctx, entry, attributes, parts) {
  const made = ctx.clickable(entry, attributes);
  const set = (event) => {
    event.preventDefault();
    event.stopPropagation();
    ctx.setParts(parts);
  };
  return {...made, onclick: set,
    onkeydown: (event) => { if (event.key === 'Enter' || event.key === ' ') set(event); }};
}

// A knife at a gap: drawn where the cake is (being) cut, offered where a cut
// may go (entry), or chosen in the move being built (entry: its part, which
// a click takes back; parts: what a click makes the move instead).
function knife(ctx, gap, state, entry, setParts) {
  const {s} = ctx;
  const deg = gap * STEP;
  const line = s('line', {class: 'poc-cut-line', x1: fmt(at(R0 - 4, deg)[0]), y1: fmt(at(R0 - 4, deg)[1]),
    x2: fmt(at(R + 4, deg)[0]), y2: fmt(at(R + 4, deg)[1])});
  const [hx, hy] = at(R + 30, deg);
  const blade = `M ${pt(R + 3, deg)} L ${pt(R + 21, deg + 2.6)} L ${pt(R + 21, deg - 1.2)} Z`;
  const handle = s('line', {class: 'poc-knife-handle', x1: fmt(at(R + 22, deg)[0]), y1: fmt(at(R + 22, deg)[1]),
    x2: fmt(hx), y2: fmt(hy)});
  const parts = [
    s('title', {}, t('poc.gap_title', {a: gap, b: gap % POSITIONS + 1})),
    line, s('path', {class: 'poc-knife-blade', d: blade}), handle,
  ];
  if (entry) {
    const zone = `M ${pt(R0 - 2, deg - 7)} L ${pt(R + 42, deg - 7)} L ${pt(R + 42, deg + 7)} L ${pt(R0 - 2, deg + 7)} Z`;
    parts.unshift(s('path', {class: 'poc-gap-zone', d: zone}));
    const attributes = {class: `poc-gap ${state}`, 'data-gap': gap,
      'aria-pressed': state.includes('chosen') ? 'true' : null};
    return s('g', setParts ? settingParts(ctx, entry, attributes, setParts) : ctx.clickable(entry, attributes), parts);
  }
  return s('g', {class: `poc-gap ${state}`, 'data-gap': gap}, parts);
}

function centreButton(ctx, entry, y, text, kind, detail) {
  const {s} = ctx;
  const w = 108, hgt = 28;
  // The name read out starts with the words shown.
  return s('g', ctx.clickable(entry, {class: `poc-button ${kind || ''}`,
    'aria-label': `${text}: ${detail || label(entry.name)}`}),
    s('rect', {x: C - w / 2, y, width: w, height: hgt, rx: 14}),
    s('text', {x: C, y: y + 19, 'text-anchor': 'middle'}, text));
}

// (a line naming players with shortened names carries the whole line as its
// title: the tooltip, and the name assistive technology reads)
function centreText(ctx, lines) {
  const {s} = ctx;
  return lines.map(([y, text, cls, whole]) => s('text', {class: `poc-centre-text ${cls || ''}`, x: C, y,
    'text-anchor': 'middle'}, whole && whole !== text && s('title', {}, whole), text));
}

function nameOf(ctx, seat) {
  return (ctx.names && ctx.names[seat - 1]) || t('poc.seat', {seat});
}

// A name short enough for the cake's centre: 11 letters' room, a wide
// (full-width) letter such as a Japanese name's taking the room of two.
const SHORT_ROOM = 11;
const letterRoom = (letter) => (letter.codePointAt(0) >= 0x2e80 ? 2 : 1);
function shortName(ctx, seat) {
  const letters = [...nameOf(ctx, seat)];
  if (letters.reduce((room, letter) => room + letterRoom(letter), 0) <= SHORT_ROOM) return letters.join('');
  let room = 0, kept = '';
  for (const letter of letters) {
    room += letterRoom(letter);
    if (room > SHORT_ROOM - 1) break;
    kept += letter;
  }
  return `${kept}…`;
}

// The end: every cake is gone; the plate holds the winner.
function emptyPlate(ctx) {
  const {s, view} = ctx;
  const finals = ctx.scores || view.seats.map((seat) => seat.score);
  const best = Math.max(...finals);
  const winners = view.seats.filter((seat, i) => finals[i] === best).map((seat) => seat.seat);
  const c = 120;
  const text = (y, words, cls, whole) => s('text', {class: `poc-centre-text ${cls}`, x: c, y, 'text-anchor': 'middle'},
    whole && whole !== words && s('title', {}, whole), words);
  // (a shared win says how many share it: two names or more do not fit the
  // plate; its title names them all, as the final scores do, and so does the
  // picture's label, the plate as assistive technology reads it)
  const whole = t(winners.length > 1 ? 'poc.win_shared' : 'poc.wins',
    {names: winners.map((seat) => nameOf(ctx, seat)).join(', ')});
  const shown = winners.length > 1 ? t('poc.win_shared_count', {n: winners.length})
    : t('poc.wins', {names: shortName(ctx, winners[0])});
  return s('svg', {class: 'poc-cake over', viewBox: '0 0 240 240', role: 'img', 'aria-label': `${t('poc.cake_gone')} · ${whole}`},
    s('circle', {class: 'poc-plate-shadow', cx: c + 3, cy: c + 5, r: 112}),
    s('circle', {class: 'poc-plate', cx: c, cy: c, r: 112}),
    s('circle', {class: 'poc-plate-rim', cx: c, cy: c, r: 100}),
    s('circle', {class: 'poc-crumbs', cx: c, cy: c, r: 80}),
    text(c - 22, t('poc.all_served'), 'big'),
    text(c + 4, shown, 'big win', whole),
    text(c + 26, t('poc.points', {n: best}), 'small'));
}

function drawCake(ctx, partial) {
  const {s, view} = ctx;
  const phase = view.phase;
  if (phase === 'over') return emptyPlate(ctx);
  const slices = typeof view.slices === 'string' ? view.slices : '';
  const myTurn = ctx.legal.length > 0 || ctx.partial.length > 0;
  const takeChosen = partial.find((a) => a.kind === 'take');
  const decided = partial.filter((a) => a.kind === 'slice');
  const decisions = decided.map((a) => a.eat);
  const cutsChosen = partial.filter((a) => a.kind === 'cut').map((a) => a.gap);
  const doneChosen = partial.find((a) => a.kind === 'done');
  const cuts = [...(view.cut_after || []), ...cutsChosen];
  const entries = partial.map((a) => a.entry);
  const without = (entry) => entries.filter((e) => e !== entry);
  // A decided slice turned over: the other decision's entry, as the page
  // has met it (in the move or among the choices), else back to that slice.
  const known = [...entries, ...ctx.legal];
  const turnOver = (index) => {
    const entry = decided[index].entry;
    const other = known.find((e) => e.name === (decided[index].eat ? 'collect' : 'eat'));
    const at = entries.indexOf(entry);
    return other ? entries.map((e, i) => (i === at ? other : e)) : entries.slice(0, at);
  };

  // The pieces: the view's once cut, or the ones the cut being made gives.
  let pieces;
  if (phase === 'choose' && Array.isArray(view.pieces) && view.pieces.length) {
    pieces = view.pieces.map((p) => ({name: p.piece, positions: piecePositions(p.piece), taken: p.taken_by}));
  } else {
    pieces = piecesOfCuts(cuts).map((p) => ({...p, name: null, taken: null}));
  }
  if (pieces.length === 1) pieces[0].whole = true;
  const gapShift = phase === 'choose' ? 9 : 5;

  const group = [];
  const badges = [];
  for (const piece of pieces) {
    const first = (piece.positions[0] - 1) * STEP;
    const mid = first + (piece.positions.length * STEP) / 2;
    const shift = piece.whole ? 0 : gapShift;
    const [ox, oy] = [shift * Math.sin(rad(mid)), -shift * Math.cos(rad(mid))];
    const chosen = takeChosen && piece.name === takeChosen.piece;
    const content = piece.positions.map((position, index) => {
      const marks = {};
      if (chosen) {
        if (index < decisions.length) {
          marks.decision = decisions[index];
          marks.turn = myTurn && settingParts(ctx, decided[index].entry, {class: 'poc-decision-turn',
            'aria-label': t('poc.turn_over', {pos: position})}, turnOver(index));
        } else if (index === decisions.length) marks.current = true;
      }
      return slices ? sliceGraphic(ctx, position, slices[position - 1], [ox, oy], marks) : null;
    });
    const entry = piece.name && (chosen ? takeChosen.entry : !takeChosen && ctx.find(`take ${piece.name}`));
    const classes = ['poc-piece', piece.taken ? 'taken' : '', chosen ? 'chosen' : '',
      takeChosen && !chosen ? 'dim' : ''].filter(Boolean).join(' ');
    const pieceLabel = piece.name && t('poc.piece_title', {piece: piece.name,
      slices: piece.positions.map((p) => slices[p - 1]).join(' ')});
    if (entry) {
      // The piece itself answers a click, but what is offered (focus,
      // keyboard, the action's mark) is a tag outside the rim: a big
      // piece's middle is the cake's centre, where other buttons are.
      const [x, y] = at(R + 44, mid, ox, oy);
      const width = 14 + 8 * piece.name.length;
      // (the piece chosen: a click puts it back, its slices undecided)
      const tag = {class: 'poc-take-tag', 'data-piece': piece.name, 'aria-pressed': chosen ? 'true' : null,
        'aria-label': `${label(entry.name)}: ${piece.positions.map((p) => varietyName(slices[p - 1])).join(', ')}`};
      const attributes = chosen ? settingParts(ctx, entry, tag, []) : ctx.clickable(entry, tag);
      group.push(s('g', {class: 'poc-take', onclick: attributes.onclick},
        s('g', {class: `${classes} offered`, 'data-piece': piece.name}, s('title', {}, pieceLabel), content),
        s('g', attributes,
          s('rect', {x: fmt(x - width / 2), y: fmt(y - 13), width, height: 26, rx: 13}),
          s('text', {x: fmt(x), y: fmt(y + 5), 'text-anchor': 'middle'}, piece.name))));
    } else {
      group.push(s('g', {class: classes, 'data-piece': piece.name || undefined}, pieceLabel && s('title', {}, pieceLabel), content));
    }
    if (piece.taken) {
      const [x, y] = at(R + 44, mid, ox, oy);
      badges.push(s('g', {class: `poc-taker poc-seat-${piece.taken}`},
        s('title', {}, t('poc.taken_by', {piece: piece.name, name: nameOf(ctx, piece.taken)})),
        s('circle', {cx: fmt(x), cy: fmt(y), r: 13}),
        s('text', {x: fmt(x), y: fmt(y + 5), 'text-anchor': 'middle'}, String(piece.taken))));
    }
  }

  // Gaps: cuts made (view or this move) and cuts that may be made.
  const knives = [];
  if (phase === 'cut' || ctx.legal.some((e) => parseAction(e.name).kind === 'cut')) {
    for (let gap = 1; gap <= POSITIONS; gap++) {
      const entry = ctx.find(`cut after ${gap}`);
      const mine = partial.find((a) => a.kind === 'cut' && a.gap === gap);
      if (mine && myTurn) knives.push(knife(ctx, gap, 'made chosen', mine.entry));
      else if (cuts.includes(gap)) knives.push(knife(ctx, gap, 'made', null));
      // (a gap chosen after "serve whole": the cake is cut after all)
      else if (entry) knives.push(knife(ctx, gap, 'offered', entry, doneChosen ? [...without(doneChosen.entry), entry] : null));
    }
  }

  // The centre: what is going on, and the buttons of this moment.
  const centre = [];
  const cakeLine = view.cake ? t('poc.cake_of', {cake: view.cake, cakes: CAKES}) : '';
  const done = ctx.find('cut done');
  const eat = ctx.find('eat'), collect = ctx.find('collect'), pass = ctx.find('pass');
  if (takeChosen && (eat || collect)) {
    const positions = piecePositions(takeChosen.piece);
    const position = positions[decisions.length];
    const letter = slices[position - 1];
    const v = VARIETY[letter] || {dollops: 0};
    centre.push(...centreText(ctx, [[C - 38, t('poc.slice_n', {pos: position}), 'small'],
      [C - 21, varietyName(letter), 'big']]));
    if (eat) {
      centre.push(centreButton(ctx, eat, C - 12, t('poc.eat_button', {n: v.dollops}), 'eat',
        t('poc.eat_detail', {pos: position, variety: varietyName(letter), n: v.dollops})));
    }
    if (collect) {
      centre.push(centreButton(ctx, collect, C + 20, t('poc.collect_button'), 'collect',
        t('poc.collect_detail', {pos: position, variety: varietyName(letter)})));
    }
  } else if (phase === 'cut') {
    const server = view.server;
    if (myTurn) {
      // (what to do next, in lines short enough for the cake's centre:
      // a cut is two gaps or more, then it may grow or be played)
      centre.push(...centreText(ctx, cuts.length < 2
        ? [[C - 30, cakeLine, 'small'], [C - 11, t(cuts.length ? 'poc.cut_one_more' : 'poc.cut_here'), 'big']]
        : [[C - 40, cakeLine, 'small'], [C - 22, t('poc.cut_more'), 'big'], [C - 5, t('poc.cut_more_or'), 'small']]));
      if (doneChosen) centre.push(centreButton(ctx, doneChosen.entry, C + 4, t('poc.serve_whole'), 'done chosen'));
      else if (done) centre.push(centreButton(ctx, done, C + 4, t(cuts.length ? 'poc.cut_done' : 'poc.serve_whole'), 'done'));
    } else {
      centre.push(...centreText(ctx, [[C - 8, cakeLine, 'small'], [C + 12, t('poc.is_cutting', {name: shortName(ctx, server)}), 'big',
        t('poc.is_cutting', {name: nameOf(ctx, server)})]]));
    }
  } else if (phase === 'choose') {
    if (myTurn) {
      const anyTake = ctx.legal.some((e) => parseAction(e.name).kind === 'take');
      centre.push(...centreText(ctx, [[C - 30, cakeLine, 'small'],
        [C - 11, t(anyTake ? 'poc.take_one' : 'poc.no_piece_left'), 'big']]));
      if (pass) centre.push(centreButton(ctx, pass, C + 4, t('poc.pass_button'), 'pass'));
    } else {
      // (who chooses, shortened for the centre, and whole for its title)
      const choosing = (name) => {
        const who = (view.to_act || []).map((seat) => name(ctx, seat)).join(', ');
        return who && t('poc.is_choosing', {name: who});
      };
      centre.push(...centreText(ctx, [[C - 8, cakeLine, 'small'], [C + 12, choosing(shortName), 'big', choosing(nameOf)]]));
    }
  } else if (cakeLine) {
    centre.push(...centreText(ctx, [[C + 5, cakeLine, 'big']]));
  }

  const cakeLabel = phase === 'over' ? t('poc.cake_gone') :
    t('poc.cake_label', {cake: view.cake || '', slices: slices.split('').map(varietyName).join(', ')});
  return s('svg', {class: 'poc-cake', viewBox: `0 0 ${SIZE} ${SIZE}`, role: 'group', 'aria-label': cakeLabel},
    s('circle', {class: 'poc-plate-shadow', cx: C + 3, cy: C + 6, r: R + 34}),
    s('circle', {class: 'poc-plate', cx: C, cy: C, r: R + 34}),
    s('circle', {class: 'poc-plate-rim', cx: C, cy: C, r: R + 26}),
    slices && phase !== 'over' ? group : s('circle', {class: 'poc-crumbs', cx: C, cy: C, r: R - 30}),
    slices && phase !== 'over' && s('circle', {class: 'poc-centre', cx: C, cy: C, r: R0 - 3}),
    phase !== 'over' && knives,
    badges,
    centre);
}

// ---- The status line over the board ---------------------------------------

function statusStrip(ctx) {
  const {h, view} = ctx;
  const cakesLeft = view.phase === 'over' ? 0 : CAKES - (view.cake || 0);
  const cakes = [];
  for (let c = 1; c <= CAKES; c++) {
    const state = view.phase === 'over' || c < view.cake ? 'served' : c === view.cake ? 'current' : 'to-come';
    cakes.push(h('span', {class: `poc-cake-icon ${state}`, 'aria-hidden': 'true'}, String(c)));
  }
  const rounds = view.rounds > 1 ? t('poc.round_of', {round: view.round, rounds: view.rounds}) : null;
  return h('div', {class: 'poc-status'},
    rounds && h('span', {class: 'poc-round'}, rounds),
    h('span', {class: 'poc-cakes', role: 'img', 'aria-label': t('poc.cakes_to_come', {n: cakesLeft})},
      cakes),
    h('span', {class: 'poc-cakes-text'}, t('poc.cakes_to_come', {n: cakesLeft})),
    view.server && view.phase !== 'over' && h('span', {class: 'poc-server'},
      seatBadge(ctx, view.server), ' ', t('poc.serves', {name: nameOf(ctx, view.server)})));
}

// ---- The ledger: collections, majorities, eaten, scores -----------------

function ledger(ctx) {
  const {h, view} = ctx;
  const seats = view.seats || [];
  const held = majorities(view);
  const toAct = new Set(view.to_act || []);
  const rows = VARIETIES.map((v) => h('tr', {},
    h('th', {scope: 'row', class: 'poc-variety'},
      chip(ctx, v.letter, {'aria-hidden': 'true'}),
      h('span', {class: 'poc-vname'}, varietyName(v.letter)),
      h('span', {class: 'poc-vinfo'},
        h('span', {class: 'poc-bonus', title: t('poc.bonus_title', {n: v.bonus})}, `★${v.bonus}`),
        dollopDots(ctx, v.dollops))),
    seats.map((seat) => {
      const count = (seat.collected && seat.collected[v.letter]) || 0;
      const leads = held[v.letter].includes(seat.seat);
      const forfeit = ctx.seat === seat.seat && ctx.find(`eat ${v.letter}`);
      const text = leads ? t('poc.cell_leads', {n: count, bonus: v.bonus}) :
        t('poc.cell', {n: count});
      return h('td', {class: `poc-count${leads ? ' leads' : ''}${count ? '' : ' none'}`,
        'data-card': count ? v.letter : undefined},
      h('span', {class: 'visually-hidden'}, text),
      h('span', {'aria-hidden': 'true'}, count ? String(count) : '·', leads ? h('span', {class: 'poc-star'}, '★') : null),
      forfeit && h('button', ctx.clickable(forfeit, {type: 'button', class: 'poc-forfeit',
        'aria-label': `${t('poc.eat_all')}: ${t('poc.act.eat_variety_n', {n: count, variety: varietyName(v.letter), points: count * v.dollops})}`}),
      t('poc.eat_all')));
    })));

  const sums = seats.map((seat, i) => roundScore(view, i, held));
  const foot = [
    h('tr', {class: 'poc-sum'}, h('th', {scope: 'row'}, t('poc.majorities')),
      sums.map((sum) => h('td', {}, String(sum.bonus)))),
    h('tr', {class: 'poc-sum'}, h('th', {scope: 'row'}, t('poc.eaten')),
      sums.map((sum) => h('td', {title: t('poc.eaten_slices', {n: sum.eatenSlices})},
        String(sum.eatenPoints), h('span', {class: 'poc-small'}, ` (${sum.eatenSlices})`)))),
  ];
  if (view.rounds > 1) {
    foot.push(h('tr', {class: 'poc-sum'}, h('th', {scope: 'row'}, t('poc.earlier_rounds')),
      seats.map((seat, i) => h('td', {}, String(seat.score - sums[i].bonus - sums[i].eatenPoints)))));
  }
  foot.push(h('tr', {class: 'poc-total'}, h('th', {scope: 'row'}, t('poc.score')),
    seats.map((seat) => h('td', {}, String(seat.score)))));

  return ctx.scrollRegion({class: 'poc-ledger', 'aria-label': t('poc.ledger_caption')},
    h('table', {class: `poc-table poc-players-${seats.length}`},
      h('caption', {}, t('poc.ledger_caption')),
      h('thead', {}, h('tr', {},
        h('th', {scope: 'col', class: 'poc-corner'}, t('poc.variety')),
        seats.map((seat) => h('th', {scope: 'col', class: `poc-player${toAct.has(seat.seat) ? ' to-act' : ''}${ctx.seat === seat.seat ? ' me' : ''}`},
          seatBadge(ctx, seat.seat),
          h('span', {class: 'poc-pname name-clip', title: nameOf(ctx, seat.seat)}, nameOf(ctx, seat.seat)),
          ctx.seat === seat.seat && h('span', {class: 'poc-you'}, t('poc.you')),
          toAct.has(seat.seat) && view.phase !== 'over' && h('span', {class: 'poc-turn'}, t('poc.to_act')))))),
      h('tbody', {}, rows),
      h('tfoot', {}, foot)),
    h('p', {class: 'poc-note'}, t('poc.ledger_note')));
}

// What has not been seen (cakes to come and the 2 set aside) and what was removed.
function supply(ctx) {
  const {h, view} = ctx;
  const list = (counts, mark) => LETTERS.filter((l) => counts && counts[l]).map((l) =>
    h('span', {class: 'poc-supply-item'}, chip(ctx, l, mark ? {'data-card': l} : {'aria-hidden': 'true'}),
      h('span', {class: 'poc-times'}, `×${counts[l]}`),
      h('span', {class: 'visually-hidden'}, ` ${varietyName(l)}`)));
  const total = (counts) => LETTERS.reduce((n, l) => n + ((counts && counts[l]) || 0), 0);
  const unseen = view.unseen, removed = view.removed;
  return h('div', {class: 'poc-supply'},
    unseen && h('section', {class: 'poc-supply-row', 'aria-label': t('poc.unseen')},
      h('h2', {class: 'poc-h'}, t('poc.unseen'), ' ', h('span', {class: 'poc-small'}, t('poc.unseen_note', {n: total(unseen)}))),
      h('div', {class: 'poc-chips'}, total(unseen) ? list(unseen, false) : h('span', {class: 'poc-small'}, t('poc.none')))),
    removed && h('section', {class: 'poc-supply-row', 'aria-label': t('poc.removed')},
      h('h2', {class: 'poc-h'}, t('poc.removed'), ' ', h('span', {class: 'poc-small'}, t('poc.removed_note', {n: total(removed)}))),
      h('div', {class: 'poc-chips'}, total(removed) ? list(removed, true) : h('span', {class: 'poc-small'}, t('poc.none')))));
}

// ---- The board ----------------------------------------------------------------------

export function render(ctx) {
  const {h, view} = ctx;
  if (!view || !Array.isArray(view.seats)) {
    return h('div', {class: 'poc-board'}, h('p', {}, t('poc.no_view')),
      ctx.legal.map((entry) => h('button', ctx.clickable(entry, {type: 'button'}), label(entry.name))));
  }
  const partial = (ctx.partial || []).map((entry) => ({...parseAction(entry.name), entry}));
  // What the board draws to click is noted; anything it could not place
  // goes into a small bar under the cake, so nothing is lost.
  const drawn = new Set();
  const board = {...ctx, clickable: (entry, attributes) => {
    drawn.add(entry.action);
    return ctx.clickable(entry, attributes);
  }};
  const cake = drawCake(board, partial);
  const table = ledger(board);
  const leftover = ctx.legal.filter((entry) => !drawn.has(entry.action));
  return h('div', {class: 'poc-board'},
    statusStrip(ctx),
    h('div', {class: 'poc-main'},
      h('div', {class: 'poc-cake-area'},
        cake,
        leftover.length > 0 && h('div', {class: 'poc-actions', role: 'group', 'aria-label': t('poc.more_actions')},
          leftover.map((entry) => h('button', ctx.clickable(entry, {type: 'button'}), label(entry.name)))),
        supply(ctx)),
      table));
}

// ---- The end: the scoring as the rules count it ------------------------------

export function scoring(ctx) {
  const {h, view} = ctx;
  if (!view || !Array.isArray(view.seats)) return null;
  const seats = view.seats;
  const held = majorities(view);
  const sums = seats.map((seat, i) => roundScore(view, i, held));
  const finals = seats.map((seat, i) => (ctx.scores && ctx.scores[i] !== undefined ? ctx.scores[i] : seat.score));
  const rows = VARIETIES.map((v) => h('tr', {},
    h('th', {scope: 'row', class: 'poc-variety'}, chip(ctx, v.letter, {'aria-hidden': 'true'}),
      h('span', {class: 'poc-vname'}, varietyName(v.letter)), ' ',
      h('span', {class: 'poc-bonus'}, `★${v.bonus}`)),
    seats.map((seat) => {
      const count = (seat.collected && seat.collected[v.letter]) || 0;
      const leads = held[v.letter].includes(seat.seat);
      return h('td', {class: leads ? 'leads' : ''},
        leads ? t('poc.end_cell_leads', {n: count, bonus: v.bonus}) : count ? t('poc.end_cell', {n: count}) : '–');
    })));
  const eatenDetail = (seat) => VARIETIES.filter((v) => seat.eaten && seat.eaten[v.letter])
    .map((v) => `${v.letter}×${seat.eaten[v.letter]}`).join(' ');
  return h('section', {class: 'poc-scoring', 'aria-label': t('poc.scoring')},
    h('h3', {}, view.rounds > 1 ? t('poc.scoring_last_round', {round: view.round}) : t('poc.scoring')),
    ctx.scrollRegion({class: 'poc-scroll', 'aria-label': t('poc.scoring')},
      h('table', {class: 'poc-table poc-end-table'},
        h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, t('poc.variety')),
          seats.map((seat) => h('th', {scope: 'col', class: 'poc-player'}, seatBadge(ctx, seat.seat),
            h('span', {class: 'poc-pname name-clip', title: nameOf(ctx, seat.seat)}, nameOf(ctx, seat.seat)))))),
        h('tbody', {}, rows),
        h('tfoot', {},
          h('tr', {class: 'poc-sum'}, h('th', {scope: 'row'}, t('poc.majorities')),
            sums.map((sum) => h('td', {}, String(sum.bonus)))),
          h('tr', {class: 'poc-sum'}, h('th', {scope: 'row'}, t('poc.eaten_dollops')),
            seats.map((seat, i) => h('td', {}, String(sums[i].eatenPoints),
              sums[i].eatenSlices ? h('span', {class: 'poc-small'}, ` (${eatenDetail(seat)})`) : null))),
          view.rounds > 1 && h('tr', {class: 'poc-sum'}, h('th', {scope: 'row'}, t('poc.earlier_rounds')),
            seats.map((seat, i) => h('td', {}, String(finals[i] - sums[i].bonus - sums[i].eatenPoints)))),
          h('tr', {class: 'poc-total'}, h('th', {scope: 'row'}, t('poc.total')),
            finals.map((n) => h('td', {}, String(n))))))),
    h('p', {class: 'poc-note'}, t('poc.scoring_note')));
}

// ---- The log and the hints in the page's language (words.js) -------------------
//
// What poc_describe_move (src/games/piece_o_cake/views.c) writes:
//   The slices are shuffled into five cakes (round R).
//   seat N: cut P P P | take P ecce (eats L L; collects L) | eat L | pass
//   ... then, after a cake's last turn: ". Nobody took piece(s) P (LLL)[, P (L)
//   and P (L)]: its/their N slice(s) is/are removed from the game and
//   score(s) for nobody."

// Variety letters ("S B B S", or "CCR") as names.
const varietyWords = (letters) => letters.replace(/\s+/g, '').split('')
  .map((letter) => (VARIETY[letter] ? varietyName(letter) : letter)).join(t('poc.log.sep'));

const cutWords = (pieces, whole, tense) => (pieces.trim() === '1-11' ? whole
  : t(tense, {pieces: pieces.trim().split(/\s+/).join(t('poc.log.piece_sep'))}));

// A seat's move in notation (a hint), as words.
export function describeMove(notation) {
  let m;
  if ((m = /^cut ([\d\- ]+)$/.exec(notation))) return cutWords(m[1], t('poc.move.cut_whole'), 'poc.move.cut');
  if ((m = /^take (\d+(?:-\d+)?) ([ec]*)$/.exec(notation))) {
    return t('poc.move.take', {piece: m[1], eat: m[2].split('e').length - 1, collect: m[2].split('c').length - 1});
  }
  if ((m = /^eat ([A-Z])$/.exec(notation)) && VARIETY[m[1]]) return t('poc.act.eat_variety', {variety: varietyName(m[1])});
  if (notation === 'pass') return t('poc.act.pass');
  return null;
}

export function describe(entry, ctx) {
  const name = (seat) => playerName(ctx, seat, t('poc.seat', {seat}));
  const nothing = (list) => (list === 'nothing' ? t('poc.log.nothing') : varietyWords(list));
  return readSentence(entry.text, [
    [/The slices are shuffled into five cakes \(round (\d+)\)\./y, (m) => t('poc.log.shuffle', {round: m[1]})],
    [/seat (\d): /y, (m) => t('poc.log.seat', {name: name(m[1])})],
    [/cut ([\d\- ]+?)(?=\.|$)/y, (m) => cutWords(m[1], t('poc.log.cut_whole'), 'poc.log.cut')],
    [/take (\d+(?:-\d+)?) [ec]+ \(eats ([A-Z ]+|nothing); collects ([A-Z ]+|nothing)\)/y,
      (m) => t('poc.log.take', {piece: m[1], eaten: nothing(m[2]), collected: nothing(m[3])})],
    [/eat ([A-Z])(?=\.|$)/y, (m) => (VARIETY[m[1]] ? t('poc.log.eat_variety', {variety: varietyName(m[1])}) : null)],
    [/pass(?=\.|$)/y, () => t('poc.log.pass')],
    [/\. Nobody took pieces? (.+?): (?:its|their) (\d+) slices? (?:is|are) removed from the game and scores? for nobody\./y,
      (m) => {
        const pieces = items(m[1]).map((item) => /^(\d+(?:-\d+)?) \(([A-Z]+)\)$/.exec(item));
        if (pieces.some((piece) => !piece)) return null;
        return t('poc.log.untaken', {n: m[2], pieces: pieces.map((piece) =>
          t('poc.log.untaken_piece', {piece: piece[1], varieties: varietyWords(piece[2])})).join(t('poc.log.piece_sep'))});
      }],
  ]);
}
