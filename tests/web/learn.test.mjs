// learn.test.mjs: "Learn to play" (docs/web.md, "Lessons").  Each game's
// lesson is started from the lobby's button and played to its end by
// following its own instructions only: at every step the test clicks what
// the coach highlights (a part on the board, or Send), and nothing else.
// The board must offer only the part taught (every clickable element is
// highlighted), each step must say something in the page's language, and
// the game must end with the recorded scores (the lesson's game is the
// same every time: src/server/lessons.c) and the scoring explained line
// by line, having said what happened after each move that has a note.
// Marie's Table's page is reloaded midway and must go on where it was;
// piece o' Cake's link opened in another browser is a spectator's.
// axe-core runs on a lesson step.  Mice Cake's lesson is taken
// in Japanese, the others in English.

import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {SOURCE, check, newPage, settled, shownScores, checkAccessibility, Failure} from './support.mjs';

// What the recorded game ends with (scripts/record-lesson.mjs).
const GAMES = {
  'piece-o-cake': {scores: [41, 45, 42], language: 'en', elsewhere: true},
  'maries-table': {scores: [7, 7, 2], language: 'en', reloadAfter: 5},
  'cake-master': {scores: [7, 5], language: 'en'},
  'mice-cake': {scores: [87, 81], language: 'ja'},
};

// The step a picture of docs/web.md is taken at (GATEAU_SCREENSHOTS).
const PICTURE = {game: 'piece-o-cake', step: 1, file: 'learn-step.png'};

// What the page shows now, in one look: the end, a step to follow (the
// highlighted elements), or nothing yet (the bots are playing, or a
// request is on its way).
async function look(page) {
  return page.evaluate(() => {
    if (document.querySelector('[aria-busy=true]')) return {busy: true};
    if (document.querySelector('[data-testid=learn-off]')) return {off: true};
    const after = document.querySelector('[data-testid=learn-after]');
    const happened = after ? after.textContent : null;
    if (document.querySelector('[data-testid=learn-scoring]')) return {ended: true, happened};
    const here = [...document.querySelectorAll('.learn-here')];
    const offered = document.querySelectorAll('[data-testid=board] [data-action]:not([data-undo])').length;
    const onBoard = here.filter((element) => element.closest('[data-testid=board]')).length;
    // (the first highlighted part: clicked by the mouse at its centre, a
    // round trip less than a locator's checks, when nothing covers it)
    const target = here.find((element) => element.closest('[data-testid=board]'));
    let at = null;
    if (target) {
      target.scrollIntoView({block: 'center', inline: 'center'});
      const box = target.getBoundingClientRect();
      const x = box.left + box.width / 2, y = box.top + box.height / 2;
      const hit = document.elementFromPoint(x, y);
      at = hit && target.contains(hit) ? {x, y} : null;
    }
    const say = document.querySelector('[data-testid=learn-say]');
    const step = document.querySelector('.learn-step');
    return {
      here: here.length, offered, onBoard, at, happened,
      send: here.some((element) => element.dataset.testid === 'send'),
      say: say ? say.textContent : null,
      step: step ? step.textContent : null,
      panel: document.querySelector('[data-testid=learn]').textContent,
    };
  });
}

async function playLesson(env, game, expected) {
  const catalogue = (await import(join(SOURCE, `web/i18n/${expected.language}.js`))).default;
  const {LESSONS} = await import(join(SOURCE, 'web/js/learn/lessons/index.js'));
  const lesson = LESSONS[game];
  // (as a new player finds the page: asking before sending, which a lesson's moves skip)
  const page = await newPage(env.browser, env.errors, undefined, {askBeforeSending: true});
  await page.addInitScript((code) => localStorage.setItem('gateau.language', code), expected.language);
  await page.goto(`${env.url}/#/`);
  await page.click(`[data-learn="${game}"]`);
  await page.waitForSelector('[data-testid=learn]');
  if (expected.elsewhere) {
    // The lesson's link in another browser (its seat not held there):
    // a spectator's page, which says so and offers a lesson of its own.
    const other = await newPage(env.browser, env.errors);
    await other.goto(page.url());
    await other.waitForSelector('[data-testid=learn-not-yours]');
    check(!(await other.$('[data-testid=board] [data-action]')), `${game}: a spectator can click on the lesson`);
    await other.context().close();
  }
  let sends = 0, clicks = 0, checkedA11y = false, pictured = false;
  const explained = new Set(); // what the coach said had happened
  for (let looks = 0; ; looks++) {
    if (looks > 5000) throw new Failure(`${game}: the lesson did not end (${sends} moves sent)`);
    const seen = await look(page);
    if (seen.happened) explained.add(seen.happened);
    if (seen.off) throw new Failure(`${game}: the table left the lesson's script at move ${sends + 1}`);
    if (seen.ended) break;
    if (seen.busy || !seen.here) {
      await new Promise((done) => setTimeout(done, 20));
      continue;
    }
    check(!/learn\.|\{\w+\}/.test(seen.panel), `${game}: the coach shows a key or a placeholder: ${seen.panel}`);
    check(seen.say && seen.say.length > 10, `${game}: step ${sends + 1} says what to do`);
    // The board offers the part taught, and only it: every element that
    // plays something is the highlighted one.
    check(seen.send || seen.onBoard === seen.offered,
      `${game}: step ${sends + 1}: ${seen.offered} elements to click, ${seen.onBoard} highlighted`);
    if (!checkedA11y) {
      await checkAccessibility(page, `${game}'s lesson, its first step`);
      checkedA11y = true;
    }
    if (env.screenshots && game === PICTURE.game && sends === PICTURE.step && seen.onBoard && !pictured) {
      pictured = true;
      await page.evaluate(() => document.querySelector('[data-testid=learn]').scrollIntoView({block: 'start'}));
      await page.screenshot({path: `${env.screenshots}/${PICTURE.file}`, clip: {x: 0, y: 0, width: 1000, height: 700}});
    }
    if (seen.send) {
      await page.click('.learn-here[data-testid=send]');
      sends++;
      // The coach keeps nothing but the table: a page opened again goes
      // on at the step it was on.
      if (sends === expected.reloadAfter) {
        await settled(page);
        await page.reload();
        await page.waitForSelector('[data-testid=learn]');
      }
    } else {
      if (seen.at) await page.mouse.click(seen.at.x, seen.at.y);
      else await page.locator('[data-testid=board] .learn-here').first().click();
      clicks++;
    }
    await settled(page);
  }
  // Each note of what happened was shown once its move was played.
  for (const note of Object.values(lesson.notes).filter((note) => note.after)) {
    const words = catalogue[note.after];
    check([...explained].some((text) => text.includes(words)), `${game}: never explained "${words}"`);
  }
  check(sends === lesson.moves.length, `${game}: ${sends} moves sent, the lesson has ${lesson.moves.length}`);
  // The end: the recorded scores, the scoring explained line by line
  // beside the game's own breakdown, which is highlighted.
  await page.waitForSelector('[data-testid=end].learn-here');
  const scores = await shownScores(page);
  check(JSON.stringify(scores) === JSON.stringify(expected.scores),
    `${game}: the lesson ends with ${scores}, recorded ${expected.scores}`);
  const lines = await page.$$eval('[data-testid=learn-scoring] li', (items) => items.map((item) => item.textContent));
  check(lines.length === lesson.end.length && lines.every((line, i) => line === catalogue[lesson.end[i]]),
    `${game}: the scoring's lines: ${lines.join(' | ')}`);
  await page.context().close();
  return {sends, clicks};
}

export const tests = [
  ...Object.entries(GAMES).map(([game, expected]) => ({
    name: `lesson of ${game}: followed click by click to its end`,
    async run(env) {
      await playLesson(env, game, expected);
    },
  })),
  {
    name: 'lessons: every key a lesson names is in both catalogues',
    async run() {
      const {LESSONS} = await import(join(SOURCE, 'web/js/learn/lessons/index.js'));
      const catalogues = ['en', 'ja'].map((code) => readFileSync(join(SOURCE, `web/i18n/${code}.js`), 'utf8'));
      for (const lesson of Object.values(LESSONS)) {
        const keys = [...lesson.end, ...Object.values(lesson.notes).flatMap((note) => [note.say, note.after]),
          ...lesson.moves.map((move) => `learn.${lesson.prefix}.${move.move.split(' ')[0]}`)].filter(Boolean);
        for (const key of keys)
          for (const text of catalogues) check(text.includes(`'${key}':`), `${lesson.game}: '${key}' is missing`);
      }
    },
  },
];
