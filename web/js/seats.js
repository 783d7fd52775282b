// seats.js: the seats this browser holds, kept in localStorage so that a
// reload or a new tab returns to them.  A token is a seat's secret: it is
// kept here and in the invitation link, never in the address bar of a
// table (#/table/ID/SEAT names the seat, not its token).

const key = (id) => `gateau.seats.${id}`;

export function heldSeats(id) {
  try {
    return JSON.parse(localStorage.getItem(key(id))) || {};
  } catch {
    return {};
  }
}

export function holdSeat(id, seat, token) {
  const seats = heldSeats(id);
  seats[seat] = token;
  localStorage.setItem(key(id), JSON.stringify(seats));
}

// The token of seat at table id; with no seat named, the one seat held
// there (null when none or several: then the page is a spectator's).
export function seatToken(id, seat) {
  const seats = heldSeats(id);
  if (seat) return seats[seat] || null;
  const held = Object.keys(seats);
  return held.length === 1 ? seats[held[0]] : null;
}

// The creator's token of table id (kept by the browser that made it):
// it hands a person's seat to a bot and back.
export function holdCreator(id, token) {
  localStorage.setItem(`gateau.creator.${id}`, token);
}

export function creatorToken(id) {
  return localStorage.getItem(`gateau.creator.${id}`);
}

export function invitationLink(id, token) {
  return `${location.origin}${location.pathname}#/join/${id}/${token}`;
}
