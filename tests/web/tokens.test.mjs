// tokens.test.mjs: a seat's token travels only in the `Authorization`
// header (and in a WebSocket's first message), never in a URL
// (docs/server.md, "The contract"): over a whole game made with the
// lobby's form (an invitation opened, a spectator, moves, a hint, a seat
// handed to a bot by the creator, the record downloaded), no request any
// page makes names a token in its URL (nor holds one anywhere in it),
// every request that needs one carries it as `Bearer` (and no other
// does), POST bodies are JSON and hold no token, and each socket says who
// it is in its first message.

import {readFileSync} from 'node:fs';
import {newPage, check, api, randomFrom, clickOnce, Failure} from './support.mjs';

// Every request and WebSocket a page makes, as {who, request, headers}
// (the headers the page set) and {who, socket, sent: [frames]}.
function watch(page, who, seen) {
  page.on('request', (request) => seen.push({who, request, headers: request.headers()}));
  page.on('websocket', (socket) => {
    const entry = {who, socket: socket.url(), sent: []};
    socket.on('framesent', (frame) => entry.sent.push(String(frame.payload)));
    seen.push(entry);
  });
}

// What a request is, as the server's routes name it: 'table', 'legal',
// 'moves', 'hint', 'zombie', 'record', ... (or null: not the table's API).
function route(url, id) {
  const path = new URL(url).pathname;
  const base = `/api/tables/${id}`;
  if (path === base) return 'table';
  return path.startsWith(`${base}/`) ? path.slice(base.length + 1) : null;
}

// Plays seat token of table id to its end through the API: random whole
// moves (a bot's move first answers a 409: look again).
async function playToEnd(url, id, token, random) {
  for (let turn = 0; turn < 2000; turn++) {
    const snapshot = await api(url, 'GET', `/api/tables/${id}`, undefined, token);
    if (snapshot.over) return;
    if (!(snapshot.legal && snapshot.legal.length)) {
      await new Promise((done) => setTimeout(done, 20));
      continue;
    }
    const move = [];
    for (let legal = snapshot.legal; ;) {
      const entry = legal[random(legal.length)];
      move.push(entry.action);
      if (entry.complete) break;
      const next = await api(url, 'GET', `/api/tables/${id}/legal?after=${move.join(',')}`, undefined, token);
      if (next.complete && !next.legal.length) break;
      legal = next.legal;
    }
    try {
      await api(url, 'POST', `/api/tables/${id}/moves`, {version: snapshot.version, move}, token);
    } catch (error) {
      if (!/: 409 /.test(error.message)) throw error;
    }
  }
  throw new Failure(`table ${id} did not end`);
}

export const tests = [{
  name: 'tokens: a whole game from the lobby, and no token in any URL; every token in its header',
  async run(env) {
    const seen = [];
    const ann = await newPage(env.browser, env.errors);
    watch(ann, 'ann', seen);
    await ann.goto(`${env.url}/#/`);
    await ann.waitForSelector('form.create');
    await ann.selectOption('#game', 'maries-table');
    await ann.selectOption('#players', '3');
    await ann.selectOption('#seat-2', 'human');
    await ann.selectOption('#seat-3', 'heuristic');
    await ann.fill('#your-name', 'Ann');
    await ann.click('form.create button[type=submit]');
    const link = await ann.inputValue('input.link[data-seat="2"]');
    const [, id, beaToken] = link.match(/#\/join\/(\w+)\/([\w-]+)$/);
    await ann.click('[data-testid=go-to-table]');
    await ann.waitForSelector('[data-testid=board]');
    const held = await ann.evaluate((table) => ({
      seat: JSON.parse(localStorage.getItem(`gateau.seats.${table}`))[1],
      creator: localStorage.getItem(`gateau.creator.${table}`)}), id);
    check(held.seat && held.creator, 'the creator holds her seat and the creator\'s token');

    const bea = await newPage(env.browser, env.errors);
    watch(bea, 'bea', seen);
    await bea.goto(link);
    await bea.waitForSelector('[data-testid=board]');
    check(!bea.url().includes(beaToken), `the token leaves the address: ${bea.url()}`);
    const dee = await newPage(env.browser, env.errors);
    watch(dee, 'dee', seen);
    await dee.goto(`${env.url}/#/table/${id}`);
    await dee.waitForSelector('[data-testid=board]');

    // Ann moves first: she asks for a hint, then both play a few moves.
    await ann.waitForSelector('[data-focus=hint]', {timeout: 5000});
    await ann.click('[data-focus=hint]');
    await ann.waitForSelector('.hint-moves li', {timeout: 15000});
    const random = randomFrom(11);
    for (let clicks = 0, tries = 0; clicks < 8; tries++) {
      check(tries < 2000, `only ${clicks} clicks played`);
      let clicked = false;
      for (const page of [ann, bea]) if (await clickOnce(page, random)) { clicks++; clicked = true; }
      if (!clicked) await ann.waitForTimeout(30);
    }

    // Bea leaves; Ann, who made the table, hands her seat to a bot; the
    // rest of Ann's game is played through the API (her page has shown
    // every request a move makes), and her page shows the end.
    await bea.context().close();
    // (offered once the server has seen her go, and asked twice)
    await ann.click('[data-focus=zombie-2]', {timeout: 10000});
    await ann.click('[data-focus=zombie-yes-2]');
    await dee.waitForFunction(() => document.querySelector('.players').textContent.includes('played by a bot'),
      null, {timeout: 5000});
    // (a page fewer to draw the pushes of the game played at full speed)
    await dee.context().close();
    await playToEnd(env.url, id, held.seat, random);
    await ann.waitForSelector('[data-testid=end]', {timeout: 10000});

    // The record: a plain link (the whole record is everyone's once the
    // game is over), saved under its name.
    const [download] = await Promise.all([ann.waitForEvent('download', {timeout: 10000}),
      ann.click('[data-testid=record]')]);
    check(download.suggestedFilename() === `gateau-${id}.txt`, `the record's file: ${download.suggestedFilename()}`);
    // (a download is no request event: its address is checked with the others)
    seen.push({who: 'ann', download: download.url()});
    const saved = readFileSync(await download.path(), 'utf8');
    const record = await api(env.url, 'GET', `/api/tables/${id}/record`);
    check(saved === record, `the record saved (${saved.length} bytes) is the table's (${record.length} bytes)`);

    // What went over the wire.
    const tokens = {ann: held.seat, bea: beaToken, dee: null};
    const secrets = [held.seat, held.creator, beaToken];
    const used = new Set();
    for (const entry of seen) {
      const url = entry.socket || entry.download || entry.request.url();
      check(!/token=/i.test(url), `${entry.who}: a URL names a token: ${url}`);
      for (const secret of secrets) check(!url.includes(secret), `${entry.who}: a URL holds a token: ${url}`);
      if (entry.download) {
        check(route(url, id) === 'record' && !new URL(url).search, `the record downloaded from ${url}`);
        used.add('record');
        continue;
      }
      if (entry.socket) {
        check(!new URL(url).search && new URL(url).pathname === `/api/tables/${id}/ws`, `${entry.who}: a socket at ${url}`);
        const hello = JSON.stringify(tokens[entry.who] ? {token: tokens[entry.who]} : {});
        check(entry.sent.length >= 1 && entry.sent[0] === hello,
          `${entry.who}: a socket's first message is ${entry.sent[0] === undefined ? 'none' : entry.sent[0].replace(/"token":"[^"]*"/, '"token":"…"')}`);
        used.add('ws');
        continue;
      }
      const what = route(url, id);
      if (!what || what === 'ws') continue;
      const headers = entry.headers;
      const expected = what === 'zombie' ? held.creator : what === 'record' ? null : tokens[entry.who];
      const sent = headers.authorization || null;
      check(sent === (expected ? `Bearer ${expected}` : null),
        `${entry.who}: ${entry.request.method()} ${what} sent ${sent ? 'another Authorization' : 'no Authorization'}`);
      if (entry.request.method() === 'POST') {
        check((headers['content-type'] || '').startsWith('application/json'), `${entry.who}: POST ${what} as ${headers['content-type']}`);
        const body = JSON.parse(entry.request.postData() || 'null');
        check(body && !('token' in body) && !('creator' in body), `${entry.who}: POST ${what} names a token in its body`);
      }
      used.add(what.replace(/\?.*/, ''));
    }
    for (const what of ['ws', 'table', 'legal', 'moves', 'hint', 'zombie', 'record']) {
      check(used.has(what), `the pages never used ${what}: ${[...used].join(', ')}`);
    }
    await ann.context().close();
  },
}];
