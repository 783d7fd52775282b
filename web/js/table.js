// table.js: a table as one seat (or a spectator) sees it: the game's board
// from its renderer (games/), the move being built, the players with their
// presence and clocks, the log, the hint, and the end.
//
// The server's legal actions drive every control: a move is built of
// parts chosen in any order, asking /legal what may still join them (the
// engine puts them in its own order), and sent by the Send button when it
// is whole, never by the click that completes it.  Until then any part can
// be changed or taken back.  The page keeps no rules.

import {h, replace, place} from './dom.js';
import {t, currentLanguage, botWords} from './i18n.js';
import {api, TableConnection} from './api.js';
import {seatToken, creatorToken} from './seats.js';
import {RENDERERS} from './games/index.js';
import {createMotion, markHint} from './motion.js';
import {renderBoard, boardContext, gameTitle, actionLabel, scoreOf, entryWords, moveWords, noteWords} from './board.js';
import {createPeople, rematchControls} from './people.js';
import {ChatPanel} from './chat.js';
import {formatClock, timeLeft, timeBars, tickTimeBars, soundAllowed, toggleSound} from './clock.js';
import {canTakeBack, takeBackButton} from './takeback.js';
import {mayHandOver, handOverControls, handedNotice} from './handover.js';

const ASK_BEFORE_SENDING = 'gateau.confirm-moves';

// coach: a "Learn to play" guide (learn/coach.js), or null.
export function showTable(main, id, seatNumber, coach = null) {
  const token = seatToken(id, seatNumber);
  const page = {
    id, token, snapshot: null, receivedAt: 0, coach,
    partial: [],      // [{action, name}]: the parts chosen so far, in the order chosen
    legal: [],        // the parts that may join them ([] when this seat is not to move)
    complete: false,  // whether partial is already a whole move
    move: null,       // partial in the engine's order (/legal's "move"), once asked
    confirming: false, // "ask before sending": Send was pressed once
    busy: false,      // a /legal or /moves request is on its way
    error: '', hint: null, hintBusy: false,
    connection: 'closed', // the live connection: open, closed, refused or gone (api.js)
    connectionReason: '', // the server's reason when refused or gone
    // (asked by default: only a player who chose "send at once" is not)
    confirm: localStorage.getItem(ASK_BEFORE_SENDING) !== '0',
    handOverAsked: null, // the seat whose hand-over was asked once (handover.js)
    wasMyTurn: false,
    epoch: 0,         // counts the snapshots that reset the move being built
    awaiting: null,   // the version a committed move was sent from, until its snapshot comes
    awaitTimer: 0,
    root: null,
    frame: null,      // the table's lasting elements (see drawTable)
    parts: {},        // the panels drawn last, with what they were drawn from
    motion: createMotion(), // the last move marked on the board (motion.js)
  };
  const root = h('section', {class: 'table', 'aria-busy': 'true'}, h('p', {}, t('table.loading')));
  replace(main, root);
  page.root = root;
  // (a seat named in the address whose key this browser does not hold:
  // the page says how to get it, and shows the spectators' view)
  page.keyless = seatNumber && !token ? seatNumber : null;
  page.chat = new ChatPanel(id, token);

  const draw = () => drawTable(root, page, actions);
  page.people = createPeople(page, draw);
  const actions = {
    choose: (entry) => choose(page, entry, draw),
    // (a part chosen again: the move without it, or as the board changed it)
    setParts: (parts) => setParts(page, parts, draw),
    takeBack: () => setParts(page, page.partial.slice(0, -1), draw),
    send: () => send(page, draw),
    hint: () => askHint(page, draw),
    redraw: () => draw(),
    zombie: async (seat, zombie) => {
      try {
        await api.zombie(id, creatorToken(id), seat, zombie);
      } catch (error) {
        page.error = error.message;
        draw();
      }
    },
    undoMove: () => requestThenReload(page, draw, () => api.takeBack(id, token)),
    askHandOver: (seat) => { page.handOverAsked = seat; draw(); },
    handOver: (seat) => {
      page.handOverAsked = null;
      return requestThenReload(page, draw, () => api.handOver(id, token, seat, false));
    },
    playAgain: () => requestThenReload(page, draw, () => api.handOver(id, token, page.snapshot.seat, true)),
    toggleSound: () => { toggleSound(); draw(); },
    toggleConfirm: () => {
      page.confirm = !page.confirm;
      localStorage.setItem(ASK_BEFORE_SENDING, page.confirm ? '1' : '0');
      draw();
    },
  };

  const connection = new TableConnection(id, token,
    // (while a request is on its way, its answer draws the page: once)
    (snapshot) => { if (receive(page, snapshot)) draw(); },
    (status, reason) => { page.connection = status; page.connectionReason = reason || ''; draw(); },
    (message) => page.chat.receive(message));
  const clock = setInterval(() => tickClocks(root, page), 250);
  return () => {
    connection.close();
    clearInterval(clock);
    clearTimeout(page.awaitTimer);
    document.title = 'gateau';
  };
}

// ---- Following the server ---------------------------------------------------

const sameLegal = (a, b) => JSON.stringify(a || []) === JSON.stringify(b || []);

// Takes a snapshot in; returns whether the page should be drawn now (not
// while a request of its own is on its way: its answer draws).
function receive(page, snapshot) {
  const before = page.snapshot;
  page.snapshot = snapshot;
  page.receivedAt = performance.now();
  // The snapshot of a move this seat sent: the move is played.
  const played = page.awaiting !== null && snapshot.version > page.awaiting;
  // A move being built survives a change that leaves this seat's first
  // choices as they were (another seat's simultaneous move, someone
  // connecting); otherwise the choices are the snapshot's first actions.
  if (played || !before || !page.partial.length || !sameLegal(before.legal, snapshot.legal)) {
    if (page.partial.length) page.epoch++;
    page.partial = [];
    page.legal = snapshot.legal || [];
    page.complete = false;
    page.move = null;
    page.confirming = false;
    page.hint = null;
  }
  if (played) {
    page.awaiting = null;
    clearTimeout(page.awaitTimer);
    page.busy = false;
  }
  const myTurn = Boolean(snapshot.legal && snapshot.legal.length);
  if (myTurn && !page.wasMyTurn) announceTurn(snapshot);
  page.wasMyTurn = myTurn;
  document.title = myTurn ? `● ${t('table.title_your_turn')} · gateau` : 'gateau';
  return !page.busy;
}

function announceTurn(snapshot) {
  if (!document.hidden || !('Notification' in window)) return;
  if (Notification.permission !== 'granted') return;
  new Notification('gateau', {body: t('table.notify_your_turn', {game: gameTitle(snapshot.game)}),
    tag: `gateau-${snapshot.id}`});
}

// A click is answered at once without a redraw: the page says it is busy
// and marks what was chosen; the request's answer draws the page, once.
function showBusy(page, action) {
  const root = page.root;
  root.setAttribute('aria-busy', 'true');
  for (const button of root.querySelectorAll('.move-buttons button')) button.disabled = true;
  if (action === undefined) return;
  for (const element of root.querySelectorAll(`[data-action="${action}"]`)) element.classList.add('picked');
}

// A part chosen: the move with it.  Choosing a part that is chosen already
// takes it out again (its element on the board is the same).
function choose(page, entry, draw) {
  if (page.partial.includes(entry)) return setParts(page, page.partial.filter((e) => e !== entry), draw);
  // A move of one part chosen (a vote, "pass"): another first choice
  // takes its place.
  if (aloneChosen(page) && (page.snapshot.legal || []).includes(entry)) return setParts(page, [entry], draw, entry.action);
  return setParts(page, [...page.partial, entry], draw, entry.action);
}

// Whether the move built is one part that is a whole move by itself: the
// other first choices then stay on offer, to change one's mind.
function aloneChosen(page) {
  const [only] = page.partial;
  return page.partial.length === 1 && only.complete === true && (page.snapshot.legal || []).includes(only);
}

// The move built becomes parts (in the order chosen); the server says
// what may still join them and whether they make a whole move.  A part
// the server refuses is not kept, and the reason is shown.
async function setParts(page, parts, draw, picked) {
  if (page.busy) return;
  const before = page.partial;
  page.partial = parts;
  page.error = '';
  page.confirming = false;
  if (!parts.length) {
    page.legal = page.snapshot.legal || [];
    page.complete = false;
    page.move = null;
    return draw();
  }
  page.busy = true;
  showBusy(page, picked);
  const epoch = page.epoch;
  try {
    const answer = await api.legal(page.id, page.token, parts.map((e) => e.action));
    // (a snapshot that changed this seat's choices meanwhile stands)
    if (page.epoch === epoch) {
      page.legal = answer.legal;
      page.complete = answer.complete;
      page.move = answer.move || null;
    }
  } catch (error) {
    if (page.epoch === epoch) {
      page.partial = before;
      page.error = t('table.refused', {reason: error.message});
      if (error.status) await reload(page);
    }
  }
  page.busy = false;
  draw();
}

async function send(page, draw) {
  if (page.busy || !page.complete || !coachReady(page)) return;
  // Asked to: the first press says what will be sent, the second sends
  // (not in a lesson: the move is the one its step teaches).
  if (page.confirm && !page.coach && !page.confirming) {
    page.confirming = true;
    return draw();
  }
  page.confirming = false;
  page.busy = true;
  showBusy(page);
  return post(page, draw);
}

// How long a committed move waits for its snapshot before the page stops
// waiting (the socket brings it when it can).
const SNAPSHOT_WAIT_MS = 2000;

// Sends the move built (the page is busy); once the server has committed
// it, the page stays busy until the move's snapshot comes (it may have
// come already), so that the move is drawn once, as played.
async function post(page, draw) {
  const version = page.snapshot.version;
  try {
    await api.move(page.id, page.token, version, page.move || page.partial.map((e) => e.action));
    if (page.snapshot.version <= version) {
      page.awaiting = version;
      page.awaitTimer = setTimeout(() => {
        if (page.awaiting !== version) return;
        page.awaiting = null;
        page.partial = [];
        page.legal = [];
        page.complete = false;
        page.move = null;
        page.busy = false;
        draw();
      }, SNAPSHOT_WAIT_MS);
      return;
    }
    page.partial = [];
    page.legal = page.snapshot.legal || [];
    page.complete = false;
    page.move = null;
  } catch (error) {
    // Any refusal (409 stale, 422 illegal, 403 ...) may mean the page is
    // behind the table: it says why and starts again from the table as it
    // is now, so that it never goes on saying "Your move" when it is not.
    page.error = error.status === 409 ? t('table.stale') : t('table.refused', {reason: error.message});
    page.partial = [];
    page.legal = page.snapshot.legal || [];
    page.complete = false;
    page.move = null;
    if (error.status) await reload(page);
  }
  page.busy = false;
  draw();
}

// Fetches the table's snapshot now, after a refusal: the socket may be
// slower to bring it, or bring nothing (the table did not change, and the
// page was wrong about it).  The snapshot decides, as receive() does,
// whether a move being built still stands.
async function reload(page) {
  try {
    const snapshot = await api.table(page.id, page.token);
    page.awaiting = null;
    receive(page, snapshot);
  } catch { /* the socket will bring it */ }
}

// A request about the table (a take-back, a hand-over): its change comes
// over the socket; a refusal is shown, and the table fetched again.
async function requestThenReload(page, draw, call) {
  if (page.busy) return;
  page.error = '';
  page.busy = true;
  showBusy(page);
  try {
    await call();
  } catch (error) {
    page.error = t('table.refused', {reason: error.message});
    if (error.status) await reload(page);
  }
  page.busy = false;
  draw();
}

async function askHint(page, draw) {
  page.hintBusy = true;
  page.hint = null;
  draw();
  try {
    page.hint = await api.hint(page.id, page.token);
  } catch (error) {
    page.hint = {error: error.message};
  }
  page.hintBusy = false;
  draw();
}

// ---- Drawing ----------------------------------------------------------------------

function drawTable(root, page, actions) {
  const snapshot = page.snapshot;
  if (!snapshot) {
    // (nothing to show, and nothing will come: say why)
    if (page.connection === 'gone') {
      root.setAttribute('aria-busy', 'false');
      replace(root, h('p', {class: 'error', role: 'alert'}, connectionWords(page)));
    }
    return;
  }
  const started = performance.now();
  // Keyboard focus survives the redraw: the element with the same
  // data-focus key (or action) gets it back.
  const focused = document.activeElement;
  const focusKey = focused && root.contains(focused) &&
    (focused.dataset.focus || (focused.dataset.action && `action-${focused.dataset.action}`));
  // (a ring shows on the element again only if it showed: not after a click)
  const ringShown = Boolean(focusKey) && focused.matches(':focus-visible');

  const renderer = RENDERERS[snapshot.game];
  let offered = page.busy || snapshot.over ? [] : aloneChosen(page) ? snapshot.legal : page.legal;
  // (a lesson offers the part it teaches: learn/coach.js)
  if (page.coach) offered = page.coach.offer(snapshot, page.partial, offered);
  const board = renderBoard(renderer, snapshot, offered, snapshot.over ? [] : page.partial,
    actions.choose, actions.setParts);
  const onBoard = new Set([...board.querySelectorAll('[data-action]')].map((e) => Number(e.dataset.action)));
  const others = offered.filter((entry) => !onBoard.has(entry.action));

  // The panels that did not change stay as they are on the page (a click
  // that builds a move changes the board and the move panel only): the
  // browser then styles and lays out only what is new.
  const lang = currentLanguage();
  const part = (name, inputs, build) => {
    const last = page.parts[name];
    if (last && last.inputs.length === inputs.length && last.inputs.every((value, i) => value === inputs[i])) {
      return last.node;
    }
    const node = build();
    page.parts[name] = {inputs, node};
    return node;
  };
  const log = snapshot.log;
  const logKey = `${log.length}|${JSON.stringify(log[log.length - 1] || null)}|${names(snapshot).join('\n')}`;
  if (!page.frame) {
    page.frame = {body: h('div', {class: 'table-body'}), area: h('div', {class: 'board-area'}),
      side: h('aside', {class: 'side'})};
    page.frame.body.append(page.frame.area, page.frame.side);
  }
  const frame = page.frame;

  page.motion.show(frame.area.querySelector('[data-testid=board]'), board, snapshot.version);
  markHint(board, page.hint);
  root.setAttribute('aria-busy', page.busy ? 'true' : 'false');
  place(root, tableHeader(page, actions), ...page.people.nodes(snapshot), frame.body);
  place(frame.area, page.coach && page.coach.panel(snapshot, page.partial, page.complete), board,
    snapshot.over && part('end', [snapshot, lang], () => endPanel(page, renderer)));
  place(frame.side,
    movePanel(page, actions, renderer, others),
    part('players', [snapshot, Boolean(creatorToken(page.id)), lang, page.handOverAsked, page.zombieAsked], () => playersPanel(page, renderer, actions)),
    !page.coach && part('hint', [snapshot, page.hint, page.hintBusy, lang], () => hintPanel(page, actions, renderer)),
    page.chat.node,
    part('log', [logKey, lang], () => logPanel(page, renderer)));

  if (focusKey && document.activeElement !== focused) {
    const again = root.querySelector(`[data-focus="${focusKey}"]`) ||
      (focusKey.startsWith('action-') && root.querySelector(`[data-action="${focusKey.slice(7)}"]`));
    if (again) again.focus({focusVisible: ringShown});
  }
  if (page.coach) page.coach.mark(root, snapshot, page.partial, page.complete);
  // (for bench/bench_web.mjs: what a whole redraw costs)
  performance.measure('gateau-draw', {start: started});
}

// What the page says of its live connection.
function connectionWords(page) {
  const reason = page.connectionReason || t('table.no_reason');
  switch (page.connection) {
    case 'open': return t('table.connection_open');
    case 'refused': return t('table.connection_refused', {reason});
    case 'gone': return t('table.connection_gone', {reason});
    default: return t('table.connection_closed');
  }
}

function names(snapshot) {
  return snapshot.seats.map((seat) => seat.name);
}

function waitingFor(snapshot) {
  const list = (snapshot.to_move || []).map((seat) => names(snapshot)[seat - 1]);
  return list.join(', ');
}

function statusLine(page) {
  const snapshot = page.snapshot;
  if (snapshot.over) return t('table.over');
  if (snapshot.legal && snapshot.legal.length) return t('table.your_move');
  if ((snapshot.to_move || []).length) return t('table.waiting_for', {names: waitingFor(snapshot)});
  return t('table.waiting');
}

function tableHeader(page, actions) {
  const snapshot = page.snapshot;
  const me = snapshot.seat ? names(snapshot)[snapshot.seat - 1] : null;
  return h('div', {class: 'table-top'},
    h('h1', {}, gameTitle(snapshot.game)),
    h('p', {class: 'who'}, me ? t('table.you_are', {name: me, seat: snapshot.seat}) : t('table.spectator')),
    h('p', {class: `status${snapshot.legal && snapshot.legal.length ? ' my-turn' : ''}`, role: 'status',
      'aria-live': 'polite', 'data-testid': 'status'}, statusLine(page)),
    snapshot.broken && !snapshot.over && h('p', {class: 'error', role: 'alert', 'data-testid': 'broken'},
      t('table.broken', {reason: snapshot.broken})),
    h('p', {class: `connection ${page.connection}`, 'data-testid': 'connection',
      role: page.connection === 'refused' || page.connection === 'gone' ? 'alert' : null}, connectionWords(page)),
    'Notification' in window && Notification.permission === 'default' && snapshot.seat && !snapshot.over &&
      h('button', {type: 'button', 'data-focus': 'notify',
        onclick: () => Notification.requestPermission().then(actions.redraw)},
      t('table.notify')),
    timeBars(page),
    handedNotice(page, actions));
}

function movePanel(page, actions, renderer, others) {
  const snapshot = page.snapshot;
  if (!snapshot.seat || snapshot.over) return null;
  const myTurn = snapshot.legal && snapshot.legal.length;
  const built = page.partial.map((entry) => actionLabel(renderer, entry.name)).join(' · ');
  return h('section', {class: 'move-panel', 'aria-label': t('table.your_move_panel')},
    h('h2', {}, t('table.your_move_panel')),
    !myTurn && h('p', {class: 'muted'}, t('table.not_your_turn')),
    myTurn && h('p', {class: 'built', 'data-testid': 'built'},
      page.partial.length ? built : t('table.choose_on_board')),
    others.length > 0 && h('div', {class: 'other-choices', role: 'group', 'aria-label': t('table.other_choices')},
      others.map((entry) => h('button', {type: 'button', 'data-action': entry.action,
        onclick: () => actions.choose(entry)}, actionLabel(renderer, entry.name)))),
    myTurn && page.confirming && h('p', {class: 'confirming', role: 'alert'}, t('table.confirm_send', {move: built})),
    myTurn && h('div', {class: 'move-buttons'},
      h('button', {type: 'button', 'data-focus': 'take-back', disabled: !page.partial.length || page.busy,
        onclick: actions.takeBack}, t('table.take_back')),
      h('button', {type: 'button', class: 'primary', 'data-focus': 'send', 'data-testid': 'send',
        disabled: !page.complete || page.busy || !coachReady(page), onclick: actions.send},
      t(page.confirming ? 'table.send_confirmed' : 'table.send'))),
    canTakeBack(snapshot) && takeBackButton(page, actions.undoMove),
    h('label', {class: 'confirm'},
      h('input', {type: 'checkbox', checked: page.confirm, 'data-focus': 'confirm', onchange: actions.toggleConfirm}),
      ' ', t('table.ask_before_sending')),
    snapshot.clock && h('label', {class: 'confirm'},
      h('input', {type: 'checkbox', checked: soundAllowed(), 'data-focus': 'sound', onchange: actions.toggleSound}),
      ' ', t('clock.sound')),
    page.error && h('p', {class: 'error', role: 'alert'}, page.error));
}

const clockLeft = timeLeft; // (clock.js)

// Whether a lesson lets the move built be sent (every part it teaches chosen).
function coachReady(page) {
  return !page.coach || page.coach.ready(page.snapshot, page.partial);
}

function tickClocks(root, page) {
  if (!page.snapshot) return;
  tickTimeBars(root, page);
  for (const seat of page.snapshot.seats) {
    if (seat.clock === null || seat.clock === undefined) continue;
    const cell = root.querySelector(`[data-clock="${seat.seat}"]`);
    if (cell) cell.textContent = formatClock(clockLeft(page, seat));
  }
}

function seatKind(seat) {
  if (seat.invited) return t('table.invited');
  if (seat.open) return t('table.open_seat');
  if (seat.zombie) return t('table.zombie');
  if (seat.player === 'bot') return botWords(seat.bot);
  return t('table.person');
}

// The creator (the browser that made the table) may hand a person's seat
// to a bot, when its player has left, and back.
function playersPanel(page, renderer, actions) {
  const snapshot = page.snapshot;
  const creator = Boolean(creatorToken(page.id));
  const toMove = new Set(snapshot.to_move || []);
  return h('section', {class: 'players', 'aria-label': t('table.players')},
    h('h2', {}, t('table.players')),
    h('table', {},
      h('thead', {}, h('tr', {},
        h('th', {scope: 'col'}, t('table.player')), h('th', {scope: 'col'}, t('table.score')),
        h('th', {scope: 'col'}, t('table.clock')))),
      h('tbody', {}, snapshot.seats.map((seat) => h('tr', {class: toMove.has(seat.seat) ? 'to-move' : ''},
        h('td', {},
          h('span', {class: `presence ${seat.connected || seat.player === 'bot' ? 'on' : 'off'}`,
            title: seat.connected ? t('table.connected') : t('table.not_connected')},
          seat.player === 'bot' ? '◆' : seat.connected ? '●' : '○'),
          h('span', {class: 'visually-hidden'}, seat.player !== 'bot' &&
            (seat.connected ? t('table.connected') : t('table.not_connected'))),
          ' ', h('strong', {}, seat.name), snapshot.seat === seat.seat && ` (${t('table.you')})`,
          h('span', {class: 'kind'}, ' · ', seatKind(seat)),
          toMove.has(seat.seat) && !snapshot.over && h('span', {class: 'turn-mark'}, ' ', t('table.to_move')),
          // (the creator's: a seat whose player has left, asked twice; the server refuses a seat
          // whose player is here)
          creator && seat.player !== 'bot' && !seat.open && !snapshot.over && seat.seat !== snapshot.seat &&
            (seat.zombie || !seat.connected) && (page.zombieAsked === seat.seat && !seat.zombie
            ? h('span', {class: 'hand-over-question', role: 'group', 'aria-label': t('table.let_bot_play', {name: seat.name})},
              ' ', t('table.hand_over_confirm', {name: seat.name}), ' ',
              h('button', {type: 'button', class: 'small', 'data-focus': `zombie-yes-${seat.seat}`,
                onclick: () => { page.zombieAsked = null; actions.zombie(seat.seat, true); }}, t('table.hand_over_yes')), ' ',
              h('button', {type: 'button', class: 'small', 'data-focus': `zombie-no-${seat.seat}`,
                onclick: () => { page.zombieAsked = null; actions.redraw(); }}, t('table.hand_over_no')))
            : h('button', {type: 'button', class: 'small', 'data-focus': `zombie-${seat.seat}`,
              onclick: () => {
                if (seat.zombie) actions.zombie(seat.seat, false);
                else { page.zombieAsked = seat.seat; actions.redraw(); }
              }},
            seat.zombie ? t('table.hand_back', {name: seat.name}) : t('table.let_bot_play', {name: seat.name}))),
          !creator && mayHandOver(snapshot, seat) && handOverControls(page, seat, actions)),
        h('td', {'data-score-seat': seat.seat},
          snapshot.over && snapshot.scores ? snapshot.scores[seat.seat - 1] : scoreOf(renderer, snapshot.view, seat.seat)),
        h('td', {'data-clock': seat.seat}, formatClock(seat.clock === null ? null : clockLeft(page, seat)))))),
      snapshot.seats.some((seat) => seat.open && !seat.invited) && h('p', {class: 'invite'},
        t('table.open_seats_note'), ' ', h('a', {href: '#/'}, t('app.lobby')))));
}

function hintPanel(page, actions, renderer) {
  const snapshot = page.snapshot;
  if (!snapshot.seat || snapshot.over || !(snapshot.legal && snapshot.legal.length)) return null;
  const hint = page.hint;
  return h('section', {class: 'hint', 'aria-label': t('table.hint')},
    h('button', {type: 'button', 'data-focus': 'hint', disabled: page.hintBusy, onclick: actions.hint},
      page.hintBusy ? t('table.hint_thinking') : t('table.hint')),
    hint && hint.error && h('p', {class: 'error'}, hint.error),
    hint && hint.moves && h('ol', {class: 'hint-moves'}, hint.moves.map((move) =>
      h('li', {}, h('code', {}, move.move), ' ',
        moveWords(renderer, move.move, names(snapshot)) && h('span', {class: 'hint-words'},
          moveWords(renderer, move.move, names(snapshot)), ' · '),
        t('table.hint_line', {win: (move.win * 100).toFixed(0), score: move.score.toFixed(1),
          unit: t(`unit.${hint.unit || 'points'}`)}),
        move.exact ? ` (${t('table.hint_exact')})` : ''))));
}

function logPanel(page, renderer) {
  const snapshot = page.snapshot;
  const list = names(snapshot);
  const entries = snapshot.log.slice().reverse();
  return h('section', {class: 'log', 'aria-label': t('table.log')},
    h('h2', {}, t('table.log')),
    // (focusable: a region that scrolls must be reachable by keyboard)
    h('ol', {reversed: true, 'aria-live': 'polite', 'data-testid': 'log', tabindex: 0,
      'aria-label': t('table.log')}, entries.map((entry) =>
      h('li', {class: entry.seat === null ? 'chance' : ''}, entryWords(renderer, entry, list),
        entry.move && h('code', {class: 'notation', title: t('table.notation')}, entry.move),
        entry.note && h('em', {class: 'note'}, ' ', noteWords(entry.note, list))))));
}

function endPanel(page, renderer) {
  const snapshot = page.snapshot;
  const list = names(snapshot);
  // The winners are the server's, after the game's tiebreaks.
  const winners = new Set(snapshot.winners || []);
  const ranked = snapshot.seats.map((seat) => ({seat: seat.seat, name: list[seat.seat - 1],
    score: snapshot.scores ? snapshot.scores[seat.seat - 1] : 0, won: winners.has(seat.seat)}))
    .sort((a, b) => (b.won - a.won) || (b.score - a.score));
  return h('section', {class: 'end', 'aria-label': t('table.final_scores'), 'data-testid': 'end'},
    h('h2', {}, t('table.final_scores')),
    // (expired, or a seat's program forfeited: the server's reason, as it
    // stores it; the scores below are the points as they stood)
    snapshot.ended && h('p', {class: 'ended', 'data-testid': 'ended'},
      t('table.ended_early', {reason: snapshot.ended})),
    h('ol', {class: 'ranking'}, ranked.map((entry) =>
      h('li', {class: entry.won ? 'winner' : '', 'data-winner': entry.won ? 'true' : null},
        h('strong', {}, entry.name), ' ',
        h('span', {'data-final-score-seat': entry.seat}, entry.score),
        entry.won ? ` ★ ${t('table.winner')}` : ''))),
    renderer.scoring && renderer.scoring(boardContext(renderer, snapshot, [], [], () => {})),
    rematchControls(page, snapshot),
    h('p', {},
      h('a', {href: api.recordPath(page.id), download: `gateau-${page.id}.txt`, 'data-testid': 'record'},
        t('table.download_record')),
      ' · ',
      h('a', {href: `#/replay/${page.id}${snapshot.seat ? `/${snapshot.seat}` : ''}`}, t('table.replay')),
      ' · ',
      h('a', {href: `#/review/${page.id}`}, t('table.review'),
        snapshot.review && snapshot.review.state === 'running' && snapshot.review.total
          ? ` (${Math.round(100 * snapshot.review.done / snapshot.review.total)}%)` : '')));
}
