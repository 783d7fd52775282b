// motion.test.mjs: the table's motion, words and layout (issue 27).
// The last move marked on the board and in the log, with animations that
// never run under prefers-reduced-motion; the hint's move marked on the
// board; the log and the replay's captions in words; long names at a
// phone's width; the move panel within reach on a phone.

import {execFileSync} from 'node:child_process';
import {readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {SOURCE, api, newPage, openSeat, settled, check, checkAccessibility, LONG_NAMES, nameProblems, untilOver} from './support.mjs';

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

// Each game at its most players, for the long names' layout.
const MOST_PLAYERS = {'piece-o-cake': 5, 'maries-table': 5, 'cake-master': 6, 'mice-cake': 2};

// The names on the page as drawn: nothing sticks out or is cut without its
// whole in a title and in the accessible name (support.mjs, nameProblems);
// the columns headed by names (piece o' Cake's scores) are named by them
// whole for assistive technology.
async function checkNames(page, names, what) {
  await settled(page);
  const problems = await nameProblems(page, names);
  check(!problems.length, `${what}: ${problems.join('; ')}`);
  const headings = page.locator('.poc-table');
  for (let n = 0; n < await headings.count(); n++) {
    for (const name of names) {
      check(await headings.nth(n).getByRole('columnheader', {name}).count() === 1,
        `${what}: a column of scores is headed by "${name}" for assistive technology`);
    }
  }
}

const lastMoveMarks = (page) => page.$$eval('[data-testid=board] .last-move', (list) => list.length);

export const tests = [{
  name: 'motion: the last move is marked on the board and in the log, and animated',
  async run(env) {
    const {table, page, token} = await cakeTable(env);
    check(await lastMoveMarks(page) === 0, 'nothing is marked before any move is seen');
    await cutFromElsewhere(env, table, token, page);
    check(await lastMoveMarks(page) > 0, 'the cut is marked on the board');
    // (the bots may have taken pieces since: the last move is then a take)
    check(await page.$$eval('[data-testid=board] :is(.poc-piece, .poc-take, .poc-taker).last-move', (list) => list.length) > 0,
      'the pieces of the cut, or the piece taken since, are marked');
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
}, {
  name: "words: the hint's best move is marked on the board and said in words",
  async run(env) {
    const {page} = await cakeTable(env);
    check(await page.$$eval('[data-testid=board] .hint-mark', (list) => list.length) === 0, 'no mark before the hint');
    await page.click('[data-focus=hint]');
    await page.waitForSelector('.hint-moves li', {timeout: 15000});
    check(await page.$$eval('[data-testid=board] .hint-mark', (list) => list.length) > 0, "the hint's move is marked on the board");
    const words = await page.textContent('.hint-moves li:first-child .hint-words');
    const notation = await page.textContent('.hint-moves li:first-child code');
    check(words && /^(cut|serve)/.test(words) && !words.includes(notation), `the hint in words: "${words}" for ${notation}`);
    await page.context().close();
  },
}, {
  name: "words: piece o' Cake's centre says what to do in words that fit it",
  async run(env) {
    const {page} = await cakeTable(env);
    for (const gap of [2, 5]) {
      await page.click(`[data-testid=board] .poc-gap[data-gap="${gap}"]`);
      await settled(page);
    }
    const centre = await page.evaluate(() => {
      const circle = document.querySelector('.poc-centre').getBoundingClientRect();
      return {circle: [circle.left, circle.right],
        lines: [...document.querySelectorAll('.poc-centre-text')].map((text) => {
          const box = text.getBoundingClientRect();
          return {text: text.textContent, left: box.left, right: box.right};
        })};
    });
    const said = centre.lines.map((line) => line.text).join(' ');
    check(/or play this cut/.test(said), `the centre says what else may be done: ${said}`);
    for (const line of centre.lines) {
      check(line.left >= centre.circle[0] && line.right <= centre.circle[1], `"${line.text}" fits the cake's centre`);
    }
    await page.context().close();
  },
}, {
  name: "words: a replay's caption names the player once, and its move is marked on the board",
  async run(env) {
    const record = execFileSync(env.gateau, ['random', 'piece-o-cake', '--players', '3', '--seed', '9'], {encoding: 'utf8'});
    const page = await newPage(env.browser, env.errors);
    await page.goto(`${env.url}/#/replay`);
    await page.setInputFiles('#record-file', {name: 'game.txt', mimeType: 'text/plain', buffer: Buffer.from(record)});
    await page.waitForSelector('[data-testid=board]');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    const caption = await page.$eval('.replay-move', (p) => [...p.childNodes].filter((node) => node.localName !== 'code')
      .map((node) => node.textContent).join(''));
    check(/^\S.* cuts the cake/.test(caption) && !/seat \d:/i.test(caption), `the caption reads as words: "${caption}"`);
    check(await page.$$eval('.replay > [data-testid=board] .last-move', (list) => list.length) > 0,
      "the step's move is marked on the replay's board");
    await page.context().close();
  },
}, {
  name: "icons: every picture of the page is drawn, none is a glyph a font may lack",
  async run(env) {
    // Characters every font the page names has (Latin, punctuation, the
    // few geometric marks of the players' list and the stars); anything
    // else outside the Japanese catalogue is drawn (web/js/icons.js,
    // web/css/icons.css).
    const safe = /[\x00-\x7f\u00a0-\u00ff\u2013\u2014\u2018\u2019\u201c\u201d\u2026\u2212\u00b7\u2190\u2192\u2264\u2265\u25cf\u25cb\u25c6\u2605\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]/u;
    // (comments may name the glyphs they avoid)
    const code = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
    const files = (folder) => readdirSync(folder, {withFileTypes: true}).flatMap((entry) =>
      entry.isDirectory() ? files(join(folder, entry.name)) : [join(folder, entry.name)]);
    const found = [];
    for (const file of files(join(SOURCE, 'web'))) {
      if (file.endsWith('ja.js')) continue;
      for (const character of code(readFileSync(file, 'utf8'))) {
        if (!safe.test(character)) found.push(`${file.slice(SOURCE.length + 1)}: ${character}`);
      }
    }
    check(!found.length, `glyphs a font may lack: ${[...new Set(found)].join(', ')}`);
    // The style sheets' icons are masks of drawings (web/css/icons.css;
    // every game's sheet is in the page from the start).
    const page = await newPage(env.browser, env.errors);
    await page.goto(`${env.url}/#/`);
    const masks = await page.evaluate(async () => {
      const probe = document.createElement('div');
      probe.innerHTML = '<span class="mt-role eldest">e</span><span class="mt-thumb big up"></span>' +
        '<span class="mt-fork"></span><p class="mc-out-low"><span class="mc-verdict">v</span></p>' +
        '<ol class="cm-steps"><li class="now">n</li></ol>';
      document.body.append(probe);
      return [...probe.querySelectorAll('.mt-role, .mt-thumb, .mt-fork, .mc-verdict, li.now')].map((element) => {
        const style = getComputedStyle(element, '::before');
        return `${element.className}: ${style.content} ${style.maskImage || style.webkitMaskImage}`;
      });
    });
    for (const mask of masks) check(/data:image\/svg\+xml/.test(mask), `a drawn icon: ${mask}`);
    await page.context().close();
  },
}, ...Object.entries(MOST_PLAYERS).map(([game, players]) => ({
  name: `layout: ${game} on a phone with long names: no wider than the screen, every name whole or titled, the move panel in sight`,
  async run(env) {
    // (seat 1, whose page it is, has the 40 letters without a space)
    const names = Array.from({length: players}, (_, n) => LONG_NAMES[(n + 1) % LONG_NAMES.length]);
    const seats = ['human', ...Array(players - 1).fill('heuristic')];
    const table = await api(env.url, 'POST', '/api/tables', {game, seats, names});
    const page = await newPage(env.browser, env.errors, {width: 390, height: 844});
    await openSeat(page, env.url, table.id, table.seats[0].token);
    await page.waitForSelector('[data-testid=board] [data-action]');
    const layout = await page.evaluate(() => {
      const panel = document.querySelector('.move-panel').getBoundingClientRect();
      const send = document.querySelector('[data-testid=send]').getBoundingClientRect();
      return {scrollWidth: document.scrollingElement.scrollWidth, innerWidth, innerHeight,
        panel: [panel.top, panel.bottom], send: [send.top, send.bottom], scrolled: scrollY};
    });
    check(layout.scrollWidth <= layout.innerWidth, `the page is ${layout.scrollWidth} px wide on a ${layout.innerWidth} px screen`);
    check(layout.scrolled === 0 && layout.send[0] >= 0 && layout.send[1] <= layout.innerHeight,
      `Play this move is in sight without scrolling: ${JSON.stringify(layout)}`);
    await checkNames(page, names, game);
    await page.setViewportSize({width: 1280, height: 800});
    await checkNames(page, names, `${game} on a laptop`);
    await page.context().close();
  },
})), ...Object.entries(MOST_PLAYERS).map(([game, players]) => ({
  name: `layout: ${game}'s end and replay with long names, on a phone and a laptop: every name whole or titled`,
  async run(env) {
    // Bots that play at random end a game in a moment; its page is a spectator's.
    const names = LONG_NAMES.slice(0, players);
    const table = await api(env.url, 'POST', '/api/tables', {game, seats: Array(players).fill('random'), names});
    await untilOver(env.url, table.id);
    const page = await newPage(env.browser, env.errors, {width: 375, height: 740});
    // (on a slow connection the game's style sheet comes last: the board
    // must never show without it, unstyled and wider than the phone)
    await page.route('**/css/games/*.css', async (route) => {
      await new Promise((done) => setTimeout(done, 400));
      await route.continue();
    });
    await page.goto(`${env.url}/#/table/${table.id}`);
    await page.waitForSelector('[data-testid=end]');
    await checkNames(page, names, `${game}'s end`);
    await checkAccessibility(page, `${game}'s end with long names`);
    await page.goto(`${env.url}/#/replay/${table.id}`);
    await page.waitForSelector('[data-testid=board]');
    await page.selectOption('#replay-seat', 'all');
    await page.waitForSelector('.replay-seat [data-testid=board]');
    await page.click('[aria-label="Next"]');
    await checkNames(page, names, `${game}'s replay`);
    await page.setViewportSize({width: 1280, height: 800});
    await page.goto(`${env.url}/#/table/${table.id}`);
    await page.waitForSelector('[data-testid=end]');
    await checkNames(page, names, `${game}'s end on a laptop`);
    await page.context().close();
  },
}))];
