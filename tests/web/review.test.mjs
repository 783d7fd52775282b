// review.test.mjs: a finished table reviewed from its page (asked for,
// followed to its end), and a record's review from a file: the summary of
// every seat, the win-chance graph (a line a seat), every move in the list,
// a marked move's detail with the better move, keyboard steps, and
// axe-core clean.

import {execFileSync} from 'node:child_process';
import {newPage, check, api, checkAccessibility, LONG_NAMES, nameProblems, untilOver} from './support.mjs';

async function finishedTable(env) {
  const table = await api(env.url, 'POST', '/api/tables',
    {game: 'piece-o-cake', players: 3, seats: ['heuristic', 'random', 'heuristic'], names: LONG_NAMES.slice(0, 3)});
  await untilOver(env.url, table.id);
  return table.id;
}

async function checkReviewShown(page, players) {
  await page.waitForSelector('.review-summary tbody tr', {timeout: 60000});
  const rows = await page.locator('.review-summary tbody tr').count();
  check(rows === players, `${rows} rows in the summary for ${players} players`);
  const lines = await page.locator('.review-graph polyline').count();
  check(lines === players, `${lines} lines in the graph`);
  const moves = await page.locator('.review-list li').count();
  check(moves > 5, `${moves} moves listed`);
  check(await page.locator('.review-move [data-testid=board]').count() === 1, 'the position is drawn');
  return moves;
}

export const tests = [
  {
    name: 'review: a finished table reviewed from its page, every move listed and steppable',
    async run(env) {
      const id = await finishedTable(env);
      const page = await newPage(env.browser, env.errors);
      await page.goto(`${env.url}/#/table/${id}`);
      await page.click(`a[href="#/review/${id}"]`);
      await page.click('.review button.primary');
      const moves = await checkReviewShown(page, 3);
      // The list's last move, then back one with the keyboard.
      await page.locator('.review-list li button').nth(moves - 1).click();
      check((await page.textContent('.review-move .step')).includes(`${moves} `), 'the last move shown');
      await page.keyboard.press('ArrowLeft');
      check((await page.textContent('.review-move .step')).includes(`${moves - 1} `), 'one move back');
      // A marked move (a random seat plays: there is one) shows the better move.
      const marked = page.locator('.review-list li:has(.review-mark) button');
      if (await marked.count()) {
        await marked.first().click();
        const detail = await page.textContent('.review-move');
        check(/[?!]/.test(detail), `a marked move's mark: ${detail.slice(0, 200)}`);
        // Its board shows the better move, what it changes marked; then the move played.
        await page.waitForSelector('.review-board-better');
        check(await page.locator('.review-board-better .last-move, .review-board-better .last-change').count() > 0,
          'the better move is marked on the board');
        await page.click('.review-which button[aria-pressed=false]');
        await page.waitForSelector('.review-board-played');
      }
      // A move judged by its score too (its player's chance to win all but
      // settled) says what score it gave away; another move does not.
      const {review} = await api(env.url, 'GET', `/api/tables/${id}/review`);
      const showsScore = async (index) => {
        await page.locator('.review-list li button').nth(index).click();
        return await page.locator('.review-move .review-score-loss').count() === 1;
      };
      const byScore = review.moves.findIndex((move) => move.by_score);
      if (byScore >= 0) check(await showsScore(byScore), `move ${byScore + 1}, judged by its score too, shows it`);
      const byWin = review.moves.findIndex((move) => !move.by_score);
      check(byWin >= 0 && !await showsScore(byWin), `move ${byWin + 1}, judged by win chance, shows no score`);
      await checkAccessibility(page, 'a review');
      // On a phone, the long names wrap or are cut with their whole in a
      // title; the summary's columns scroll in their box.
      await page.setViewportSize({width: 375, height: 740});
      const problems = await nameProblems(page, LONG_NAMES.slice(0, 3));
      check(!problems.length, `the review on a phone: ${problems.join('; ')}`);
      await page.setViewportSize({width: 1280, height: 900});
      // Opened again, the kept review is shown at once (no button).
      await page.goto(`${env.url}/#/`);
      await page.goto(`${env.url}/#/review/${id}`);
      await checkReviewShown(page, 3);
      check((await page.textContent('.review > .hint')).includes('100 iterations'), 'the budget named');
      // A server left at its default budget sends iterations 0 (the
      // game's own budget): the page says so, not "0 iterations".
      await page.route(`**/api/tables/${id}/review`, async (route) => {
        const answer = await (await route.fetch()).json();
        answer.review.iterations = 0;
        await route.fulfill({json: answer});
      });
      await page.goto(`${env.url}/#/`);
      await page.goto(`${env.url}/#/review/${id}`);
      await checkReviewShown(page, 3);
      const hint = await page.textContent('.review > .hint');
      check(!/\b0 iterations/.test(hint) && hint.includes('default budget'), `the default budget named: ${hint}`);
      await page.context().close();
    },
  },
  {
    name: 'review: a record from a file',
    async run(env) {
      const record = execFileSync(env.gateau, ['random', 'mice-cake', '--players', '2', '--seed', '5'],
        {encoding: 'utf8'});
      const page = await newPage(env.browser, env.errors);
      await page.goto(`${env.url}/#/review`);
      await page.setInputFiles('#review-file', {name: 'game.txt', mimeType: 'text/plain', buffer: Buffer.from(record)});
      await checkReviewShown(page, 2);
      await page.context().close();
    },
  },
];
