// plural.js: a catalogue entry that depends on a number.  An entry is a
// string, or the forms of one sentence by the language's plural category,
// {one: '{n} pip', other: '{n} pips'}, the number read from the parameter
// `by` names ('n' when none).  Pure: the page (i18n.js) and the tests use it.

const rules = new Map();

function categoryOf(language, number) {
  if (!rules.has(language)) rules.set(language, new Intl.PluralRules(language));
  return rules.get(language).select(number);
}

// The sentence of entry for params in language (a string entry as it is).
export function form(entry, params, language) {
  if (typeof entry !== 'object' || entry === null) return entry;
  const number = Number(params ? params[entry.by || 'n'] : NaN);
  const category = Number.isFinite(number) ? categoryOf(language, number) : 'other';
  return entry[category] ?? entry.other;
}

// The forms of entry, each a string ({by} aside).
export function forms(entry) {
  if (typeof entry !== 'object' || entry === null) return [entry];
  return Object.entries(entry).filter(([name]) => name !== 'by').map(([, text]) => text);
}
