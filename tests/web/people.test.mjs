// people.test.mjs: the people at a web table (docs/web.md, "People"):
// names asked for on first opening a seat and shown to the others, a
// 40-character name that wraps; a chat message seen by the others as
// text (never markup); a rematch, each person landing on his own seat;
// the lobby's names, host and count of open seats, and the loser of a
// race for a seat told so; a seat's page opened without its key saying how
// to get it; the personal link; axe-core on all of it.

import {api, newPage, openSeat, check, checkAccessibility, LONG_NAMES, nameProblems} from './support.mjs';

const LONG_NAME = 'W'.repeat(40);

async function named(page, name) {
  await page.waitForSelector('[data-testid=name-form]');
  await page.fill('#seat-name', name);
  await page.click('[data-testid=name-save]');
  await page.waitForSelector('[data-testid=name-form]', {state: 'detached'});
}

// A finished Mice Cake table of two people, played out through the API
// (each seat's first legal part until its move is whole): the people's
// pages stay open, and a seat whose player is here is never handed to a bot.
async function finish(env, table) {
  for (let moves = 0; moves < 2000; moves++) {
    const snapshot = await api(env.url, 'GET', `/api/tables/${table.id}`);
    if (snapshot.over) return;
    const seat = (snapshot.to_move || [])[0];
    if (!seat) {
      await new Promise((done) => setTimeout(done, 20));
      continue;
    }
    const token = table.seats[seat - 1].token;
    let after = [];
    for (;;) {
      const legal = await api(env.url, 'GET', `/api/tables/${table.id}/legal?after=${after.join(',')}`,
        undefined, token);
      if (legal.complete) { after = legal.move; break; }
      after = [...after, legal.legal[0].action];
    }
    try {
      await api(env.url, 'POST', `/api/tables/${table.id}/moves`, {version: snapshot.version, move: after}, token);
    } catch {
      // (the other seat moved first in a phase of secret choices: ask again)
    }
  }
  throw new Error('the game did not finish');
}

export const tests = [{
  name: 'people: names shown to the others, a long name wraps, the chat escaped, axe clean',
  async run(env) {
    const table = await api(env.url, 'POST', '/api/tables', {game: 'mice-cake', seats: ['human', 'human']});
    const ann = await newPage(env.browser, env.errors);
    const bob = await newPage(env.browser, env.errors);
    await openSeat(ann, env.url, table.id, table.seats[0].token);
    await openSeat(bob, env.url, table.id, table.seats[1].token);
    await checkAccessibility(ann, 'a table asking for a name');
    await named(ann, 'Ann');
    await named(bob, LONG_NAME);
    // Each sees the other's name in the players, the turn line, the who line.
    await bob.waitForFunction(() => document.querySelector('.players').textContent.includes('Ann'), null, {timeout: 5000});
    await ann.waitForFunction((name) => document.querySelector('.players').textContent.includes(name), LONG_NAME,
      {timeout: 5000});
    check((await ann.textContent('[data-testid=status]')).includes(LONG_NAME) ||
      (await ann.textContent('[data-testid=status]')).includes('Your move'), 'the turn line names people');
    check((await bob.textContent('.who')).includes(LONG_NAME), 'Bob is who he said');
    // The 40 characters wrap: the panel is not widened, nor the page.
    const wide = await ann.evaluate(() => {
      const panel = document.querySelector('.players');
      return {panel: panel.scrollWidth - panel.clientWidth, page: document.documentElement.scrollWidth - innerWidth};
    });
    check(wide.panel <= 1 && wide.page <= 1, `a long name wraps: ${JSON.stringify(wide)}`);
    // On a phone's width too, in the board (which names the players) as well.
    await ann.setViewportSize({width: 400, height: 900});
    const narrow = await ann.evaluate(() => {
      const board = document.querySelector('[data-testid=board]');
      return {board: board.scrollWidth - board.clientWidth, page: document.documentElement.scrollWidth - innerWidth};
    });
    check(narrow.board <= 1 && narrow.page <= 1, `a long name wraps on a phone: ${JSON.stringify(narrow)}`);
    await ann.setViewportSize({width: 1280, height: 900});
    // The name is kept by the browser and offered at the next table.
    check(await bob.evaluate(() => localStorage.getItem('gateau.name')) === LONG_NAME, 'the name is kept');

    // Chat: markup is shown as text, to a seat and to a spectator.
    const dee = await newPage(env.browser, env.errors);
    await dee.goto(`${env.url}/#/table/${table.id}`);
    await dee.waitForSelector('[data-testid=chat]');
    const markup = '<img src=x onerror="window.hacked=1">';
    await ann.fill('#chat-text', markup);
    await ann.click('[data-testid=chat-send]');
    for (const page of [bob, dee]) {
      await page.waitForFunction((text) => [...document.querySelectorAll('.chat-text')].some((e) => e.textContent === text),
        markup, {timeout: 5000});
      check(!(await page.$('[data-testid=chat] img')), 'no element made from a message');
      check(!(await page.evaluate(() => window.hacked)), 'no script run from a message');
      check((await page.textContent('[data-testid=chat-messages]')).includes('Ann'), 'a message names its sender');
    }
    // The spectator posts under his name; a seat may hide the spectators.
    await dee.fill('#chat-name', 'Dee');
    await dee.fill('#chat-text', 'good luck');
    await dee.click('[data-testid=chat-send]');
    await bob.waitForFunction(() => document.querySelector('[data-testid=chat-messages]').textContent.includes('good luck'),
      null, {timeout: 5000});
    await bob.click('[data-testid=chat-hide-spectators]');
    check(!(await bob.textContent('[data-testid=chat-messages]')).includes('good luck'), 'spectators hidden');
    check((await bob.textContent('[data-testid=chat-messages]')).includes(markup), 'the seats still shown');
    // A spectator may not take a seat's name.
    await dee.fill('#chat-name', 'ann');
    await dee.fill('#chat-text', 'I resign');
    await dee.click('[data-testid=chat-send]');
    await dee.waitForFunction(() => document.querySelector('[data-testid=chat-error]').textContent.includes('seat'),
      null, {timeout: 5000});
    env.errors.splice(0, env.errors.length, ...env.errors.filter((line) => !/status of 422/.test(line)));
    // Opened again, the table shows the last messages.
    await ann.reload();
    await ann.waitForFunction((text) => [...document.querySelectorAll('.chat-text')].some((e) => e.textContent === text),
      markup, {timeout: 5000});
    await checkAccessibility(ann, 'a table with its chat');
    for (const page of [ann, bob, dee]) await page.context().close();
  },
}, {
  name: 'people: a rematch, each person on his own seat',
  async run(env) {
    const table = await api(env.url, 'POST', '/api/tables',
      {game: 'mice-cake', seats: ['human', 'human'], names: ['Ann', 'Bob']});
    const ann = await newPage(env.browser, env.errors);
    const bob = await newPage(env.browser, env.errors);
    await openSeat(ann, env.url, table.id, table.seats[0].token);
    await openSeat(bob, env.url, table.id, table.seats[1].token);
    await finish(env, table);
    await ann.waitForSelector('[data-testid=rematch]');
    await ann.click('[data-testid=rematch]');
    await ann.waitForFunction((old) => /#\/table\/\w+\/1$/.test(location.hash) && !location.hash.includes(old),
      table.id, {timeout: 5000});
    await ann.waitForSelector('[data-testid=board]');
    const rematch = ann.url().match(/#\/table\/(\w+)\//)[1];
    check((await ann.textContent('.players')).includes('waiting for its player'), "Bob's seat waits for him");
    // Bob's page offers to join it; he lands on seat 2 there, with a token of his own.
    await bob.waitForFunction(() => document.querySelector('[data-testid=rematch]')?.textContent.includes('Join'),
      null, {timeout: 5000});
    await bob.click('[data-testid=rematch]');
    await bob.waitForFunction((id) => location.hash === `#/table/${id}/2`, rematch, {timeout: 5000});
    await bob.waitForSelector('[data-testid=board]');
    check((await bob.textContent('.who')).includes('Bob'), 'Bob sits at his seat of the rematch');
    const tokens = await Promise.all([ann, bob].map((page) =>
      page.evaluate((id) => JSON.parse(localStorage.getItem(`gateau.seats.${id}`)), rematch)));
    check(tokens[0][1] && !tokens[0][2] && tokens[1][2] && !tokens[1][1], 'each browser holds its own seat only');
    check(tokens[0][1] !== table.seats[0].token, 'a new token');
    await ann.waitForFunction(() => document.querySelectorAll('.players .presence.on').length === 2, null, {timeout: 5000});
    // The finished table's page now leads there.
    await ann.goto(`${env.url}/#/table/${table.id}/1`);
    await ann.waitForSelector('[data-testid=rematch-go]');
    for (const page of [ann, bob]) await page.context().close();
  },
}, {
  name: 'people: the lobby shows names, host and open seats; the loser of a race is told',
  async run(env) {
    const table = await api(env.url, 'POST', '/api/tables', {game: 'piece-o-cake',
      seats: ['human', 'open', 'open', 'heuristic'], names: ['Hostess Ann', null, null, null],
      host: 'Hostess Ann', clock: '10m+20s'});
    // (and a table of long names, which the list shows on a phone too)
    await api(env.url, 'POST', '/api/tables', {game: 'maries-table', seats: ['open', 'human', 'human'],
      names: [null, LONG_NAMES[1], LONG_NAMES[2]], host: LONG_NAMES[1]});
    const cid = await newPage(env.browser, env.errors);
    await cid.goto(`${env.url}/#/`);
    const row = `tr[data-table="${table.id}"]`;
    await cid.waitForSelector(row);
    check((await cid.textContent(`${row} [data-testid=host]`)).includes('Hostess Ann'), 'the host');
    check((await cid.textContent(`${row} [data-testid=open-count]`)).includes('2 open seats'), 'a count of open seats');
    check((await cid.textContent(row)).includes('10m+20s'), 'the clock');
    check((await cid.textContent(`${row} .people`)).includes('Hostess Ann'), 'the names');
    await checkAccessibility(cid, 'the lobby with people');
    await cid.setViewportSize({width: 375, height: 740});
    for (const language of ['ja', 'en']) {
      await cid.selectOption('#language', language);
      await cid.waitForSelector(`html[lang=${language}] ${row}`);
      const problems = await nameProblems(cid, LONG_NAMES.slice(1, 3));
      check(!problems.length, `the lobby on a phone (${language}): ${problems.join('; ')}`);
    }
    await cid.setViewportSize({width: 1280, height: 900});
    // Someone takes seat 2 meanwhile: Cid's click finds it gone.
    await api(env.url, 'POST', `/api/tables/${table.id}/join`, {seat: 2, name: 'Quick'});
    await cid.fill('#your-name', 'Cid');
    await cid.click(`${row} button[data-join="2"]`);
    await cid.waitForSelector('[data-testid=join-error]');
    check((await cid.textContent('[data-testid=join-error]')).includes('Someone took that seat a moment ago'),
      'the race is explained');
    await cid.waitForFunction((selector) => document.querySelector(`${selector} [data-testid=open-count]`)?.textContent.includes('1 open seat'),
      row, {timeout: 5000});
    check((await cid.textContent(`${row} .people`)).includes('Quick'), 'the list is drawn again');
    env.errors.splice(0, env.errors.length, ...env.errors.filter((line) => !/status of 409/.test(line)));
    // Joining the open seat left works.
    await cid.click(`${row} button[data-join="3"]`);
    await cid.waitForSelector('[data-testid=board]');
    check((await cid.textContent('.who')).includes('Cid'), 'Cid sits at seat 3');
    await cid.context().close();
  },
}, {
  name: "people: a seat's page without its key explains; the personal link",
  async run(env) {
    const table = await api(env.url, 'POST', '/api/tables', {game: 'mice-cake', seats: ['human', 'open'],
      names: ['Ann', null]});
    const joined = await api(env.url, 'POST', `/api/tables/${table.id}/join`, {seat: 2, name: 'Bob'});
    const stranger = await newPage(env.browser, env.errors);
    await stranger.goto(`${env.url}/#/table/${table.id}/2`);
    await stranger.waitForSelector('[data-testid=keyless]');
    const words = await stranger.textContent('[data-testid=keyless]');
    check(words.includes('seat 2') && words.includes('personal link') && words.includes("creator"),
      `how to get the key: ${words}`);
    check((await stranger.textContent('.who')).includes('watching'), 'a spectator meanwhile');
    await checkAccessibility(stranger, 'a seat without its key');
    await stranger.context().close();
    // Bob, who joined from the lobby, copies his personal link; opened
    // in another browser, it is his seat.
    const bob = await newPage(env.browser, env.errors);
    await bob.context().grantPermissions(['clipboard-read', 'clipboard-write'], {origin: env.url});
    await openSeat(bob, env.url, table.id, joined.token);
    await bob.click('[data-testid=copy-my-link]');
    await bob.waitForSelector('[data-testid=link-copied], [data-testid=my-link]');
    const link = await bob.evaluate(async () => {
      const field = document.querySelector('[data-testid=my-link]');
      return field ? field.value : navigator.clipboard.readText();
    });
    check(new RegExp(`#/join/${table.id}/[\\w-]{32}$`).test(link), `a personal link: ${link}`);
    const elsewhere = await newPage(env.browser, env.errors);
    await elsewhere.goto(link);
    await elsewhere.waitForSelector('[data-testid=board]');
    check(elsewhere.url().endsWith(`#/table/${table.id}/2`), 'the link opens his seat');
    for (const page of [bob, elsewhere]) await page.context().close();
  },
}];
