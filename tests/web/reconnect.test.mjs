// reconnect.test.mjs: the server killed (SIGKILL) in the middle of a game
// and started again on the same database and port: the page that stayed
// open says it is reconnecting, comes back by itself to exactly where the
// seat was, and the game goes on to its end.  A live socket the server
// closes with 1013 (its client fell behind: here a proxy holds its pushes
// back, then closes it as the server would) comes back at once with a
// fresh snapshot; one refused with 1013 (the table's spectators' places
// taken) comes back once it may, and meanwhile the page follows the table
// by polling.  One closed with 1008 for good (a token that opens no seat,
// no such table) is not opened again, and the page says why.

import {createServer, connect} from 'node:net';
import {startServer, newPage, openSeat, api, randomFrom, clickOnce, check, Failure} from './support.mjs';

// The network's own console lines for refused requests (a 403 or 404
// answer, a failed socket, a server that is down) are what these tests
// provoke.
const provoked = (line) => /Failed to load resource|WebSocket connection to/.test(line);

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

// (before the page's scripts: the codes its WebSockets were closed with)
const RECORD_CLOSES = () => {
  window.__closes = [];
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('close', (event) => window.__closes.push(event.code));
    }
  };
};

// Seat token plays one whole move at table id through the API (the first
// action offered each time), once it is to move.
async function playOne(url, id, token) {
  for (let tries = 0; tries < 300; tries++) {
    const snapshot = await api(url, 'GET', `/api/tables/${id}`, undefined, token);
    check(!snapshot.over, 'the game ended too soon');
    if (!(snapshot.legal && snapshot.legal.length)) {
      await sleep(30);
      continue;
    }
    const move = [snapshot.legal[0].action];
    for (let whole = Boolean(snapshot.legal[0].complete); !whole;) {
      const next = await api(url, 'GET', `/api/tables/${id}/legal?after=${move.join(',')}`, undefined, token);
      if (next.complete && !next.legal.length) break;
      move.push(next.legal[0].action);
      whole = Boolean(next.legal[0].complete);
    }
    try {
      return await api(url, 'POST', `/api/tables/${id}/moves`, {version: snapshot.version, move}, token);
    } catch (error) {
      if (!/: 409 /.test(error.message)) throw error;
    }
  }
  throw new Failure(`seat's token never got to move at ${id}`);
}

// Resolves, once seat token is the only one to move (the table is quiet:
// in a phase where all choose at once, the bots may not have chosen yet
// when the seat may), to the number of entries of its log.
async function quiet(url, id, token) {
  for (let tries = 0; tries < 300; tries++) {
    const snapshot = await api(url, 'GET', `/api/tables/${id}`, undefined, token);
    const alone = snapshot.legal && snapshot.legal.length && snapshot.to_move.length === 1;
    if (snapshot.over || alone) return snapshot.log.length;
    await sleep(30);
  }
  throw new Failure(`table ${id} never came back to the seat`);
}

// Resolves once the page's log holds at least as many entries as the
// table's (a spectator's view of it) has now.
async function caughtUp(page, url, id, timeout) {
  const table = await api(url, 'GET', `/api/tables/${id}`);
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=log] li').length >= n,
    table.log.length, {timeout, polling: 50});
  return table.log.length;
}

export const tests = [{
  name: 'reconnect: the server killed mid-game and started again; the open page resumes',
  async run(env) {
    let server = await startServer(env.gateau);
    const port = Number(new URL(server.url).port);
    const table = await api(server.url, 'POST', '/api/tables',
      {game: 'maries-table', seats: ['human', 'heuristic', 'heuristic']});
    // (the requests and sockets tried while the server is down fail)
    const errors = [];
    const page = await newPage(env.browser, errors);
    await openSeat(page, server.url, table.id, table.seats[0].token);
    const random = randomFrom(3);
    for (let clicks = 0; clicks < 6;) {
      if (await clickOnce(page, random)) clicks++;
      else await page.waitForTimeout(30);
    }
    const before = await api(server.url, 'GET', `/api/tables/${table.id}`, undefined, table.seats[0].token);

    await server.kill();
    await page.waitForSelector('.connection.closed', {timeout: 5000});
    server = await startServer(env.gateau, port, server.folder);
    await page.waitForSelector('.connection.open', {timeout: 10000});
    const after = await api(server.url, 'GET', `/api/tables/${table.id}`, undefined, table.seats[0].token);
    check(after.version >= before.version, `the table came back at version ${after.version}, was ${before.version}`);
    const logLength = await page.$$eval('[data-testid=log] li', (items) => items.length);
    check(logLength === after.log.length, `the page shows ${logLength} log entries, the table has ${after.log.length}`);

    for (let clicks = 0; !(await page.$('[data-testid=end]')); ) {
      // (a click may meet the old socket's last moments: errors are shown, not thrown)
      if (await clickOnce(page, random)) clicks++;
      else await page.waitForTimeout(30);
      check(clicks < 400, 'no end after 400 clicks');
    }
    env.errors.push(...errors.filter((line) => !provoked(line)));
    await page.context().close();
    server.stop();
  },
}];

tests.push({
  name: 'reconnect: a live socket closed with 1013 (its client fell behind) comes back with a fresh snapshot',
  async run(env) {
    const table = await api(env.url, 'POST', '/api/tables',
      {game: 'maries-table', seats: ['human', 'heuristic', 'heuristic']});
    const token = table.seats[0].token;
    const proxy = await startProxy(env.url);
    try {
      const page = await newPage(env.browser, env.errors);
      await page.addInitScript(RECORD_CLOSES);
      const sockets = [];
      page.on('websocket', (socket) => {
        const entry = {received: []};
        socket.on('framereceived', (frame) => entry.received.push(String(frame.payload)));
        sockets.push(entry);
      });
      await openSeat(page, proxy.url, table.id, token);
      await page.waitForSelector('.connection.open', {timeout: 5000});
      await caughtUp(page, env.url, table.id, 5000);

      // The page stops reading (its pushes wait in the proxy) while the
      // table goes on; then the server gives up on it, as on a client that
      // fell behind: the waiting pushes are dropped, the socket is closed
      // with 1013.
      proxy.hold();
      await playOne(env.url, table.id, token);
      const length = await quiet(env.url, table.id, token);
      const shown = await page.$$eval('[data-testid=log] li', (items) => items.length);
      check(shown < length && proxy.held() > 0, `the page was not behind: ${shown} of ${length} entries, ${proxy.held()} held`);
      check(proxy.cut(1013, 'too many pushes waited for this socket') === 1, 'one socket to close');

      await page.waitForFunction(() => window.__closes.includes(1013), null, {timeout: 5000, polling: 50});
      await page.waitForSelector('.connection.open', {timeout: 5000});
      await caughtUp(page, env.url, table.id, 3000);
      check(sockets.length === 2, `the page opened ${sockets.length} sockets`);
      const fresh = JSON.parse(sockets[1].received[0]);
      check(!fresh.log_start && fresh.log.length === length,
        `the new socket's first snapshot starts at ${fresh.log_start} with ${fresh.log.length} entries, not the table's ${length}`);

      // The page's log is whole and in order, as a fresh page shows it,
      // and the new socket goes on pushing.
      const other = await newPage(env.browser, env.errors);
      await openSeat(other, env.url, table.id, token);
      const logOf = (each) => each.$$eval('[data-testid=log] li', (items) => items.map((li) => li.textContent));
      check(JSON.stringify(await logOf(page)) === JSON.stringify(await logOf(other)),
        'the page\'s log after the 1013 is the one a fresh page shows');
      await other.context().close();
      await playOne(env.url, table.id, token);
      await caughtUp(page, env.url, table.id, 3000);
      check(sockets.length === 2 && await page.$('.connection.open'), 'the new socket stayed open');
      await page.context().close();
    } finally {
      proxy.close();
    }
  },
});

tests.push({
  name: 'reconnect: a socket closed with 1013 (the spectators\' places taken) comes back; the page polls meanwhile',
  async run(env) {
    const server = await startServer(env.gateau, 0, null, ['--spectators', '1']);
    try {
      const table = await api(server.url, 'POST', '/api/tables',
        {game: 'maries-table', seats: ['human', 'heuristic', 'heuristic']});
      const token = table.seats[0].token;
      // Another spectator takes the table's one place first.
      const holder = await newPage(env.browser, env.errors);
      await holder.goto(`${server.url}/#/replay`);
      await holder.evaluate((id) => new Promise((taken, failed) => {
        const socket = new WebSocket(`ws://${location.host}/api/tables/${id}/ws`);
        window.__held = socket;
        socket.onopen = () => socket.send('{}');
        socket.onmessage = () => taken();
        socket.onclose = (event) => failed(new Error(`the first spectator's socket closed with ${event.code}`));
      }), table.id);

      const page = await newPage(env.browser, env.errors);
      await page.addInitScript(RECORD_CLOSES);
      const polls = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === `/api/tables/${table.id}`) polls.push(Date.now());
      });
      await page.goto(`${server.url}/#/table/${table.id}`);
      // The board comes from a poll: the socket is refused with 1013.
      await page.waitForSelector('[data-testid=board]', {timeout: 5000});
      await page.waitForFunction(() => window.__closes.includes(1013), null, {timeout: 5000});
      check(await page.$('.connection.closed'), 'the page says it is reconnecting');
      check((await page.$$eval('[data-testid=log] li', (items) => items.length)) > 0, 'the log came with the poll');

      // The table goes on; the page follows it by polling (every 2 s), and
      // tries its socket again.
      await playOne(server.url, table.id, token);
      await caughtUp(page, server.url, table.id, 4000);
      await page.waitForFunction(() => window.__closes.filter((code) => code === 1013).length >= 2, null,
        {timeout: 5000, polling: 50});
      check(polls.length >= 2, `the page polled the table ${polls.length} times`);
      check(await page.$('.connection.closed'), 'the socket is still refused');

      // The place is free again: the socket comes back, the polling stops.
      await holder.evaluate(() => window.__held.close());
      await page.waitForSelector('.connection.open', {timeout: 8000});
      const opened = Date.now();
      await caughtUp(page, server.url, table.id, 2000);
      await playOne(server.url, table.id, token);
      await caughtUp(page, server.url, table.id, 2000);
      // The log is whole and in order, as a fresh page shows it (once seat
      // 1 is to move: the table is quiet).
      const length = await quiet(server.url, table.id, token);
      const logOf = async (each) => {
        await each.waitForFunction((n) => document.querySelectorAll('[data-testid=log] li').length === n,
          length, {timeout: 3000, polling: 50});
        return each.$$eval('[data-testid=log] li', (items) => items.map((li) => li.textContent));
      };
      const shown = await logOf(page);
      await sleep(Math.max(0, opened + 2500 - Date.now()));
      const late = polls.filter((at) => at > opened + 300).length;
      check(late === 0, `the page polled ${late} times with its socket open`);
      await page.context().close();
      await holder.context().close();
      const fresh = await newPage(env.browser, env.errors);
      await fresh.goto(`${server.url}/#/table/${table.id}`);
      await fresh.waitForSelector('.connection.open', {timeout: 5000});
      const whole = await logOf(fresh);
      check(JSON.stringify(shown) === JSON.stringify(whole),
        'the page\'s log, put together from polls and pushes, is the one a fresh page shows');
      await fresh.context().close();
    } finally {
      server.stop();
    }
  },
});

tests.push({
  name: 'reconnect: refused for good (1008: a token that opens no seat, no such table): the page says why and stops',
  async run(env) {
    const table = await api(env.url, 'POST', '/api/tables', {game: 'mice-cake', seats: ['human', 'heuristic']});
    const errors = [];
    // A seat held with a token the server never gave, in English and in
    // Japanese; and a table that does not exist.
    const cases = [
      {language: 'en', hash: `#/table/${table.id}/1`, said: 'the token opens no seat of this table',
        words: /This table cannot be shown/},
      {language: 'ja', hash: `#/table/${table.id}/1`, said: 'the token opens no seat of this table',
        words: /このテーブルは表示できません/},
      {language: 'en', hash: '#/table/nosuchtable', said: 'no table nosuchtable', words: /This table cannot be shown/},
    ];
    await Promise.all(cases.map(async (each) => {
      const page = each.page = await newPage(env.browser, errors);
      await page.addInitScript(RECORD_CLOSES);
      await page.addInitScript(([id, language]) => {
        localStorage.setItem(`gateau.seats.${id}`, JSON.stringify({1: 'A'.repeat(32)}));
        localStorage.setItem('gateau.language', language);
      }, [table.id, each.language]);
      each.sockets = 0;
      page.on('websocket', () => each.sockets++);
      await page.goto(`${env.url}/${each.hash}`);
      await page.waitForFunction(() => window.__closes.includes(1008), null, {timeout: 5000});
      await page.waitForSelector('#main .error[role=alert]', {timeout: 5000});
      const text = await page.textContent('#main .error[role=alert]');
      check(each.words.test(text) && text.includes(each.said), `${each.language} ${each.hash}: the page says: ${text}`);
    }));
    // (the longest pause before a socket is tried again after a 1008: 5 s, less a quarter)
    await sleep(4000);
    for (const each of cases) {
      check(each.sockets === 1, `${each.language} ${each.hash}: the page opened ${each.sockets} sockets`);
      await each.page.context().close();
    }
    env.errors.push(...errors.filter((line) => !provoked(line)));
  },
});

// A proxy before the server at url (HTTP and WebSocket on one port, as the
// page sees the server) that can hold back what the server pushes on the
// WebSockets open now (hold(), held()) and close them as the server closes
// one (cut(code, reason): the pushes held are dropped, the page gets a
// close frame with that code, and the server's side is cut).
async function startProxy(url) {
  const target = new URL(url);
  const live = new Set();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    const connection = {client, upstream, socket: null, upgraded: false, pending: Buffer.alloc(0), held: null};
    const end = () => {
      live.delete(connection);
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk) => {
      if (connection.socket === null) {
        connection.socket = /^GET \S*\/ws HTTP/.test(chunk.toString('latin1'));
        if (connection.socket) live.add(connection);
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!connection.socket) return client.write(chunk);
      connection.pending = Buffer.concat([connection.pending, chunk]);
      if (!connection.upgraded) {
        const head = connection.pending.indexOf('\r\n\r\n');
        if (head < 0) return;
        client.write(connection.pending.subarray(0, head + 4));
        connection.pending = connection.pending.subarray(head + 4);
        connection.upgraded = true;
      }
      for (;;) {
        const frame = nextFrame(connection.pending);
        if (!frame) break;
        connection.pending = connection.pending.subarray(frame.length);
        if (connection.held) connection.held.push(frame);
        else client.write(frame);
      }
    });
    for (const side of [client, upstream]) {
      side.on('error', end);
      side.on('close', end);
    }
  });
  await new Promise((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    hold: () => { for (const each of live) each.held = []; },
    held: () => [...live].reduce((sum, each) => sum + (each.held ? each.held.length : 0), 0),
    cut: (code, reason) => {
      let cut = 0;
      for (const each of live) {
        const payload = Buffer.concat([Buffer.from([code >> 8, code & 255]), Buffer.from(reason)]);
        each.client.end(Buffer.concat([Buffer.from([0x88, payload.length]), payload]));
        each.upstream.destroy();
        live.delete(each);
        cut++;
      }
      return cut;
    },
    close: () => {
      for (const each of live) each.client.destroy();
      server.close();
    },
  };
}

// The first whole frame (a server's: unmasked) at the start of bytes, or
// null when it has not all come yet.
function nextFrame(bytes) {
  if (bytes.length < 2) return null;
  let length = bytes[1] & 0x7f, head = 2;
  if (length === 126) {
    if (bytes.length < 4) return null;
    length = bytes.readUInt16BE(2);
    head = 4;
  } else if (length === 127) {
    if (bytes.length < 10) return null;
    length = Number(bytes.readBigUInt64BE(2));
    head = 10;
  }
  if (bytes[1] & 0x80) head += 4;
  return bytes.length < head + length ? null : bytes.subarray(0, head + length);
}
