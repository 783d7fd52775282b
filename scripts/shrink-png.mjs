// shrink-png.mjs: the docs' pictures made smaller, for the scripts that
// take them (screenshots.mjs, review-screenshot.mjs): pngquant's palette
// when the machine has it, else optipng, else the file as it is.

import {execFileSync} from 'node:child_process';

export function shrink(path) {
  for (const [tool, args] of [['pngquant', ['--force', '--skip-if-larger', '--quality=70-95', '--output', path, path]],
    ['optipng', ['-quiet', '-o2', path]]]) {
    try {
      execFileSync(tool, args, {stdio: 'ignore'});
      return;
    } catch { /* not there, or nothing gained: the next, or as it is */ }
  }
}
