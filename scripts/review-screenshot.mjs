// review-screenshot.mjs: the picture of docs/review.md's "In the browser",
// a finished game's review on a laptop (1280x800, the whole page).  Run it
// again after the review page changes:
//
//   node scripts/review-screenshot.mjs build/gateau [docs/images/review.png] [--review-iters N] [--tables N]
//
// It starts a `gateau serve` of its own (tests/web/support.mjs) at the
// review's default budget (10,000 iterations a search in piece o' Cake;
// --review-iters N for another), has bots play 3-player piece o' Cake
// (seat 1 `heuristic`, seat 2 `random`, seat 3 `ismcts`), has the server
// review the finished table, and picks the move to show: a move of the
// random seat marked for the score it gave away (its chance to win all but
// gone: docs/review.md, "A seat out of the running") if there is one,
// before the game's last move if it can (so that the board shows a cake),
// else any marked move of the random seat, else any marked move.  A table
// whose review has the first kind ends the search; else another table is
// played, --tables of them at most (8), and the best move found is shown.
// Each review takes a few seconds of CPU at the default budget.
//
// A server's table is dealt from a seed of its own that no client may name
// (docs/server.md), so each run shows another game; what the run picked is
// printed.  The page opens at the review (#/review/ID), the move is clicked
// in the list (a marked move shows the better move on the board), and the
// picture is taken (pngquant, when the machine has it, makes it small).

import {resolve} from 'node:path';
import {startServer, launchBrowser, api, newPage, untilOver} from '../tests/web/support.mjs';
import {shrinkAndReport} from './shrink-png.mjs';

function usage() {
  console.error('usage: node scripts/review-screenshot.mjs GATEAU [PICTURE] [--review-iters N] [--tables N]');
  process.exit(2);
}

// The arguments: the gateau binary, the picture's path, two options.
function parseArguments(words) {
  const given = {files: [], reviewIterations: null, tables: 8};
  for (let i = 0; i < words.length; i++) {
    if (words[i] === '--review-iters' || words[i] === '--tables') {
      const value = Number(words[++i]);
      if (!Number.isInteger(value) || value < (words[i - 1] === '--tables' ? 1 : 0)) usage();
      if (words[i - 1] === '--tables') given.tables = value;
      else given.reviewIterations = value;
    } else if (words[i].startsWith('--')) {
      usage();
    } else {
      given.files.push(words[i]);
    }
  }
  if (given.files.length < 1 || given.files.length > 2) usage();
  return given;
}

const given = parseArguments(process.argv.slice(2));
const [gateau, picturePath = 'docs/images/review.png'] = given.files;

const SEATS = ['heuristic', 'random', 'ismcts'];
const NAMES = ['Heuristic', 'Random', 'ISMCTS'];
const RANDOM_SEAT = 2;
const MARKED = new Set(['inaccuracy', 'mistake', 'blunder']);
const LAPTOP = {width: 1280, height: 800};

const pause = (ms) => new Promise((done) => setTimeout(done, ms));

// A finished table of the bots: its id.
async function playTable(url) {
  const table = await api(url, 'POST', '/api/tables', {game: 'piece-o-cake', players: 3, seats: SEATS, names: NAMES});
  await untilOver(url, table.id, 120);
  return table.id;
}

// The server's review of a finished table, followed to its end.
async function reviewTable(url, id) {
  let answer = await api(url, 'POST', `/api/tables/${id}/review`, {});
  for (let tries = 0; answer.state !== 'done'; tries++) {
    if (answer.state === 'failed') throw new Error(`the review of table ${id} failed: ${answer.error}`);
    if (tries > 1800) throw new Error(`the review of table ${id} took over half an hour`);
    await pause(1000);
    answer = await api(url, 'GET', `/api/tables/${id}/review`);
  }
  return answer.review;
}

// How well a move fits the picture: 4 a marked move of the random seat
// that its score marked (judged by the score, whose worth in win chance is
// more than the win chance it gave away) before the game's last move, 3 the
// same at the last move (its board shows the end, no cake left), 2 another
// marked move of the random seat, 1 a marked move of another seat, 0 none.
// Among equals, the larger judged loss.
const BEST_FIT = 4;
function fitness(move, last) {
  if (!MARKED.has(move.class)) return 0;
  if (move.seat !== RANDOM_SEAT) return 1;
  if (!move.by_score || move.judged_loss <= move.sure_loss) return 2;
  return last ? 3 : 4;
}

function bestMove(review) {
  let best = null;
  review.moves.forEach((move, index) => {
    const score = fitness(move, index === review.moves.length - 1);
    if (!score) return;
    if (!best || score > best.score || (score === best.score && move.judged_loss > best.move.judged_loss))
      best = {index, move, score};
  });
  return best;
}

// The review page of table id at its move index, the better move on the
// board, taken whole.
async function picture(browser, url, id, index, errors) {
  const page = await newPage(browser, errors, LAPTOP);
  await page.goto(`${url}/#/review/${id}`);
  await page.waitForSelector('.review-summary tbody tr', {timeout: 60000});
  // (a marked move clicked in the list shows the better move's board)
  await page.locator('.review-list li button').nth(index).click();
  await page.waitForSelector('.review-board-better');
  // (a picture of the move, not of a fade)
  await page.evaluate(() => Promise.all(document.getAnimations().filter((a) => a.effect &&
    a.effect.getTiming().iterations !== Infinity).map((a) => a.finished.catch(() => {}))));
  // (the list scrolls on its own: the move shown in sight there too)
  await page.evaluate(() => {
    document.querySelector('.review-list li.current').scrollIntoView({block: 'center'});
    window.scrollTo(0, 0);
  });
  const path = resolve(picturePath);
  await page.screenshot({path, fullPage: true});
  await page.context().close();
  return path;
}

function describe(id, review, chosen) {
  const {move} = chosen;
  const score = move.by_score ? `, score given away ${move.score_loss} ± ${move.score_noise}` : '';
  return `table ${id} (review at ${review.iterations || 'the default'} iterations): move ${chosen.index + 1} ` +
    `of ${review.moves.length}, ${NAMES[move.seat - 1]} played ${move.move}, better ${move.best}: ${move.class}, ` +
    `win chance ${move.win_before} before, ${move.win_played} played, ${move.win_best} best${score}`;
}

const more = ['--address-requests', '0'];
if (given.reviewIterations !== null) more.push('--review-iters', String(given.reviewIterations));
const server = await startServer(resolve(gateau), 0, null, more);
const browser = await launchBrowser();
const errors = [];
try {
  let found = null;
  for (let table = 1; table <= given.tables && !(found && found.chosen.score === BEST_FIT); table++) {
    const id = await playTable(server.url);
    const review = await reviewTable(server.url, id);
    const chosen = bestMove(review);
    console.log(`table ${table} of ${given.tables} at most: ${chosen ? describe(id, review, chosen) : `table ${id}: no marked move`}`);
    if (chosen && (!found || chosen.score > found.chosen.score)) found = {id, review, chosen};
  }
  if (!found) throw new Error(`no marked move in ${given.tables} games: try --tables with more`);
  if (found.chosen.score < BEST_FIT) console.log('no move of the random seat marked by its score before the last: showing the best found');
  console.log(`the picture: ${describe(found.id, found.review, found.chosen)}`);
  const path = await picture(browser, server.url, found.id, found.chosen.index, errors);
  shrinkAndReport(path);
} finally {
  await browser.close();
  server.stop();
}
if (errors.length) {
  console.error(errors.join('\n'));
  process.exit(1);
}
