// bench_web.mjs: how fast the web table feels, in Debian's chromium
// against a local `gateau serve` (figures in docs/performance.md, "The
// web tables"):
//
//   load to interactive: from navigating to a seat's table until its board
//     offers something to click (page, modules, snapshot over WebSocket,
//     board drawn), for each game;
//   click to answer: from a click on the board until the page has drawn
//     its answer (the next choices, or the whole move committed), over
//     the clicks of a whole game; and until that answer is painted (the
//     browser's style, layout and paint of it, the frame after).
//
//   node bench/bench_web.mjs build/gateau [loads-per-game]
//
// Needs the browser tests' packages (cd tests/web && npm ci).

import {resolve} from 'node:path';
import {startServer, launchBrowser, api, newPage, openSeat, randomFrom} from '../tests/web/support.mjs';

const [gateau, loadsText] = process.argv.slice(2);
if (!gateau) {
  console.error('usage: node bench/bench_web.mjs GATEAU [loads-per-game]');
  process.exit(2);
}
const LOADS = Number(loadsText || 10);
const GAMES = {
  'piece-o-cake': ['human', 'heuristic', 'heuristic'],
  'maries-table': ['human', 'heuristic', 'heuristic', 'heuristic'],
  'cake-master': ['human', 'heuristic', 'heuristic'],
  'mice-cake': ['human', 'heuristic'],
};

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const line = (name, values) => console.log(`${name.padEnd(34)} n=${String(values.length).padStart(4)}` +
  `  median ${quantile(values, 0.5).toFixed(1).padStart(6)} ms  p95 ${quantile(values, 0.95).toFixed(1).padStart(6)} ms` +
  `  max ${Math.max(...values).toFixed(1).padStart(6)} ms`);

// Time from a click (captured before any handler) until the page is drawn
// again and not busy: the next choices offered after /legal, or (a click
// of Send) a whole move committed by the server (its 200) and shown as
// played.  The other
// seats' moves after it are theirs, not the click's, and not counted.
// The painted figure: a task posted from the next animation frame runs
// once that frame is painted.
const WATCH_CLICKS = () => {
  window.__answers = [];
  window.__painted = [];
  document.addEventListener('click', () => { window.__clickedAt = performance.now(); }, true);
  new MutationObserver(() => {
    const root = document.querySelector('.table');
    if (window.__clickedAt === undefined || !root || root.getAttribute('aria-busy') === 'true') return;
    const clickedAt = window.__clickedAt;
    window.__answers.push(performance.now() - clickedAt);
    window.__clickedAt = undefined;
    requestAnimationFrame(() => setTimeout(() => window.__painted.push(performance.now() - clickedAt)));
  }).observe(document.body, {childList: true, subtree: true, attributes: true});
};

// (the figures are the page's, not the limits': no limit on requests a
// second from one address)
const server = await startServer(resolve(gateau), 0, null, ['--address-requests', '0']);
const browser = await launchBrowser();
const errors = [];
try {
  console.log(`web table figures: ${LOADS} loads per game, then a whole game of clicks per game`);
  for (const [game, seats] of Object.entries(GAMES)) {
    const loads = [];
    const table = await api(server.url, 'POST', '/api/tables', {game, seats});
    const page = await newPage(browser, errors);
    await openSeat(page, server.url, table.id, table.seats[0].token); // warms the cache once
    for (let n = 0; n < LOADS; n++) {
      const started = performance.now();
      await page.goto(`${server.url}/?load=${n}#/table/${table.id}/1`);
      await page.waitForSelector('[data-testid=board] [data-action]');
      loads.push(performance.now() - started);
    }
    line(`${game}: load to interactive`, loads);

    await page.evaluate(WATCH_CLICKS);
    const random = randomFrom(7);
    for (let clicks = 0; clicks < 400 && !(await page.$('[data-testid=end]')); clicks++) {
      // (a whole move is sent by its button, never by the click that
      // completes it; parts already chosen are not clicked again)
      const send = await page.$('[data-testid=send]:not([disabled])');
      const choices = send ? [send] : await page.$$('[data-testid=board] [data-action]:not([data-undo])');
      if (!choices.length || await page.$('[aria-busy=true]')) {
        await page.waitForTimeout(20);
        continue;
      }
      // (a snapshot may redraw the board between the look and the click:
      // the other seats play meanwhile; then look again)
      try {
        await choices[random(choices.length)].click({timeout: 2000});
      } catch (error) {
        if (!/not attached|detached/i.test(error.message)) throw error;
        continue;
      }
      await page.waitForFunction(() => window.__clickedAt === undefined, null, {timeout: 10000});
    }
    line(`${game}: click to answer`, await page.evaluate(() => window.__answers));
    line(`${game}: click to painted`, await page.evaluate(() => window.__painted));
    // Where a click's time goes: the page's redraws, and the server's
    // answers to /legal and /moves as the browser timed them.
    const parts = await page.evaluate(() => ({
      draw: performance.getEntriesByName('gateau-draw').map((e) => e.duration),
      legal: performance.getEntriesByType('resource').filter((e) => e.name.includes('/legal?')).map((e) => e.duration),
      moves: performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/moves')).map((e) => e.duration),
    }));
    line(`${game}:   one redraw`, parts.draw);
    if (parts.legal.length) line(`${game}:   GET /legal`, parts.legal);
    if (parts.moves.length) line(`${game}:   POST /moves`, parts.moves);
    await page.context().close();
  }
} finally {
  await browser.close();
  server.stop();
}
if (errors.length) {
  console.error(errors.join('\n'));
  process.exit(1);
}
