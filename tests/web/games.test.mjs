// games.test.mjs: every game played to its end in the browser, one page
// (its own browser context) per person's seat and bots on the others, by
// clicking only; the final record replays (`gateau replay`) to the scores
// the pages show.  On the way: one seat's page is closed and opened again
// (it resumes where it was), and a spectator's page never shows what the
// people's seats hold hidden.

import {api, newPage, openSeat, randomFrom, clickOnce, shownScores, shownWinners, replayResult, check,
  checkAccessibility, Failure} from './support.mjs';
import pieceOCake from './games/piece-o-cake.mjs';
import mariesTable from './games/maries-table.mjs';
import cakeMaster from './games/cake-master.mjs';
import miceCake from './games/mice-cake.mjs';

const GAMES = {'piece-o-cake': pieceOCake, 'maries-table': mariesTable,
  'cake-master': cakeMaster, 'mice-cake': miceCake};

// The data-card marks on a page's board.
const cardsOn = (page) => page.$$eval('[data-testid=board] [data-card]',
  (elements) => elements.map((e) => e.dataset.card));

// At a quiet moment (the spectator's page at the server's version), the
// spectator's board shows none of what the game's hidden() says a seat
// keeps to itself.
async function checkSpectator(env, id, tokens, spectator, game) {
  const watched = await api(env.url, 'GET', `/api/tables/${id}`);
  const views = await Promise.all(tokens.map((token) => api(env.url, 'GET', `/api/tables/${id}`, undefined, token)));
  if (views.some((view) => view.version !== watched.version)) return 0; // not quiet: another time
  const cards = new Set(await cardsOn(spectator));
  let checked = 0;
  for (const view of views) {
    for (const card of game.hidden(view.view, watched.view)) {
      check(!cards.has(card), `the spectator's page shows ${card}, which seat ${view.seat} holds hidden`);
      checked++;
    }
  }
  return checked;
}

async function playGame(env, name, seed) {
  const game = GAMES[name];
  const table = await api(env.url, 'POST', '/api/tables',
    {game: name, seats: game.seats, ...(game.options ? {options: game.options} : {})});
  const tokens = table.seats.map((entry) => entry.token);
  const pages = [];
  for (const token of tokens) {
    const page = await newPage(env.browser, env.errors);
    await openSeat(page, env.url, table.id, token);
    pages.push(page);
  }
  const spectator = await newPage(env.browser, env.errors);
  await spectator.goto(`${env.url}/#/table/${table.id}`);
  await spectator.waitForSelector('[data-testid=board]');

  const random = randomFrom(seed);
  let clicks = 0, reopened = false, hiddenChecked = 0, idle = 0;
  for (;;) {
    let over = 0, clicked = false;
    for (let index = 0; index < pages.length; index++) {
      const status = {};
      if (await clickOnce(pages[index], random, status)) {
        clicks++;
        clicked = true;
      }
      if (status.ended) over++;
    }
    if (over === pages.length) break;
    if (clicked) idle = 0;
    else if (++idle * 50 > 20000) {
      if (process.env.GATEAU_FAILURE_SHOTS) {
        for (let i = 0; i < pages.length; i++) {
          await pages[i].screenshot({path: `${process.env.GATEAU_FAILURE_SHOTS}/${name}-seat${i + 1}.png`, fullPage: true});
        }
      }
      throw new Failure(`nothing to click for 20 s after ${clicks} clicks`);
    }
    else await pages[0].waitForTimeout(50);
    check(clicks < 4000, 'no end after 4000 clicks');
    // Halfway through a usual game: seat 1 leaves and comes back.
    if (!reopened && clicks >= 12) {
      reopened = true;
      const context = pages[0].context();
      await pages[0].close();
      pages[0] = await context.newPage();
      pages[0].on('pageerror', (error) => env.errors.push(`page error: ${error.message}`));
      await pages[0].goto(`${env.url}/#/table/${table.id}`);
      await pages[0].waitForSelector('[data-testid=board]');
      const who = await pages[0].textContent('.who');
      check(/1/.test(who), `the page opened again is not seat 1's: ${who}`);
    }
    if (clicks % 7 === 3) hiddenChecked += await checkSpectator(env, table.id, tokens, spectator, game);
  }

  if (env.screenshots) {
    await pages[0].screenshot({path: `${env.screenshots}/${name}-end.png`, fullPage: true});
  }
  await checkAccessibility(pages[0], `${name} at its end`);
  const record = await api(env.url, 'GET', `/api/tables/${table.id}/record`);
  const expected = replayResult(env.gateau, record);
  for (const page of [...pages, spectator]) {
    await page.waitForSelector('[data-final-score-seat]');
    const shown = await shownScores(page);
    check(JSON.stringify(shown) === JSON.stringify(expected.scores),
      `the page shows scores ${shown}, the record replays to ${expected.scores}`);
    const winners = await shownWinners(page);
    check(JSON.stringify(winners) === JSON.stringify(expected.winners),
      `the page names winners ${winners}, the record ${expected.winners}`);
  }
  for (const page of [...pages, spectator]) await page.context().close();
  if (process.env.GATEAU_WEB_VERBOSE) console.log(`${name}: ${clicks} clicks, ${idle} idle, ${hiddenChecked} hidden checks`);
  return {clicks, hiddenChecked};
}

export const tests = Object.keys(GAMES).map((name, index) => ({
  name: `a whole game of ${name} by clicking, with a seat reopened and a spectator`,
  run: (env) => playGame(env, name, 1000 + index),
}));
