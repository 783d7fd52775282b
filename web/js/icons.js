// icons.js: the page's small pictures (arrows, media buttons, marks) as
// inline SVG, drawn in the text's colour at the text's size.  A glyph
// such as ⏮, ⇄, ♛ or ⚔ is missing from many machines' fonts (an empty
// box), and ▶ ◀ ▲ ▼ turn into coloured emoji on some phones: these need
// no font at all.  An icon is decoration (aria-hidden): what it means is
// said in words beside it or in its button's label.
//
//   icon('next')      <svg class="icon icon-next" ...>

import {s} from './dom.js';

// Each icon on a 16x16 grid: [paths filled, paths stroked].
const SHAPES = {
  previous: [['M12 2 L12 14 L3 8 Z'], []],
  next: [['M4 2 L4 14 L13 8 Z'], []],
  first: [['M14 2 L14 14 L5 8 Z', 'M2 2 H4.5 V14 H2 Z'], []],
  last: [['M2 2 L2 14 L11 8 Z', 'M11.5 2 H14 V14 H11.5 Z'], []],
  up: [['M8 3 L14 13 H2 Z'], []],
  down: [['M2 3 H14 L8 13 Z'], []],
  swap: [['M11 1.5 L15 5 L11 8.5 Z', 'M5 7.5 L1 11 L5 14.5 Z'], ['M1.5 5 H12', 'M14.5 11 H4']],
  crown: [['M1.5 5 L5 8.5 L8 3 L11 8.5 L14.5 5 L13 12.5 H3 Z', 'M3 13.5 H13 V15 H3 Z'], []],
  swords: [['M12.5 13 L14.5 15 L15 14.5 L13 12.5 Z', 'M3.5 13 L1.5 15 L1 14.5 L3 12.5 Z'],
    ['M2 2 L12 12', 'M14 2 L4 12', 'M10.5 13.5 L13.5 10.5', 'M5.5 13.5 L2.5 10.5']],
  check: [[], ['M2 8.5 L6.5 13 L14 3.5']],
  cross: [[], ['M3 3 L13 13', 'M13 3 L3 13']],
};

export function icon(name) {
  const [filled, stroked] = SHAPES[name];
  return s('svg', {class: `icon icon-${name}`, viewBox: '0 0 16 16', width: '1em', height: '1em',
    'aria-hidden': 'true', focusable: 'false'},
  filled.map((d) => s('path', {d, fill: 'currentColor'})),
  stroked.map((d) => s('path', {d, fill: 'none', stroke: 'currentColor', 'stroke-width': 2,
    'stroke-linecap': 'round', 'stroke-linejoin': 'round'})));
}

export const ICON_NAMES = Object.keys(SHAPES);
