// A placeholder renderer: every legal action as a button, the view as
// text.  (Replaced by the game's own board.)
import {h} from '../dom.js';

export function render(ctx) {
  return h('div', {class: 'placeholder-board'},
    h('pre', {}, JSON.stringify(ctx.view, null, 1)),
    ctx.legal.map((entry) => h('button', ctx.clickable(entry), entry.name)));
}
