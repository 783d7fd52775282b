// i18n.js: every string the page shows comes from one catalogue per
// language (web/i18n/LANG.js).  The language is the browser's first one we
// have, unless the player chose another (kept in localStorage).
//
//   t('lobby.create')                    "Create the table"
//   t('table.waiting_for', {name: 'Ann'})  "Waiting for Ann"

import en from '../i18n/en.js';
import ja from '../i18n/ja.js';
import {form} from './plural.js';

export const LANGUAGES = {en: 'English', ja: '日本語'};
const CATALOGUES = {en, ja};
const STORAGE_KEY = 'gateau.language';

function browserLanguage() {
  const stored = localStorage.getItem(STORAGE_KEY);
  if (stored && CATALOGUES[stored]) return stored;
  for (const tag of navigator.languages || [navigator.language || 'en']) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (CATALOGUES[base]) return base;
  }
  return 'en';
}

let language = browserLanguage();

export function currentLanguage() {
  return language;
}

export function setLanguage(code) {
  if (!CATALOGUES[code]) return;
  language = code;
  localStorage.setItem(STORAGE_KEY, code);
  document.documentElement.lang = code;
}

// The text of key in the current language ({name} filled from params);
// English when the catalogue lacks it, the key itself when both do (a
// test checks that no key is missing).
export function t(key, params) {
  let text = form(CATALOGUES[language][key] ?? en[key] ?? key, params, language);
  if (params) {
    text = text.replace(/\{(\w+)\}/g, (whole, name) =>
      params[name] === undefined ? whole : String(params[name]));
  }
  return text;
}

// A bot seat's words: its lobby level where the spec is one ("Bot:
// careless (easy)"), else the spec itself ("bot: ismcts:iters=500").
export function botWords(spec) {
  const level = `seat.${spec}`;
  const words = t(level); // (the key itself where no catalogue has it)
  return words !== level ? words : t('table.bot', {bot: spec});
}

export function catalogues() {
  return CATALOGUES;
}
