// names.js: the name a person goes by.  It is kept in this browser
// (localStorage) and offered again at the next table; a seat is asked for
// it the first time it is opened here, and may change it later.  The
// server checks it (docs/server.md, "Names": at most 40 characters, no
// control characters); pages show it as text, never as markup.

import {h, replace} from './dom.js';
import {t} from './i18n.js';
import {api} from './api.js';

const NAME_KEY = 'gateau.name';
export const NAME_MOST = 40;

export function storedName() {
  return localStorage.getItem(NAME_KEY) || '';
}

export function keepName(name) {
  localStorage.setItem(NAME_KEY, name);
}

const namedKey = (id, seat) => `gateau.named.${id}.${seat}`;

// Whether this browser has named seat of table id already.
export function seatNamed(id, seat) {
  return localStorage.getItem(namedKey(id, seat)) === '1';
}

export function markNamed(id, seat) {
  localStorage.setItem(namedKey(id, seat), '1');
}

// The form that names a seat: first (asked on first opening the seat) or
// a change; done(renamed) when it is sent, or dismissed.
export function nameForm({id, token, seat, current, first, done}) {
  const input = h('input', {id: 'seat-name', type: 'text', maxlength: NAME_MOST, required: true,
    autocomplete: 'nickname', value: storedName() || current || ''});
  // (an alert only once there is something to say)
  const problem = h('div', {'data-testid': 'name-error'});
  const form = h('form', {class: 'name-form', 'data-testid': 'name-form', 'aria-labelledby': 'name-form-heading'},
    h('h2', {id: 'name-form-heading'}, first ? t('names.first') : t('names.change')),
    h('label', {for: 'seat-name'}, t('names.your_name')), ' ', input, ' ',
    h('button', {type: 'submit', class: 'primary', 'data-testid': 'name-save'}, t('names.save')),
    h('button', {type: 'button', onclick: () => { markNamed(id, seat); done(false); }},
      first ? t('names.later') : t('names.cancel')),
    problem);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (!name) return;
    try {
      await api.rename(id, token, name);
      keepName(name);
      markNamed(id, seat);
      done(true);
    } catch (error) {
      replace(problem, h('p', {class: 'error', role: 'alert'}, t('names.refused', {reason: error.message})));
    }
  });
  return form;
}
