// i18n.test.mjs: the catalogues hold the same keys with the same
// {placeholders}, and every key the page's code names is in them.

import {readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {SOURCE, check} from './support.mjs';

const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(',');

function sources(folder) {
  const files = [];
  for (const entry of readdirSync(folder, {withFileTypes: true})) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) files.push(...sources(path));
    else if (entry.name.endsWith('.js')) files.push(path);
  }
  return files;
}

export const tests = [{
  name: 'the English and Japanese catalogues match, and hold every key the page names',
  async run() {
    const en = (await import(join(SOURCE, 'web/i18n/en.js'))).default;
    const ja = (await import(join(SOURCE, 'web/i18n/ja.js'))).default;
    for (const key of Object.keys(en)) {
      check(key in ja, `ja.js lacks ${key}`);
      check(placeholders(en[key]) === placeholders(ja[key]), `${key}: the placeholders differ`);
    }
    for (const key of Object.keys(ja)) check(key in en, `en.js lacks ${key}`);
    // Keys written out in the code: t('x.y') and ctx.t('x.y').
    for (const file of sources(join(SOURCE, 'web/js'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(/\bt\('([a-z][\w.-]*)'/g)) {
        check(match[1] in en, `${file.slice(SOURCE.length + 1)} names ${match[1]}, which en.js lacks`);
      }
    }
  },
}];
