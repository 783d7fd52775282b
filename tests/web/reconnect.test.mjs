// reconnect.test.mjs: the server killed (SIGKILL) in the middle of a game
// and started again on the same database and port: the page that stayed
// open says it is reconnecting, comes back by itself to exactly where the
// seat was, and the game goes on to its end.

import {startServer, newPage, openSeat, api, randomFrom, clickOnce, check} from './support.mjs';

export const tests = [{
  name: 'reconnect: the server killed mid-game and started again; the open page resumes',
  async run(env) {
    let server = await startServer(env.gateau);
    const port = Number(new URL(server.url).port);
    const table = await api(server.url, 'POST', '/api/tables',
      {game: 'maries-table', seats: ['human', 'heuristic', 'heuristic']});
    const page = await newPage(env.browser, env.errors);
    await openSeat(page, server.url, table.id, table.seats[0].token);
    const random = randomFrom(3);
    for (let clicks = 0; clicks < 6;) {
      if (await clickOnce(page, random)) clicks++;
      else await page.waitForTimeout(30);
    }
    const before = await api(server.url, 'GET', `/api/tables/${table.id}?token=${table.seats[0].token}`);

    await server.kill();
    await page.waitForSelector('.connection.closed', {timeout: 5000});
    server = await startServer(env.gateau, port, server.folder);
    await page.waitForSelector('.connection.open', {timeout: 10000});
    const after = await api(server.url, 'GET', `/api/tables/${table.id}?token=${table.seats[0].token}`);
    check(after.version >= before.version, `the table came back at version ${after.version}, was ${before.version}`);
    const logLength = await page.$$eval('[data-testid=log] li', (items) => items.length);
    check(logLength === after.log.length, `the page shows ${logLength} log entries, the table has ${after.log.length}`);

    for (let clicks = 0; !(await page.$('[data-testid=end]')); ) {
      // (a click may meet the old socket's last moments: errors are shown, not thrown)
      if (await clickOnce(page, random)) clicks++;
      else await page.waitForTimeout(30);
      check(clicks < 400, 'no end after 400 clicks');
    }
    await page.context().close();
    server.stop();
  },
}];
