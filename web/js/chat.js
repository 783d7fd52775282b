// chat.js: a table's chat panel.  Seats post under their seat's name,
// spectators under the name this browser keeps (names.js); the server
// stores each message, pushes it on the table's socket, and sends the last
// ones to whoever opens the table (docs/server.md, "Chat").  Messages are
// shown as text, never as markup.  A seat may hide the spectators'
// messages (kept in this browser).

import {h, replace} from './dom.js';
import {t} from './i18n.js';
import {api} from './api.js';
import {storedName, keepName, NAME_MOST} from './names.js';

const HIDE_SPECTATORS = 'gateau.hide-spectator-chat';
const CHAT_MOST = 300;
const SHOWN_MOST = 100;

export class ChatPanel {
  constructor(id, token) {
    this.id = id;
    this.token = token;
    this.messages = [];
    this.hideSpectators = localStorage.getItem(HIDE_SPECTATORS) === '1';
    this.list = h('ol', {class: 'chat-messages', 'data-testid': 'chat-messages',
      'aria-live': 'polite', tabindex: 0, 'aria-label': t('chat.messages')});
    // (an alert only while there is something to say: an empty one would
    // still be an alert on the page)
    this.problem = h('div', {'data-testid': 'chat-error'});
    this.text = h('input', {id: 'chat-text', type: 'text', maxlength: CHAT_MOST, autocomplete: 'off',
      'data-testid': 'chat-text'});
    this.name = token ? null : h('input', {id: 'chat-name', type: 'text', maxlength: NAME_MOST,
      autocomplete: 'nickname', value: storedName()});
    const form = h('form', {class: 'chat-form'},
      this.name && h('label', {for: 'chat-name'}, t('chat.your_name')), this.name,
      h('label', {for: 'chat-text'}, t('chat.message')), this.text,
      h('button', {type: 'submit', 'data-testid': 'chat-send'}, t('chat.send')));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.post();
    });
    this.node = h('section', {class: 'chat', 'aria-label': t('chat.title'), 'data-testid': 'chat'},
      h('h2', {}, t('chat.title')), this.list, form,
      token && h('label', {class: 'confirm'},
        h('input', {type: 'checkbox', checked: this.hideSpectators, 'data-testid': 'chat-hide-spectators',
          onchange: (event) => this.setHidden(event.target.checked)}),
        ' ', t('chat.hide_spectators')),
      this.problem);
    this.draw();
  }

  // A message from the socket: the last ones (chat_history) or a new one.
  receive(message) {
    this.messages = message.chat_history ? message.chat.slice() : this.messages.concat(message.chat);
    this.messages = this.messages.slice(-SHOWN_MOST);
    this.draw();
  }

  setHidden(hidden) {
    this.hideSpectators = hidden;
    localStorage.setItem(HIDE_SPECTATORS, hidden ? '1' : '0');
    this.draw();
  }

  draw() {
    const shown = this.messages.filter((message) => !(this.hideSpectators && message.seat === null));
    replace(this.list, shown.length ? shown.map((message) =>
      h('li', {class: message.seat === null ? 'spectator' : '', 'data-seat': message.seat ?? 'spectator'},
        h('strong', {class: 'person-name'}, message.name),
        message.seat === null && h('span', {class: 'kind'}, ` (${t('chat.spectator')})`),
        ': ', h('span', {class: 'chat-text'}, message.text)))
      : h('li', {class: 'muted'}, t('chat.empty')));
    this.list.scrollTop = this.list.scrollHeight;
  }

  async post() {
    const text = this.text.value.trim();
    if (!text) return;
    let name;
    if (this.name) {
      name = this.name.value.trim();
      if (!name) {
        this.say(t('chat.name_needed'));
        this.name.focus();
        return;
      }
      keepName(name);
    }
    try {
      await api.chat(this.id, this.token, text, name);
      this.text.value = '';
      this.say('');
    } catch (error) {
      this.say(t('chat.refused', {reason: error.message}));
    }
  }

  say(words) {
    replace(this.problem, words && h('p', {class: 'error', role: 'alert'}, words));
  }
}
