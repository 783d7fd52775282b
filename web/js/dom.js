// dom.js: building the page's elements, HTML and SVG, without a library.
//
//   h('button', {class: 'primary', onclick: go}, 'Play')
//   s('circle', {cx: 10, cy: 10, r: 4})          (an SVG element)
//
// Attributes whose name starts with "on" are event listeners; `class`,
// `style` (a string) and every other attribute are set as attributes;
// false, null and undefined attributes and children are left out, so that
// `cond && h(...)` reads naturally.  Children may be nested arrays.

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';

function build(element, attributes, children) {
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      element.addEventListener(name.slice(2).toLowerCase(), value);
    } else if (name === 'dataset') {
      Object.assign(element.dataset, value);
    } else {
      element.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === false || child === null || child === undefined) continue;
    if (Array.isArray(child)) append(element, child);
    else element.append(child instanceof Node ? child : String(child));
  }
}

export function h(tag, attributes, ...children) {
  return build(document.createElement(tag), attributes, children);
}

export function s(tag, attributes, ...children) {
  return build(document.createElementNS(SVG_NAMESPACE, tag), attributes, children);
}

// A box whose content scrolls inside it (a wide table on a phone): in the
// tab order, as a region with a name, so that a keyboard can scroll it too
// (axe's scrollable-region-focusable).  attributes holds its class and its
// name (aria-label or aria-labelledby).
export function scrollRegion(attributes, ...children) {
  return h('div', {...attributes, tabindex: 0, role: 'region'}, ...children);
}

// Replaces what element holds with children.
export function replace(element, ...children) {
  element.replaceChildren();
  append(element, children);
}

// Makes element hold children (falsy ones left out), in that order,
// moving only what must move: a child it holds already stays in place
// (neither its style nor its layout is computed again), the others are
// inserted, and what it held besides is removed.
export function place(element, ...children) {
  const wanted = children.filter(Boolean);
  const kept = new Set(wanted);
  for (const node of [...element.childNodes]) if (!kept.has(node)) node.remove();
  let at = element.firstChild;
  for (const child of wanted) {
    if (child === at) at = at.nextSibling;
    else element.insertBefore(child instanceof Node ? child : document.createTextNode(String(child)), at);
  }
}
