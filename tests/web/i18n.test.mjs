// i18n.test.mjs: the catalogues hold the same keys with the same
// {placeholders}, and every key the page's code names is in them; the
// table's log reads in the page's language (the renderers' describe(),
// over every sentence the games' describe_move can write, and a seat's
// page after a whole game of each, in Japanese and in English: words with
// verbs, never the notation the server's English keeps close to).

import {readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {SOURCE, check, api, newPage, openSeat, randomFrom} from './support.mjs';
import {form, forms} from '../../web/js/plural.js';

const placeholdersOf = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(',');
// An entry's placeholders: a plural entry's forms must all have the same.
const placeholders = (entry) => {
  const all = forms(entry).map(placeholdersOf);
  check(all.every((one) => one === all[0]), `the forms of ${JSON.stringify(entry)} differ in placeholders`);
  return all[0];
};

function sources(folder) {
  const files = [];
  for (const entry of readdirSync(folder, {withFileTypes: true})) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) files.push(...sources(path));
    else if (entry.name.endsWith('.js')) files.push(path);
  }
  return files;
}

// Sample sentences of every kind the games' describe_move functions write
// (src/games/*/views.c), as the server sends them, and moves in notation
// (the hints').
const SENTENCES = {
  'piece-o-cake': [
    'The slices are shuffled into five cakes (round 2).',
    'seat 1: cut 11-4 5-9 10',
    'seat 2: cut 1-11',
    'seat 2: take 5-9 eecee (eats S B B S; collects G)',
    'seat 1: take 10 e (eats K; collects nothing)',
    'seat 1: take 8 c (eats nothing; collects K)',
    'seat 2: eat G',
    'seat 3: pass',
    'seat 2: eat G. Nobody took piece 4-6 (CCR): its 3 slices are removed from the game and score for nobody.',
    'seat 3: eat P. Nobody took piece 6 (R): its 1 slice is removed from the game and scores for nobody.',
    'seat 1: take 3 e (eats G; collects nothing). Nobody took pieces 4-6 (CCR) and 9 (G): their 4 slices are removed from the game and score for nobody.',
    'seat 2: pass. Nobody took pieces 1-2 (PA), 4-6 (CCR) and 9 (G): their 6 slices are removed from the game and score for nobody.',
  ],
  'maries-table': [
    'The cards are shuffled into 6 face-down decks of 6; 20 stay in the box unseen.',
    'seat 1 keeps 2 cards face down and passes 4 to seat 2',
    'seat 1 keeps 3 5 and passes 4 cards to seat 2',
    'seat 2 keeps 2 cards face down and passes 2 to seat 3; seat 3 gets the last 2. The pairs are turned up: seat 1 1 3, seat 2 6 6, seat 3 2 6',
    'seat 2 keeps 6 6 and passes 2 cards to seat 3; seat 3 gets the last 2. The pairs are turned up: seat 1 1 3, seat 2 6 6, seat 3 2 6',
    'seat 1 votes up',
    'seat 4 votes down',
    'seat 1 has voted',
    'seat 3 has voted. The votes: seat 1 down, seat 2 up, seat 3 up; 1 discontent, so everyone takes his own pair',
    'seat 3 votes down. The votes: seat 1 down, seat 2 down, seat 3 down; 3 discontent, so the pairs change hands',
    'seat 2 takes his own pair 3 4, the only one left',
    "seat 1 takes seat 2's pair 3 4",
    'seat 1 keeps 1 3',
    'seat 1 eats 4 5',
    'seat 3 eats 2 and keeps 6',
  ],
  'cake-master': [
    'The customer pile is shuffled. Round 1: customer #11 (halves=2 raspberries=3) in play.',
    'The customer pile is shuffled. Round 1: customer #4 (colors=1 raspberries=0) in play.',
    'The cake cards are shuffled for round 2.',
    'The cake cards are shuffled for round 1. You draw P3rb P2rr W1bb.',
    'seat 1: keep P3rb left P2rr right W1bb',
    'seat 1: place W2r:1a W2rr:2d P3rb:3a',
    'seat 1 has chosen',
    'seat 2 has placed',
    'seat 3 has chosen. The shares are revealed: seat 1 keep P3rb left P2rr right W1bb; seat 2 keep C1 left P0rr right W2r; seat 3 keep W3rb left W2rr right C3rb.',
    'seat 3: keep W3rb left W2rr right C3rb. The shares are revealed: seat 1 keep P3rb left P2rr right W1bb; seat 2 keep C1 left P0rr right W2r; seat 3 keep W3rb left W2rr right C3rb.',
    'seat 3 has placed. The placements are revealed: seat 1 W2r:1a W2rr:2d P3rb:3a; seat 2 C3rb:1a P2rr:2c C1:3a; seat 3 W3rb:2c W1bb:2d P0rr:3b. You draw C0*r P1 W3.',
    'seat 2: place C3rb:1a P2rr:2c C1:3a. The placements are revealed: seat 1 W2r:1a W2rr:2d P3rb:3a; seat 2 C3rb:1a P2rr:2c C1:3a. Round 1 is scored: seat 1 15 Tasty points, 2 + 0 stars; seat 2 1 Tasty point, 1 + 0 star. Round 2: customers #1 (raspberries=5) #8 (halves=0 fruits=4) in play.',
    'seat 3 has placed. The placements are revealed: seat 1 W2r:1a W2rr:2d P3rb:3a; seat 2 C3rb:1a P2rr:2c C1:3a; seat 3 W3rb:2c W1bb:2d P0rr:3b. Round 3 is scored: seat 1 17 Tasty points, 2 + 1 stars; seat 2 10 Tasty points, 0 + 2 stars; seat 3 15 Tasty points, 1 + 1 stars. The game is over.',
    'The customer pile is shuffled. Round 1: customer #2 (blueberries=5 rosettes=1) in play.',
  ],
  'mice-cake': [
    'The 28 pieces are shuffled face down into the grid; rows 1, 3, 5 and 7 are turned up.',
    'seat 1 has assigned',
    'seat 2: assign A1 B3',
    'seat 1: assign A1 C2>3/4',
    'roll 2 A 1: seat 2, 1 mouse on 0/4: 1 against 4: too low',
    'roll 2 B 5 5 3: seat 2, 3 mice on 4/6: 13 against 10: success',
    'roll 2 B 2 6 5: seat 2, 3 mice on 2/5: 13 against 7, but a 2 and a 5 exhaust 2 mice: fails',
    'roll 1 A 1: seat 1, 1 mouse on 0/1: 1 against 1, but a 1 exhausts 1 mouse: fails',
    'roll 1 B 3 3 4: seat 1, 3 mice on 3/3: 10 against 6, but two 3s exhaust 2 mice: fails',
    'roll 1 A 6 5: seat 1, 2 mice stealing 4/5: 11 against 9: success (seat 2 goes for this last piece too)',
    'roll 2 A 4 4: seat 2, 2 mice stealing 3/3: 8 against 6: success. Both steal at the last piece, 0/0: both succeed, so the targets change hands and 0/0 leaves the game',
    'roll 2 A 1 1: seat 2, 2 mice stealing 3/3: 2 against 6: too low. Both steal at the last piece, 0/0: seat 1 alone succeeds',
    'roll 2 A 1 1: seat 2, 2 mice stealing 3/3: 2 against 6: too low. Both steal at the last piece, 0/0: neither succeeds',
    'roll 2 C 6 6: seat 2, 2 mice on 2/4: 12 against 6: success. Both went for the last piece of column C: seat 2 takes it with the higher sum, 12 to 7',
    'roll 2 C 3 4: seat 2, 2 mice on 2/4: 7 against 6: success. Both went for the last piece of column C: equal sums, so it stays',
    'roll 2 C 1: seat 2, 1 mouse on 2/4: 1 against 6: too low. Both went for the last piece of column C: only seat 1 succeeds and takes it',
    'roll 2 C 1: seat 2, 1 mouse on 2/4: 1 against 6: too low. Both went for the last piece of column C: neither succeeds, it stays',
    'roll 1 D 5 6 2: seat 1, 3 mice on 3/3: 13 against 6: success. End of round 1: seat 1 stashes 3/3; seat 2 stashes 4/6; 3/4 turns up (row 2, D); 2/5 turns up (row 6, B).',
    'roll 2 D 3: seat 2, 1 mouse on 2/3: 3 against 5: too low. End of round 5: seat 1 stashes 3/6. Seat 2 has 2 exhausted mice sitting out round 6.',
    'roll 2 D 3: seat 2, 1 mouse on 4/5: 3 against 9: too low. End of round 7: no piece changes hands.',
    'roll 2 A 4 4: seat 2, 2 mice stealing 4/5: 8 against 9: too low. End of round 9: seat 1 stashes 4/5 0/0; seat 2 loses 4/5; 0/0 leaves the game. Seat 1 has 1 exhausted mouse sitting out round 10. Seat 2 has 2 exhausted mice sitting out round 10.',
    'roll 1 B 6 6: seat 1, 2 mice on 6/6: 12 against 12: success. End of round 20: seat 1 stashes 6/6. The grid is empty: game over.',
    'roll 2 D 3: seat 2, 1 mouse on 4/5: 3 against 9: too low. End of round 500: no piece changes hands. The 500-round guard ends the game.',
  ],
};
const MOVES = {
  'piece-o-cake': ['cut 1-3 4-11', 'cut 1-11', 'take 4-7 ecce', 'eat C', 'pass'],
  'maries-table': ['keep 3 5', 'up', 'down', 'take 2', 'eat', 'eat 3', 'eat 3 5'],
  'cake-master': ['keep W3rb left W2rr right C3rb', 'place W2r:1a W2rr:2d P0*r:3b'],
  'mice-cake': ['assign A1 C2>3/4', 'assign B3'],
};
const NAMES = ['Ann', 'Bob', 'Cy', 'Dee'];

// What is left of a log entry's words once the players' names and the
// games' codes (Cake Master's cards, as P0*rb) are taken out: English
// words (two ASCII letters or more) there are the server's sentence.
const englishIn = (words, names) => {
  let rest = words;
  for (const name of names) rest = rest.split(name).join(' ');
  return (rest.replace(/\b[WPC][0-3]\*?[rb]*\b/g, ' ').match(/[A-Za-z]{2,}/g) || []).join(' ');
};

// Whether English words read like the notation or the server's terse
// sentences: a bare verb after a name and a colon ("Ann: cut 1-4"), a
// seat by number, Cake Master's card:quarter, Mice Cake's "A1" columns.
const notationLike = (words) => /(?:^|[.;] )[^:.;]*: (?:cut|take|keep|eat|place|assign|pass)\b/.test(words) ||
  /\bseat \d/.test(words) || /[WPC][0-3]\*?[rb]*:\d[a-d]/.test(words) || /\bassign\b|\broll \d/.test(words);

// A page of its own in language (the choice kept in localStorage).
async function pageIn(env, language) {
  const page = await newPage(env.browser, env.errors);
  await page.addInitScript((code) => localStorage.setItem('gateau.language', code), language);
  return page;
}

// Plays seat 1 of a table to its end through the API (random whole moves;
// the bots play the other seats).
async function playThrough(url, id, token, seed) {
  const random = randomFrom(seed);
  for (let turn = 0; turn < 2000; turn++) {
    const snapshot = await api(url, 'GET', `/api/tables/${id}`, undefined, token);
    if (snapshot.over) return snapshot;
    if (!(snapshot.legal && snapshot.legal.length)) {
      await new Promise((done) => setTimeout(done, 20));
      continue;
    }
    const move = [];
    let legal = snapshot.legal;
    for (;;) {
      move.push(legal[random(legal.length)].action);
      const next = await api(url, 'GET', `/api/tables/${id}/legal?after=${move.join(',')}`, undefined, token);
      if (next.complete && (!next.legal.length || random(2))) break;
      legal = next.legal;
    }
    try {
      await api(url, 'POST', `/api/tables/${id}/moves`, {version: snapshot.version, move}, token);
    } catch { /* a bot moved first: look again */ }
  }
  throw new Error(`table ${id} did not end`);
}

// The words of each entry of a page's log (without its notation and note),
// oldest first, once it shows count entries.
async function logOf(page, count) {
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=log] li').length >= n, count);
  return page.$$eval('[data-testid=log] li', (items) => items.map((li) =>
    [...li.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE).map((node) => node.textContent).join(''))
    .reverse());
}

const SEATS = {
  'piece-o-cake': ['human', 'random', 'random'],
  'maries-table': ['human', 'random', 'random', 'random'],
  'cake-master': ['human', 'random', 'random'],
  'mice-cake': ['human', 'random'],
};

// Every sentence and move of every game read by its renderer in page's
// language: {game, text, words, move} each.
function describedAll(page) {
  return page.evaluate(async ({sentences, moves, names}) => {
    const out = [];
    for (const game of Object.keys(sentences)) {
      const renderer = await import(`/js/games/${game}.js`);
      for (const text of sentences[game]) out.push({game, text, words: renderer.describe({text, seat: 1, move: null}, {names})});
      for (const text of moves[game]) out.push({game, text, words: renderer.describeMove(text, {names}), move: true});
    }
    return out;
  }, {sentences: SENTENCES, moves: MOVES, names: NAMES});
}

export const tests = [{
  name: 'the English and Japanese catalogues match, and hold every key the page names',
  async run() {
    const en = (await import(join(SOURCE, 'web/i18n/en.js'))).default;
    const ja = (await import(join(SOURCE, 'web/i18n/ja.js'))).default;
    for (const key of Object.keys(en)) {
      check(key in ja, `ja.js lacks ${key}`);
      check(placeholders(en[key]) === placeholders(ja[key]), `${key}: the placeholders differ`);
    }
    for (const key of Object.keys(ja)) check(key in en, `en.js lacks ${key}`);
    // Counted words agree with their number: "1 dollop", "2 dollops".
    const said = [form(en['poc.dollops'], {n: 1}, 'en'), form(en['poc.dollops'], {n: 2}, 'en'),
      form(en['mc.aim'], {pips: 1}, 'en'), form(en['mc.aim'], {pips: 0}, 'en'),
      form(ja['poc.dollops'], {n: 1}, 'ja')];
    check(JSON.stringify(said) === JSON.stringify(['{n} dollop', '{n} dollops', '{pips} pip', '{pips} pips', ja['poc.dollops']]),
      `plural forms: ${JSON.stringify(said)}`);
    // Keys written out in the code: t('x.y') and ctx.t('x.y').
    for (const file of sources(join(SOURCE, 'web/js'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(/\bt\('([a-z][\w.-]*)'/g)) {
        check(match[1] in en, `${file.slice(SOURCE.length + 1)} names ${match[1]}, which en.js lacks`);
      }
    }
  },
}, {
  name: "the log's words: every game's describe() reads every sentence its describe_move writes, in Japanese",
  async run(env) {
    const page = await pageIn(env, 'ja');
    await page.goto(`${env.url}/#/`);
    await page.waitForSelector('html[lang=ja]');
    const said = await describedAll(page);
    for (const {game, text, words, move} of said) {
      check(typeof words === 'string' && words.trim() && words !== text,
        `${game}: ${move ? 'describeMove' : 'describe'} does not read "${text}" (${words})`);
      const left = englishIn(words, NAMES);
      check(!left, `${game}: "${text}" reads "${words}", with English left: ${left}`);
      check(!/\{\w+\}/.test(words), `${game}: "${words}" has a placeholder left`);
    }
    await page.context().close();
  },
}, {
  name: "the log's words: every game's describe() reads every sentence its describe_move writes, in English",
  async run(env) {
    const page = await pageIn(env, 'en');
    await page.goto(`${env.url}/#/`);
    await page.waitForSelector('html[lang=en]');
    const said = await describedAll(page);
    for (const {game, text, words, move} of said) {
      check(typeof words === 'string' && words.trim(), `${game}: ${move ? 'describeMove' : 'describe'} does not read "${text}"`);
      check(!/\{\w+\}/.test(words), `${game}: "${words}" has a placeholder left`);
      if (move) continue;
      check(!notationLike(words), `${game}: "${text}" reads "${words}", notation rather than words`);
    }
    // The move kinds whose server sentence misleads: Marie's Table's eat
    // of no card ("keeps 1 3" is also the draft's keep).
    const eatNone = said.find((entry) => entry.text === 'seat 1 keeps 1 3');
    check(eatNone && /\beats\b/.test(eatNone.words), `an eat of no card says so: ${eatNone && eatNone.words}`);
    await page.context().close();
  },
}, ...Object.entries(SEATS).map(([game, seats], index) => ({
  name: `the log of a whole game of ${game}: in Japanese on a Japanese page, in English words on an English one`,
  async run(env) {
    const table = await api(env.url, 'POST', '/api/tables', {game, seats});
    const token = table.seats[0].token;
    const snapshot = await playThrough(env.url, table.id, token, 41 + index);
    const names = snapshot.seats.map((seat) => seat.name);
    const count = snapshot.log.length;
    check(count > 5, `only ${count} log entries`);

    const ja = await pageIn(env, 'ja');
    await openSeat(ja, env.url, table.id, token);
    const words = await logOf(ja, count);
    check(words.length === count, `the Japanese log shows ${words.length} entries of ${count}`);
    words.forEach((entry, n) => {
      const left = englishIn(entry, names);
      check(!left, `${game}: entry ${n} reads "${entry}" (the server's "${snapshot.log[n].text}"), English left: ${left}`);
    });
    if (env.screenshots && game === 'cake-master') await ja.screenshot({path: `${env.screenshots}/table-ja-log.png`});
    await ja.context().close();

    const en = await pageIn(env, 'en');
    await openSeat(en, env.url, table.id, token);
    const english = await logOf(en, count);
    check(english.length === count, `the English log shows ${english.length} entries of ${count}`);
    english.forEach((entry, n) => {
      check(!notationLike(entry), `${game}: the English log's entry ${n} reads "${entry}" (the server's "${snapshot.log[n].text}")`);
    });
    await en.context().close();
  },
}))];
