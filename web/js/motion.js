// motion.js: what changed between two snapshots, shown on the board.
//
// The renderers know nothing of it: when a new snapshot is drawn, the new
// board is compared with the one it replaces, element by element (an
// element is known by its place in the tree, its tag, its first class,
// which names what it is, and the renderers' data-piece, data-card,
// data-gap, data-seat and data-v).  What is new, or small and changed (a
// card turned up, a die, a mouse), is the last move, and keeps the class
// "last-move" (a line of text: "last-change") until the next snapshot
// (redraws while a move is being built mark it again); what left the board
// is drawn once more as a ghost that goes away (a served cake's pieces, a
// card passed).
//
// The animations are CSS (web/css/motion.css), started by classes, and
// they never hold anything up: the board is live at once, a ghost takes
// no clicks, and a snapshot that comes during an animation replaces the
// board, animations and all.  With prefers-reduced-motion the marks stay
// and nothing moves (the style sheet's media query, and motionWanted()
// here: no animation class, no ghost).

const IDENTITY_ATTRIBUTES = ['data-piece', 'data-card', 'data-gap', 'data-seat', 'data-v'];
// Classes that say how the move being built or this module marks an
// element, not what the element is.
const PASSING_CLASSES = new Set(['legal', 'picked', 'chosen', 'dim', 'offered', 'last-move', 'last-change',
  'motion-arrive', 'motion-leaving', 'hint-mark']);
// Attributes that change with the move being built or with focus.
const PASSING_ATTRIBUTES = new Set(['class', 'tabindex', 'role', 'data-action', 'data-undo', 'aria-pressed',
  'aria-label', 'aria-disabled', 'style']);
const MOST_GHOSTS = 40;
// How long a ghost takes to go (web/css/motion.css's gateau-leave): boards
// that follow each other faster (a burst of bots' moves, a replay stepped
// through with a key held) get no ghosts, which would be gone before
// being seen, and whose places cost a layout each.
const LEAVE_MS = 350;
// What moves: the games' things (by their first class or their data-
// identity), not lines of text, which would only blur into their
// successors.
const THING = /card|piece|die|mouse|domino|chip|pair|stack|mini|vote|tak|gap|slot|stash/;
const isThing = (element) => IDENTITY_ATTRIBUTES.slice(0, 3).some((name) => element.hasAttribute(name)) ||
  THING.test(element.classList[0] || '');

export function motionWanted() {
  return !(window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches);
}

function classesOf(element) {
  return [...element.classList].filter((name) => !PASSING_CLASSES.has(name)).sort().join('.');
}

// (the first class only: the others say its state, "mc-phase-assign",
// "taken", "mc-back", which may change while it stays the same thing)
function identity(element) {
  const marks = IDENTITY_ATTRIBUTES.map((name) => element.getAttribute(name))
    .filter((value) => value !== null).join(',');
  const first = [...element.classList].find((name) => !PASSING_CLASSES.has(name)) || '';
  return `${element.localName}.${first}[${marks}]`;
}

// What an element shows by itself: its attributes (but those that follow
// the move being built) and its own text.
function signature(element) {
  const attributes = [...element.attributes].filter((a) => !PASSING_ATTRIBUTES.has(a.name))
    .map((a) => `${a.name}=${a.value}`).sort().join(' ');
  const text = [...element.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE)
    .map((node) => node.nodeValue).join('');
  return `${classesOf(element)}|${attributes}|${text}`;
}

// A changed element is marked if it is a small thing (a die, a mouse, a
// line of text) or a thing the renderer names (a piece taken, a card
// turned up), not a panel whose state class changed.
const SMALL = 16;
const small = (element) => element.getElementsByTagName('*').length <= SMALL ||
  ['data-piece', 'data-card', 'data-gap'].some((name) => element.hasAttribute(name));

// An element's children by their keys (identity and rank among the
// siblings of the same identity); ghosts and tooltips (<title>) left out.
function childrenByKey(element) {
  const found = new Map();
  const seen = new Map();
  for (const child of element.children) {
    if (child.classList.contains('motion-leaving') || child.localName === 'title') continue;
    const id = identity(child);
    const rank = seen.get(id) || 0;
    seen.set(id, rank + 1);
    found.set(`${id}#${rank}`, child);
  }
  return found;
}

// A path of keys from the board down (joined by a line break, which no
// key holds).
const join = (path, key) => (path ? `${path}\n${key}` : key);

// Where a ghost goes: away from the middle of what holds it.
function awayFrom(box, around) {
  const dx = box.left + box.width / 2 - (around.left + around.width / 2);
  const dy = box.top + box.height / 2 - (around.top + around.height / 2);
  const length = Math.hypot(dx, dy) || 1;
  return [Math.round((dx / length) * 28), Math.round((dy / length) * 28)];
}

// A ghost is a picture only: out of the accessibility tree, out of the
// keyboard's reach (inert), and unknown to the page's and tests' selectors.
function ghostOf(element) {
  const ghost = element.cloneNode(true);
  ghost.classList.add('motion-leaving');
  ghost.classList.remove('last-move', 'last-change', 'motion-arrive', 'hint-mark');
  ghost.setAttribute('aria-hidden', 'true');
  ghost.setAttribute('inert', '');
  for (const node of [ghost, ...ghost.querySelectorAll('*')]) {
    for (const name of ['data-action', 'data-testid', 'data-undo', 'role', 'id', 'data-focus', 'aria-label']) {
      node.removeAttribute(name);
    }
    if (node.hasAttribute('tabindex') || node.matches('a, button, input, select, textarea, summary')) {
      node.setAttribute('tabindex', '-1');
    }
  }
  ghost.addEventListener('animationend', () => ghost.remove(), {once: true});
  return ghost;
}

// The elements that left ({element, holder}, holder the new element in
// whose place it was): drawn again in the new board, going.  An SVG
// element goes back into its drawing (same coordinates); an HTML element
// is laid over the new board where it was.
function addGhosts(gone, oldBoard, newBoard) {
  const boardBox = oldBoard.getBoundingClientRect();
  let count = 0;
  for (const {element, holder} of gone) {
    if (count >= MOST_GHOSTS) break;
    if (!isThing(element)) continue;
    const box = element.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    const ghost = ghostOf(element);
    const inDrawing = element instanceof SVGElement && element.localName !== 'svg';
    const [dx, dy] = awayFrom(box, inDrawing ? element.ownerSVGElement.getBoundingClientRect() : boardBox);
    ghost.style.setProperty('--leave-x', `${dx}px`);
    ghost.style.setProperty('--leave-y', `${dy}px`);
    if (inDrawing) {
      holder.append(ghost);
    } else {
      Object.assign(ghost.style, {position: 'absolute', margin: '0', left: `${box.left - boardBox.left}px`,
        top: `${box.top - boardBox.top}px`, width: `${box.width}px`, height: `${box.height}px`});
      newBoard.append(ghost);
    }
    count++;
  }
}

// What is new (the topmost small thing of each new subtree: a new panel
// is looked into, not ringed whole), what changed (every small thing whose
// own look changed) and what left, between the old board and the new:
// the two are walked together, and a subtree equal in both is passed by
// at once (isEqualNode; the old board's own marks and ghosts make a few
// more subtrees differ, which are walked), so that the cost is that of
// what changed.
function compare(oldElement, newElement, path, found) {
  const olds = childrenByKey(oldElement);
  const news = childrenByKey(newElement);
  for (const [key, element] of news) {
    const old = olds.get(key);
    const at = join(path, key);
    if (!old) lookInto(element, at, found);
    else if (!old.isEqualNode(element)) {
      if (signature(old) !== signature(element) && small(element)) found.marks.push({key: at, element});
      compare(old, element, at, found);
    }
  }
  for (const [key, old] of olds) if (!news.has(key)) found.gone.push({element: old, holder: newElement});
}

function lookInto(element, path, found) {
  if (small(element)) {
    found.marks.push({key: path, element});
    return;
  }
  for (const [key, child] of childrenByKey(element)) lookInto(child, join(path, key), found);
}

// The elements of board at the paths marked (a redraw of the same
// snapshot: the move being built changed the board), walked down along
// those paths only.
function findMarked(board, paths) {
  const found = [];
  const walk = (element, prefix, remaining) => {
    const children = childrenByKey(element);
    const next = new Map();
    for (const path of remaining) {
      const cut = path.indexOf('\n', prefix.length ? prefix.length + 1 : 0);
      const key = path.slice(prefix.length ? prefix.length + 1 : 0, cut < 0 ? undefined : cut);
      const child = children.get(key);
      if (!child) continue;
      if (cut < 0) found.push(child);
      else {
        if (!next.has(key)) next.set(key, []);
        next.get(key).push(path);
      }
    }
    for (const [key, paths] of next) walk(children.get(key), join(prefix, key), paths);
  };
  walk(board, '', paths);
  return found;
}

// One per page (a table, a replay): follows the snapshots' versions.
export function createMotion() {
  let version = null;
  let marks = [];   // the paths of the elements marked for this version
  let lastChange = -Infinity;
  return {
    // Marks newBoard (about to replace oldBoard, still on the page) with
    // what changed since the last snapshot drawn.
    show(oldBoard, newBoard, snapshotVersion) {
      const fresh = version !== null && snapshotVersion !== version && oldBoard;
      let elements = [];
      if (fresh) {
        // (the old board is left as it is, its marks included: changing it
        // now would cost the browser a layout before the ghosts are placed)
        const found = {marks: [], gone: []};
        compare(oldBoard, newBoard, '', found);
        marks = found.marks.map((mark) => mark.key);
        elements = found.marks.map((mark) => mark.element);
        const now = performance.now();
        if (motionWanted() && now - lastChange > LEAVE_MS) addGhosts(found.gone, oldBoard, newBoard);
        lastChange = now;
      } else if (snapshotVersion !== version) {
        marks = [];
      } else if (marks.length) {
        elements = findMarked(newBoard, marks);
      }
      version = snapshotVersion;
      const animate = fresh && motionWanted();
      for (const element of elements) {
        // (a thing ringed, and moving in; a line of text underlined)
        element.classList.add(isThing(element) ? 'last-move' : 'last-change');
        if (animate && isThing(element)) element.classList.add('motion-arrive');
      }
    },
  };
}

// The hint's best move's first part, marked where it is on the board.
export function markHint(board, hint) {
  const best = hint && hint.moves && hint.moves[0];
  if (!best || best.action === undefined || best.action === null) return;
  for (const element of board.querySelectorAll(`[data-action="${best.action}"]`)) element.classList.add('hint-mark');
}
