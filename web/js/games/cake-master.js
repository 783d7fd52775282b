// The board of Cake Master: the customers in play, your three drawn cards
// (keep one, pass one left and one right), the three cakes of every baker
// (2x2 cards, each card a quarter of a round cake), the cards every baker
// holds once the shares are revealed, and the last round's scoring.
//
// A card's code (rules: color W/P/C, half-rosettes digit 0-3, `*` for a
// whole rosette, one r/b per raspberry/blueberry) is drawn as a square card
// showing its quarter of cake: the icing, half-rosettes on its straight
// edges, the whole rosette, the fruits, and the icing's letter in the
// corner so that nothing depends on colour alone.

import {h, s, scrollRegion} from '../dom.js';
import {t, currentLanguage} from '../i18n.js';
import {readSentence, playerName} from './words.js';
import {icon} from '../icons.js';

const CODE = /^([WPC])([0-3])(\*?)([rb]*)$/;
const PLACE = /^(\S+):([1-9])([a-d])$/;
const QUARTERS = ['a', 'b', 'c', 'd'];

const ICING = {
  W: {fill: '#fbf3e4', edge: '#c9b08a', pipe: '#e8d8bd', ink: '#3a2a1c'},
  P: {fill: '#f6b3c6', edge: '#c06f88', pipe: '#fbd3de', ink: '#3a2a1c'},
  C: {fill: '#6e4129', edge: '#3e2314', pipe: '#8d5a3d', ink: '#ffffff'},
};

export function parseCard(code) {
  const found = CODE.exec(code || '');
  if (!found) return null;
  const fruit = found[4];
  return {
    code, color: found[1], ccw: (Number(found[2]) & 1) !== 0, cw: (Number(found[2]) & 2) !== 0,
    whole: found[3] === '*',
    raspberries: [...fruit].filter((c) => c === 'r').length,
    blueberries: [...fruit].filter((c) => c === 'b').length,
    fruit: [...fruit],
  };
}

// What the rules count on one cake (four codes, a..d) and its Tasty
// points, part by part.
export function cakeStats(codes) {
  const cards = codes.map(parseCard);
  if (cards.some((card) => !card)) return null;
  const colors = new Set(cards.map((card) => card.color)).size;
  let rosettes = cards.filter((card) => card.whole).length, halves = 0;
  for (let q = 0; q < 4; q++) {
    const first = cards[q], second = cards[(q + 1) % 4];
    if (first.cw && second.ccw) rosettes++;
    else if (first.cw || second.ccw) halves++;
  }
  const raspberries = cards.reduce((sum, card) => sum + card.raspberries, 0);
  const blueberries = cards.reduce((sum, card) => sum + card.blueberries, 0);
  const colorPoints = colors === 1 ? 3 : colors === 2 ? 1 : 0;
  const pairs = Math.min(raspberries, blueberries);
  const noHalf = halves === 0 ? 1 : 0;
  return {colors, rosettes, halves, raspberries, blueberries, fruits: raspberries + blueberries,
    colorPoints, pairs, noHalf, tasty: colorPoints + rosettes + noHalf + pairs};
}

// ---- Words -------------------------------------------------------------------

const colorName = (letter) => t(`cm.color_${letter}`);
// A count's words: the key's _one form for 1.
const count = (key, n) => t(n === 1 ? `${key}_one` : key, {n});

export function describeCard(code) {
  const card = parseCard(code);
  if (!card) return code;
  const parts = [t('cm.desc_icing', {color: colorName(card.color)})];
  if (card.ccw && card.cw) parts.push(t('cm.desc_halves_both'));
  else if (card.ccw) parts.push(t('cm.desc_halves_ccw'));
  else if (card.cw) parts.push(t('cm.desc_halves_cw'));
  else parts.push(t('cm.desc_halves_none'));
  if (card.whole) parts.push(t('cm.desc_whole'));
  if (card.raspberries) parts.push(count('cm.desc_raspberries', card.raspberries));
  if (card.blueberries) parts.push(count('cm.desc_blueberries', card.blueberries));
  return `${code}: ${parts.join(t('cm.list_sep'))}`;
}

const positionName = (cake, quarter) => t('cm.position', {cake, quarter});

export function label(name) {
  let found;
  if ((found = /^keep (\S+)$/.exec(name))) return t('cm.act_keep', {card: found[1]});
  if ((found = /^left (\S+)$/.exec(name))) return t('cm.act_left', {card: found[1]});
  if ((found = /^right (\S+)$/.exec(name))) return t('cm.act_right', {card: found[1]});
  if ((found = PLACE.exec(name))) {
    return t('cm.act_place', {card: found[1], position: positionName(found[2], found[3])});
  }
  return name;
}

export function score(view, seat) {
  const entry = view && view.seats && view.seats[seat - 1];
  return entry ? `${entry.stars} ★` : '';
}

// ---- Drawing cards (SVG) ---------------------------------------------------

// The pictures that do not change (a card at a place, an empty place, a
// customer, a cake nobody can click) are built once and cloned: a board
// has hundreds of them, and a clone costs a fraction of building anew.
// Only elements without listeners are cached (a clone has none).
const TEMPLATES = new Map();

function cached(key, build) {
  const full = `${currentLanguage()}|${key}`;
  let template = TEMPLATES.get(full);
  if (!template) {
    if (TEMPLATES.size >= 2000) TEMPLATES.clear();
    template = build();
    TEMPLATES.set(full, template);
  }
  return template.cloneNode(true);
}

const round = (x) => Math.round(x * 100) / 100;
const dir = (degrees) => [Math.cos(degrees * Math.PI / 180), Math.sin(degrees * Math.PI / 180)];

// A half-disk of radius r on the edge from corner c along u, at distance
// d, bulging towards n.
function halfDisk(c, u, n, d, r) {
  const p1 = [c[0] + (d - r) * u[0], c[1] + (d - r) * u[1]];
  const p2 = [c[0] + (d + r) * u[0], c[1] + (d + r) * u[1]];
  const mid = [c[0] + d * u[0] + r * n[0], c[1] + d * u[1] + r * n[1]];
  const cross = (mid[0] - p1[0]) * (p2[1] - mid[1]) - (mid[1] - p1[1]) * (p2[0] - mid[0]);
  const sweep = cross > 0 ? 1 : 0;
  return `M${round(p1[0])} ${round(p1[1])}A${round(r)} ${round(r)} 0 0 ${sweep} ${round(p2[0])} ${round(p2[1])}Z`;
}

function rosette(cx, cy, r) {
  return s('g', {class: 'cm-rosette'},
    s('circle', {cx: round(cx), cy: round(cy), r: round(r), fill: '#fffaf0', stroke: '#a88a66', 'stroke-width': round(r * 0.14)}),
    s('circle', {cx: round(cx), cy: round(cy), r: round(r * 0.55), fill: 'none', stroke: '#c9b08a', 'stroke-width': round(r * 0.12)}),
    s('circle', {cx: round(cx), cy: round(cy), r: round(r * 0.16), fill: '#c9b08a'}));
}

function raspberry(cx, cy, r) {
  const dots = [[-0.4, -0.3], [0.4, -0.3], [0, 0.1], [-0.35, 0.45], [0.35, 0.45], [0, -0.6]];
  return s('g', {class: 'cm-raspberry'},
    s('circle', {cx: round(cx), cy: round(cy), r: round(r), fill: '#c3223f', stroke: '#6d0f22', 'stroke-width': round(r * 0.15)}),
    dots.map(([dx, dy]) => s('circle', {cx: round(cx + dx * r), cy: round(cy + dy * r), r: round(r * 0.2), fill: '#f58aa0'})));
}

function blueberry(cx, cy, r) {
  const star = [];
  for (let i = 0; i < 10; i++) {
    const [x, y] = dir(-90 + i * 36);
    const radius = i % 2 ? r * 0.16 : r * 0.42;
    star.push(`${round(cx + x * radius)},${round(cy - r * 0.1 + y * radius)}`);
  }
  return s('g', {class: 'cm-blueberry'},
    s('circle', {cx: round(cx), cy: round(cy), r: round(r), fill: '#2e3d99', stroke: '#141c4d', 'stroke-width': round(r * 0.15)}),
    s('polygon', {points: star.join(' '), fill: '#b9c3ff'}));
}

// The quarter of cake of a card whose cake centre is c, radius R, quarter
// q (0..3 = a..d): its wedge runs clockwise from the angle 180 + 90q.
function wedge(card, c, R, q) {
  const start = 180 + 90 * q, end = start + 90;
  const colors = ICING[card.color];
  const p1 = [c[0] + R * dir(start)[0], c[1] + R * dir(start)[1]];
  const p2 = [c[0] + R * dir(end)[0], c[1] + R * dir(end)[1]];
  const path = `M${round(c[0])} ${round(c[1])}L${round(p1[0])} ${round(p1[1])}A${round(R)} ${round(R)} 0 0 1 ${round(p2[0])} ${round(p2[1])}Z`;
  const inner = R * 0.86;
  const q1 = [c[0] + inner * dir(start)[0], c[1] + inner * dir(start)[1]];
  const q2 = [c[0] + inner * dir(end)[0], c[1] + inner * dir(end)[1]];
  const parts = [
    s('path', {d: path, fill: colors.fill, stroke: colors.edge, 'stroke-width': round(R * 0.03)}),
    s('path', {d: `M${round(q1[0])} ${round(q1[1])}A${round(inner)} ${round(inner)} 0 0 1 ${round(q2[0])} ${round(q2[1])}`,
      fill: 'none', stroke: colors.pipe, 'stroke-width': round(R * 0.05), 'stroke-dasharray': `${round(R * 0.05)} ${round(R * 0.04)}`}),
  ];
  const halfR = R * 0.16, halfD = R * 0.5;
  if (card.ccw) parts.push(s('path', {class: 'cm-half', d: halfDisk(c, dir(start), dir(end), halfD, halfR),
    fill: '#fffaf0', stroke: '#a88a66', 'stroke-width': round(R * 0.022)}));
  if (card.cw) parts.push(s('path', {class: 'cm-half', d: halfDisk(c, dir(end), dir(start), halfD, halfR),
    fill: '#fffaf0', stroke: '#a88a66', 'stroke-width': round(R * 0.022)}));
  if (card.whole) {
    const [x, y] = dir(start + 45);
    parts.push(rosette(c[0] + x * R * 0.44, c[1] + y * R * 0.44, R * 0.15));
  }
  const fruit = card.fruit;
  fruit.forEach((kind, index) => {
    const rows = fruit.length > 3 ? 2 : 1;
    const row = rows === 2 && index >= Math.ceil(fruit.length / 2) ? 1 : 0;
    const inRow = rows === 2 ? (row ? fruit.length - Math.ceil(fruit.length / 2) : Math.ceil(fruit.length / 2)) : fruit.length;
    const at = row ? index - Math.ceil(fruit.length / 2) : index;
    const angle = start + 90 * (at + 1) / (inRow + 1);
    const distance = R * (row ? 0.52 : 0.74);
    const [x, y] = dir(angle);
    const cx = c[0] + x * distance, cy = c[1] + y * distance;
    parts.push(kind === 'r' ? raspberry(cx, cy, R * 0.09) : blueberry(cx, cy, R * 0.09));
  });
  return parts;
}

// A card as a square of side S at (x, y), showing quarter q of a cake
// whose centre is the square's inner corner.
function cardTile(code, x, y, S, q, attributes = {}) {
  return cached(`tile|${code}|${x}|${y}|${S}|${q}|${JSON.stringify(attributes)}`,
    () => buildCardTile(code, x, y, S, q, attributes));
}

function buildCardTile(code, x, y, S, q, attributes) {
  const card = parseCard(code);
  const corner = [[x + S, y + S], [x, y + S], [x, y], [x + S, y]][q];
  const outer = [[x, y], [x + S, y], [x + S, y + S], [x, y + S]][q];
  const inward = [[1, 1], [-1, 1], [-1, -1], [1, -1]][q];
  const children = [
    s('title', {}, describeCard(code)),
    s('rect', {x: round(x + 0.5), y: round(y + 0.5), width: round(S - 1), height: round(S - 1), rx: round(S * 0.07),
      class: 'cm-card-paper'}),
  ];
  if (card) {
    children.push(wedge(card, corner, S * 0.93, q));
    const lx = outer[0] + inward[0] * S * 0.13, ly = outer[1] + inward[1] * S * 0.13;
    children.push(s('circle', {cx: round(lx), cy: round(ly), r: round(S * 0.095), fill: ICING[card.color].fill,
      stroke: ICING[card.color].edge, 'stroke-width': round(S * 0.015)}));
    children.push(s('text', {x: round(lx), y: round(ly + S * 0.045), 'font-size': round(S * 0.13), 'text-anchor': 'middle',
      'font-weight': 700, fill: ICING[card.color].ink, 'aria-hidden': 'true'}, card.color));
  } else {
    children.push(s('text', {x: round(x + S / 2), y: round(y + S / 2), 'font-size': round(S * 0.16), 'text-anchor': 'middle',
      fill: '#2b211b'}, code));
  }
  return s('g', {class: 'cm-card', 'data-card': code, role: 'img', 'aria-label': describeCard(code), ...attributes}, children);
}

function emptyTile(x, y, S, q, letter) {
  return cached(`empty|${x}|${y}|${S}|${q}|${letter}`, () => buildEmptyTile(x, y, S, q, letter));
}

function buildEmptyTile(x, y, S, q, letter) {
  const corner = [[x + S, y + S], [x, y + S], [x, y], [x + S, y]][q];
  const R = S * 0.93, start = 180 + 90 * q;
  const p1 = [corner[0] + R * dir(start)[0], corner[1] + R * dir(start)[1]];
  const p2 = [corner[0] + R * dir(start + 90)[0], corner[1] + R * dir(start + 90)[1]];
  const outer = [[x, y], [x + S, y], [x + S, y + S], [x, y + S]][q];
  const inward = [[1, 1], [-1, 1], [-1, -1], [1, -1]][q];
  return s('g', {class: 'cm-empty'},
    s('rect', {x: round(x + 1.5), y: round(y + 1.5), width: round(S - 3), height: round(S - 3), rx: round(S * 0.07)}),
    s('path', {d: `M${round(corner[0])} ${round(corner[1])}L${round(p1[0])} ${round(p1[1])}A${round(R)} ${round(R)} 0 0 1 ${round(p2[0])} ${round(p2[1])}Z`,
      class: 'cm-empty-wedge'}),
    letter && s('text', {x: round(outer[0] + inward[0] * S * 0.13), y: round(outer[1] + inward[1] * S * 0.13 + S * 0.06),
      'font-size': round(S * 0.17), 'text-anchor': 'middle', class: 'cm-empty-letter', 'aria-hidden': 'true'}, letter));
}

// A card on its own (a hand): the quarter shown as it lies at b.
function cardSvg(code, size, attributes = {}) {
  return s('svg', {viewBox: '0 0 100 100', width: size, height: size, class: 'cm-card-svg', role: 'img',
    'aria-label': describeCard(code)}, cardTile(code, 0, 0, 100, 1, attributes));
}

// The 1..3 of a card in hand as a die's pips (no text, so that a chip's
// name is all in its label).
function pips(cx, cy, n, fill) {
  const spots = {1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]]}[n] ||
    [[-1, -1], [1, -1], [-1, 1], [1, 1]];
  return spots.map(([dx, dy]) => s('circle', {cx: round(cx + dx * 6.5), cy: round(cy + dy * 10), r: 3.6, fill}));
}

function pipBadge(n) {
  return s('svg', {viewBox: '0 0 26 36', width: 20, height: 28, class: 'cm-slot', 'aria-hidden': 'true'},
    s('rect', {x: 1, y: 1, width: 24, height: 34, rx: 4, fill: '#1f2d6b'}), pips(13, 18, n, '#ffffff'));
}

// ---- Cakes -----------------------------------------------------------------

// One cake: 2x2 cards on a plate.  targets: {quarter index: [entries]}
// drawn as chips on the empty places; pending: {quarter index: {code,
// entry}} the partial move's placements, each clicked again to take it
// back (entry, while this seat builds its move).
function cakeSvg(ctx, cake, index, options = {}) {
  const {targets = {}, pending = {}, name = '', small = false} = options;
  if (!Object.keys(targets).length && !Object.keys(pending).length) {
    return cached(`cake|${cake.join(',')}|${index}|${name}|${small}`, () => buildCakeSvg(ctx, cake, index, options));
  }
  return buildCakeSvg(ctx, cake, index, options);
}

function buildCakeSvg(ctx, cake, index, options) {
  const {targets = {}, pending = {}, slots = {}, name = '', small = false} = options;
  const S = 100, gap = 3, pad = 6, size = 2 * S + gap + 2 * pad;
  const places = [[pad, pad], [pad + S + gap, pad], [pad + S + gap, pad + S + gap], [pad, pad + S + gap]];
  const undoable = Object.values(pending).some((where) => where.entry);
  const interactive = Object.keys(targets).length > 0 || undoable;
  const filled = cake.filter(Boolean).length;
  const labelText = t('cm.cake_label', {name, n: index + 1, filled});
  const children = [
    !interactive && s('title', {}, labelText),
    s('rect', {x: 2, y: 2, width: size - 4, height: size - 4, rx: 14, class: 'cm-tray'}),
  ];
  cake.forEach((code, q) => {
    const [x, y] = places[q];
    if (code) children.push(cardTile(code, x, y, S, q));
    else if (pending[q]) {
      const tile = cardTile(pending[q].code, x, y, S, q, {class: 'cm-card cm-pending'});
      const where = `${index + 1}${QUARTERS[q]}`;
      children.push(pending[q].entry
        ? s('g', ctx.clickable(pending[q].entry, {class: 'cm-pending-undo', 'aria-pressed': 'true',
          'aria-label': t('cm.take_back_place', {card: pending[q].code, position: where})}), tile)
        : tile);
    }
    else {
      children.push(emptyTile(x, y, S, q, small ? null : QUARTERS[q]));
      const chips = targets[q] || [];
      chips.forEach((entry, k) => {
        const found = PLACE.exec(entry.name);
        const card = parseCard(found[1]);
        const w = 26, hgt = 40, step = 30;
        const cx = x + S / 2 + (k - (chips.length - 1) / 2) * step;
        const cy = y + S / 2 + (q < 2 ? -4 : 4);
        const slot = slots[found[1]];
        const colors = card ? ICING[card.color] : ICING.W;
        children.push(s('g', ctx.clickable(entry, {class: 'cm-chip', 'aria-label': label(entry.name)}),
          s('title', {}, `${label(entry.name)} (${describeCard(found[1])})`),
          s('rect', {x: round(cx - w / 2), y: round(cy - hgt / 2), width: w, height: hgt, rx: 4,
            fill: colors.fill, stroke: '#1f2d6b', 'stroke-width': 2.5, class: 'cm-chip-card'}),
          pips(cx, cy, slot || 0, colors.ink)));
      });
    }
  });
  return s('svg', {viewBox: `0 0 ${size} ${size}`, class: `cm-cake${interactive ? ' cm-cake-targets' : ''}`,
    role: interactive ? 'group' : 'img', 'aria-label': labelText}, children);
}

// ---- Customers ------------------------------------------------------------

const DEMANDS = ['colors', 'rosettes', 'halves', 'raspberries', 'blueberries', 'fruits'];

function demandIcon(key) {
  const icon = {
    colors: [s('rect', {x: 1, y: 4, width: 7, height: 14, fill: ICING.W.fill, stroke: '#8a7150'}),
      s('rect', {x: 8, y: 4, width: 7, height: 14, fill: ICING.P.fill, stroke: '#8a7150'}),
      s('rect', {x: 15, y: 4, width: 7, height: 14, fill: ICING.C.fill, stroke: '#3e2314'})],
    rosettes: [rosette(11.5, 11, 8)],
    halves: [s('path', {d: 'M3.5 16A8 8 0 0 1 19.5 16Z', fill: '#fffaf0', stroke: '#a88a66', 'stroke-width': 1.5})],
    raspberries: [raspberry(11.5, 11, 8)],
    blueberries: [blueberry(11.5, 11, 8)],
    fruits: [raspberry(7, 11, 6), blueberry(16.5, 11, 6)],
  }[key];
  return s('svg', {viewBox: '0 0 23 22', width: 23, height: 22, class: 'cm-icon', 'aria-hidden': 'true'}, icon || []);
}

function demandList(demand) {
  const keys = Object.keys(demand || {}).sort((a, b) => DEMANDS.indexOf(a) - DEMANDS.indexOf(b));
  return keys.map((key) => ({key, value: demand[key]}));
}

function demandText(demand) {
  return demandList(demand).map(({key, value}) => count(`cm.demand_${key}`, value)).join(t('cm.list_sep'));
}

function customerCard(customer, options = {}) {
  const {small = false} = options;
  return cached(`customer|${small}|${JSON.stringify(customer)}`, () => buildCustomerCard(customer, small));
}

function buildCustomerCard(customer, small) {
  const text = t('cm.customer_label', {id: customer.id, demand: demandText(customer.demand)});
  const hue = (customer.id * 47) % 360;
  return h('div', {class: `cm-customer${small ? ' small' : ''}`, 'data-card': `customer-${customer.id}`,
    role: 'img', 'aria-label': text, title: text},
  h('div', {class: 'cm-customer-head'},
    s('svg', {viewBox: '0 0 40 40', class: 'cm-face', 'aria-hidden': 'true'},
      s('circle', {cx: 20, cy: 20, r: 19, fill: `hsl(${hue} 45% 85%)`, stroke: '#6b5d52', 'stroke-width': 1.5}),
      s('circle', {cx: 20, cy: 17, r: 8, fill: '#f3d2b3', stroke: '#6b5d52'}),
      s('path', {d: 'M8 35C10 26 30 26 32 35', fill: `hsl(${hue} 40% 45%)`}),
      s('circle', {cx: 17, cy: 16, r: 1.2, fill: '#2b211b'}),
      s('circle', {cx: 23, cy: 16, r: 1.2, fill: '#2b211b'}),
      s('path', {d: 'M17 20Q20 22.5 23 20', stroke: '#2b211b', fill: 'none', 'stroke-width': 1.1})),
    h('span', {class: 'cm-customer-id', 'aria-hidden': 'true'}, `#${customer.id}`)),
  h('ul', {class: 'cm-demands', 'aria-hidden': 'true'}, demandList(customer.demand).map(({key, value}) =>
    h('li', {}, demandIcon(key), h('span', {class: 'cm-demand-name'}, t(`cm.short_${key}`)),
      h('strong', {}, `= ${value}`)))));
}

// ---- The board ---------------------------------------------------------------

const seatName = (ctx, seat) => (ctx.names && ctx.names[seat - 1]) || t('cm.seat', {seat});
const leftOf = (ctx, seat) => (seat % ctx.view.players) + 1;
const rightOf = (ctx, seat) => ((seat + ctx.view.players - 2) % ctx.view.players) + 1;

function header(ctx) {
  const view = ctx.view;
  const phase = t(`cm.phase_${view.phase}`) === `cm.phase_${view.phase}` ? view.phase : t(`cm.phase_${view.phase}`);
  const steps = ['share', 'place'];
  return h('div', {class: 'cm-header'},
    h('div', {class: 'cm-round'},
      h('span', {class: 'cm-pill'}, t('cm.round', {round: view.round, rounds: view.rounds})),
      h('span', {class: 'cm-pill'}, t('cm.turn', {turn: view.turn, turns: view.turns})),
      view.phase !== 'over' && h('ol', {class: 'cm-steps', 'aria-label': t('cm.steps')},
        steps.map((step) => h('li', {class: view.phase === step ? 'now' : '', 'aria-current': view.phase === step ? 'step' : null},
          t(`cm.phase_${step}`)))),
      view.phase === 'over' && h('span', {class: 'cm-pill now'}, phase)),
    h('p', {class: 'cm-help'}, helpText(ctx)));
}

function helpText(ctx) {
  const view = ctx.view;
  if (view.phase === 'over') return t('cm.help_over');
  if (!ctx.seat) return view.phase === 'share' ? t('cm.help_share_watch') : t('cm.help_place_watch');
  if (view.phase === 'share') {
    return view.players === 2 ? t('cm.help_share_two', {left: seatName(ctx, leftOf(ctx, ctx.seat))}) :
      t('cm.help_share', {left: seatName(ctx, leftOf(ctx, ctx.seat)), right: seatName(ctx, rightOf(ctx, ctx.seat))});
  }
  if (view.phase === 'place') return t('cm.help_place');
  return '';
}

function customersPanel(ctx) {
  const view = ctx.view;
  return h('section', {class: 'cm-customers', 'aria-label': t('cm.customers')},
    h('h2', {}, t('cm.customers'), ' ', h('span', {class: 'cm-muted'}, t('cm.customers_note', {count: view.customer_count}))),
    h('div', {class: 'cm-customer-row'}, (view.customers || []).map((customer) => customerCard(customer))));
}

// The share: my three drawn cards, each with the buttons its actions give.
function sharePanel(ctx) {
  const view = ctx.view;
  const me = ctx.seat;
  const hand = view.hand || [];
  const chosen = {}, chosenEntry = {};
  for (const entry of ctx.partial) {
    const found = /^(keep|left|right) (\S+)$/.exec(entry.name);
    if (found) {
      chosen[found[2]] = found[1];
      chosenEntry[found[2]] = entry;
    }
  }
  const two = view.players === 2;
  const tag = (what) => what === 'keep' ? t('cm.kept') :
    two ? t('cm.to_seat', {name: seatName(ctx, leftOf(ctx, me))}) :
      t(`cm.to_${what}`, {name: seatName(ctx, what === 'left' ? leftOf(ctx, me) : rightOf(ctx, me))});
  // (either of keep and left first; the one chosen, pressed again, goes back)
  const buttons = (code) => ['keep', 'left', 'right'].map((what) => {
    const mine = chosen[code] === what ? chosenEntry[code] : null;
    const entry = mine || (!chosen[code] && ctx.find(`${what} ${code}`));
    if (!entry) return null;
    const text = what === 'keep' ? t('cm.btn_keep') :
      t(`cm.btn_${what}`, {name: seatName(ctx, what === 'left' ? leftOf(ctx, me) : rightOf(ctx, me))});
    return h('button', ctx.clickable(entry, {type: 'button', class: `cm-btn cm-btn-${what}${mine ? ' chosen' : ''}`,
      'aria-pressed': mine ? 'true' : null,
      'aria-label': `${text}: ${label(entry.name)} (${describeCard(code)})`}), text);
  });
  const waiting = !ctx.legal.length && view.to_act && !view.to_act.includes(me);
  return h('section', {class: 'cm-hand', 'aria-label': t('cm.your_hand')},
    h('h2', {}, t('cm.your_draw')),
    hand.length ? h('div', {class: 'cm-hand-row'}, hand.map((code) => h('div', {class: `cm-hand-card${chosen[code] ? ` chosen ${chosen[code]}` : ''}`},
      cardSvg(code, 118),
      h('div', {class: 'cm-code'}, code),
      chosen[code] && h('div', {class: `cm-tag cm-tag-${chosen[code]}`}, tag(chosen[code])),
      h('div', {class: 'cm-hand-buttons'}, buttons(code)))))
      : h('p', {class: 'cm-muted'}, t('cm.no_hand')),
    waiting && h('p', {class: 'cm-wait'}, t('cm.chosen_wait')));
}

// Where each card a seat holds came from, once the shares are revealed.
function holdingSources(ctx, seat) {
  const view = ctx.view;
  const entry = view.seats[seat - 1];
  const sources = {};
  if (!entry.shared) return sources;
  sources[entry.shared.keep] = t('cm.kept');
  for (const other of view.seats) {
    if (!other.shared || other.seat === seat) continue;
    const two = view.players === 2;
    if (two) {
      sources[other.shared.left] = t('cm.from', {name: seatName(ctx, other.seat)});
      sources[other.shared.right] = t('cm.from', {name: seatName(ctx, other.seat)});
    } else {
      if (leftOf(ctx, other.seat) === seat) sources[other.shared.left] = t('cm.from', {name: seatName(ctx, other.seat)});
      if (rightOf(ctx, other.seat) === seat) sources[other.shared.right] = t('cm.from', {name: seatName(ctx, other.seat)});
    }
  }
  return sources;
}

function placedIn(ctx) {
  const pending = {};
  for (const entry of ctx.partial) {
    const found = PLACE.exec(entry.name);
    if (found) pending[found[1]] = {cake: Number(found[2]) - 1, quarter: QUARTERS.indexOf(found[3]), text: `${found[2]}${found[3]}`, entry};
  }
  return pending;
}

// My area: my hand or holding, and my three cakes with the place targets.
function myArea(ctx) {
  const view = ctx.view;
  const me = ctx.seat;
  const entry = view.seats[me - 1];
  const parts = [];
  if (view.phase === 'share') parts.push(sharePanel(ctx));
  const placing = view.phase === 'place';
  const pending = placing ? placedIn(ctx) : {};
  const slots = {};
  if (placing && entry.holding) {
    entry.holding.forEach((code, index) => { slots[code] = index + 1; });
    const sources = holdingSources(ctx, me);
    const waiting = !ctx.legal.length && view.to_act && !view.to_act.includes(me);
    parts.push(h('section', {class: 'cm-hand', 'aria-label': t('cm.your_holding')},
      h('h2', {}, t('cm.your_holding')),
      h('div', {class: 'cm-hand-row'}, entry.holding.map((code, index) => h('div', {class: `cm-hand-card${pending[code] ? ' chosen placed' : ''}`},
        pipBadge(index + 1),
        cardSvg(code, 118),
        h('div', {class: 'cm-code'}, code),
        sources[code] && h('div', {class: 'cm-source'}, sources[code]),
        pending[code] && h('div', {class: 'cm-tag cm-tag-keep'}, t('cm.goes_to', {position: pending[code].text}))))),
      ctx.legal.length > 0 && h('p', {class: 'cm-help'}, t('cm.place_help')),
      waiting && h('p', {class: 'cm-wait'}, t('cm.placed_wait'))));
  }
  // Place targets by cake and quarter.
  const targets = [{}, {}, {}];
  const extra = [];
  for (const legal of ctx.legal) {
    const found = PLACE.exec(legal.name);
    if (!found) continue;
    const cake = Number(found[2]) - 1, quarter = QUARTERS.indexOf(found[3]);
    if (!targets[cake]) { extra.push(legal); continue; }
    (targets[cake][quarter] = targets[cake][quarter] || []).push(legal);
  }
  for (const cake of targets) {
    for (const list of Object.values(cake)) list.sort((a, b) => (slots[PLACE.exec(a.name)[1]] || 9) - (slots[PLACE.exec(b.name)[1]] || 9));
  }
  const pendingBy = [{}, {}, {}];
  for (const [code, where] of Object.entries(pending)) {
    if (pendingBy[where.cake]) pendingBy[where.cake][where.quarter] = {code, entry: where.entry};
  }
  const placingNow = ctx.legal.some((legal) => PLACE.test(legal.name));
  parts.push(h('section', {class: `cm-my-cakes${placingNow ? ' placing' : ''}`, 'aria-label': t('cm.your_cakes')},
    h('h2', {}, t('cm.your_cakes'), ' ', h('span', {class: 'cm-stars'}, starText(entry.stars))),
    h('div', {class: 'cm-cake-row'}, (entry.cakes || []).map((cake, index) => h('figure', {class: 'cm-cake-box'},
      cakeSvg(ctx, cake, index, {targets: targets[index], pending: pendingBy[index], slots, name: seatName(ctx, me)}),
      h('figcaption', {}, t('cm.cake_n', {n: index + 1}), liveTasty(cake))))),
    extra.length > 0 && h('div', {class: 'cm-actions'}, extra.map((legal) => h('button', ctx.clickable(legal, {type: 'button'}), label(legal.name))))));
  return h('div', {class: 'cm-mine'}, parts);
}

function liveTasty(cake) {
  if (cake.some((code) => !code)) return null;
  const stats = cakeStats(cake);
  return stats && h('span', {class: 'cm-live'}, t('cm.tasty_n', {n: stats.tasty}));
}

const starText = (n) => t('cm.stars_n', {n});

function seatStatus(ctx, seat) {
  const view = ctx.view;
  if (view.phase === 'over') return '';
  const acting = (view.to_act || []).includes(seat);
  if (view.phase === 'share') return acting ? t('cm.status_choosing') : t('cm.status_chosen');
  if (view.phase === 'place') return acting ? t('cm.status_placing') : t('cm.status_placed');
  return '';
}

function otherSeat(ctx, entry) {
  const view = ctx.view;
  const sources = holdingSources(ctx, entry.seat);
  return h('section', {class: 'cm-seat', 'aria-label': seatName(ctx, entry.seat)},
    h('h2', {}, h('span', {class: 'cm-seat-name'}, seatName(ctx, entry.seat)), ' ',
      h('span', {class: 'cm-stars'}, starText(entry.stars)), ' ',
      h('span', {class: 'cm-status'}, seatStatus(ctx, entry.seat))),
    h('div', {class: 'cm-seat-body'},
      h('div', {class: 'cm-cake-row small'}, (entry.cakes || []).map((cake, index) => h('figure', {class: 'cm-cake-box'},
        cakeSvg(ctx, cake, index, {name: seatName(ctx, entry.seat), small: true}),
        h('figcaption', {}, t('cm.cake_n', {n: index + 1}), liveTasty(cake))))),
      view.phase === 'place' && entry.holding && h('div', {class: 'cm-holding'},
        h('div', {class: 'cm-holding-title'}, t('cm.holding')),
        h('div', {class: 'cm-holding-row'}, entry.holding.map((code) => h('div', {class: 'cm-mini'},
          cardSvg(code, 52), h('div', {class: 'cm-code'}, code),
          sources[code] && h('div', {class: 'cm-source'}, sources[code])))))));
}

// ---- Scoring of a round ------------------------------------------------------

function breakdown(stats) {
  const parts = [t(`cm.bd_colors_${stats.colors}`, {n: stats.colorPoints})];
  if (stats.rosettes) parts.push(count('cm.bd_rosettes', stats.rosettes));
  if (stats.noHalf) parts.push(t('cm.bd_no_half'));
  if (stats.pairs) parts.push(count('cm.bd_pairs', stats.pairs));
  return parts;
}

function roundResults(ctx, result, open) {
  const customers = Object.fromEntries((result.customers || []).map((c) => [c.id, c]));
  return h('details', {class: 'cm-results', open: open || null},
    h('summary', {}, t('cm.round_scoring', {round: result.round})),
    h('div', {class: 'cm-results-customers'}, h('span', {class: 'cm-muted'}, t('cm.customers'), ': '),
      (result.customers || []).map((c) => customerCard(c, {small: true}))),
    h('div', {class: 'cm-results-seats'}, result.seats.map((entry) => h('div', {class: 'cm-result-seat'},
      h('h3', {}, seatName(ctx, entry.seat), ' ',
        h('span', {class: 'cm-round-stars'}, t('cm.round_stars', {n: entry.tasty_stars + entry.customer_stars}))),
      h('div', {class: 'cm-cake-row small'}, (entry.cakes || []).map((cake, index) => {
        const stats = cakeStats(cake);
        const served = entry.served && entry.served[index];
        return h('figure', {class: 'cm-cake-box'},
          cakeSvg(ctx, cake, index, {name: seatName(ctx, entry.seat), small: true}),
          h('figcaption', {},
            h('strong', {}, t('cm.tasty_n', {n: entry.tasty ? entry.tasty[index] : stats ? stats.tasty : '?'})),
            stats && (!entry.tasty || entry.tasty[index] === stats.tasty) && h('span', {class: 'cm-breakdown'}, breakdown(stats).join(' ')),
            served ? h('span', {class: 'cm-served'}, icon('check'), ' ', t('cm.serves', {id: served}),
              customers[served] ? h('span', {class: 'visually-hidden'}, ` (${demandText(customers[served].demand)})`) : null) : null));
      })),
      h('p', {class: 'cm-result-line'},
        t('cm.result_line', {total: entry.total, tasty: entry.tasty_stars, customers: entry.customer_stars,
          rank: t(`cm.rank_${entry.tasty_stars}`)}))))),
    h('p', {class: 'cm-muted cm-rule'}, t('cm.scoring_rule')));
}

export function render(ctx) {
  const view = ctx.view;
  if (!view || !view.seats) return h('div', {class: 'cm-board'}, h('p', {}, t('cm.no_view')));
  const me = ctx.seat && view.seats[ctx.seat - 1] ? ctx.seat : null;
  const order = [];
  for (let k = 0; k < view.seats.length; k++) {
    const seat = me ? ((me - 1 + k) % view.seats.length) + 1 : k + 1;
    if (seat !== me) order.push(view.seats[seat - 1]);
  }
  const results = view.results || [];
  // Anything legal this board does not understand still gets a button.
  const understood = (name) => /^(keep|left|right) \S+$/.test(name) || PLACE.test(name);
  const unknown = ctx.legal.filter((entry) => !understood(entry.name) ||
    (/^(keep|left|right) /.test(entry.name) && !(view.hand || []).includes(entry.name.split(' ')[1])));
  return h('div', {class: 'cm-board'},
    header(ctx),
    customersPanel(ctx),
    me && myArea(ctx),
    unknown.length > 0 && h('div', {class: 'cm-actions'}, unknown.map((entry) =>
      h('button', ctx.clickable(entry, {type: 'button'}), label(entry.name)))),
    h('div', {class: 'cm-others'}, order.map((entry) => otherSeat(ctx, entry))),
    results.length > 0 && h('section', {class: 'cm-results-list', 'aria-label': t('cm.results')},
      h('h2', {}, t('cm.results')),
      (view.phase === 'over' ? results : results.slice(-1)).slice().reverse().map((result, index) =>
        roundResults(ctx, result, index === 0))));
}

// ---- The end ----------------------------------------------------------------

export function scoring(ctx) {
  const view = ctx.view;
  const results = view.results || [];
  const seats = view.seats.map((entry) => entry.seat);
  const last = results[results.length - 1];
  return h('section', {class: 'cm-scoring', 'aria-label': t('cm.final_breakdown')},
    h('h2', {}, t('cm.final_breakdown')),
    scrollRegion({class: 'cm-table-wrap', 'aria-label': t('cm.final_breakdown')}, h('table', {class: 'cm-score-table'},
      h('thead', {}, h('tr', {},
        h('th', {scope: 'col'}, t('cm.player')),
        results.map((result) => h('th', {scope: 'col'}, t('cm.round_short', {round: result.round}))),
        h('th', {scope: 'col'}, t('cm.total_stars')),
        h('th', {scope: 'col'}, t('cm.tiebreak')))),
      h('tbody', {}, seats.map((seat) => {
        let total = 0;
        return h('tr', {class: (view.winners || []).includes(seat) ? 'winner' : ''},
          h('th', {scope: 'row'}, h('span', {class: 'cm-seat-name'}, seatName(ctx, seat)), (view.winners || []).includes(seat) ? ' ★' : ''),
          results.map((result) => {
            const entry = result.seats.find((e) => e.seat === seat);
            if (!entry) return h('td', {}, '');
            total += entry.tasty_stars + entry.customer_stars;
            return h('td', {},
              h('div', {}, t('cm.cell_tasty', {total: entry.total})),
              h('div', {class: 'cm-cell-stars'}, t('cm.cell_stars', {tasty: entry.tasty_stars, customers: entry.customer_stars,
                sum: entry.tasty_stars + entry.customer_stars})));
          }),
          h('td', {class: 'cm-total'}, h('strong', {}, String(view.seats[seat - 1].stars)),
            total !== view.seats[seat - 1].stars ? h('span', {class: 'cm-muted'}, ` (${total})`) : null),
          h('td', {}, last ? String((last.seats.find((e) => e.seat === seat) || {}).total ?? '') : ''));
      })))),
    h('p', {class: 'cm-muted cm-rule'}, t('cm.scoring_rule')),
    h('p', {class: 'cm-muted cm-rule'}, t('cm.final_rule')));
}

// ---- The log and the hints in the page's language (words.js) -------------------
//
// What cm_describe_move (src/games/cake_master/views.c) writes:
//   The customer pile is shuffled. Round R: customer(s) #I (feature=N ...) ... in play.
//   The cake cards are shuffled for round R.[ You draw X Y Z.]
//   seat N: keep X left Y right Z / seat N: place X:1a Y:2b Z:3c   (the seat itself)
//   seat N has chosen / seat N has placed   (the others)
//   then, when the last seat has moved: ". The shares are revealed: seat N
//   keep X left Y right Z; ..." or " The placements are revealed: seat N X:1a
//   ...; ...", [" Round R is scored: seat N T Tasty points, A + B stars; ...."
//   and " Round R: customers ... in play." or " The game is over."], [" You draw X Y Z."]

const CARD = '[WPC][0-3]\\*?[rb]*';
const FEATURES = {colors: 'cm.short_colors', rosettes: 'cm.short_rosettes', halves: 'cm.short_halves',
  raspberries: 'cm.short_raspberries', blueberries: 'cm.short_blueberries', fruits: 'cm.short_fruits'};
const sticky = (source) => new RegExp(source, 'y');

// "#11 (halves=2 raspberries=3) #2 (fruits=7)" as words (null if unknown).
function customerWords(list) {
  const customers = [...list.matchAll(/#(\d+) \(([^)]*)\)/g)].map((c) => {
    const demands = c[2].split(' ').map((d) => /^(\w+)=(\d+)$/.exec(d));
    if (demands.some((d) => !d || !FEATURES[d[1]])) return null;
    return t('cm.log.customer', {id: c[1],
      demand: demands.map((d) => t('cm.log.demand', {feature: t(FEATURES[d[1]]), n: d[2]})).join(t('cm.log.demand_sep'))});
  });
  return customers.includes(null) ? null : customers.join(t('cm.log.sep'));
}

// "X:1a Y:2b" as words.
const placementWords = (list) => [...list.matchAll(new RegExp(`(${CARD}):(\\d[a-d])`, 'g'))]
  .map((p) => t('cm.log.placement', {card: p[1], position: p[2]})).join(t('cm.log.sep'));

// A seat's move in notation (a hint), as words.
export function describeMove(notation) {
  let m;
  if ((m = new RegExp(`^keep (${CARD}) left (${CARD}) right (${CARD})$`).exec(notation))) {
    return t('cm.move.share', {keep: m[1], left: m[2], right: m[3]});
  }
  if ((m = new RegExp(`^place((?: ${CARD}:\\d[a-d])+)$`).exec(notation))) return t('cm.move.place', {placements: placementWords(m[1])});
  return null;
}

export function describe(entry, ctx) {
  const name = (seat) => playerName(ctx, seat, t('cm.seat', {seat}));
  const seats = (list, pattern, say) => [...list.matchAll(pattern)].map(say).join(t('cm.log.seat_sep'));
  return readSentence(entry.text, [
    [/The customer pile is shuffled\./y, () => t('cm.log.customers_shuffled')],
    [/ ?Round (\d+): customers? ((?:#\d+ \([^)]*\) ?)+)in play\./y, (m) => {
      const customers = customerWords(m[2]);
      return customers && t('cm.log.round_start', {round: m[1], customers});
    }],
    [/The cake cards are shuffled for round (\d+)\./y, (m) => t('cm.log.deal', {round: m[1]})],
    [sticky(` ?You draw (${CARD}(?: ${CARD})*)\\.`), (m) => t('cm.log.draw', {cards: m[1].split(' ').join(t('cm.log.sep'))})],
    [sticky(`seat (\\d): keep (${CARD}) left (${CARD}) right (${CARD})`),
      (m) => t('cm.log.share', {name: name(m[1]), keep: m[2], left: m[3], right: m[4]})],
    [sticky(`seat (\\d): place((?: ${CARD}:\\d[a-d])+)`),
      (m) => t('cm.log.place', {name: name(m[1]), placements: placementWords(m[2])})],
    [/seat (\d) has (chosen|placed)/y, (m) => t(m[2] === 'chosen' ? 'cm.log.chosen' : 'cm.log.placed', {name: name(m[1])})],
    [sticky(` ?The shares are revealed:((?:;? seat \\d keep ${CARD} left ${CARD} right ${CARD})+)\\.`),
      (m) => t('cm.log.shares', {shares: seats(m[1], new RegExp(`seat (\\d) keep (${CARD}) left (${CARD}) right (${CARD})`, 'g'),
        (p) => t('cm.log.share_of', {name: name(p[1]), keep: p[2], left: p[3], right: p[4]}))})],
    [sticky(` ?The placements are revealed:((?:;? seat \\d(?: ${CARD}:\\d[a-d])*)+)\\.`),
      (m) => t('cm.log.placements', {placements: seats(m[1], new RegExp(`seat (\\d)((?: ${CARD}:\\d[a-d])*)`, 'g'),
        (p) => t('cm.log.placements_of', {name: name(p[1]), placements: placementWords(p[2])}))})],
    [/ ?Round (\d+) is scored:((?:;? seat \d \d+ Tasty points?, \d+ \+ \d+ stars?)+)\./y,
      (m) => t('cm.log.scored', {round: m[1], results: seats(m[2], /seat (\d) (\d+) Tasty points?, (\d+) \+ (\d+) stars?/g,
        (r) => t('cm.log.result', {name: name(r[1]), total: r[2], tasty: r[3], customers: r[4]}))})],
    [/ ?The game is over\./y, () => t('cm.log.over')],
    [/\./y, () => t('cm.log.stop')],
  ]);
}
