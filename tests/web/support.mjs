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
// folder, with the options more); resolves to {url, folder, kill, stop}.
export async function startServer(gateau, port = 0, given = null, more = []) {
  const folder = given || mkdtempSync(join(tmpdir(), 'gateau-web-'));
  const server = spawn(gateau, ['serve', '--port', String(port), '--db', join(folder, 'test.db'),
    '--web', join(SOURCE, 'web'), '--quiet', '--bot-threads', '2', ...more], {stdio: ['ignore', 'pipe', 'inherit']});
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

// One request of the server's API: its JSON (or text) answer.  A token (a
// seat's or the creator's) goes in the Authorization header, never in the
// path (docs/server.md: the server refuses a query naming token=).
export async function api(url, method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(url + path, {method, headers,
    body: body === undefined ? undefined : JSON.stringify(body)});
  const text = await response.text();
  if (!response.ok) throw new Failure(`${method} ${path}: ${response.status} ${text}`);
  return response.headers.get('Content-Type').includes('json') ? JSON.parse(text) : text;
}

// A page of its own (a browser context: its own localStorage) that
// reports page errors as test failures, and any request or WebSocket whose
// URL names a token (tokens travel in a header or a socket's first
// message: docs/server.md).
//
// A page asks before sending a whole move unless its player chose "send
// at once" (docs/web.md): the tests' pages have chosen it, so that one
// press of Send sends, unless askBeforeSending (the page as a new player
// finds it).
export async function newPage(browser, errors, viewport = {width: 1280, height: 900},
  {askBeforeSending = false} = {}) {
  const context = await browser.newContext({viewport});
  if (!askBeforeSending) {
    await context.addInitScript(() => {
      if (localStorage.getItem('gateau.confirm-moves') === null) localStorage.setItem('gateau.confirm-moves', '0');
    });
  }
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console error: ${message.text()}`);
  });
  page.on('request', (request) => {
    if (/token=/i.test(request.url())) errors.push(`a request names a token in its URL: ${request.method()} ${request.url()}`);
  });
  page.on('websocket', (socket) => {
    if (new URL(socket.url()).search) errors.push(`a WebSocket's URL has a query: ${socket.url()}`);
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
  const step = (value) => {
    value ^= value << 13n; value &= 0xffffffffffffffffn;
    value ^= value >> 7n;
    value ^= value << 17n; value &= 0xffffffffffffffffn;
    return value;
  };
  const random = (n) => {
    state = step(state);
    return Number(state % BigInt(n));
  };
  // The next draw's value modulo each n of 1..limit, without drawing: a
  // page can pick with it in the same round trip that counts its choices
  // (random.take() then draws it).
  random.peek = (limit) => {
    const next = step(state);
    return Array.from({length: limit + 1}, (_, n) => (n ? Number(next % BigInt(n)) : 0));
  };
  random.take = () => { state = step(state); };
  return random;
}

// Resolves when the page has no request of the table on its way.  (Polled
// every 10 ms: playwright's default waits for animation frames, which a
// page that is not in front gets seldom.)
export function settled(page) {
  return page.waitForFunction(() => !document.querySelector('[aria-busy=true]'), null,
    {polling: 10, timeout: 5000});
}

// One click on a page if it has something to play: a legal element on the
// board, or the send button of a whole move; resolves, once the page has
// settled, to what it clicked (the element's label, or 'send'), or null
// (also when the page shows the game's end: then status.ended is set).
// Only the board's own elements are clicked: a legal action the board
// did not draw (shown under "Other choices") fails the test.  The click is
// the mouse's, at the element's centre, after one look at the page (the
// element found there must be the one chosen).  One look, one click and
// one wait a click: each is a round trip to the browser, and whole games
// in the browser tests are made of them.
const MOST_CHOICES = 512;
export async function clickOnce(page, random, status = {}) {
  const seen = await page.evaluate((picks) => {
    if (document.querySelector('[data-testid=end]')) return {ended: true};
    const others = [...document.querySelectorAll('.other-choices [data-action]')];
    if (others.length) return {others: others.map((e) => e.textContent)};
    if (document.querySelector('[aria-busy=true]')) return null;
    if (document.querySelector('[data-testid=send]:not([disabled])')) return {send: true};
    // (parts already chosen, which a click would take back, are not picked)
    const elements = document.querySelectorAll('[data-testid=board] [data-action]:not([data-undo])');
    if (!elements.length) return null;
    if (elements.length >= picks.length) return {tooMany: elements.length};
    const pick = picks[elements.length];
    const element = elements[pick];
    element.scrollIntoView({block: 'center', inline: 'center'});
    const box = element.getBoundingClientRect();
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    const hit = document.elementFromPoint(x, y);
    return {pick, x, y, label: element.getAttribute('aria-label'), direct: Boolean(hit && element.contains(hit))};
  }, random.peek(MOST_CHOICES));
  if (!seen) return null;
  if (seen.ended) {
    status.ended = true;
    return null;
  }
  if (seen.others) throw new Failure(`the board does not draw these legal actions: ${seen.others.join(', ')}`);
  if (seen.tooMany) throw new Failure(`${seen.tooMany} choices on the board: more than the test picks from`);
  if (seen.send) {
    await page.click('[data-testid=send]');
    await settled(page);
    return 'send';
  }
  random.take();
  if (seen.direct) await page.mouse.click(seen.x, seen.y);
  else await page.locator('[data-testid=board] [data-action]:not([data-undo])').nth(seen.pick).click(); // (covered centre)
  await settled(page);
  return seen.label;
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


// Long names, as people choose them (docs/server.md, "Names": 1 to 40
// characters): 23 letters with a space, 40 without one, 20 full-width
// Japanese letters, 40 with spaces and a hyphen, and two more for six seats.
export const LONG_NAMES = ['Alexandrina Wolkenstein', 'Wolfeschlegelsteinhausenbergerdorffvonab',
  '寿限無寿限無五劫の擦り切れ海砂利水魚の水', 'Bartholomew Konstantin Wolkenstein-Ahren',
  'Maximiliane Wolkensteinerin', 'Konstantinopolitanische Alexandrina'];

// What is wrong with the seats' names on the page as it is drawn (an empty
// list when nothing is): the page wider than the screen, a board that
// scrolls sideways, an element showing a name (its own text holds it, or
// its start cut by the renderer with "…") that sticks out of its box
// without an ellipsis, and a name cut (by an ellipsis, a clamp of lines or
// the renderer) whose whole is in neither its title (nor an SVG <title>)
// nor its text, the accessible name.  (Boxes that scroll sideways, like a
// wide table's, are fine: what they hold can be read by scrolling.)
export function nameProblems(page, names) {
  return page.evaluate((names) => {
    const problems = [];
    const width = document.scrollingElement.scrollWidth;
    if (width > innerWidth) problems.push(`the page is ${width} px wide on a ${innerWidth} px screen`);
    for (const board of document.querySelectorAll('[data-testid=board]')) {
      if (board.scrollWidth > board.clientWidth + 1) problems.push(`a board scrolls sideways: ${board.scrollWidth} px in ${board.clientWidth}`);
    }
    const describe = (element) => `<${element.localName} class="${element.getAttribute('class') || ''}">`;
    for (const element of document.querySelectorAll('main *')) {
      if (element.closest('.visually-hidden, select, title')) continue;
      const own = [...element.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => node.textContent).join('');
      const whole = names.find((name) => own.includes(name));
      const cut = !whole && names.find((name) => [...name].some((_, n) => n >= 3 && own.includes(`${[...name].slice(0, n).join('')}…`)));
      const name = whole || cut;
      if (!name || !element.getClientRects().length) continue;
      const style = getComputedStyle(element);
      const ellipsis = style.textOverflow === 'ellipsis' || (style.webkitLineClamp && style.webkitLineClamp !== 'none');
      const html = !(element instanceof SVGElement) && style.display !== 'inline';
      const wider = html && element.scrollWidth > element.clientWidth + 1;
      const taller = html && ellipsis && element.scrollHeight > element.clientHeight + 1;
      if (wider && !ellipsis) {
        problems.push(`${describe(element)} "${name}" sticks out of its box (${element.scrollWidth} px in ${element.clientWidth})`);
      }
      // (cut by the style sheet, the text is whole in the page: assistive
      // technology reads it all, and the title shows it on hover; cut by the
      // renderer, an SVG <title> is both, an HTML title needs an aria-label)
      const titled = element.closest('[title]');
      const title = (titled && titled.getAttribute('title')) || '';
      const svgTitle = [...element.children].filter((child) => child.localName === 'title').map((child) => child.textContent).join(' ');
      const labelled = element.closest('[aria-label]');
      const label = (labelled && labelled.getAttribute('aria-label')) || '';
      if ((wider || taller) && !title.includes(name)) {
        problems.push(`${describe(element)} shows "${name}" cut, without the whole in its title`);
      }
      if (cut && !svgTitle.includes(name) && !(title.includes(name) && label.includes(name))) {
        problems.push(`${describe(element)} shows "${name}" shortened, without the whole in its title and accessible name`);
      }
    }
    return [...new Set(problems)];
  }, names);
}

// Waits until the table id is over (a table of bots playing on their own),
// looking every 50 ms, for seconds at most.
export async function untilOver(url, id, seconds = 30) {
  for (let tries = 0; tries < seconds * 20; tries++) {
    if ((await api(url, 'GET', `/api/tables/${id}`)).over) return;
    await new Promise((done) => setTimeout(done, 50));
  }
  throw new Error(`table ${id}: the bots did not finish their game in ${seconds} s`);
}
