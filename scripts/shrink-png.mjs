// shrink-png.mjs: the docs' pictures made smaller, for the scripts that
// take them (screenshots.mjs, review-screenshot.mjs): pngquant's palette
// when the machine has it, else optipng, else the file as it is.

import {execFileSync} from 'node:child_process';
import {statSync} from 'node:fs';

// Shrinks the picture at path, then says how big it came out.
export function shrinkAndReport(path) {
  shrink(path);
  console.log(`${path}: ${Math.round(statSync(path).size / 1024)} KB`);
}

function shrink(path) {
  for (const [tool, args] of [['pngquant', ['--force', '--skip-if-larger', '--quality=70-95', '--output', path, path]],
    ['optipng', ['-quiet', '-o2', path]]]) {
    try {
      execFileSync(tool, args, {stdio: 'ignore'});
      return;
    } catch { /* not there, or nothing gained: the next, or as it is */ }
  }
}
