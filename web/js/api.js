// api.js: the server's contract (docs/server.md) as functions, and a
// table's live connection (a WebSocket that reconnects by itself).

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function request(method, path, body) {
  const options = {method, headers: {}};
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
  const answer = type.includes('json') ? await response.json() : await response.text();
  if (!response.ok) throw new ApiError(response.status, answer.error || String(answer));
  return answer;
}

const tablePath = (id) => `/api/tables/${encodeURIComponent(id)}`;
const tokenQuery = (token) => (token ? `token=${encodeURIComponent(token)}` : '');

export const api = {
  games: () => request('GET', '/api/games'),
  lobby: () => request('GET', '/api/tables'),
  createTable: (settings) => request('POST', '/api/tables', settings),
  join: (id, seat, name) => request('POST', `${tablePath(id)}/join`, {seat, name}),
  table: (id, token) => request('GET', `${tablePath(id)}?${tokenQuery(token)}`),
  legal: (id, token, after) =>
    request('GET', `${tablePath(id)}/legal?${tokenQuery(token)}&after=${after.join(',')}`),
  move: (id, token, version, actions) =>
    request('POST', `${tablePath(id)}/moves`, {token, version, move: actions}),
  zombie: (id, creator, seat, zombie) =>
    request('POST', `${tablePath(id)}/zombie`, {creator, seat, zombie}),
  hint: (id, token) => request('GET', `${tablePath(id)}/hint?${tokenQuery(token)}`),
  recordPath: (id, token) => `${tablePath(id)}/record${token ? `?${tokenQuery(token)}` : ''}`,
  replay: (id, seat) => request('GET', `${tablePath(id)}/replay?seat=${seat}`),
  replayRecord: (record, seat) => request('POST', '/api/replay', {record, seat}),
};

// A table's live snapshots: calls onSnapshot(snapshot) with the whole
// snapshot (the log put together from the pushes, which carry only new
// entries), and onStatus('open'|'closed') as the socket comes and goes.
// A closed socket is opened again after a pause that grows to 5 s; the
// server sends the whole snapshot on every new socket, so nothing is
// missed.
export class TableConnection {
  constructor(id, token, onSnapshot, onStatus) {
    this.id = id;
    this.token = token;
    this.onSnapshot = onSnapshot;
    this.onStatus = onStatus;
    this.log = [];
    this.pause = 250;
    this.closed = false;
    this.open();
  }

  open() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const query = this.token ? `?${tokenQuery(this.token)}` : '';
    this.socket = new WebSocket(`${scheme}//${location.host}${tablePath(this.id)}/ws${query}`);
    this.socket.onopen = () => {
      this.pause = 250;
      this.onStatus('open');
    };
    this.socket.onmessage = (event) => this.receive(JSON.parse(event.data));
    this.socket.onclose = () => {
      if (this.closed) return;
      this.onStatus('closed');
      setTimeout(() => !this.closed && this.open(), this.pause);
      this.pause = Math.min(this.pause * 2, 5000);
    };
  }

  receive(snapshot) {
    if (snapshot.error) return;
    this.log = this.log.slice(0, snapshot.log_start || 0).concat(snapshot.log || []);
    this.onSnapshot({...snapshot, log: this.log, log_start: 0});
  }

  close() {
    this.closed = true;
    this.socket.close();
  }
}
