// api.js: the server's contract (docs/server.md) as functions, and a
// table's live connection (a WebSocket that reconnects by itself, with
// polling over HTTP while it is down).
//
// A token (a seat's, or the table creator's) travels only in the
// `Authorization: Bearer` header, never in a URL (the server refuses a
// query that names one), and on a WebSocket in its first message.

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

// One request: the answer's JSON (or text); an ApiError for a refusal or
// an unreachable server.
async function request(method, path, {body, token} = {}) {
  const options = {method, headers: {}};
  if (token) options.headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) {
    options.headers['Content-Type'] = 'application/json';
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    throw new ApiError(0, 'the server cannot be reached');
  }
  const type = response.headers.get('Content-Type') || '';
  let answer;
  try {
    answer = type.includes('json') ? await response.json() : await response.text();
  } catch (error) {
    throw new ApiError(response.ok ? 0 : response.status, `the server's answer was cut short (${response.status})`);
  }
  if (!response.ok) throw new ApiError(response.status, (answer && answer.error) || String(answer));
  return answer;
}

const tablePath = (id) => `/api/tables/${encodeURIComponent(id)}`;

export const api = {
  games: () => request('GET', '/api/games'),
  // A page of the lobby: after, the `next` cursor of the page before (none: the first).
  lobby: (after) => request('GET', `/api/tables${after ? `?after=${encodeURIComponent(after)}` : ''}`),
  createTable: (settings) => request('POST', '/api/tables', {body: settings}),
  join: (id, seat, name) => request('POST', `${tablePath(id)}/join`, {body: {seat, name}}),
  // (logFrom: only the log's entries from that one on; log_start says so)
  table: (id, token, logFrom) =>
    request('GET', `${tablePath(id)}${logFrom ? `?log_from=${logFrom}` : ''}`, {token}),
  legal: (id, token, after) =>
    request('GET', `${tablePath(id)}/legal?after=${after.join(',')}`, {token}),
  move: (id, token, version, actions) =>
    request('POST', `${tablePath(id)}/moves`, {token, body: {version, move: actions}}),
  zombie: (id, creator, seat, zombie) =>
    request('POST', `${tablePath(id)}/zombie`, {token: creator, body: {seat, zombie}}),
  // (the seat's last move, while nobody could have learned from it)
  takeBack: (id, token) => request('POST', `${tablePath(id)}/takeback`, {token, body: {}}),
  // (another seat's player, away or out of time, to a bot; back: one's own seat again)
  handOver: (id, token, seat, back) =>
    request('POST', `${tablePath(id)}/handover`, {token, body: back ? {seat, back: true} : {seat}}),
  hint: (id, token) => request('GET', `${tablePath(id)}/hint`, {token}),
  // The people (docs/server.md: "Names", "Chat", "Rematch").
  rename: (id, token, name) => request('POST', `${tablePath(id)}/name`, {token, body: {name}}),
  // (a spectator posts under a name of his own; a seat under its seat's)
  chat: (id, token, text, name) =>
    request('POST', `${tablePath(id)}/chat`, {token, body: token ? {text} : {text, name}}),
  rematch: (id, token) => request('POST', `${tablePath(id)}/rematch`, {token, body: {}}),
  // (no token: the whole record, once the game is over, is everyone's)
  recordPath: (id) => `${tablePath(id)}/record`,
  replay: (id, seat) => request('GET', `${tablePath(id)}/replay?seat=${seat}`),
  replayRecord: (record, seat) => request('POST', '/api/replay', {body: {record, seat}}),
  // Reviews (docs/server.md, "Reviews"): asked for, then followed until done.
  review: (id) => request('GET', `${tablePath(id)}/review`),
  askReview: (id) => request('POST', `${tablePath(id)}/review`, {body: {}}),
  reviewRecord: (record) => request('POST', '/api/review', {body: {record}}),
  uploadedReview: (reviewId) => request('GET', `/api/reviews/${encodeURIComponent(reviewId)}`),
};

// The WebSocket's close codes that the server chooses (docs/server.md,
// "WebSocket").  Any other close (1001 the server stopping, 1006 the
// network, 1011, 1012, 1013) is followed by a new socket after a pause.
const POLICY = 1008;          // refused: a token that opens no seat, no such table
const TRY_AGAIN_LATER = 1013; // full, or this client fell behind: later, from a fresh snapshot

const FIRST_PAUSE_MS = 250;
const LAST_PAUSE_MS = 5000;
const POLL_MS = 2000;
// 1008s in a row (each time with a table that HTTP still shows this seat)
// before the page stops opening sockets: a late first message (a machine
// that slept) is worth another try, a refusal that stays is not.
const MOST_REFUSALS = 3;

// A table's live snapshots: calls onSnapshot(snapshot) with the whole
// snapshot (the log put together from the pushes, which carry only new
// entries), and onStatus(status, reason) as the socket comes and goes:
//
//   'open'     the socket is live (its first snapshot came);
//   'closed'   it is not: it is opened again after a pause that grows to
//              5 s (the server sends the whole snapshot on every new
//              socket, so nothing is missed), and meanwhile the snapshot
//              is fetched over HTTP every 2 s, so the page never freezes;
//   'refused'  the server closed it for policy (1008; reason is the
//              server's) MOST_REFUSALS times in a row: it is not opened
//              again, the polling goes on;
//   'gone'     the table's snapshot is refused over HTTP too (no such
//              table, a token that opens no seat): neither polls nor
//              sockets are tried again; reason says why.
//
// A socket closed with 1008 is first checked over HTTP at once: a token
// or a table the server refuses there is 'gone' before any new socket.
//
// Chat messages ({"chat": [...]}, the last ones first with "chat_history")
// come on the same socket and go to onChat.
export class TableConnection {
  constructor(id, token, onSnapshot, onStatus, onChat = () => {}) {
    this.id = id;
    this.token = token;
    this.onSnapshot = onSnapshot;
    this.onStatus = onStatus;
    this.onChat = onChat;
    this.log = [];
    this.version = -1;       // the version of the last snapshot given
    this.polled = '';        // the last snapshot polled, as the server sent it
    this.pause = FIRST_PAUSE_MS;
    this.closed = false;     // closed by the page
    this.refusals = 0;       // 1008s since the last live socket
    this.stopped = false;    // no new socket (refused, or gone)
    this.live = false;       // the socket has sent its snapshot and is open
    this.socket = null;
    this.reconnectTimer = 0;
    this.pollTimer = 0;
    this.polling = false;    // a poll is on its way
    this.open();
  }

  open() {
    this.reconnectTimer = 0;
    if (this.closed || this.stopped) return;
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(`${scheme}//${location.host}${tablePath(this.id)}/ws`);
    this.socket = socket;
    // The first message says who this is: a seat (its token) or a spectator.
    socket.onopen = () => socket.send(JSON.stringify(this.token ? {token: this.token} : {}));
    socket.onmessage = (event) => {
      if (socket !== this.socket || this.closed) return;
      let snapshot;
      try {
        snapshot = JSON.parse(event.data);
      } catch {
        return;
      }
      if (snapshot.error) return;
      if (snapshot.chat) return this.onChat(snapshot);
      if (!this.live) {
        // The server took this socket: it brings everything from now on.
        this.live = true;
        this.pause = FIRST_PAUSE_MS;
        this.refusals = 0;
        this.stopPolling();
        this.onStatus('open');
      }
      this.give(snapshot);
    };
    socket.onclose = (event) => {
      if (socket !== this.socket || this.closed) return;
      this.socket = null;
      this.live = false;
      this.polled = '';
      let pause = this.pause;
      if (event.code === POLICY) {
        if (++this.refusals >= MOST_REFUSALS) {
          this.stopped = true;
          this.onStatus('refused', event.reason || '');
          this.startPolling();
          return;
        }
        pause = LAST_PAUSE_MS;
        // (at once: a token or a table refused over HTTP too stops it all)
        this.stopPolling();
        this.startPolling(0);
      } else if (event.code === TRY_AGAIN_LATER) {
        pause = Math.max(pause, 1000);
      }
      this.onStatus('closed');
      // (spread, so that the sockets a server closed at once do not all
      // come back at once)
      this.reconnectTimer = setTimeout(() => this.open(), pause * (0.75 + Math.random() / 2));
      this.pause = Math.min(pause * 2, LAST_PAUSE_MS);
      this.startPolling();
    };
  }

  // The log put together: a snapshot's entries start at its log_start.
  give(snapshot) {
    const start = snapshot.log_start || 0;
    this.log = this.log.slice(0, start).concat(snapshot.log || []);
    this.version = snapshot.version;
    this.onSnapshot({...snapshot, log: this.log, log_start: 0});
  }

  // ---- Polling over HTTP while the socket is down -------------------------

  // (a page that has nothing to show yet asks at once)
  startPolling(after = this.version < 0 ? 0 : POLL_MS) {
    if (this.pollTimer || this.closed) return;
    this.pollTimer = setTimeout(() => this.poll(), after);
  }

  stopPolling() {
    clearTimeout(this.pollTimer);
    this.pollTimer = 0;
  }

  async poll() {
    this.pollTimer = 0;
    if (this.closed || this.live || this.polling) return;
    this.polling = true;
    try {
      await this.fetchSnapshot();
    } catch (error) {
      // (a refusal that will not change: no table, a token that opens no
      // seat; an unreachable server or a busy one is asked again)
      if (error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429) {
        this.polling = false;
        this.stopped = true;
        clearTimeout(this.reconnectTimer);
        if (this.socket) this.socket.close();
        this.socket = null;
        this.onStatus('gone', error.message);
        return;
      }
    }
    this.polling = false;
    if (!this.live) this.startPolling();
  }

  // One snapshot over HTTP, given as the socket's are (the log's new
  // entries only, when the page has some); not given again when it is the
  // same as the last one polled.
  async fetchSnapshot() {
    const from = this.log.length;
    let snapshot = await api.table(this.id, this.token, from);
    if ((snapshot.log_start || 0) > this.log.length) snapshot = await api.table(this.id, this.token);
    // (the socket came back meanwhile, or an older answer: the socket's stands)
    if (this.closed || this.live || snapshot.version < this.version) return;
    if ((snapshot.log_start || 0) > this.log.length) return;
    const seen = JSON.stringify(snapshot);
    if (seen === this.polled && from === this.log.length) return;
    this.polled = seen;
    this.give(snapshot);
  }

  close() {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    this.stopPolling();
    if (this.socket) this.socket.close();
    this.socket = null;
  }
}
