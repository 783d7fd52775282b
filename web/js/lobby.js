// lobby.js: making a table (game, players, options, each seat a person or
// a bot, a clock), its invitation links, and the tables to join or watch.

import {h, replace, scrollRegion} from './dom.js';
import {t, botWords} from './i18n.js';
import {api} from './api.js';
import {holdSeat, holdCreator, invitationLink} from './seats.js';
import {gameTitle} from './board.js';
import {LESSONS} from './learn/lessons/index.js';

// Seat choices: "me" (the creator's own seat), a person by invitation link,
// a person from the lobby, or a bot at a strength.
// The bots' levels, weakest first: each rated by measurement (levels.json,
// made by bench/level_ratings.py; docs/bots.md, "Levels").
const SEAT_KINDS = ['me', 'human', 'open', 'random', 'heuristic:random=0.3', 'heuristic', 'ismcts'];

// The levels' ratings by game, or {} while (or when) they cannot be read.
let ratings = {};
const ratingsRead = fetch('levels.json').then((answer) => (answer.ok ? answer.json() : {ratings: []}))
  .then((levels) => {
    for (const entry of levels.ratings || []) {
      ratings[entry.game] = {players: entry.players,
        bySpec: Object.fromEntries(entry.levels.map((level) => [level.spec, level]))};
    }
  }).catch(() => { ratings = {}; });

// A seat choice's words: a bot's level with its rating in this game.
function seatWords(choice, game) {
  const rated = ratings[game] && ratings[game].bySpec[choice];
  return rated ? t('lobby.rated', {level: t(`seat.${choice}`), rating: rated.rating}) : t(`seat.${choice}`);
}
// The clock's presets (docs/server.md, "Making a table"): so much a move
// (nothing kept from one move to the next: quick games, and turn-based
// ones played over days) or a whole game's time plus some each move.
const CLOCKS = ['', '30s/move', '2m/move', '5m+5s', '10m+20s', '30m+1m', '1d/move', '3d/move', '1d+12h', '3d+1d'];
const PER_MOVE = {'30s/move': 'lobby.clock_30s', '2m/move': 'lobby.clock_2m', '1d/move': 'lobby.clock_1d',
  '3d/move': 'lobby.clock_3d'};

export function showLobby(main) {
  const root = h('div', {class: 'lobby'}, h('p', {}, t('table.loading')));
  replace(main, root);
  let stopped = false;
  const refresh = setInterval(() => !stopped && drawTables(root), 5000);
  Promise.all([api.games(), ratingsRead]).then(([catalogue]) => {
    if (stopped) return;
    replace(root,
      h('h1', {}, t('lobby.title')),
      learnSection(catalogue),
      h('div', {class: 'your-name'}, field(t('lobby.your_name'), h('input', {id: 'your-name', type: 'text',
        maxlength: 40, value: localStorage.getItem('gateau.name') || '', autocomplete: 'nickname'}), 'your-name')),
      createForm(catalogue),
      h('section', {class: 'tables', 'aria-labelledby': 'tables-heading'},
        h('h2', {id: 'tables-heading'}, t('lobby.tables')),
        h('div', {id: 'table-list'}, t('table.loading'))));
    drawTables(root);
  }).catch((error) => replace(root, h('p', {class: 'error', role: 'alert'}, error.message)));
  return () => {
    stopped = true;
    clearInterval(refresh);
  };
}

// Learn to play: a guided first game of each game (learn/learn.js).
function learnSection(catalogue) {
  const games = catalogue.games.map((game) => game.game).filter((game) => LESSONS[game]);
  return h('section', {class: 'learn', 'aria-labelledby': 'learn-heading'},
    h('h2', {id: 'learn-heading'}, t('learn.lobby_heading')),
    h('p', {}, t('learn.lobby_note')),
    h('ul', {class: 'learn-games'}, games.map((game) => h('li', {},
      h('a', {class: 'button primary', href: `#/learn/${game}`, 'data-learn': game},
        t('learn.lobby_button', {game: gameTitle(game)}))))));
}

function field(label, control, id) {
  return h('div', {class: 'field'}, h('label', {for: id}, label), control);
}

function createForm(catalogue) {
  const games = catalogue.games;
  const form = h('form', {class: 'create', 'aria-labelledby': 'create-heading'});
  const state = {game: games[0].game, players: games[0].min_players === 2 ? 3 : games[0].min_players,
    seats: [], deck: null, clock: '', options: {}};

  const draw = () => {
    const game = games.find((g) => g.game === state.game);
    state.players = Math.min(Math.max(state.players, game.min_players), game.max_players);
    while (state.seats.length < state.players) state.seats.push(state.seats.length ? 'heuristic' : 'me');
    state.seats.length = state.players;
    const playerCounts = [];
    for (let n = game.min_players; n <= game.max_players; n++) playerCounts.push(n);

    replace(form,
      h('h2', {id: 'create-heading'}, t('lobby.create_heading')),
      field(t('lobby.game'), h('select', {id: 'game', onchange: (e) => { state.game = e.target.value; state.options = {}; draw(); }},
        games.map((g) => h('option', {value: g.game, selected: g.game === state.game}, gameTitle(g.game)))), 'game'),
      field(t('lobby.players'), h('select', {id: 'players', onchange: (e) => { state.players = Number(e.target.value); draw(); }},
        playerCounts.map((n) => h('option', {value: n, selected: n === state.players}, n))), 'players'),
      game.options.filter((option) => !option.file).map((option) =>
        field(t(`option.${option.name}`) === `option.${option.name}` ? option.name : t(`option.${option.name}`),
          h('input', {id: `option-${option.name}`, type: 'number', min: option.min, max: option.max,
            value: state.options[option.name] ?? option.default,
            onchange: (e) => { state.options[option.name] = Number(e.target.value); }}), `option-${option.name}`)),
      game.options.some((option) => option.name === 'deck') &&
        field(t('lobby.deck'), h('input', {id: 'deck', type: 'file', accept: '.deck,.txt,text/plain',
          onchange: async (e) => { state.deck = e.target.files[0] ? await e.target.files[0].text() : null; }}), 'deck'),
      h('fieldset', {class: 'seats'},
        h('legend', {}, t('lobby.seats')),
        state.seats.map((kind, index) => field(t('lobby.seat', {seat: index + 1}),
          h('select', {id: `seat-${index + 1}`, onchange: (e) => { state.seats[index] = e.target.value; }},
            SEAT_KINDS.map((choice) => h('option', {value: choice, selected: choice === kind},
              seatWords(choice, state.game)))), `seat-${index + 1}`)),
        ratings[state.game] && h('p', {class: 'hint'},
          t('lobby.ratings_note', {players: ratings[state.game].players}))),
      field(t('lobby.clock'), h('select', {id: 'clock', onchange: (e) => { state.clock = e.target.value; }},
        CLOCKS.map((clock) => h('option', {value: clock, selected: clock === state.clock},
          clock ? (PER_MOVE[clock] ? t(PER_MOVE[clock]) : clock) : t('lobby.no_clock')))), 'clock'),
      h('button', {type: 'submit', class: 'primary'}, t('lobby.create')),
      h('div', {id: 'created', 'aria-live': 'polite'}));
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const out = form.querySelector('#created');
    const settings = {game: state.game, players: state.players,
      seats: state.seats.map((kind) => (kind === 'me' ? 'human' : kind))};
    const name = document.getElementById('your-name').value.trim();
    if (name) {
      localStorage.setItem('gateau.name', name);
      settings.names = state.seats.map((kind) => (kind === 'me' ? name : null));
      settings.host = name;
    }
    if (Object.keys(state.options).length) settings.options = state.options;
    if (state.deck) settings.deck = state.deck;
    if (state.clock) settings.clock = state.clock;
    try {
      const table = await api.createTable(settings);
      replace(out, createdTable(table, state.seats));
    } catch (error) {
      replace(out, h('p', {class: 'error', role: 'alert'}, error.message));
    }
  });
  draw();
  return form;
}

// After creation: the creator's own seat is kept in this browser; every
// other person's seat gets its invitation link, shown once.
function createdTable(table, kinds) {
  let mine = null;
  const links = [];
  holdCreator(table.id, table.creator);
  table.seats.forEach((entry) => {
    if (kinds[entry.seat - 1] === 'me' && mine === null) {
      mine = entry.seat;
      holdSeat(table.id, entry.seat, entry.token);
    } else {
      links.push(entry);
    }
  });
  const copy = (text) => () => navigator.clipboard && navigator.clipboard.writeText(text);
  return h('div', {class: 'created'},
    h('p', {}, t('lobby.created')),
    links.length > 0 && h('p', {}, t('lobby.invite_note')),
    links.length > 0 && h('ul', {class: 'invitations'}, links.map((entry) => {
      const link = invitationLink(table.id, entry.token);
      return h('li', {},
        h('label', {for: `link-${entry.seat}`}, t('lobby.seat', {seat: entry.seat})), ' ',
        h('input', {id: `link-${entry.seat}`, class: 'link', readonly: true, value: link, 'data-seat': entry.seat}),
        h('button', {type: 'button', onclick: copy(link)}, t('lobby.copy')));
    })),
    h('p', {}, h('a', {class: 'button primary', href: `#/table/${table.id}${mine ? `/${mine}` : ''}`,
      'data-testid': 'go-to-table'}, mine ? t('lobby.go_to_seat') : t('lobby.watch'))));
}

// The lobby comes in pages (GET /api/tables, 50 tables each): as many as
// the visitor asked for with "More tables", fetched again at each refresh.
let pagesWanted = 1;

async function lobbyPages() {
  const rows = [];
  let after = null;
  for (let page = 0; page < pagesWanted; page++) {
    const lobby = await api.lobby(after);
    rows.push(...(lobby.tables || []));
    after = lobby.next;
    if (!after) break;
  }
  return {rows, more: Boolean(after)};
}

async function drawTables(root) {
  const list = root.querySelector('#table-list');
  if (!list) return;
  let rows, more;
  try {
    ({rows, more} = await lobbyPages());
  } catch (error) {
    replace(list, h('p', {class: 'error'}, error.message));
    return;
  }
  if (!rows.length) {
    replace(list, h('p', {class: 'muted'}, t('lobby.no_tables')));
    return;
  }
  const table = h('table', {},
    h('thead', {}, h('tr', {},
      h('th', {scope: 'col'}, t('lobby.game')), h('th', {scope: 'col'}, t('lobby.players')),
      h('th', {scope: 'col'}, t('lobby.host')), h('th', {scope: 'col'}, t('lobby.clock')),
      h('th', {scope: 'col'}, t('lobby.open_seats')), h('th', {scope: 'col'}, h('span', {class: 'visually-hidden'}, t('lobby.actions'))))),
    h('tbody', {}, rows.map((row) => {
      const open = row.open || [];
      const count = row.open_seats ?? open.length;
      return h('tr', {'data-table': row.id},
        h('td', {}, gameTitle(row.game)),
        h('td', {class: 'people'}, peopleOf(row)),
        h('td', {class: 'person-name', 'data-testid': 'host'}, row.host || '–'),
        h('td', {}, row.clock || t('lobby.no_clock')),
        h('td', {'data-testid': 'open-count'}, count ? t('lobby.open_count', {n: count}) : '–'),
        h('td', {},
          // (one button: the first open seat; the count says how many)
          open.length > 0 && h('button', {type: 'button', 'data-join': open[0],
            onclick: () => joinSeat(row.id, open[0], root)}, t('lobby.join')),
          h('a', {href: `#/table/${row.id}`, class: 'button'}, t('lobby.watch'))));
    })));
  // (in a box of its own that scrolls sideways on a narrow screen: six
  // columns, names among them, do not fit a phone without breaking every word)
  replace(list, scrollRegion({class: 'lobby-tables', 'aria-labelledby': 'tables-heading'}, table),
    more && h('button', {type: 'button', 'data-testid': 'more-tables',
      onclick: () => { pagesWanted++; drawTables(root); }}, t('lobby.more_tables')));
}

// Who sits at a lobby's table: names, open seats, bots (older servers
// sent none: the player count then says it all).
function peopleOf(row) {
  if (!row.seats) return String(row.players);
  return row.seats.map((seat, index) => h('span', {class: 'person-name'},
    index ? ', ' : '',
    seat.name ? seat.name : seat.open ? t('lobby.open_seat') : seat.bot ? botWords(seat.bot) : t('lobby.invited')));
}

async function joinSeat(id, seat, root) {
  const input = document.getElementById('your-name');
  const typed = input && input.value.trim();
  // (a guest is asked for a name at the table: the name form)
  const name = typed || t('lobby.guest');
  if (typed) localStorage.setItem('gateau.name', typed);
  try {
    const answer = await api.join(id, seat, name);
    holdSeat(id, answer.seat, answer.token);
    location.hash = `#/table/${id}/${answer.seat}`;
  } catch (error) {
    // (lost a race for the seat: said so, and the list drawn again)
    const taken = error.status === 409;
    if (taken && root) await drawTables(root);
    const list = document.getElementById('table-list');
    if (list) list.prepend(h('p', {class: 'error', role: 'alert', 'data-testid': 'join-error'},
      taken ? t('lobby.seat_taken') : error.message));
  }
}
