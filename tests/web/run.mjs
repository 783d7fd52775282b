// run.mjs: the browser tests of web tables, one after another in one
// chromium, against a `gateau serve` of their own.
//
//   node tests/web/run.mjs GATEAU [--file NAME.test.mjs] [name-filter]
//
// ctest runs each file (and each game of games.test.mjs) as an entry of
// its own, so that they share the cores with the other tests.
//
// Each *.test.mjs here exports `tests`: [{name, run(env)}], env being
// {url, browser, gateau, errors, screenshots}.  A test fails by throwing;
// errors on any page (exceptions, console errors) fail it too.  With
// GATEAU_SCREENSHOTS=DIR, tests save the pictures docs/web.md shows.

import {readdirSync} from 'node:fs';
import {dirname, resolve} from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {startServer, launchBrowser} from './support.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const fileAt = args.indexOf('--file');
const onlyFile = fileAt >= 0 ? args.splice(fileAt, 2)[1] : null;
const [gateau, filter] = args;
if (!gateau) {
  console.error('usage: node tests/web/run.mjs GATEAU [--file NAME.test.mjs] [name-filter]');
  process.exit(2);
}

const files = readdirSync(here).filter((name) => name.endsWith('.test.mjs') && (!onlyFile || name === onlyFile)).sort();
const tests = [];
for (const file of files) {
  const module = await import(pathToFileURL(resolve(here, file)));
  for (const test of module.tests) tests.push({...test, file});
}

// (every page and every request of the tests comes from one address: the
// requests' limit per address, meant for one client, is off here)
// (reviews at a small budget: a whole game's review in a second or two)
const server = await startServer(resolve(gateau), 0, null, ['--address-requests', '0', '--review-iters', '100']);
const browser = await launchBrowser();
let failed = 0, ran = 0;
try {
  for (const test of tests) {
    if (filter && !test.name.includes(filter)) continue;
    ran++;
    const errors = [];
    const started = Date.now();
    try {
      await test.run({url: server.url, browser, gateau: resolve(gateau), errors,
        screenshots: process.env.GATEAU_SCREENSHOTS || null});
      if (errors.length) throw new Error(errors.join('\n'));
      console.log(`ok ${ran} - ${test.name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    } catch (error) {
      failed++;
      console.log(`not ok ${ran} - ${test.name}: ${error.message}`);
      if (!(error.name === 'Failure')) console.log(error.stack);
    }
  }
} finally {
  await browser.close();
  server.stop();
}
console.log(`${ran - failed} of ${ran} browser tests passed`);
process.exit(failed || !ran ? 1 : 0);
