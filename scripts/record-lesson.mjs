#!/usr/bin/env node
// record-lesson.mjs: plays a "Learn to play" game against a running
// `gateau serve` and prints the learner's moves as the lesson script
// needs them (web/js/learn/lessons/GAME.js, docs/web.md "Lessons").
//
//   node scripts/record-lesson.mjs URL GAME [OVERRIDES.json] > moves.json
//
// The lesson's table has a fixed seed and deterministic bots (the
// server's lessons.c), so the same moves of seat 1 give the same game
// every time.  Each move of seat 1 is the server's hint (or the move
// OVERRIDES names for that turn: {"3": "cut 1-4 5-8 9-11"}), turned into
// the parts the page clicks (the legal entries' names) and checked: the
// parts must make exactly that move.  The log goes to standard error, to
// write the lesson's words against.

const [url, game, overridesFile] = process.argv.slice(2);
if (!url || !game) {
  console.error('usage: node scripts/record-lesson.mjs URL GAME [OVERRIDES.json]');
  process.exit(2);
}
const {readFileSync} = await import('node:fs');
const overrides = overridesFile ? JSON.parse(readFileSync(overridesFile, 'utf8')) : {};

async function call(method, path, body, token) {
  const answer = await fetch(url + path, {method, body: body ? JSON.stringify(body) : undefined,
    headers: {'Content-Type': 'application/json', ...(token ? {Authorization: `Bearer ${token}`} : {})}});
  const json = await answer.json();
  if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${json.error}`);
  return json;
}

// A move's notation as the names of the parts the page offers (the
// engine's action names, docs/web.md "How a move is built").
function partNames(notation) {
  const words = notation.split(' ');
  const [verb] = words;
  switch (game) {
    case 'piece-o-cake':
      if (verb === 'cut') return words.slice(1).map((piece) => `cut after ${piece.split('-').pop()}`);
      if (verb === 'take') return [`take ${words[1]}`, ...[...words[2]].map((c) => (c === 'e' ? 'eat' : 'collect'))];
      return [notation];
    case 'maries-table':
      if (verb === 'keep') return words.slice(1).map((value) => `keep ${value}`);
      return [notation];
    case 'cake-master':
      if (verb === 'keep') return [`keep ${words[1]}`]; // (two players: both others go across)
      return words.slice(1);
    case 'mice-cake':
      return words.slice(1).flatMap((column) => {
        const [, letter, count, target] = /^([A-D])(\d)(?:>(.*))?$/.exec(column);
        return [...Array(Number(count)).fill(`mouse on ${letter}`), ...(target ? [`steal ${target}`] : [])];
      });
    default:
      throw new Error(`no lesson parts for ${game}`);
  }
}

// Clicks names in order, as the page would; the move they make, checked.
async function build(id, token, snapshot, names) {
  let legal = snapshot.legal, answer = null;
  const parts = [];
  for (const name of names) {
    const entry = legal.find((e) => e.name === name);
    if (!entry) throw new Error(`'${name}' is not offered (offered: ${legal.map((e) => e.name).join(', ')})`);
    parts.push(entry.action);
    answer = await call('GET', `/api/tables/${id}/legal?after=${parts.join(',')}`, null, token);
    legal = answer.legal;
  }
  if (!answer.complete) throw new Error(`${names.join(' ; ')} is not a whole move`);
  return answer.move;
}

// The server's best move (a hint thinks one at a time: busy, ask again).
async function hint(id, token) {
  for (;;) {
    try {
      return (await call('GET', `/api/tables/${id}/hint?ms=200`, null, token)).moves[0].move;
    } catch (error) {
      if (!/ 503 /.test(error.message)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

const made = await call('POST', '/api/tables', {lesson: game});
const id = made.id, token = made.seats[0].token;
const moves = [];
let seen = 0;
for (;;) {
  const snapshot = await call('GET', `/api/tables/${id}`, null, token);
  for (const entry of snapshot.log.slice(seen)) console.error(`${entry.n}. ${entry.text}`);
  seen = snapshot.log.length;
  if (snapshot.over) {
    console.error(`scores: ${snapshot.scores.join(' ')}`);
    break;
  }
  // Seat 1 moves once the bots have (as the page's lesson waits for them).
  if (!(snapshot.legal && snapshot.legal.length) || JSON.stringify(snapshot.to_move) !== '[1]') {
    await new Promise((resolve) => setTimeout(resolve, 30));
    continue;
  }
  const turn = moves.length;
  const notation = overrides[turn] || await hint(id, token);
  const parts = partNames(notation);
  const actions = await build(id, token, snapshot, parts);
  await call('POST', `/api/tables/${id}/moves`, {version: snapshot.version, move: actions}, token);
  const played = await call('GET', `/api/tables/${id}?log_from=${seen}`, null, token);
  const mine = played.log.find((entry) => entry.seat === 1 && entry.move);
  if (!mine || mine.move !== notation) throw new Error(`turn ${turn}: ${parts.join(' ; ')} played '${mine && mine.move}', not '${notation}'`);
  console.error(`   [turn ${turn}] ${notation}`);
  moves.push({move: notation, parts});
}
console.log(JSON.stringify(moves));
