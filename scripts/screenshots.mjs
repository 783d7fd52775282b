// screenshots.mjs: the pictures of docs/web.md's "The four tables": each
// game's table in the middle of a game, with a move partly built (the
// move panel's controls showing), on a laptop (1280x800) and a phone
// (390x844).  Run it again after the page changes:
//
//   node scripts/screenshots.mjs build/gateau [docs/images]
//
// It starts a `gateau serve` of its own (tests/web/support.mjs), opens
// seat 1's page on both screens, plays seat 1 through the API (the first
// legal parts each time: no search) against heuristic bots until the game
// is under way (the pages follow, and mark the last move), then clicks
// one part of seat 1's next move on each page and takes the pictures
// (pngquant, when the machine has it, makes them small).  The games are
// dealt at random: each run shows other cakes.

import {resolve} from 'node:path';
import {startServer, launchBrowser, api, newPage, openSeat, settled} from '../tests/web/support.mjs';
import {shrinkAndReport} from './shrink-png.mjs';

const [gateau, folder = 'docs/images'] = process.argv.slice(2);
if (!gateau) {
  console.error('usage: node scripts/screenshots.mjs GATEAU [FOLDER]');
  process.exit(2);
}

const NAMES = ['Alice', 'Bruno', 'Chiyo', 'Dmitri'];
const VIEWPORTS = {laptop: {width: 1280, height: 800}, phone: {width: 390, height: 844}};

// Each game: its seats, the moment of the picture (seat 1 to move, and
// ready(view) holds: seat 1's own moves are played until then), and the
// part clicked on the page to start seat 1's next move.
const GAMES = [
  {game: 'piece-o-cake', seats: ['human', 'heuristic', 'heuristic'],
    ready: (view) => view.cake >= 4 && view.phase === 'cut', part: '.poc-gap.offered'},
  {game: 'maries-table', seats: ['human', 'heuristic', 'heuristic', 'heuristic'],
    ready: (view) => view.round >= 2 && view.phase === 'draft', part: '.mt-cards.hand .mt-card.legal'},
  {game: 'cake-master', seats: ['human', 'heuristic', 'heuristic'],
    ready: (view) => view.round >= 2 && view.phase === 'place', part: '.cm-chip.legal'},
  {game: 'mice-cake', seats: ['human', 'heuristic'],
    ready: (view) => view.round >= 3, part: '.mc-lane-cell.mc-add'},
];

const pause = (ms) => new Promise((done) => setTimeout(done, ms));

// Seat 1's snapshot once it is to move (the bots move meanwhile).
async function whenToMove(url, id, token) {
  for (let tries = 0; tries < 400; tries++) {
    const snapshot = await api(url, 'GET', `/api/tables/${id}`, undefined, token);
    if (snapshot.over) throw new Error(`table ${id} ended before its picture`);
    if ((snapshot.legal || []).length) return snapshot;
    await pause(50);
  }
  throw new Error(`seat 1 of table ${id} never came to move`);
}

// One whole move of seat 1: the first legal part each time, until whole.
async function playOnce(url, id, token, snapshot) {
  const parts = [];
  let legal = snapshot.legal;
  for (;;) {
    const entry = legal[0];
    parts.push(entry.action);
    const answer = await api(url, 'GET', `/api/tables/${id}/legal?after=${parts.join(',')}`, undefined, token);
    if (answer.complete) {
      await api(url, 'POST', `/api/tables/${id}/moves`, {version: snapshot.version, move: answer.move}, token);
      return;
    }
    legal = answer.legal;
  }
}

// Seat 1's page on a screen, opened before the moves are played, so that
// it follows them and marks the last one on the board.
async function openPage(browser, url, table, where, errors) {
  const page = await newPage(browser, errors, VIEWPORTS[where]);
  await openSeat(page, url, table.id, table.seats[0].token);
  // (the page asks a new seat for the name the others see: Alice it is)
  const save = page.locator('[data-testid=name-save]');
  if (await save.count()) {
    await save.click();
    await save.waitFor({state: 'detached'});
  }
  return page;
}

// The picture: once the page shows the table as it is (its log as long
// as the snapshot's), one part of the move chosen, the motion over.
async function picture(page, spec, where, logLength) {
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=log] li').length >= n, logLength);
  const part = page.locator('[data-testid=board]').locator(spec.part).first();
  await part.waitFor();
  // (from the top of the page: the click scrolls only if the part is below)
  await page.evaluate(() => window.scrollTo(0, 0));
  await part.click();
  await settled(page);
  // (a picture of the move, not of a fade)
  await page.evaluate(() => Promise.all(document.getAnimations().filter((a) => a.effect &&
    a.effect.getTiming().iterations !== Infinity).map((a) => a.finished.catch(() => {}))));
  // The page as high as it goes with the part chosen still in sight.
  await page.evaluate(() => {
    const chosen = document.querySelector('[data-testid=board] [data-undo]') || document.activeElement;
    const bottom = chosen.getBoundingClientRect().bottom + window.scrollY;
    // (on a phone the move panel is a bar over the bottom of the screen)
    const panel = document.querySelector('.move-panel');
    const covered = panel && getComputedStyle(panel).position === 'fixed' ? panel.offsetHeight : 0;
    window.scrollTo(0, Math.max(0, bottom - (window.innerHeight - covered) + 24));
  });
  const path = resolve(folder, `${spec.game}-${where}.png`);
  await page.screenshot({path});
  await page.context().close();
  return path;
}

const server = await startServer(resolve(gateau));
const browser = await launchBrowser();
const errors = [];
try {
  for (const spec of GAMES) {
    const table = await api(server.url, 'POST', '/api/tables', {game: spec.game, seats: spec.seats,
      names: NAMES.slice(0, spec.seats.length)});
    const token = table.seats[0].token;
    const pages = {};
    for (const where of Object.keys(VIEWPORTS)) pages[where] = await openPage(browser, server.url, table, where, errors);
    let snapshot;
    for (let moves = 0; ; moves++) {
      snapshot = await whenToMove(server.url, table.id, token);
      if (spec.ready(snapshot.view)) break;
      if (moves > 300) throw new Error(`${spec.game}: the moment of the picture never came`);
      await playOnce(server.url, table.id, token, snapshot);
    }
    for (const where of Object.keys(VIEWPORTS)) {
      const path = await picture(pages[where], spec, where, snapshot.log.length);
      shrinkAndReport(path);
    }
  }
} finally {
  await browser.close();
  server.stop();
}
if (errors.length) {
  console.error(errors.join('\n'));
  process.exit(1);
}
