// The English catalogue: every string the page shows (js/i18n.js).
// Keys are grouped by page; each game's board has its own group, kept by
// its renderer (web/js/games/GAME.js).
export default {
  // ---- the page
  'app.lobby': 'Lobby',
  'app.replay': 'Replay a record',
  'app.language': 'Language',
  'app.navigation': 'Main',
  'app.bad_link': 'This link opens no seat: {reason}',
  'game.piece-o-cake': "piece o' Cake",
  'game.maries-table': "Marie's Table",
  'game.cake-master': 'Cake Master',
  'game.mice-cake': 'Mice Cake',
  'unit.points': 'points',
  'unit.stars': 'stars',
  'unit.pips': 'pips',

  // ---- the lobby
  'lobby.title': 'Play a cake-sharing game',
  'lobby.create_heading': 'A new table',
  'lobby.game': 'Game',
  'lobby.players': 'Players',
  'lobby.deck': 'Deck file (optional)',
  'lobby.seats': 'Seats',
  'lobby.seat': 'Seat {seat}',
  'lobby.clock': 'Clock',
  'lobby.no_clock': 'no clock',
  'lobby.create': 'Create the table',
  'lobby.created': 'The table is ready.',
  'lobby.invite_note': 'Send each person their own link: it opens their seat, and is shown only now.',
  'lobby.copy': 'Copy',
  'lobby.go_to_seat': 'Go to my seat',
  'lobby.watch': 'Watch',
  'lobby.tables': 'Tables',
  'lobby.no_tables': 'No table is waiting for players now.',
  'lobby.open_seats': 'Open seats',
  'lobby.actions': 'Actions',
  'lobby.join_seat': 'Join as seat {seat}',
  'lobby.your_name': 'Your name',
  'lobby.guest': 'Guest',
  'option.rounds': 'Rounds',
  'seat.me': 'Me',
  'seat.human': 'A friend (invitation link)',
  'seat.open': 'Anyone (open in the lobby)',
  'seat.random': 'Bot: random (beginner)',
  'seat.heuristic': 'Bot: heuristic (easy)',
  'seat.ismcts:ms=300': 'Bot: search (good)',
  'seat.ismcts:ms=2000': 'Bot: search (strong)',

  // ---- the table
  'table.loading': 'Loading…',
  'table.title_your_turn': 'Your turn',
  'table.notify_your_turn': 'Your turn in {game}',
  'table.notify': 'Tell me when it is my turn',
  'table.over': 'The game is over.',
  'table.your_move': 'Your move.',
  'table.waiting_for': 'Waiting for {names}.',
  'table.waiting': 'Waiting.',
  'table.you_are': 'You are {name} (seat {seat}).',
  'table.spectator': 'You are watching.',
  'table.connection_open': 'connected',
  'table.connection_closed': 'reconnecting…',
  'table.your_move_panel': 'Your move',
  'table.not_your_turn': 'Not your turn.',
  'table.choose_on_board': 'Choose on the board.',
  'table.other_choices': 'Other choices',
  'table.take_back': 'Take back',
  'table.send': 'Play this move',
  'table.ask_before_sending': 'Ask before sending a whole move',
  'table.stale': 'The table changed before your move arrived; choose again.',
  'table.players': 'Players',
  'table.player': 'Player',
  'table.score': 'Score',
  'table.clock': 'Clock',
  'table.connected': 'connected',
  'table.not_connected': 'not connected',
  'table.you': 'you',
  'table.to_move': 'to move',
  'table.open_seat': 'open seat',
  'table.zombie': 'played by a bot',
  'table.bot': 'bot: {bot}',
  'table.person': 'person',
  'table.let_bot_play': 'Let a bot play for {name}',
  'table.hand_back': 'Give the seat back to {name}',
  'table.open_seats_note': 'Some seats are still open: they can be joined from the lobby.',
  'table.hint': 'Hint',
  'table.hint_thinking': 'Thinking…',
  'table.hint_line': 'wins {win}% · about {score} {unit}',
  'table.hint_exact': 'exact',
  'table.log': 'What happened',
  'table.notation': 'notation',
  'table.final_scores': 'Final scores',
  'table.winner': 'winner',
  'table.download_record': 'Download the record',
  'table.replay': 'Replay the game',

  // ---- replay
  'replay.title': 'Replay',
  'replay.upload': 'A record file',
  'replay.controls': 'Moves',
  'replay.first': 'First',
  'replay.previous': 'Previous',
  'replay.next': 'Next',
  'replay.last': 'Last',
  'replay.position': 'Position',
  'replay.step': 'move {step} of {steps}',
  'replay.seen_by': 'Seen by',
  'replay.everyone': 'everyone (all hands open)',
  'replay.spectator': 'a spectator',

  // ---- piece o' Cake (js/games/piece-o-cake.js)

  // ---- end of piece o' Cake

  // ---- Marie's Table (js/games/maries-table.js)

  // ---- end of Marie's Table

  // ---- Cake Master (js/games/cake-master.js)

  // ---- end of Cake Master

  // ---- Mice Cake (js/games/mice-cake.js)

  // ---- end of Mice Cake
};
