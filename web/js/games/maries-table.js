// Marie's Table: the board (rules: shared/rules/maries-table.md).
//
// Drawn from the seat's view only: the round and the decks, the brothers in
// their order this round (eldest first), the table with each brother's pair
// (face down during the draft, face up from the reveal), the votes and what
// they decided, who took whose pair and what he ate, the seat's own place
// (the hand passed to him, the vote, the keep-or-eat choice), every
// brother's kept cards, eaten count and score, and the rounds so far.
//
// Every face-up card carries data-card="<where>-<value>", the value being
// what the view names it, with where it lies, so that a spectator's page can
// be checked for cards it must not show:
//   hand-V     the hand this seat was passed, still to pick from (draft)
//   mine-V     the pair this seat kept face down (draft)
//   passed-V   what this seat passed on (draft)
//   rR-sS-V    seat S's pair of round R, turned up
//   kept-sS-V  seat S's kept cards
//   vote-sS-up / vote-sS-down   a vote shown face up
//
// Action names (the server's, English): "keep a" for each card of the
// pair, chosen in any order (the engine orders them; "and b" was the
// higher card's name when the pair was built lower card first),
// "up", "down", "take S" (whose pair), "eat", "eat v", "eat a b".

import {t} from '../i18n.js';
import {readSentence, playerName} from './words.js';
import {icon} from '../icons.js';

const VALUES = [1, 2, 3, 4, 5, 6, 7];
// Points for how many cards of one value a player kept (0..8).
const KEPT_POINTS = [0, -3, -1, 1, 3, 5, 6, 7, 8];
const EAT_LIMIT = 2;

// ---- The actions' names ---------------------------------------------------------

function parse(name) {
  let m;
  if ((m = /^keep ([1-7])$/.exec(name))) return {kind: 'keep', value: +m[1]};
  if ((m = /^and ([1-7])$/.exec(name))) return {kind: 'and', value: +m[1]};
  if (name === 'up' || name === 'down') return {kind: 'vote', vote: name};
  if ((m = /^take (\d+)$/.exec(name))) return {kind: 'take', seat: +m[1]};
  if ((m = /^eat(?: ([1-7]))?(?: ([1-7]))?$/.exec(name))) {
    return {kind: 'eat', eaten: [m[1], m[2]].filter(Boolean).map(Number)};
  }
  return null;
}

export function label(name) {
  const action = parse(name);
  if (!action) return null;
  switch (action.kind) {
    case 'keep': return t('mt.act_keep', {v: action.value});
    case 'and': return t('mt.act_and', {v: action.value});
    case 'vote': return t(action.vote === 'up' ? 'mt.act_up' : 'mt.act_down');
    case 'take': return t('mt.act_take', {seat: action.seat});
    default:
      if (!action.eaten.length) return t('mt.act_eat_none');
      if (action.eaten.length === 1) return t('mt.act_eat_one', {v: action.eaten[0]});
      return t('mt.act_eat_two', {a: action.eaten[0], b: action.eaten[1]});
  }
}

export function score(view, seat) {
  const entry = view && view.seats && view.seats[seat - 1];
  return entry ? entry.score : '';
}

// ---- Helpers -----------------------------------------------------------------------

const nameOf = (ctx, seat) => (ctx.names && ctx.names[seat - 1]) || ctx.t('mt.seat', {seat});

function keptPoints(count) {
  return KEPT_POINTS[Math.min(count, KEPT_POINTS.length - 1)];
}

const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');

// The round being played, once its pairs are turned up (vote, take, eat).
function currentRound(view) {
  if (!['vote', 'take', 'eat'].includes(view.phase)) return null;
  return (view.revealed || []).find((round) => round.round === view.round) || null;
}

// A card face up (its value drawn by the style sheet from data-v, so that
// a card to click has no text besides its label): value, code (data-card), extra classes, and attributes
// (from ctx.clickable when it can be played).
function card(ctx, value, code, {extra = '', attributes = null, label: text = null} = {}) {
  const ariaLabel = text || ctx.t('mt.card', {v: value});
  const base = {class: `mt-card v${value}${extra ? ` ${extra}` : ''}`, 'data-card': code};
  const element = attributes
    ? ctx.h('div', {...base, ...attributes, class: `${attributes.class ? `${attributes.class} ` : ''}${base.class}`})
    : ctx.h('div', {...base, role: 'img', 'aria-label': ariaLabel});
  element.append(
    ctx.h('span', {class: 'mt-corner', 'data-v': value, 'aria-hidden': 'true'}),
    cakeSlice(ctx, value),
    ctx.h('span', {class: 'mt-num', 'data-v': value, 'aria-hidden': 'true'}));
  return element;
}

// A little slice of cake on each card, its layers as many as the value
// (so that the picture, too, tells the values apart).
function cakeSlice(ctx, value) {
  const s = ctx.s;
  const layers = [];
  const top = 6, bottom = 30, height = (bottom - top) / value;
  for (let i = 0; i < value; i++) {
    const y = top + i * height;
    layers.push(s('rect', {x: 4, y: y.toFixed(2), width: 32, height: (height - 0.8).toFixed(2),
      rx: 1.2, class: i % 2 ? 'mt-layer-b' : 'mt-layer-a'}));
  }
  return s('svg', {class: 'mt-slice', viewBox: '0 0 40 34', 'aria-hidden': 'true', focusable: 'false'},
    s('path', {d: 'M2 6 Q20 -1 38 6 L38 31 L2 31 Z', class: 'mt-cream'}),
    layers,
    s('path', {d: 'M2 31 L38 31', class: 'mt-plate-line'}));
}

function cardBack(ctx, text, extra = '') {
  return ctx.h('div', {class: `mt-card mt-back${extra ? ` ${extra}` : ''}`, role: 'img',
    'aria-label': text || ctx.t('mt.face_down')},
  ctx.h('span', {class: 'mt-monogram', 'aria-hidden': 'true'}, 'M'));
}

function voteToken(ctx, seat, vote) {
  const h = ctx.h;
  if (vote === 'up' || vote === 'down') {
    return h('span', {class: `mt-vote ${vote}`, 'data-card': `vote-s${seat}-${vote}`, role: 'img',
      'aria-label': ctx.t(vote === 'up' ? 'mt.vote_up_of' : 'mt.vote_down_of', {name: nameOf(ctx, seat)})},
    h('span', {'aria-hidden': 'true', class: 'mt-thumb'}, icon(vote)), ' ',
    ctx.t(vote === 'up' ? 'mt.content' : 'mt.discontent'));
  }
  if (vote === 'hidden') {
    return h('span', {class: 'mt-vote hidden', role: 'img',
      'aria-label': ctx.t('mt.vote_hidden_of', {name: nameOf(ctx, seat)})},
    h('span', {'aria-hidden': 'true', class: 'mt-thumb'}, '●'), ' ', ctx.t('mt.voted'));
  }
  return h('span', {class: 'mt-vote none'}, h('span', {'aria-hidden': 'true', class: 'mt-thumb'}, '…'), ' ',
    ctx.t('mt.not_voted'));
}

// ---- The board -----------------------------------------------------------------------

export function render(ctx) {
  const {h, view} = ctx;
  const used = new Set();   // the legal actions drawn
  const draw = (entry, attributes) => {
    used.add(entry.action);
    return ctx.clickable(entry, attributes);
  };
  const parts = [
    infoBar(ctx),
    tablePart(ctx, draw),
    ctx.seat && view.phase !== 'over' && myPlace(ctx, draw),
    brothersPart(ctx),
    historyPart(ctx),
  ];
  // Whatever legal action the board did not place (a name not understood):
  // still here, as a button.
  const rest = ctx.legal.filter((entry) => !used.has(entry.action));
  return h('div', {class: `mt mt-p${view.players}`},
    parts,
    rest.length > 0 && h('div', {class: 'mt-actions', role: 'group', 'aria-label': ctx.t('mt.more_actions')},
      rest.map((entry) => h('button', ctx.clickable(entry, {type: 'button'}), label(entry.name) || entry.name))));
}

// Round, decks, phase, and the brothers' order this round.
function infoBar(ctx) {
  const {h, view} = ctx;
  const over = view.phase === 'over';
  const left = over ? 0 : Math.max(0, view.rounds - view.round);
  const decks = [];
  for (let i = 0; i < view.rounds; i++) {
    const state = i < view.round - 1 || (over && i < view.rounds) ? 'done'
      : i === view.round - 1 ? 'now' : 'left';
    decks.push(h('span', {class: `mt-deck ${state}`, 'aria-hidden': 'true'}, state === 'now' ? String(view.round) : ''));
  }
  const brothers = view.brothers || [];
  return h('div', {class: 'mt-info'},
    h('div', {class: 'mt-round'},
      h('span', {class: 'mt-round-n'}, over ? ctx.t('mt.game_over') : ctx.t('mt.round', {round: view.round, rounds: view.rounds})),
      h('span', {class: 'mt-decks', role: 'img',
        'aria-label': ctx.t('mt.decks_left', {n: left, size: view.deck_size})}, decks),
      h('span', {class: 'mt-deck-note'}, ctx.t('mt.deck_note', {n: left, size: view.deck_size}))),
    !over && h('div', {class: 'mt-phase', 'data-phase': view.phase}, ctx.t(`mt.phase_${view.phase}`)),
    brothers.length > 0 && !over && h('ol', {class: 'mt-order', 'aria-label': ctx.t('mt.order')},
      brothers.map((seat, index) => h('li', {class: `${seat === ctx.seat ? 'me' : ''}`},
        index === 0 && h('span', {class: 'mt-role eldest'}, ctx.t('mt.eldest')),
        index === brothers.length - 1 && h('span', {class: 'mt-role youngest'}, ctx.t('mt.youngest')),
        h('span', {class: 'mt-order-name'}, nameOf(ctx, seat)),
        seat === ctx.seat && h('span', {class: 'mt-you'}, ctx.t('mt.you'))))));
}

// The table: one plate per brother, in the order of this round.
function tablePart(ctx, draw) {
  const {h, view} = ctx;
  if (view.phase === 'over' || view.phase === 'deal') return null;
  const brothers = view.brothers || [];
  const round = currentRound(view);
  const toAct = new Set(view.to_act || []);
  const takes = new Map();   // seat whose pair -> legal entry
  for (const entry of ctx.legal) {
    const action = parse(entry.name);
    if (action && action.kind === 'take') takes.set(action.seat, entry);
  }
  const chosenTake = ctx.partial.map((entry) => parse(entry.name)).find((a) => a && a.kind === 'take');

  const plates = brothers.map((seat) => {
    const classes = ['mt-plate'];
    if (seat === ctx.seat) classes.push('me');
    if (toAct.has(seat)) classes.push('acting');
    let body, under = null, note = null;
    if (view.phase === 'draft') {
      const draft = view.draft;
      if (draft.drafter === seat) {
        classes.push('drafting');
        body = h('div', {class: 'mt-hand-stack', role: 'img',
          'aria-label': ctx.t('mt.choosing_from', {n: draft.hand_size})},
        Array.from({length: Math.min(draft.hand_size, 6)}, () => h('span', {class: 'mt-stack-card', 'aria-hidden': 'true'})));
        note = ctx.t('mt.choosing_from', {n: draft.hand_size});
      } else if (draft.kept_face_down.includes(seat)) {
        if (seat === ctx.seat && draft.kept) {
          body = [card(ctx, draft.kept[0], `mine-${draft.kept[0]}`), card(ctx, draft.kept[1], `mine-${draft.kept[1]}`)];
          note = ctx.t('mt.kept_hidden_mine');
        } else {
          body = [cardBack(ctx), cardBack(ctx)];
          note = ctx.t('mt.kept_face_down');
        }
      } else {
        classes.push('empty');
        body = h('span', {class: 'mt-waiting'}, ctx.t('mt.waiting_hand'));
      }
    } else if (round) {
      const entry = round.seats[seat - 1];
      const takeEntry = takes.get(seat);
      const chosen = chosenTake && chosenTake.seat === seat;
      const taker = entry.taken_by && round.seats[entry.taken_by - 1];
      if (taker) classes.push(taker.ate === null ? 'being-taken' : 'taken');
      if (chosen) classes.push('chosen');
      const pair = entry.pair.map((v) => card(ctx, v, `r${round.round}-s${seat}-${v}`));
      body = takeEntry
        ? h('div', draw(takeEntry, {class: 'mt-pair mt-take', 'aria-label': ctx.t('mt.take_pair_of',
          {name: nameOf(ctx, seat), a: entry.pair[0], b: entry.pair[1]})}),
        pair, h('span', {class: 'mt-take-tag', 'aria-hidden': 'true'}, ctx.t('mt.take')))
        : h('div', {class: 'mt-pair'}, pair);
      under = voteToken(ctx, seat, entry.vote);
      if (taker) {
        note = entry.taken_by === seat ? ctx.t('mt.taken_back')
          : ctx.t('mt.taken_by', {name: nameOf(ctx, entry.taken_by)});
      }
    }
    return h('li', {class: classes.join(' '), 'data-seat': seat},
      h('div', {class: 'mt-plate-head'},
        h('span', {class: 'mt-plate-name name-clip', title: nameOf(ctx, seat)}, nameOf(ctx, seat)),
        seat === ctx.seat && h('span', {class: 'mt-you'}, ctx.t('mt.you')),
        toAct.has(seat) && h('span', {class: 'mt-acting', role: 'img', 'aria-label': ctx.t('mt.to_act')}, icon('next'))),
      h('div', {class: 'mt-dish'}, body),
      under && h('div', {class: 'mt-under'}, under),
      note && h('div', {class: 'mt-plate-note'}, note));
  });

  return h('section', {class: 'mt-cloth', 'aria-label': ctx.t('mt.the_table')},
    h('h2', {class: 'mt-h'}, ctx.t('mt.the_table'),
      view.phase === 'draft' && h('span', {class: 'mt-h-note'},
        ctx.t('mt.draft_note', {name: nameOf(ctx, view.draft.drafter), n: view.draft.hand_size}))),
    h('ol', {class: 'mt-plates'}, plates),
    round && verdict(ctx, round));
}

// What the votes decided, and how the taking goes.
function verdict(ctx, round) {
  const {h, view} = ctx;
  if (round.discontent === undefined) {
    const voted = round.seats.filter((entry) => entry.vote !== null).length;
    return h('p', {class: 'mt-verdict pending'}, ctx.t('mt.votes_pending', {n: voted, of: view.players}));
  }
  const order = (view.brothers || []).slice().reverse();
  return h('div', {class: `mt-verdict ${round.swap ? 'swap' : 'stay'}`},
    h('p', {class: 'mt-verdict-main'},
      h('span', {class: 'mt-verdict-mark', 'aria-hidden': 'true'}, round.swap ? icon('swap') : '='), ' ',
      ctx.t(round.swap ? 'mt.verdict_swap' : 'mt.verdict_stay', {n: round.discontent})),
    h('ol', {class: 'mt-takes', 'aria-label': ctx.t('mt.taking_order')},
      order.map((seat) => {
        const entry = round.seats[seat - 1];
        const done = entry.took !== null;
        const pair = done ? round.seats[entry.took - 1].pair : null;
        return h('li', {class: done ? 'done' : ''},
          h('strong', {}, nameOf(ctx, seat)), ' ',
          done ? [
            entry.took === seat ? ctx.t('mt.took_own') : ctx.t('mt.took_of', {name: nameOf(ctx, entry.took)}),
            ' ', h('span', {class: 'mt-mini-pair'}, pair.map((v) => h('span', {class: `mt-mini v${v}`}, v))),
            entry.ate === null ? ` · ${ctx.t('mt.deciding')}` : ` · ${eatWords(ctx, entry.ate)}`,
          ] : h('span', {class: 'muted'}, ctx.t('mt.to_come')));
      })));
}

function eatWords(ctx, ate) {
  if (!ate || !ate.length) return ctx.t('mt.kept_both');
  if (ate.length === 1) return ctx.t('mt.ate_one', {v: ate[0]});
  return ctx.t('mt.ate_two', {a: ate[0], b: ate[1]});
}

// The viewer's own place: the hand, the vote, the keep-or-eat choice.
function myPlace(ctx, draw) {
  const {h, view} = ctx;
  const me = view.seats[ctx.seat - 1];
  const eatenLeft = Math.max(0, EAT_LIMIT - me.eaten);
  let content = null, title = ctx.t('mt.your_place');
  const actions = ctx.legal.map((entry) => ({entry, action: parse(entry.name)}));
  const picks = ctx.partial.map((entry) => parse(entry.name)).filter(Boolean);

  if (view.phase === 'draft') {
    const draft = view.draft;
    if (draft.seen && !draft.kept) {
      title = ctx.t('mt.your_hand');
      content = handPart(ctx, draft, actions, picks, draw);
    } else if (draft.kept) {
      title = ctx.t('mt.your_pick');
      content = h('div', {class: 'mt-row'},
        h('div', {class: 'mt-group'}, h('span', {class: 'mt-group-label'}, ctx.t('mt.you_kept')),
          h('div', {class: 'mt-cards'}, draft.kept.map((v) => card(ctx, v, `mine-${v}`)))),
        h('div', {class: 'mt-group'}, h('span', {class: 'mt-group-label'}, ctx.t('mt.you_passed')),
          h('div', {class: 'mt-cards small'}, (draft.passed || []).map((v) => card(ctx, v, `passed-${v}`)))));
    } else {
      content = h('p', {class: 'mt-say'}, ctx.t('mt.wait_for_hand'));
    }
  } else if (view.phase === 'vote') {
    const votes = actions.filter((a) => a.action && a.action.kind === 'vote');
    const round = currentRound(view);
    const mine = round && round.seats[ctx.seat - 1].vote;
    const picked = picks.find((a) => a.kind === 'vote');
    title = ctx.t('mt.your_vote');
    content = votes.length
      ? [h('p', {class: 'mt-say'}, ctx.t('mt.vote_ask')),
        h('div', {class: 'mt-vote-buttons'}, votes.map(({entry, action}) =>
          h('div', draw(entry, {class: `mt-vote-button ${action.vote}${ctx.partial.includes(entry) ? ' chosen' : ''}`,
            'aria-pressed': ctx.partial.includes(entry) ? 'true' : null, 'aria-label': [
            ctx.t(action.vote === 'up' ? 'mt.content' : 'mt.discontent'),
            ctx.t(action.vote === 'up' ? 'mt.content_means' : 'mt.discontent_means')].join(' ')}),
            h('span', {class: `mt-thumb big ${action.vote}`, 'aria-hidden': 'true'}),
            h('span', {}, ctx.t(action.vote === 'up' ? 'mt.content' : 'mt.discontent')), ' ',
            h('small', {}, ctx.t(action.vote === 'up' ? 'mt.content_means' : 'mt.discontent_means')))))]
      : picked ? h('p', {class: 'mt-say'}, ctx.t(picked.vote === 'up' ? 'mt.you_vote_up' : 'mt.you_vote_down'))
        : h('p', {class: 'mt-say'}, mine && mine !== 'hidden' ? ctx.t(mine === 'up' ? 'mt.you_voted_up' : 'mt.you_voted_down')
          : ctx.t('mt.votes_wait'));
  } else if (view.phase === 'take' || view.phase === 'eat') {
    const round = currentRound(view);
    const mine = round.seats[ctx.seat - 1];
    const eats = actions.filter((a) => a.action && a.action.kind === 'eat');
    if (eats.length || (mine.took !== null && mine.ate === null)) {
      title = ctx.t('mt.your_share');
      const pair = round.seats[mine.took - 1].pair;
      const picked = picks.find((a) => a.kind === 'eat');
      content = [
        h('p', {class: 'mt-say'}, mine.took === ctx.seat ? ctx.t('mt.you_take_own') :
          ctx.t('mt.you_take_of', {name: nameOf(ctx, mine.took)})),
        h('div', {class: 'mt-eat-options'}, eats.map(({entry, action}) =>
          h('div', draw(entry, {class: `mt-eat-option${picked && entry.name === ctx.partial[ctx.partial.length - 1].name ? ' chosen' : ''}`}),
            h('span', {class: 'mt-eat-cards'}, eatPicture(ctx, pair, action.eaten)),
            h('span', {class: 'mt-eat-words'}, label(entry.name))))),
        eats.length === 1 && me.eaten >= EAT_LIMIT && h('p', {class: 'mt-say small'}, ctx.t('mt.must_keep')),
      ];
    } else if (actions.some((a) => a.action && a.action.kind === 'take')) {
      title = ctx.t('mt.your_take');
      content = h('p', {class: 'mt-say'}, ctx.t('mt.take_ask'));
    } else if (mine.took !== null) {
      content = h('p', {class: 'mt-say'}, mine.took === ctx.seat ? ctx.t('mt.you_took_own') :
        ctx.t('mt.you_took_of', {name: nameOf(ctx, mine.took)}), ' · ', eatWords(ctx, mine.ate));
    } else {
      content = h('p', {class: 'mt-say'}, ctx.t('mt.take_wait'));
    }
  }
  return h('section', {class: `mt-mine${ctx.legal.length ? ' my-turn' : ''}`, 'aria-label': title},
    h('h2', {class: 'mt-h'}, title,
      h('span', {class: 'mt-h-note mt-limit'}, ctx.t('mt.eat_limit', {left: eatenLeft}), ' ', eatDots(ctx, me.eaten))),
    content);
}

// The hand passed to this seat: two cards to keep, the rest to pass on.
function handPart(ctx, draft, actions, picks, draw) {
  const {h} = ctx;
  const hand = draft.seen.slice().sort((a, b) => a - b);
  // The cards chosen (either first, any copy): each clicked again goes back.
  const chosen = new Array(hand.length).fill(null);
  ctx.partial.forEach((entry, i) => {
    const pick = picks[i];
    if (!pick || (pick.kind !== 'keep' && pick.kind !== 'and')) return;
    // (the copy clicked, when the page knows it)
    const index = entry.copy !== undefined && hand[entry.copy] === pick.value && !chosen[entry.copy]
      ? entry.copy : hand.findIndex((v, k) => v === pick.value && !chosen[k]);
    if (index >= 0) chosen[index] = entry;
  });
  // Every other copy of a value that may join is offered.
  const offer = hand.map((v, i) => {
    if (chosen[i]) return null;
    const found = actions.find(({action}) => action && (action.kind === 'keep' || action.kind === 'and') && action.value === v);
    return found ? {...found.entry, copy: i} : null;
  });
  const next = nextBrother(ctx.view, ctx.seat);
  const count = chosen.filter(Boolean).length;
  const cards = hand.map((v, i) => {
    if (offer[i]) {
      return card(ctx, v, `hand-${v}`, {extra: 'pickable', attributes: draw(offer[i], {
        'aria-label': ctx.t(count ? 'mt.keep_also' : 'mt.keep_card', {v})})});
    }
    if (chosen[i] && ctx.legal.length + ctx.partial.length > 0) {
      return card(ctx, v, `hand-${v}`, {extra: 'chosen pickable', attributes: draw(chosen[i], {
        'aria-pressed': 'true', 'aria-label': ctx.t('mt.card_chosen', {v})})});
    }
    return card(ctx, v, `hand-${v}`, {extra: chosen[i] ? 'chosen' : '',
      label: chosen[i] ? ctx.t('mt.card_chosen', {v}) : null});
  });
  return [
    h('p', {class: 'mt-say'}, ctx.legal.length || ctx.partial.length
      ? ctx.t(count === 2 ? 'mt.picked_two' : count ? 'mt.pick_second' : 'mt.pick_first', {name: next ? nameOf(ctx, next) : ''})
      : count === 2 ? ctx.t('mt.picked_two') : ctx.t('mt.hand_seen')),
    h('div', {class: 'mt-cards hand'}, cards),
  ];
}

function nextBrother(view, seat) {
  const brothers = view.brothers || [];
  const index = brothers.indexOf(seat);
  return index >= 0 && index + 1 < brothers.length ? brothers[index + 1] : null;
}

function eatPicture(ctx, pair, eaten) {
  const left = eaten.slice();
  return pair.map((v) => {
    const at = left.indexOf(v);
    const eat = at >= 0;
    if (eat) left.splice(at, 1);
    return ctx.h('span', {class: `mt-mini v${v}${eat ? ' eaten' : ''}`, 'data-v': v, 'aria-hidden': 'true'},
      eat && ctx.h('span', {class: 'mt-fork'}));
  });
}

function eatDots(ctx, eaten) {
  const dots = [];
  for (let i = 0; i < EAT_LIMIT; i++) {
    dots.push(ctx.h('span', {class: `mt-dot${i < eaten ? ' full' : ''}`, 'aria-hidden': 'true'}, i < eaten ? '●' : '○'));
  }
  return ctx.h('span', {class: 'mt-dots'}, dots);
}

// Every brother: kept cards by value, eaten count, score.
function brothersPart(ctx) {
  const {h, view} = ctx;
  const seats = view.seats.map((entry) => entry.seat);
  if (ctx.seat) seats.sort((a, b) => (a === ctx.seat ? -1 : b === ctx.seat ? 1 : a - b));
  const winners = new Set(view.winners || []);
  const brothers = view.brothers || [];
  return h('section', {class: 'mt-brothers', 'aria-label': ctx.t('mt.collections')},
    h('h2', {class: 'mt-h'}, ctx.t('mt.collections')),
    h('ul', {class: 'mt-brother-list'}, seats.map((seat) => {
      const entry = view.seats[seat - 1];
      const role = view.phase === 'over' ? null : brothers[0] === seat ? 'eldest'
        : brothers[brothers.length - 1] === seat ? 'youngest' : null;
      const kept = VALUES.filter((v) => entry.kept[v] > 0);
      return h('li', {class: `mt-brother${seat === ctx.seat ? ' me' : ''}${winners.has(seat) ? ' winner' : ''}`},
        h('div', {class: 'mt-brother-head'},
          h('span', {class: 'mt-brother-name'}, nameOf(ctx, seat)),
          seat === ctx.seat && h('span', {class: 'mt-you'}, ctx.t('mt.you')),
          role && h('span', {class: `mt-role ${role}`}, ctx.t(`mt.${role}`)),
          winners.has(seat) && h('span', {class: 'mt-role winner'}, `★ ${ctx.t('mt.winner')}`),
          h('span', {class: 'mt-brother-score'}, ctx.t('mt.points', {n: entry.score}))),
        h('div', {class: 'mt-kept', 'aria-label': ctx.t('mt.kept_cards', {name: nameOf(ctx, seat)}), role: 'group'},
          kept.length ? kept.map((v) => h('div', {class: 'mt-kept-stack'},
            card(ctx, v, `kept-s${seat}-${v}`, {extra: 'tiny',
              label: ctx.t('mt.kept_stack', {v, n: entry.kept[v], points: signed(keptPoints(entry.kept[v]))})}),
            h('span', {class: 'mt-count', 'aria-hidden': 'true'}, `×${entry.kept[v]}`),
            h('span', {class: `mt-pts ${keptPoints(entry.kept[v]) < 0 ? 'neg' : 'pos'}`, 'aria-hidden': 'true'},
              signed(keptPoints(entry.kept[v])))))
            : h('span', {class: 'mt-nothing'}, ctx.t('mt.nothing_kept'))),
        h('div', {class: 'mt-eaten'},
          h('span', {}, ctx.t('mt.eaten', {n: entry.eaten, limit: EAT_LIMIT})), ' ', eatDots(ctx, entry.eaten)));
    })),
    view.unseen && view.phase !== 'over' && h('p', {class: 'mt-unseen'},
      h('span', {class: 'mt-group-label'}, ctx.seat ? ctx.t('mt.unseen') : ctx.t('mt.unseen_spectator')), ' ',
      VALUES.map((v) => h('span', {class: `mt-unseen-v${view.unseen[v] ? '' : ' none'}`},
        h('span', {class: `mt-mini v${v}`}, v), `×${view.unseen[v]}`))));
}

// The rounds turned up so far, latest first.
function historyPart(ctx) {
  const {h, view} = ctx;
  const rounds = (view.revealed || []).filter((round) => round.seats.every((entry) => entry.ate !== null));
  if (!rounds.length) return null;
  const seats = view.seats.map((entry) => entry.seat);
  return h('details', {class: 'mt-history', open: view.phase === 'over' || undefined},
    h('summary', {}, ctx.t('mt.rounds_so_far', {n: rounds.length})),
    // (a box that may scroll sideways, long names or a phone)
    ctx.scrollRegion({class: 'mt-history-scroll', 'aria-label': ctx.t('mt.rounds_so_far', {n: rounds.length})},
      h('table', {class: 'mt-history-table'},
        h('thead', {}, h('tr', {},
          h('th', {scope: 'col'}, ctx.t('mt.round_short')),
          seats.map((seat) => h('th', {scope: 'col'}, h('span', {class: 'mt-h-name name-clip', title: nameOf(ctx, seat)}, nameOf(ctx, seat)))),
          h('th', {scope: 'col'}, ctx.t('mt.result')))),
        h('tbody', {}, rounds.slice().reverse().map((round) => h('tr', {},
          h('th', {scope: 'row'}, round.round),
          seats.map((seat) => {
            const entry = round.seats[seat - 1];
            const took = round.seats[entry.took - 1];
            return h('td', {},
              h('div', {class: 'mt-h-pair'},
                round.eldest === seat && h('span', {class: 'mt-crown', role: 'img', title: ctx.t('mt.eldest'), 'aria-label': ctx.t('mt.eldest')}, icon('crown')),
                entry.pair.map((v) => h('span', {class: `mt-mini v${v}`}, v)),
                ' ', h('span', {class: `mt-h-vote ${entry.vote}`}, icon(entry.vote === 'up' ? 'up' : 'down'),
                  h('span', {class: 'visually-hidden'}, ctx.t(entry.vote === 'up' ? 'mt.content' : 'mt.discontent')))),
              h('div', {class: 'mt-h-took'},
                entry.took === seat ? ctx.t('mt.own')
                  : ['← ', h('span', {class: 'mt-h-name'}, nameOf(ctx, entry.took)), ' ',
                    h('span', {class: 'mt-h-pair'}, took.pair.map((v) => h('span', {class: `mt-mini v${v}`}, v)))]),
              h('div', {class: 'mt-h-ate'}, eatWords(ctx, entry.ate)));
          }),
          h('td', {}, round.swap ? [icon('swap'), ` ${ctx.t('mt.swap_short', {n: round.discontent})}`]
            : `= ${ctx.t('mt.stay_short', {n: round.discontent})}`)))))));
}

// ---- The end --------------------------------------------------------------------------

export function scoring(ctx) {
  const {h, view} = ctx;
  const winners = new Set(view.winners || []);
  const rows = view.seats.map((entry) => {
    const byValue = VALUES.map((v) => entry.kept[v] ? keptPoints(entry.kept[v]) : 0);
    const kept = byValue.reduce((a, b) => a + b, 0);
    return {entry, byValue, kept, total: entry.score};
  });
  return h('div', {class: 'mt-scoring'},
    h('h3', {}, ctx.t('mt.scoring')),
    h('p', {class: 'mt-scoring-rule'}, ctx.t('mt.scoring_rule')),
    ctx.scrollRegion({class: 'mt-history-scroll', 'aria-label': ctx.t('mt.scoring')},
      h('table', {class: 'mt-scoring-table'},
        h('thead', {}, h('tr', {},
          h('th', {scope: 'col'}, ctx.t('mt.player')),
          VALUES.map((v) => h('th', {scope: 'col'}, h('span', {class: `mt-mini v${v}`}, v),
            h('span', {class: 'visually-hidden'}, ctx.t('mt.kept_of_value', {v})))),
          h('th', {scope: 'col'}, ctx.t('mt.kept_col')),
          h('th', {scope: 'col'}, ctx.t('mt.eaten_col')),
          h('th', {scope: 'col'}, ctx.t('mt.total')))),
        h('tbody', {}, rows.map(({entry, byValue, kept, total}) => h('tr', {class: winners.has(entry.seat) ? 'winner' : ''},
          h('th', {scope: 'row'}, h('span', {class: 'mt-score-name'}, nameOf(ctx, entry.seat)), winners.has(entry.seat) ? ' ★' : ''),
          VALUES.map((v, i) => h('td', {},
            entry.kept[v] ? [h('span', {class: 'mt-sc-count'}, `×${entry.kept[v]}`), ' ',
              h('span', {class: `mt-pts ${byValue[i] < 0 ? 'neg' : 'pos'}`}, signed(byValue[i]))] : h('span', {class: 'muted'}, '·'))),
          h('td', {}, h('span', {class: `mt-pts ${kept < 0 ? 'neg' : 'pos'}`}, signed(kept))),
          h('td', {}, entry.eaten ? `${entry.eaten} → ${signed(entry.eaten)}` : '0'),
          h('td', {class: 'mt-total'}, h('strong', {}, total))))))),
    h('p', {class: 'mt-scoring-rule'}, ctx.t('mt.tiebreak')),
    tieNote(ctx));
}

// When the best total is shared: which kept value settled it, if any.
function tieNote(ctx) {
  const seats = ctx.view.seats;
  const best = Math.max(...seats.map((entry) => entry.score));
  const tied = seats.filter((entry) => entry.score === best);
  if (tied.length < 2) return null;
  const value = VALUES.slice().reverse().find((v) => new Set(tied.map((entry) => entry.kept[v])).size > 1);
  const detail = value ? tied.map((entry) => `${nameOf(ctx, entry.seat)} ${entry.kept[value]}`).join(', ') : '';
  return ctx.h('p', {class: 'mt-scoring-rule mt-tie'}, value
    ? ctx.t('mt.tie_decided', {score: best, v: value, detail})
    : ctx.t('mt.tie_shared', {score: best}));
}

// ---- The log and the hints in the page's language (words.js) -------------------
//
// What mt_describe_move (src/games/maries_table/views.c) writes:
//   The cards are shuffled into D face-down decks of S; U stay in the box unseen.
//   seat N keeps A B and passes P cards to seat M   (the seat itself)
//   seat N keeps 2 cards face down and passes P to seat M   (the others)
//     [; seat Y gets the last 2. The pairs are turned up: seat N A B, ...]
//   seat N votes up|down   (the seat itself) / seat N has voted
//     [. The votes: seat N up|down, ...; K discontent, so the pairs change
//     hands | everyone takes his own pair]
//   seat N takes his own pair A B, the only one left / seat N takes seat M's pair A B
//   seat N keeps A B / seat N eats A B / seat N eats A and keeps B

const voteWord = (vote) => t(vote === 'up' ? 'mt.content' : 'mt.discontent');

// A seat's move in notation (a hint), as words.
export function describeMove(notation, ctx = {}) {
  let m;
  if ((m = /^keep ([1-7]) ([1-7])$/.exec(notation))) return t('mt.move.keep', {a: m[1], b: m[2]});
  if (notation === 'up' || notation === 'down') return t(notation === 'up' ? 'mt.act_up' : 'mt.act_down');
  if ((m = /^take (\d)$/.exec(notation))) {
    return t('mt.move.take', {name: playerName(ctx, m[1], t('mt.seat', {seat: m[1]}))});
  }
  return /^eat(?: [1-7]){0,2}$/.test(notation) ? label(notation) : null;
}

export function describe(entry, ctx) {
  const name = (seat) => playerName(ctx, seat, t('mt.seat', {seat}));
  const list = (text, pattern, say) => [...text.matchAll(pattern)].map(say).join(t('mt.log.sep'));
  return readSentence(entry.text, [
    [/The cards are shuffled into (\d+) face-down decks of (\d+); (\d+) stay in the box unseen\./y,
      (m) => t('mt.log.deal', {decks: m[1], size: m[2], unseen: m[3]})],
    [/seat (\d) keeps ([1-7]) ([1-7]) and passes (\d+) cards to seat (\d)/y,
      (m) => t('mt.log.keep_pass', {name: name(m[1]), a: m[2], b: m[3], n: m[4], next: name(m[5])})],
    [/seat (\d) keeps 2 cards face down and passes (\d+) to seat (\d)/y,
      (m) => t('mt.log.keep_hidden', {name: name(m[1]), n: m[2], next: name(m[3])})],
    [/; seat (\d) gets the last 2\. The pairs are turned up:((?:,? seat \d [1-7] [1-7])+)/y,
      (m) => t('mt.log.reveal', {name: name(m[1]), pairs: list(m[2], /seat (\d) ([1-7]) ([1-7])/g,
        (p) => t('mt.log.pair', {name: name(p[1]), a: p[2], b: p[3]}))})],
    [/seat (\d) votes (up|down)/y, (m) => t('mt.log.votes', {name: name(m[1]), vote: voteWord(m[2])})],
    [/seat (\d) has voted/y, (m) => t('mt.log.voted', {name: name(m[1])})],
    [/\. The votes:((?:,? seat \d (?:up|down))+); (\d+) discontent, so (the pairs change hands|everyone takes his own pair)/y,
      (m) => t(m[3] === 'the pairs change hands' ? 'mt.log.votes_swap' : 'mt.log.votes_stay', {n: m[2],
        votes: list(m[1], /seat (\d) (up|down)/g, (v) => t('mt.log.vote', {name: name(v[1]), vote: voteWord(v[2])}))})],
    [/seat (\d) takes his own pair ([1-7]) ([1-7]), the only one left/y,
      (m) => t('mt.log.take_own', {name: name(m[1]), a: m[2], b: m[3]})],
    [/seat (\d) takes seat (\d)'s pair ([1-7]) ([1-7])/y,
      (m) => t('mt.log.take', {name: name(m[1]), owner: name(m[2]), a: m[3], b: m[4]})],
    [/seat (\d) eats ([1-7]) and keeps ([1-7])/y, (m) => t('mt.log.eat_one', {name: name(m[1]), a: m[2], b: m[3]})],
    [/seat (\d) eats ([1-7]) ([1-7])/y, (m) => t('mt.log.eat_two', {name: name(m[1]), a: m[2], b: m[3]})],
    [/seat (\d) keeps ([1-7]) ([1-7])/y, (m) => t('mt.log.keep_two', {name: name(m[1]), a: m[2], b: m[3]})],
  ]);
}
