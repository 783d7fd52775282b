// replay.test.mjs: a record from a file replayed step by step to its end,
// as a spectator and as everyone, for every game: every position, from the
// one before the deal to the end, draws without an error, and the last
// step shows the record's scores.

import {execFileSync} from 'node:child_process';
import {newPage, check} from './support.mjs';

const PLAYERS = {'piece-o-cake': 3, 'maries-table': 4, 'cake-master': 3, 'mice-cake': 2};

export const tests = Object.entries(PLAYERS).map(([game, players]) => ({
  name: `replay: a record of ${game}, every step, as a spectator and as everyone`,
  async run(env) {
    const record = execFileSync(env.gateau, ['random', game, '--players', String(players), '--seed', '9'],
      {encoding: 'utf8'});
    const result = JSON.parse(execFileSync(env.gateau, ['replay', '-', '--json'], {input: record, encoding: 'utf8'}));
    const page = await newPage(env.browser, env.errors);
    await page.goto(`${env.url}/#/replay`);
    await page.setInputFiles('#record-file', {name: 'game.txt', mimeType: 'text/plain', buffer: Buffer.from(record)});
    for (const seat of ['0', 'all']) {
      await page.selectOption('#replay-seat', seat);
      await page.waitForSelector(seat === 'all' ? '.replay-seat [data-testid=board]' : '.replay > [data-testid=board]');
      await page.keyboard.press('Home');
      const steps = Number(await page.getAttribute('.replay-controls input[type=range]', 'max'));
      check(steps === result.moves, `${steps} steps for ${result.moves} moves`);
      // Two steps with the keyboard, then every other step at once in the
      // page (the same key events, without a round trip each).
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await page.evaluate((count) => {
        for (let step = 2; step < count; step++) {
          document.body.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));
        }
      }, steps);
      const shown = await page.textContent('.replay .scores');
      for (const score of result.scores) check(shown.includes(String(score)), `the end shows ${score}: ${shown}`);
    }
    await page.context().close();
  },
}));
