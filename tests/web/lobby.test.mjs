// lobby.test.mjs: the lobby as people use it: a table made with the form,
// a friend's invitation link, a seat joined from the list, a game watched,
// presence on every page, and a seat handed to a bot by the creator.

import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {newPage, check, SOURCE, api} from './support.mjs';

export const tests = [{
  name: 'the lobby: make a table, invite, join from the list, watch; presence',
  async run(env) {
    const ann = await newPage(env.browser, env.errors);
    await ann.goto(`${env.url}/#/`);
    await ann.waitForSelector('form.create');
    await ann.selectOption('#game', 'maries-table');
    await ann.selectOption('#players', '3');
    await ann.selectOption('#seat-2', 'human');
    await ann.selectOption('#seat-3', 'open');
    await ann.fill('#your-name', 'Ann');
    await ann.click('form.create button[type=submit]');
    const link = await ann.inputValue('input.link[data-seat="2"]');
    check(/#\/join\/\w+\/[\w-]{32}$/.test(link), `an invitation link: ${link}`);
    await ann.click('[data-testid=go-to-table]');
    await ann.waitForSelector('[data-testid=board]');
    check((await ann.textContent('.who')).includes('Ann'), 'Ann sits at her seat');
    const id = link.match(/#\/join\/(\w+)\//)[1];

    // Bea opens her invitation: her seat, and no token left in the address.
    const bea = await newPage(env.browser, env.errors);
    await bea.goto(link);
    await bea.waitForSelector('[data-testid=board]');
    check(bea.url().endsWith(`#/table/${id}/2`), `the token leaves the address: ${bea.url()}`);
    check((await bea.textContent('.who')).includes('2'), 'Bea sits at seat 2');

    // Cid joins seat 3 from the lobby's list.
    const cid = await newPage(env.browser, env.errors);
    await cid.goto(`${env.url}/#/`);
    await cid.fill('#your-name', 'Cid');
    await cid.click(`tr[data-table="${id}"] button[data-join="3"]`);
    await cid.waitForSelector('[data-testid=board]');
    check((await cid.textContent('.who')).includes('Cid'), 'Cid sits at seat 3');

    // Dee watches it from the list (no open seat left: a game in play).
    const dee = await newPage(env.browser, env.errors);
    await dee.goto(`${env.url}/#/`);
    await dee.click(`tr[data-table="${id}"] a`);
    await dee.waitForSelector('[data-testid=board]');
    check((await dee.textContent('.who')).includes('watching'), 'Dee is a spectator');

    // Everyone's page shows the three people connected.
    await dee.waitForFunction(() => document.querySelectorAll('.players .presence.on').length === 3,
      null, {timeout: 5000});
    await bea.context().close();
    await dee.waitForFunction(() => document.querySelectorAll('.players .presence.on').length === 2,
      null, {timeout: 5000});
    // Bea has left: Ann, who made the table, hands her seat to a bot.
    // (offered once the server has seen her go, and asked twice)
    await ann.click('[data-focus=zombie-2]', {timeout: 10000});
    await ann.click('[data-focus=zombie-yes-2]');
    await dee.waitForFunction(() => document.querySelector('.players').textContent.includes('played by a bot'),
      null, {timeout: 5000});
    check(!(await cid.$('[data-focus=zombie-2]')), 'only the creator may hand a seat over');
    for (const page of [ann, cid, dee]) await page.context().close();
  },
}, {
  name: 'the lobby: a Cake Master table with a deck file of its own and a clock',
  async run(env) {
    const page = await newPage(env.browser, env.errors);
    await page.goto(`${env.url}/#/`);
    await page.waitForSelector('form.create');
    await page.selectOption('#game', 'cake-master');
    await page.selectOption('#players', '2');
    await page.selectOption('#seat-2', 'random');
    await page.selectOption('#clock', '10m+20s');
    const deck = readFileSync(join(SOURCE, 'tests/data/cake-master-small.deck'));
    await page.setInputFiles('#deck', {name: 'small.deck', mimeType: 'text/plain', buffer: deck});
    await page.click('form.create button[type=submit]');
    await page.click('[data-testid=go-to-table]');
    await page.waitForSelector('[data-testid=board] [data-action]');
    const id = page.url().match(/#\/table\/(\w+)/)[1];
    const table = await api(env.url, 'GET', `/api/tables/${id}`);
    check(table.seats[0].clock > 0 && table.seats[0].clock <= 600000, `a clock of 10 minutes: ${table.seats[0].clock}`);
    const clock = await page.textContent('[data-clock="1"]');
    check(/^\d+:\d\d$/.test(clock.trim()), `the page shows the clock: '${clock}'`);
    // The small deck's cards are the only ones dealt.
    const codes = new Set(readFileSync(join(SOURCE, 'tests/data/cake-master-small.deck'), 'utf8')
      .split('\n').filter((line) => line.startsWith('card ')).map((line) => line.split(/\s+/)[1]));
    const cards = (await page.$$eval('[data-testid=board] [data-card]', (e) => e.map((x) => x.dataset.card)))
      .filter((mark) => !mark.startsWith('customer-'));
    check(cards.length > 0 && cards.every((card) => codes.has(card)), `cards from the deck sent: ${cards.join(' ')}`);
    await page.context().close();
  },
}, {
  name: 'the lobby: a page at a time, the next one on "More tables"',
  async run(env) {
    // The server's pages of 50 stand in for by two small ones: the page
    // must follow the answer's `next` cursor, and draw every table once.
    const page = await newPage(env.browser, env.errors);
    const asked = [];
    const row = (id, open) => ({id, game: 'mice-cake', players: 2, open, created: 1});
    await page.route((url) => url.pathname === '/api/tables', (route) => {
      const after = new URL(route.request().url()).searchParams.get('after');
      asked.push(after);
      const body = after === 'cursor-1'
        ? {tables: [row('third', [])], next: null}
        : {tables: [row('first', [2]), row('second', [2])], next: 'cursor-1'};
      return route.fulfill({status: 200, contentType: 'application/json', body: JSON.stringify(body)});
    });
    await page.goto(`${env.url}/#/`);
    await page.waitForSelector('tr[data-table="second"]');
    check(!(await page.$('tr[data-table="third"]')), 'one page until more are asked for');
    await page.click('[data-testid=more-tables]');
    await page.waitForSelector('tr[data-table="third"]');
    const rows = await page.$$eval('tr[data-table]', (e) => e.map((x) => x.dataset.table));
    check(rows.join(' ') === 'first second third', `every table once, in order: ${rows.join(' ')}`);
    check(!(await page.$('[data-testid=more-tables]')), 'no more after the last page');
    check(asked.includes('cursor-1'), `the next page asked for with the cursor: ${asked.join(' ')}`);
    await page.context().close();
  },
}, {
  name: 'the lobby: each bot level with its measured rating in the game chosen (web/levels.json)',
  async run(env) {
    const levels = JSON.parse(readFileSync(new URL('../../web/levels.json', import.meta.url), 'utf8'));
    const page = await newPage(env.browser, env.errors);
    await page.goto(`${env.url}/#/`);
    for (const entry of levels.ratings) {
      await page.selectOption('#game', entry.game);
      for (const level of entry.levels) {
        const words = await page.textContent(`#seat-2 option[value="${level.spec}"]`);
        check(words.includes(String(level.rating)), `${entry.game}: ${level.spec} shows ${level.rating}: ${words}`);
      }
      check((await page.textContent('.seats')).includes(`${entry.players}`), 'the note says at how many players');
    }
    // A bot seat at the table says its level, not its spec.
    await page.selectOption('#game', 'mice-cake');
    await page.selectOption('#seat-2', 'heuristic:random=0.3');
    await page.click('form.create button[type=submit]');
    await page.click('[data-testid=go-to-table]');
    await page.waitForSelector('[data-testid=board]');
    const players = await page.textContent('.players');
    check(players.includes('Bot: careless (easy)') && !players.includes('random=0.3'),
      `the easy bot's seat in words: ${players}`);
    await page.context().close();
  },
}];
