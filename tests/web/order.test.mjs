// order.test.mjs: moves built in any order (issue 27).  For each game, a
// table made through the API, one move built by clicking its parts in a
// scrambled order (one part clicked again to take it back), sent with the
// Send button (never by the click that completes it), and checked to
// arrive as the engine's canonical move in the seat's record.  And a
// refusal (422) that reloads the table and says why.

import {join} from 'node:path';
import {SOURCE, api, newPage, openSeat, settled, check, startServer} from './support.mjs';

const builtText = (page) => page.textContent('[data-testid=built]');
const sendable = (page) => page.isEnabled('[data-testid=send]');

// Clicks a board element and waits for the page's answer.
async function clickPart(page, selector) {
  await page.click(`[data-testid=board] ${selector}`);
  await settled(page);
}

// A table of game with one person (seat 1) and bots; seat 1's page.
async function tableFor(env, game, seats) {
  const table = await api(env.url, 'POST', '/api/tables', {game, seats});
  const page = await newPage(env.browser, env.errors);
  await openSeat(page, env.url, table.id, table.seats[0].token);
  await page.waitForSelector('[data-testid=board] [data-action]');
  return {table, page, token: table.seats[0].token};
}

// Whether the seat's record holds line (a move, its seat prefix aside).
async function recordHolds(env, table, token, line) {
  const record = await api(env.url, 'GET', `/api/tables/${table.id}/record`, undefined, token);
  return record.split('\n').some((text) => text.replace(/^\d+: /, '') === line);
}

// Sends the move built (only Send sends it) and waits until the seat's
// record holds line.  With GATEAU_SCREENSHOTS, the table just before
// (docs/web.md shows it): images/GAME-any-order.png.
async function sendAndFind(env, page, table, token, line, picture) {
  check(await sendable(page), 'the whole move can be sent');
  if (env.screenshots && picture) await page.screenshot({path: `${env.screenshots}/${picture}-any-order.png`});
  check(!(await recordHolds(env, table, token, line)), `'${line}' was sent before Send`);
  await page.click('[data-testid=send]');
  for (let tries = 0; tries < 100; tries++) {
    if (await recordHolds(env, table, token, line)) return;
    await page.waitForTimeout(50);
  }
  const record = await api(env.url, 'GET', `/api/tables/${table.id}/record`, undefined, token);
  throw new Error(`the record does not hold '${line}':\n${record}`);
}

// Resolves to seat 1's snapshot once test(snapshot) holds.
async function snapshotWhen(env, table, token, test) {
  for (let tries = 0; tries < 200; tries++) {
    const snapshot = await api(env.url, 'GET', `/api/tables/${table.id}`, undefined, token);
    if (test(snapshot)) return snapshot;
    await new Promise((done) => setTimeout(done, 50));
  }
  throw new Error('the table never came to the moment waited for');
}

export const tests = [{
  name: "any order: piece o' Cake's cut, gaps clicked anticlockwise and one taken back",
  async run(env) {
    const {table, page, token} = await tableFor(env, 'piece-o-cake', ['human', 'heuristic', 'heuristic']);
    const gap = (n) => `.poc-gap[data-gap="${n}"]`;
    // 11|1 first (the engine's own order cannot begin there), then 7|8,
    // then 3|4, taken back, then 4|5: three pieces, the most for three.
    await clickPart(page, gap(11));
    check(!(await sendable(page)), 'one gap is no cut');
    await clickPart(page, gap(7));
    check(await sendable(page), 'two gaps are a whole cut');
    check((await page.$$(`[data-testid=board] ${gap(3)}.offered`)).length === 1, 'a third gap is offered');
    await clickPart(page, gap(3));
    await clickPart(page, gap(3));
    check((await page.$$(`[data-testid=board] ${gap(3)}.offered`)).length === 1, 'the gap clicked again is offered again');
    await clickPart(page, gap(4));
    check((await builtText(page)).split('·').length === 3, `three parts built: ${await builtText(page)}`);
    await sendAndFind(env, page, table, token, 'cut 1-4 5-7 8-11', 'piece-o-cake');
    await page.context().close();
  },
}, {
  name: "any order: Marie's Table's keep, the higher card first, one put back",
  async run(env) {
    const {table, page, token} = await tableFor(env, 'maries-table', ['human', 'heuristic', 'heuristic']);
    const snapshot = await api(env.url, 'GET', `/api/tables/${table.id}`, undefined, token);
    const hand = snapshot.view.draft.seen.slice().sort((a, b) => a - b);
    const cardAt = (i) => `.mt-cards.hand .mt-card:nth-child(${i + 1})`;
    const last = hand.length - 1;
    // The highest first, then the lowest, the highest put back, then the
    // second highest (a copy of the same value, when there are two).
    await clickPart(page, cardAt(last));
    check(!(await sendable(page)), 'one card is no keep');
    await clickPart(page, cardAt(0));
    check(await sendable(page), 'two cards are a keep');
    await clickPart(page, cardAt(last));
    check(!(await sendable(page)), 'one card put back: one card left');
    await clickPart(page, cardAt(last - 1));
    await sendAndFind(env, page, table, token, `keep ${hand[0]} ${hand[last - 1]}`, 'maries-table');
    await page.context().close();
  },
}, {
  name: 'any order: Cake Master\'s share, left before keep, and place, 3d before 1a before 2b',
  async run(env) {
    const {table, page, token} = await tableFor(env, 'cake-master', ['human', 'heuristic', 'heuristic']);
    const hand = (await api(env.url, 'GET', `/api/tables/${table.id}`, undefined, token)).view.hand;
    const button = (i, what) => `.cm-hand-card:nth-child(${i + 1}) .cm-btn-${what}`;
    // Left first; keep one card, take it back, keep another.
    await clickPart(page, button(1, 'left'));
    await clickPart(page, button(0, 'keep'));
    await clickPart(page, button(0, 'keep'));
    check(!(await sendable(page)), 'the keep taken back: no whole share');
    await clickPart(page, button(2, 'keep'));
    await sendAndFind(env, page, table, token, `keep ${hand[2]} left ${hand[1]} right ${hand[0]}`);

    // The place, once the bots have shared: three cards, last position first.
    const placing = await snapshotWhen(env, table, token, (snapshot) => snapshot.view.phase === 'place' &&
      (snapshot.legal || []).length > 0);
    await page.waitForSelector('[data-testid=board] .cm-chip');
    const holding = placing.view.seats[0].holding;
    const actionOf = (code, where) => placing.legal.find((entry) => entry.name === `${code}:${where}`).action;
    const chip = (code, where) => `.cm-chip[data-action="${actionOf(code, where)}"]`;
    await clickPart(page, chip(holding[0], '3d'));
    await clickPart(page, chip(holding[1], '1a'));
    await clickPart(page, `.cm-pending-undo[data-action="${actionOf(holding[1], '1a')}"]`);
    await clickPart(page, chip(holding[1], '1a'));
    check(!(await sendable(page)), 'two cards placed of three');
    await clickPart(page, chip(holding[2], '2b'));
    await sendAndFind(env, page, table, token, `place ${holding[1]}:1a ${holding[2]}:2b ${holding[0]}:3d`, 'cake-master');
    await page.context().close();
  },
}, {
  name: 'any order: Mice Cake\'s mice, columns right to left and one taken back',
  async run(env) {
    const {table, page, token} = await tableFor(env, 'mice-cake', ['human', 'heuristic']);
    const snapshot = await api(env.url, 'GET', `/api/tables/${table.id}`, undefined, token);
    const columns = snapshot.legal.map((entry) => /^mouse on ([A-D])$/.exec(entry.name))
      .filter(Boolean).map((found) => found[1]);
    check(columns.length >= 2, `columns open: ${columns}`);
    const cell = (c) => `.mc-lane-cell.mc-add[data-action="${30 + 'ABCD'.indexOf(c)}"]`;
    const last = columns[columns.length - 1], first = columns[0];
    // The last column first, then the first, the last again, one of
    // those taken back, then the first and the second.
    await clickPart(page, cell(last));
    await clickPart(page, cell(first));
    await clickPart(page, cell(last));
    await clickPart(page, `.mc-remove[data-action="${30 + 'ABCD'.indexOf(last)}"]`);
    check(!(await sendable(page)), 'two mice of four placed');
    await clickPart(page, cell(first));
    check(!(await sendable(page)), 'three mice of four placed');
    await clickPart(page, cell(columns[1]));
    const count = {[last]: 1};
    count[first] = (count[first] || 0) + 2;
    count[columns[1]] = (count[columns[1]] || 0) + 1;
    const line = `assign ${Object.keys(count).sort().map((c) => `${c}${count[c]}`).join(' ')}`;
    await sendAndFind(env, page, table, token, line, 'mice-cake');
    await page.context().close();
  },
}, {
  name: 'refusals: a 422 reloads the table and says why',
  async run(env) {
    const {table, page} = await tableFor(env, 'piece-o-cake', ['human', 'heuristic']);
    // A page wrong about the table: its /legal answer (intercepted here)
    // calls a move whole that the server will refuse.
    await page.route('**/legal?*', (route) => route.fulfill({status: 200, contentType: 'application/json',
      body: JSON.stringify({legal: [], complete: true, move: [62]})}));
    await clickPart(page, '.poc-gap[data-gap="2"]');
    check(await sendable(page), 'the page believes the move whole');
    const reloaded = page.waitForRequest((request) => request.method() === 'GET' &&
      new URL(request.url()).pathname === `/api/tables/${table.id}`);
    await page.click('[data-testid=send]');
    await reloaded;
    await settled(page);
    const error = await page.textContent('.move-panel .error');
    check(/refused/i.test(error) && error.length > 'The server refused: '.length, `the reason is shown: ${error}`);
    check(/Choose on the board/.test(await builtText(page)), 'the move built is dropped');
    check(!(await sendable(page)), 'nothing to send');
    check(/Your move/.test(await page.textContent('[data-testid=status]')), 'still seat 1 to move, as the table says');
    await page.unroute('**/legal?*');
    // The page plays on from the table as it is.
    await clickPart(page, '.poc-gap[data-gap="5"]');
    await clickPart(page, '.poc-gap[data-gap="1"]');
    check(await sendable(page), 'a whole cut again after the refusal');
    await page.context().close();
    // (the browser logs the refused request: that one is expected)
    const others = env.errors.filter((error) => !/status of 422/.test(error));
    env.errors.splice(0, env.errors.length, ...others);
  },
}, {
  name: 'a table that ended before its end says why',
  async run(env) {
    // A server of its own, whose one ext: bot forfeits at its first move
    // (an illegal one): seat 1's, so the table ends at once.
    const bot = `ext:ms=2000:onerror=forfeit:/bin/sh ${join(SOURCE, 'tests/data/protocol/illegal.sh')}`;
    const server = await startServer(env.gateau, 0, null, ['--ext-bots', bot]);
    try {
      const table = await api(server.url, 'POST', '/api/tables', {game: 'piece-o-cake', seats: [bot, 'human']});
      let snapshot;
      for (let tries = 0; tries < 100; tries++) {
        snapshot = await api(server.url, 'GET', `/api/tables/${table.id}`);
        if (snapshot.over) break;
        await new Promise((done) => setTimeout(done, 50));
      }
      check(snapshot.over && /forfeits/.test(snapshot.ended || ''), `the table ended: ${JSON.stringify(snapshot.ended)}`);
      const page = await newPage(env.browser, env.errors);
      await openSeat(page, server.url, table.id, table.seats.find((entry) => entry.seat === 2).token);
      const said = await page.textContent('[data-testid=ended]');
      check(/stopped before its end/.test(said) && /forfeits/.test(said) && /No one won/.test(said), `the page says why: ${said}`);
      await page.context().close();
    } finally {
      server.stop();
    }
  },
}];
