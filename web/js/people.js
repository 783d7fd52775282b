// people.js: the people around a table's board: the name form (names.js),
// the seat's personal link, the notice of a page opened on a seat without
// its key, and the rematch.  Their elements last across redraws (a name
// being typed stays), and table.js places them.

import {h, replace} from './dom.js';
import {t} from './i18n.js';
import {api} from './api.js';
import {heldSeats, holdSeat, holdCreator, invitationLink} from './seats.js';
import {nameForm, seatNamed, markNamed, storedName} from './names.js';

// What table.js places above the board: {nodes(snapshot)}.
export function createPeople(page, redraw) {
  const people = {form: null, formFirst: false, linkNote: null};

  // The first time this browser opens a seat, it is asked for its name
  // (offered the one it keeps); a seat named so already is not asked.
  const wantForm = (snapshot) => {
    if (!snapshot.seat || !page.token || people.form) return;
    const current = snapshot.seats[snapshot.seat - 1].name;
    if (seatNamed(page.id, snapshot.seat)) return;
    if (storedName() && storedName() === current) return markNamed(page.id, snapshot.seat);
    openForm(snapshot, true);
  };
  const openForm = (snapshot, first) => {
    people.formFirst = first;
    people.form = nameForm({id: page.id, token: page.token, seat: snapshot.seat,
      current: snapshot.seats[snapshot.seat - 1].name, first,
      done: () => { people.form = null; redraw(); }});
  };

  const copyLink = async () => {
    const link = invitationLink(page.id, page.token);
    try {
      await navigator.clipboard.writeText(link);
      people.linkNote = h('span', {role: 'status', 'data-testid': 'link-copied'}, t('people.link_copied'));
    } catch {
      // (no clipboard: a page over plain HTTP, or the permission refused)
      people.linkNote = h('span', {},
        h('label', {for: 'my-link'}, t('people.copy_by_hand')), ' ',
        h('input', {id: 'my-link', class: 'link', readonly: true, value: link, 'data-testid': 'my-link',
          onfocus: (event) => event.target.select()}));
    }
    redraw();
  };

  people.nodes = (snapshot) => {
    wantForm(snapshot);
    const bar = page.token && snapshot.seat && h('div', {class: 'my-seat-tools'},
      h('button', {type: 'button', 'data-testid': 'copy-my-link', 'data-focus': 'copy-my-link', onclick: copyLink},
        t('people.copy_my_link')),
      !people.form && h('button', {type: 'button', 'data-focus': 'change-name',
        onclick: () => { openForm(snapshot, false); redraw(); }}, t('names.change')),
      people.linkNote,
      h('span', {class: 'muted'}, ' ', t('people.link_note')));
    const keyless = page.keyless && !snapshot.seat && h('div', {class: 'keyless', role: 'alert', 'data-testid': 'keyless'},
      h('p', {}, t('people.keyless', {seat: page.keyless})),
      h('p', {}, t('people.keyless_how')));
    return [keyless, people.form, bar];
  };
  return people;
}

// The end's rematch: a seat asks for it (or joins the one asked for) and
// lands on its own seat there; a spectator may follow it.
export function rematchControls(page, snapshot) {
  const seat = snapshot.seat;
  const person = seat && snapshot.seats[seat - 1].player === 'human';
  const problem = h('span', {});
  if (snapshot.rematch && seat && heldSeats(snapshot.rematch)[seat]) {
    return h('p', {}, h('a', {class: 'button primary', href: `#/table/${snapshot.rematch}/${seat}`,
      'data-testid': 'rematch-go'}, t('people.rematch_go')));
  }
  if (person && page.token) {
    const accept = async (event) => {
      event.target.disabled = true;
      try {
        const answer = await api.rematch(page.id, page.token);
        holdSeat(answer.id, answer.seat, answer.token);
        if (answer.creator) holdCreator(answer.id, answer.creator);
        // (the name went with the seat: not asked again there)
        markNamed(answer.id, answer.seat);
        location.hash = `#/table/${answer.id}/${answer.seat}`;
      } catch (error) {
        event.target.disabled = false;
        replace(problem, h('span', {class: 'error', role: 'alert'}, t('people.rematch_refused', {reason: error.message})));
      }
    };
    return h('p', {class: 'rematch'},
      h('button', {type: 'button', class: 'primary', 'data-testid': 'rematch', onclick: accept},
        snapshot.rematch ? t('people.rematch_join') : t('people.rematch')),
      ' ', h('span', {class: 'muted'}, snapshot.rematch ? t('people.rematch_offered') : t('people.rematch_note')),
      ' ', problem);
  }
  return snapshot.rematch && h('p', {}, h('a', {href: `#/table/${snapshot.rematch}`, 'data-testid': 'rematch-watch'},
    t('people.rematch_watch')));
}
