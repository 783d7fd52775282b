// flow.test.mjs: the table's play flow (docs/web.md): a whole move asks
// before it is sent unless the player chose "send at once" (remembered);
// the last move taken back, and refused once another seat has acted; a
// 30 s clock that runs out once (the stand-in makes that move, with a
// time bar and a low-time warning before it) and the player playing his
// next move himself; a seat handed to a bot refused while its player is
// here or just gone, allowed once he has been away, and the player told
// why when he comes back.  Each new part is checked by axe-core.
//
// The clocks' tests run on servers of their own with GATEAU_TEST_TIME_SCALE
// (docs/server.md): their time runs 5 or 10 times as fast, so that no test
// waits 30 real seconds; the server's code is the production one.

import {api, newPage, openSeat, settled, check, checkAccessibility, startServer, clickOnce, randomFrom} from './support.mjs';

const boardChoices = (page) => page.$$eval('[data-testid=board] [data-action]', (e) => e.map((x) => x.dataset.action));
const logMoves = (page) => page.$$eval('[data-testid=log] code.notation', (e) => e.map((x) => x.textContent));

// Builds a whole move by clicking the board's last choice until Send may be pressed.
async function buildWholeMove(page) {
  for (let n = 0; n < 40 && await page.isDisabled('[data-testid=send]'); n++) {
    const choices = await boardChoices(page);
    await page.click(`[data-testid=board] [data-action="${choices[choices.length - 1]}"]`);
    await settled(page);
  }
  check(await page.isEnabled('[data-testid=send]'), 'a whole move is built');
}

// The page's WebSocket, through the test: its pushes can be held back
// (the page then falls behind the table, as a slow network would have it).
async function holdablePushes(page) {
  const held = {on: false, messages: [], client: null};
  await page.routeWebSocket(/\/api\/tables\/[^/]+\/ws$/, (client) => {
    const server = client.connectToServer();
    held.client = client;
    client.onMessage((message) => server.send(message));
    server.onMessage((message) => (held.on ? held.messages.push(message) : client.send(message)));
  });
  held.release = () => {
    held.on = false;
    for (const message of held.messages.splice(0)) held.client.send(message);
  };
  return held;
}

// The refusals a test provoked (a 409 the page shows) are no page errors.
function forgetRefusals(env) {
  const others = env.errors.filter((error) => !/status of 409/.test(error));
  env.errors.splice(0, env.errors.length, ...others);
}

// A server of the test's own whose clocks run scale times as fast.
async function scaledServer(env, scale) {
  process.env.GATEAU_TEST_TIME_SCALE = String(scale);
  try {
    return await startServer(env.gateau, 0, null, ['--address-requests', '0']);
  } finally {
    delete process.env.GATEAU_TEST_TIME_SCALE;
  }
}

export const tests = [{
  name: 'flow: a move asks before it is sent, "send at once" is remembered, a move is taken back and refused once another seat acted',
  async run(env) {
    const table = await api(env.url, 'POST', '/api/tables', {game: 'piece-o-cake', seats: ['human', 'human']});
    const [ann, bea] = table.seats.map((seat) => seat.token);
    const page = await newPage(env.browser, env.errors, undefined, {askBeforeSending: true});
    const pushes = await holdablePushes(page);
    await openSeat(page, env.url, table.id, ann);
    await page.waitForSelector('[data-testid=board] [data-action]');
    check(await page.isChecked('[data-focus=confirm]'), 'a new player is asked before a move is sent');

    // The first press asks, the second sends.
    await buildWholeMove(page);
    await page.click('[data-testid=send]');
    await page.waitForSelector('.confirming');
    let now = await api(env.url, 'GET', `/api/tables/${table.id}`, undefined, ann);
    check(now.version === 1, 'the first press of Send asks, it does not send');
    await page.click('[data-testid=send]');
    await page.waitForSelector('[data-testid=undo-move]');
    check((await logMoves(page)).some((move) => move.startsWith('cut ')), 'the cut is played');
    await checkAccessibility(page, 'a table with a move to take back');

    // Taken back: the table as before it, and seat 1 cuts again.
    await page.click('[data-testid=undo-move]');
    await page.waitForFunction(() => !document.querySelector('[data-testid=undo-move]') &&
      document.querySelectorAll('[data-testid=board] [data-action]').length > 0, null, {timeout: 5000});
    check(!(await logMoves(page)).some((move) => move.startsWith('cut ')), 'the cut is gone from the log');
    now = await api(env.url, 'GET', `/api/tables/${table.id}`, undefined, ann);
    check(now.version === 1 && now.log.length === 1, `the table is as before the cut: version ${now.version}`);

    // Cut again; Bea passes before Ann's page hears of it: the take-back is refused.
    await buildWholeMove(page);
    await page.click('[data-testid=send]');
    await page.click('[data-testid=send]');
    await page.waitForSelector('[data-testid=undo-move]');
    pushes.on = true;
    await api(env.url, 'POST', `/api/tables/${table.id}/moves`, {version: 2, move: 'pass'}, bea);
    await page.click('[data-testid=undo-move]');
    await page.waitForSelector('.move-panel .error');
    const reason = await page.textContent('.move-panel .error');
    check(reason.includes('seat 2 has acted since'), `the refusal says why: ${reason}`);
    await page.waitForFunction(() => !document.querySelector('[data-testid=undo-move]'), null, {timeout: 5000});
    pushes.release();
    now = await api(env.url, 'GET', `/api/tables/${table.id}`, undefined, ann);
    check(now.version === 3, `the refusal changed nothing: version ${now.version}`);

    // "Send at once" (not asked) is remembered by the browser.
    await page.uncheck('[data-focus=confirm]');
    await page.reload();
    await page.waitForSelector('[data-testid=board]');
    check(!(await page.isChecked('[data-focus=confirm]')), '"send at once" is remembered');
    await page.context().close();
    forgetRefusals(env);
  },
}, {
  name: 'flow: a 30 s clock runs out once, with a time bar and a low-time warning, and the player plays on',
  async run(env) {
    const server = await scaledServer(env, 5); // (30 s: 6 real seconds)
    try {
      const table = await api(server.url, 'POST', '/api/tables', {game: 'piece-o-cake', seats: ['human', 'heuristic'],
        names: ['Ann', null], clock: '30s/move'});
      const token = table.seats[0].token;
      const page = await newPage(env.browser, env.errors);
      await openSeat(page, server.url, table.id, token);
      await page.check('[data-focus=sound]');
      // Everyone sees the bar of the seat to move.
      await page.waitForSelector('[data-time-bar="1"] [role=progressbar]');
      // Ann's own warning, before her time runs out.
      await page.waitForSelector('[data-testid=low-time]:not([hidden])', {timeout: 10000});
      await checkAccessibility(page, 'a table with a time bar and a low-time warning');
      // At 0:00 the stand-in cuts for her, once; the bot answers; her turn again.
      await page.waitForSelector('[data-testid=log] .note', {timeout: 10000});
      check(Number(await page.getAttribute('section.table', 'data-sounded')) >= 1, 'the warning sounded (sound allowed)');
      let state = await api(server.url, 'GET', `/api/tables/${table.id}`, undefined, token);
      check(state.seats[0].timeouts === 1, `one move out of time: ${state.seats[0].timeouts}`);
      // She plays her next move herself, by clicking.
      const random = randomFrom(7);
      const own = () => state.log.some((entry) => entry.seat === 1 && !entry.note);
      for (let clicks = 0; clicks < 200 && !own(); clicks++) {
        if (!(await clickOnce(page, random))) await page.waitForTimeout(30);
        state = await api(server.url, 'GET', `/api/tables/${table.id}`, undefined, token);
      }
      check(own(), 'a move of her own after the one the clock made');
      check(state.seats[0].timeouts === 0, `the count of moves out of time starts again: ${state.seats[0].timeouts}`);
      check(state.log.filter((entry) => entry.note).length === 1, 'the stand-in made one move only');
      await page.context().close();
    } finally {
      server.stop();
    }
  },
}, {
  name: 'flow: a seat goes to a bot only once its player is away, and he is told why',
  async run(env) {
    const server = await scaledServer(env, 10); // (60 s away: 6 real seconds)
    try {
      const table = await api(server.url, 'POST', '/api/tables', {game: 'piece-o-cake', seats: ['human', 'human'],
        names: ['Ann', 'Bea']});
      const [annToken, beaToken] = table.seats.map((seat) => seat.token);
      const ann = await newPage(env.browser, env.errors);
      await openSeat(ann, server.url, table.id, annToken);
      let bea = await newPage(env.browser, env.errors);
      await openSeat(bea, server.url, table.id, beaToken);
      await ann.waitForFunction(() => document.querySelectorAll('.players .presence.on').length === 2, null, {timeout: 5000});
      // Bea is here: no hand-over offered, and the server refuses one.
      check(!(await ann.$('[data-focus=hand-over-2]')), 'no hand-over offered for a player who is here');
      let refusal = '';
      try {
        await api(server.url, 'POST', `/api/tables/${table.id}/handover`, {seat: 2}, annToken);
      } catch (error) {
        refusal = error.message;
      }
      check(refusal.includes('409') && refusal.includes("seat 2's player is here"), `refused: ${refusal}`);

      // Bea goes: offered, asked again, refused (just gone), the reason shown.
      await bea.context().close();
      await ann.waitForSelector('[data-focus=hand-over-2]', {timeout: 5000});
      await ann.click('[data-focus=hand-over-2]');
      await ann.waitForSelector('[data-focus=hand-over-yes-2]');
      await checkAccessibility(ann, 'a table asking before a hand-over');
      await ann.click('[data-focus=hand-over-yes-2]');
      // (a visible refusal: the page also holds empty alerts, such as the name form's)
      await ann.waitForFunction(() => (document.querySelector('.table') || {}).textContent.includes('has been away'),
        null, {timeout: 10000});
      // Once she has been away long enough: handed over.
      for (let tries = 0; tries < 100; tries++) {
        const state = await api(server.url, 'GET', `/api/tables/${table.id}`, undefined, annToken);
        if (state.seats[1].zombie) break;
        await ann.click('[data-focus=hand-over-2]');
        await ann.click('[data-focus=hand-over-yes-2]');
        await settled(ann);
        await ann.waitForTimeout(200);
      }
      await ann.waitForFunction(() => document.querySelector('.players').textContent.includes('played by a bot'),
        null, {timeout: 5000});

      // Bea comes back and is told who and why; she takes her seat back.
      bea = await newPage(env.browser, env.errors);
      await openSeat(bea, server.url, table.id, beaToken);
      await bea.waitForSelector('[data-testid=handed]');
      const told = await bea.textContent('[data-testid=handed]');
      check(/Ann handed your seat to a bot: you were away \d+ minutes?\./.test(told), `Bea is told why: ${told}`);
      await checkAccessibility(bea, 'a table telling its player his seat was handed over');
      await bea.click('[data-focus=play-again]');
      await bea.waitForFunction(() => !document.querySelector('[data-testid=handed]'), null, {timeout: 5000});
      const state = await api(server.url, 'GET', `/api/tables/${table.id}`, undefined, beaToken);
      check(!state.seats[1].zombie, 'her seat is hers again');
      for (const page of [ann, bea]) await page.context().close();
      forgetRefusals(env);
    } finally {
      server.stop();
    }
  },
}];
