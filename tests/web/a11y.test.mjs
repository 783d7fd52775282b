// a11y.test.mjs: axe-core's automated accessibility check on the lobby,
// each game's table in play (a seat's page), a finished table and a
// replay: no serious or critical violation.

import {execFileSync} from 'node:child_process';
import {api, newPage, openSeat, checkAccessibility} from './support.mjs';

const SEATS = {
  'piece-o-cake': ['human', 'heuristic', 'heuristic'],
  'maries-table': ['human', 'heuristic', 'heuristic'],
  'cake-master': ['human', 'heuristic', 'heuristic'],
  'mice-cake': ['human', 'heuristic'],
};

export const tests = [
  {
    name: 'accessibility: the lobby, in English and in Japanese',
    async run(env) {
      const page = await newPage(env.browser, env.errors);
      await page.goto(`${env.url}/#/`);
      await page.waitForSelector('form.create button[type=submit]');
      await checkAccessibility(page, 'the lobby');
      if (env.screenshots) await page.screenshot({path: `${env.screenshots}/lobby.png`});
      await page.selectOption('#language', 'ja');
      await page.waitForSelector('html[lang=ja] form.create');
      await checkAccessibility(page, 'the lobby in Japanese');
      await page.context().close();
    },
  },
  ...Object.entries(SEATS).map(([game, seats]) => ({
    name: `accessibility: a table of ${game}, in play and as a replay`,
    async run(env) {
      const table = await api(env.url, 'POST', '/api/tables', {game, seats});
      const page = await newPage(env.browser, env.errors);
      await openSeat(page, env.url, table.id, table.seats[0].token);
      await page.waitForSelector('[data-testid=board] [data-action]');
      await checkAccessibility(page, `${game} in play`);
      // A replay of a record from a file, as everyone saw it.
      const record = execFileSync(env.gateau, ['random', game, '--players', String(seats.length), '--seed', '5'],
        {encoding: 'utf8'});
      await page.goto(`${env.url}/#/replay`);
      await page.setInputFiles('#record-file', {name: 'game.txt', mimeType: 'text/plain', buffer: Buffer.from(record)});
      await page.waitForSelector('[data-testid=board]');
      await page.selectOption('#replay-seat', 'all');
      await page.waitForSelector('.replay-seat [data-testid=board]');
      await page.click('[aria-label="Next"]');
      await checkAccessibility(page, `a replay of ${game}`);
      await page.context().close();
    },
  })),
];
