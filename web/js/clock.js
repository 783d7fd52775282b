// clock.js: a table's clocks as the page shows them: the time each seat
// has left, a time bar for the seat (or seats) to move that everyone sees,
// and the player's own low-time warning (with a short sound when he has
// allowed sound: the "Sound" setting, kept in the browser).
//
// The server's snapshot says what each seat had when the turn began
// (seat.clock), how long the turn has run (turn_ms) and the clock's rules
// (clock: total, increment, per_move); the page counts down from there.
// At 0:00 the server's stand-in makes that one move (docs/server.md).

import {h} from './dom.js';
import {t} from './i18n.js';

const SOUND = 'gateau.sound';

export const soundAllowed = () => localStorage.getItem(SOUND) === '1';

export function toggleSound() {
  localStorage.setItem(SOUND, soundAllowed() ? '0' : '1');
}

export function formatClock(ms) {
  if (ms === null || ms === undefined) return '';
  const total = Math.max(0, Math.ceil(ms / 1000));
  const days = Math.floor(total / 86400);
  const hours = Math.floor((total % 86400) / 3600), minutes = Math.floor((total % 3600) / 60), seconds = total % 60;
  const two = (n) => String(n).padStart(2, '0');
  if (days) return t('clock.days', {n: days, time: `${hours}:${two(minutes)}`});
  return hours ? `${hours}:${two(minutes)}:${two(seconds)}` : `${minutes}:${two(seconds)}`;
}

// How long the turn has run: the server's count when the snapshot came,
// and the time since.  (time_scale: a test server's clock runs faster.)
function turnElapsed(page) {
  const snapshot = page.snapshot;
  const scale = (snapshot.clock && snapshot.clock.time_scale) || 1;
  return (snapshot.turn_ms || 0) + (performance.now() - page.receivedAt) * scale;
}

const moving = (snapshot, seat) => (snapshot.to_move || []).includes(seat.seat) && !snapshot.over;

// The time seat has left now (ms).
export function timeLeft(page, seat) {
  return moving(page.snapshot, seat) ? seat.clock - turnElapsed(page) : seat.clock;
}

// What a full bar is: the time a move has, or the seat's whole time.
function wholeTime(snapshot, seat) {
  const clock = snapshot.clock;
  return clock.per_move ? clock.total : Math.max(clock.total, seat.clock);
}

// Below this, the player to move is warned: a quarter of the time, at
// least 10 s, at most an hour (a clock of days warns an hour before).
function lowTimeAt(snapshot) {
  return Math.min(Math.max(snapshot.clock.total / 4, 10000), 3600000);
}

const percent = (left, whole) => Math.max(0, Math.min(100, Math.round((100 * left) / whole)));

// The bars of the seats to move, and the place of the low-time warning;
// null without a clock or nobody to move.
export function timeBars(page) {
  const snapshot = page.snapshot;
  if (!snapshot.clock || snapshot.over) return null;
  const seats = snapshot.seats.filter((seat) => moving(snapshot, seat) && seat.clock !== null && seat.clock !== undefined);
  if (!seats.length) return null;
  return h('div', {class: 'time-bars'},
    seats.map((seat) => {
      const left = timeLeft(page, seat), filled = percent(left, wholeTime(snapshot, seat));
      return h('div', {class: 'time-bar-row', 'data-time-bar': seat.seat},
        h('span', {class: 'time-bar-name'}, seat.name),
        h('div', {class: 'time-bar', role: 'progressbar', 'aria-label': t('clock.time_left_of', {name: seat.name}),
          'aria-valuemin': 0, 'aria-valuemax': 100, 'aria-valuenow': filled},
        h('div', {class: 'time-bar-fill', style: `width: ${filled}%`})),
        h('span', {class: 'time-bar-text'}, formatClock(left)));
    }),
    h('p', {class: 'low-time', role: 'alert', 'data-testid': 'low-time', hidden: true}));
}

// A short tone (Web Audio: no file to fetch); nothing where sound cannot play.
function beep() {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator(), volume = audio.createGain();
    tone.frequency.value = 880;
    volume.gain.value = 0.1;
    tone.connect(volume).connect(audio.destination);
    tone.onended = () => audio.close();
    tone.start();
    tone.stop(audio.currentTime + 0.15);
  } catch { /* no sound here */ }
}

// Every tick: the bars and times drawn again, and the player to move
// warned once a turn when his time runs low.
export function tickTimeBars(root, page) {
  const snapshot = page.snapshot;
  if (!snapshot || !snapshot.clock) return;
  for (const seat of snapshot.seats) {
    const row = root.querySelector(`[data-time-bar="${seat.seat}"]`);
    if (!row) continue;
    const left = timeLeft(page, seat), filled = percent(left, wholeTime(snapshot, seat));
    row.querySelector('.time-bar').setAttribute('aria-valuenow', filled);
    row.querySelector('.time-bar-fill').style.width = `${filled}%`;
    row.querySelector('.time-bar-text').textContent = formatClock(left);
    const mine = seat.seat === snapshot.seat;
    const low = mine && left < lowTimeAt(snapshot);
    row.classList.toggle('low', low);
    if (!low) continue;
    const warning = root.querySelector('[data-testid=low-time]');
    if (warning) {
      warning.hidden = false;
      warning.textContent = t('clock.low_time', {time: formatClock(left)});
    }
    // (once a turn: the turn is the snapshot's version)
    if (page.warnedAt !== snapshot.version) {
      page.warnedAt = snapshot.version;
      if (soundAllowed()) {
        beep();
        root.dataset.sounded = String(Number(root.dataset.sounded || 0) + 1);
      }
    }
  }
}
