// support.mjs: what the browser tests share: a `gateau serve` of their
// own (a fresh database, the project's web/ folder, a free port), Debian's
// chromium through playwright-core, a seat's page, and playing by clicking.

import {spawn, execFileSync} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, dirname, resolve} from 'node:path';
import {fileURLToPath} from 'node:url';
import {createRequire} from 'node:module';
import {chromium} from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const SOURCE = resolve(here, '../..');

export class Failure extends Error {
  constructor(message) {
    super(message);
    this.name = 'Failure';
  }
}

export function check(condition, message) {
  if (!condition) throw new Failure(message);
}

// Starts gateau serve on a free port (or port, on the database in
// folder); resolves to {url, folder, kill, stop}.
export async function startServer(gateau, port = 0, given = null) {
  const folder = given || mkdtempSync(join(tmpdir(), 'gateau-web-'));
  const server = spawn(gateau, ['serve', '--port', String(port), '--db', join(folder, 'test.db'),
    '--web', join(SOURCE, 'web'), '--quiet', '--bot-threads', '2'], {stdio: ['ignore', 'pipe', 'inherit']});
  const url = await new Promise((resolveUrl, reject) => {
    let seen = '';
    server.stdout.on('data', (chunk) => {
      seen += chunk;
      const found = seen.match(/http:\/\/[^\s]+/);
      if (found) resolveUrl(found[0].replace(/\/$/, ''));
    });
    server.on('exit', (code) => reject(new Error(`gateau serve exited with ${code}: ${seen}`)));
  });
  return {
    url, folder,
    kill: () => new Promise((done) => {
      server.once('exit', done);
      server.kill('SIGKILL');
    }),
    stop: () => {
      server.kill('SIGTERM');
      rmSync(folder, {recursive: true, force: true});
    },
  };
}

export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.GATEAU_CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export async function api(url, method, path, body) {
  const response = await fetch(url + path, {method, headers: {'Content-Type': 'application/json'},
    body: body === undefined ? undefined : JSON.stringify(body)});
  const text = await response.text();
  if (!response.ok) throw new Failure(`${method} ${path}: ${response.status} ${text}`);
  return response.headers.get('Content-Type').includes('json') ? JSON.parse(text) : text;
}

// A page of its own (a browser context: its own localStorage) that
// reports page errors as test failures.
export async function newPage(browser, errors, viewport = {width: 1280, height: 900}) {
  const context = await browser.newContext({viewport});
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console error: ${message.text()}`);
  });
  return page;
}

// Opens a seat's invitation link; resolves when its table is drawn.
export async function openSeat(page, url, id, token) {
  await page.goto(`${url}/#/join/${id}/${token}`);
  await page.waitForSelector('[data-testid=board]');
}

// A tiny generator of its own, so that a test's clicks repeat from its seed.
export function randomFrom(seed) {
  let state = BigInt(seed) || 1n;
  return (n) => {
    state ^= state << 13n; state &= 0xffffffffffffffffn;
    state ^= state >> 7n;
    state ^= state << 17n; state &= 0xffffffffffffffffn;
    return Number(state % BigInt(n));
  };
}

// One click on a page if it has something to play: a legal element on the
// board, or the send button of a whole move.  Returns what it did, or null.
// Only the board's own elements are clicked: a legal action the board
// did not draw (shown under "Other choices") fails the test.
export async function clickOnce(page, random) {
  const others = await page.$$('.other-choices [data-action]');
  if (others.length) {
    const names = await Promise.all(others.map((e) => e.textContent()));
    throw new Failure(`the board does not draw these legal actions: ${names.join(', ')}`);
  }
  if (await page.$('[aria-busy=true]')) return null;
  const send = await page.$('[data-testid=send]:not([disabled])');
  if (send) {
    await send.click();
    return 'send';
  }
  const choices = await page.$$('[data-testid=board] [data-action]');
  if (!choices.length) return null;
  const choice = choices[random(choices.length)];
  const label = await choice.getAttribute('aria-label');
  await choice.click();
  return label;
}

// Plays a table to its end by clicking on every seat's page, each page in
// turn; resolves to the number of clicks.  Fails after limit clicks or
// when nothing changes for 20 s.
export async function playToTheEnd(pages, random, limit = 3000) {
  let clicks = 0, idleSince = Date.now();
  for (;;) {
    let over = 0, clicked = false;
    for (const page of pages) {
      if (await page.$('[data-testid=end]')) {
        over++;
        continue;
      }
      if (await clickOnce(page, random)) {
        clicks++;
        clicked = true;
        await page.waitForFunction(() => !document.querySelector('[aria-busy=true]'), null, {timeout: 5000});
      }
    }
    if (over === pages.length) return clicks;
    check(clicks < limit, `no end after ${limit} clicks`);
    if (clicked) idleSince = Date.now();
    check(Date.now() - idleSince < 20000, 'nothing to click for 20 s and the game is not over');
    if (!clicked) await pages[0].waitForTimeout(50);
  }
}

// The winners a page names at the end, in seat order.
export async function shownWinners(page) {
  return page.$$eval('[data-winner] [data-final-score-seat]',
    (cells) => cells.map((cell) => Number(cell.dataset.finalScoreSeat)).sort((a, b) => a - b));
}

// The final scores a page shows, by seat.
export async function shownScores(page) {
  return page.$$eval('[data-final-score-seat]', (cells) => {
    const scores = [];
    for (const cell of cells) scores[Number(cell.dataset.finalScoreSeat) - 1] = Number(cell.textContent);
    return scores;
  });
}

// What `gateau replay --json` says of the record: {scores, winners, ...}.
export function replayResult(gateau, record) {
  const folder = mkdtempSync(join(tmpdir(), 'gateau-record-'));
  const file = join(folder, 'game.txt');
  writeFileSync(file, record);
  try {
    return JSON.parse(execFileSync(gateau, ['replay', file, '--json'], {encoding: 'utf8'}));
  } finally {
    rmSync(folder, {recursive: true, force: true});
  }
}

// axe-core's automated check: no serious or critical violation on page.
const require = createRequire(import.meta.url);
const AXE = require.resolve('axe-core/axe.min.js');

async function violations(page) {
  await page.addScriptTag({path: AXE});
  const found = await page.evaluate(async () => {
    const result = await window.axe.run(document, {resultTypes: ['violations']});
    return result.violations.map((v) => ({id: v.id, impact: v.impact,
      targets: v.nodes.slice(0, 3).map((n) => n.target.join(' '))}));
  });
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

export async function checkAccessibility(page, what) {
  const bad = await violations(page);
  check(!bad.length, `${what}: ${bad.map((v) => `${v.impact} ${v.id} at ${v.targets.join(', ')}`).join('; ')}`);
}

