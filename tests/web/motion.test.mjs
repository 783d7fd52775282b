// motion.test.mjs: the table's motion, words and layout (issue 27).
// The last move marked on the board and in the log, with animations that
// never run under prefers-reduced-motion; the hint's move marked on the
// board; the log and the replay's captions in words; long names at a
// phone's width; the move panel within reach on a phone.

import {api, newPage, openSeat, settled, check} from './support.mjs';

// A table of piece o' Cake with seat 1 a person and two bots, seat 1's
// page (reduced motion or not) waiting for its first choice.
async function cakeTable(env, options = {}) {
  const table = await api(env.url, 'POST', '/api/tables', {game: 'piece-o-cake',
    seats: ['human', 'heuristic', 'heuristic'], names: options.names});
  const page = await newPage(env.browser, env.errors, options.viewport);
  if (options.reducedMotion) await page.emulateMedia({reducedMotion: 'reduce'});
  await openSeat(page, env.url, table.id, table.seats[0].token);
  await page.waitForSelector('[data-testid=board] [data-action]');
  return {table, page, token: table.seats[0].token};
}

// Seat 1 cuts the cake through the API (the page follows over its socket);
// resolves once the page has drawn a snapshot where the cut is played.
async function cutFromElsewhere(env, table, token, page) {
  const snapshot = await api(env.url, 'GET', `/api/tables/${table.id}`, undefined, token);
  await api(env.url, 'POST', `/api/tables/${table.id}/moves`, {version: snapshot.version, move: 'cut 1-4 5-7 8-11'}, token);
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=log] code.notation')]
    .some((code) => code.textContent.startsWith('cut ')), null, {timeout: 5000});
  await settled(page);
}

const lastMoveMarks = (page) => page.$$eval('[data-testid=board] .last-move', (list) => list.length);

export const tests = [{
  name: 'motion: the last move is marked on the board and in the log, and animated',
  async run(env) {
    const {table, page, token} = await cakeTable(env);
    check(await lastMoveMarks(page) === 0, 'nothing is marked before any move is seen');
    await cutFromElsewhere(env, table, token, page);
    check(await lastMoveMarks(page) > 0, 'the cut is marked on the board');
    check(await page.$$eval('[data-testid=board] .poc-piece.last-move', (list) => list.length) > 0,
      'the pieces of the cut are marked');
    const logMark = await page.$eval('[data-testid=log] li:first-child', (li) => getComputedStyle(li).borderLeftStyle);
    check(logMark === 'solid', `the log's newest line is marked: ${logMark}`);
    check(await page.$$eval('[data-testid=board] .motion-arrive', (list) => list.length) > 0,
      'what changed is animated in');
    await page.context().close();
  },
}, {
  name: 'motion: none with prefers-reduced-motion, the marks stay',
  async run(env) {
    const {table, page, token} = await cakeTable(env, {reducedMotion: 'reduce'});
    await cutFromElsewhere(env, table, token, page);
    check(await lastMoveMarks(page) > 0, 'the cut is marked on the board');
    const running = await page.evaluate(() => document.getAnimations().map((a) => a.animationName || a.constructor.name));
    check(running.length === 0, `no animation runs: ${running.join(', ')}`);
    check(await page.$$eval('.motion-arrive, .motion-leaving', (list) => list.length) === 0, 'no animation class, no ghost');
    await page.context().close();
  },
}];
