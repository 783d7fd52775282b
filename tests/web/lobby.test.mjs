// lobby.test.mjs: the lobby as people use it: a table made with the form,
// a friend's invitation link, a seat joined from the list, a game watched,
// presence on every page, and a seat handed to a bot by the creator.

import {newPage, check} from './support.mjs';

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
    await ann.click('[data-focus=zombie-2]');
    await dee.waitForFunction(() => document.querySelector('.players').textContent.includes('played by a bot'),
      null, {timeout: 5000});
    check(!(await cid.$('[data-focus=zombie-2]')), 'only the creator may hand a seat over');
    for (const page of [ann, cid, dee]) await page.context().close();
  },
}];
