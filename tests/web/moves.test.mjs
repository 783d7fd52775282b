// moves.test.mjs: building a move on the table page: a half-built move is
// taken back before it is sent, a whole move waits for "Play this move"
// (pressed twice when asked to), the hint answers from the server, the tab's title says
// whose turn it is, and the log shows each move's notation.

import {api, newPage, openSeat, settled, check} from './support.mjs';

const builtText = (page) => page.textContent('[data-testid=built]');
const boardChoices = (page) => page.$$eval('[data-testid=board] [data-action]', (e) => e.map((x) => x.dataset.action));

export const tests = [{
  name: 'moves: take back, ask before sending, hint, title, notation in the log',
  async run(env) {
    // Seat 1 cuts the first cake of piece o' Cake: a move of several actions.
    const table = await api(env.url, 'POST', '/api/tables', {game: 'piece-o-cake', seats: ['human', 'heuristic', 'heuristic']});
    const page = await newPage(env.browser, env.errors);
    await openSeat(page, env.url, table.id, table.seats[0].token);
    await page.waitForSelector('[data-testid=board] [data-action]');
    check((await page.title()).startsWith('●'), `the title says it is my turn: ${await page.title()}`);
    const first = await boardChoices(page);
    const untouched = await builtText(page);

    await page.click(`[data-testid=board] [data-action="${first[0]}"]`);
    await page.waitForFunction((before) => document.querySelector('[data-testid=built]').textContent !== before, untouched);
    check(JSON.stringify(await boardChoices(page)) !== JSON.stringify(first), 'the choices follow the half-built move');
    await page.click('[data-focus=take-back]');
    await page.waitForFunction((before) => document.querySelector('[data-testid=built]').textContent === before, untouched);
    check(JSON.stringify(await boardChoices(page)) === JSON.stringify(first), 'taken back: the first choices again');
    const snapshot = await api(env.url, 'GET', `/api/tables/${table.id}`, undefined, table.seats[0].token);
    check(snapshot.version === 1, `nothing was sent: version ${snapshot.version}`);

    // The hint: moves with their chances, from the server.
    await page.click('[data-focus=hint]');
    await page.waitForSelector('.hint-moves li', {timeout: 15000});

    // Ask before sending: a whole move waits for the button.
    await page.check('[data-focus=confirm]');
    for (let n = 0; n < 40 && await page.isDisabled('[data-testid=send]'); n++) {
      const choices = await boardChoices(page);
      // "cut done" (or any last choice) closes the cut sooner or later.
      await page.click(`[data-testid=board] [data-action="${choices[choices.length - 1]}"]`);
      await settled(page);
    }
    const waiting = await api(env.url, 'GET', `/api/tables/${table.id}`, undefined, table.seats[0].token);
    check(waiting.version === 1, 'a whole move is not sent before the button');
    // Asked to: the first press says what will be sent, the second sends.
    await page.click('[data-testid=send]');
    await page.waitForSelector('.confirming');
    const asked = await api(env.url, 'GET', `/api/tables/${table.id}`, undefined, table.seats[0].token);
    check(asked.version === 1, 'the first press of Send asks, it does not send');
    await page.click('[data-testid=send]');
    // (the bots move at once after it: the cut is not the newest entry)
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=log] code.notation')]
      .some((code) => code.textContent.startsWith('cut ')), null, {timeout: 5000});
    await page.context().close();
  },
}];
