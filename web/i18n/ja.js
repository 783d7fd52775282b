// 日本語のカタログ: the Japanese catalogue, key for key as en.js.
export default {
  // ---- the page
  'app.lobby': 'ロビー',
  'app.replay': '棋譜を再生',
  'app.language': '言語',
  'app.navigation': 'メイン',
  'app.bad_link': 'このリンクでは席に着けません: {reason}',
  'game.piece-o-cake': 'ピース・オ・ケーキ',
  'game.maries-table': 'マリーのテーブル',
  'game.cake-master': 'ケーキマスター',
  'game.mice-cake': 'ネズミのケーキ',
  'unit.points': '点',
  'unit.stars': '星',
  'unit.pips': '目',

  // ---- the lobby
  'lobby.title': 'ケーキを分けるゲームで遊ぶ',
  'lobby.create_heading': '新しいテーブル',
  'lobby.game': 'ゲーム',
  'lobby.players': '人数',
  'lobby.deck': 'デッキファイル (任意)',
  'lobby.seats': '席',
  'lobby.seat': '{seat}番席',
  'lobby.clock': '持ち時間',
  'lobby.no_clock': 'なし',
  'lobby.create': 'テーブルを作る',
  'lobby.created': 'テーブルの準備ができました。',
  'lobby.invite_note': '一人ひとりに専用のリンクを送ってください。そのリンクで席に着けます。表示されるのは今だけです。',
  'lobby.copy': 'コピー',
  'lobby.go_to_seat': '自分の席へ',
  'lobby.watch': '観戦する',
  'lobby.tables': 'テーブル一覧',
  'lobby.no_tables': '今、参加者を待っているテーブルはありません。',
  'lobby.open_seats': '空席',
  'lobby.actions': '操作',
  'lobby.join_seat': '{seat}番席に着く',
  'lobby.your_name': 'あなたの名前',
  'lobby.guest': 'ゲスト',
  'option.rounds': 'ラウンド数',
  'seat.me': '自分',
  'seat.human': '友だち (招待リンク)',
  'seat.open': 'だれでも (ロビーで募集)',
  'seat.random': 'ボット: ランダム (入門)',
  'seat.heuristic': 'ボット: ヒューリスティック (やさしい)',
  'seat.ismcts:ms=300': 'ボット: 探索 (強い)',
  'seat.ismcts:ms=2000': 'ボット: 探索 (とても強い)',

  // ---- the table
  'table.loading': '読み込み中…',
  'table.title_your_turn': 'あなたの番',
  'table.notify_your_turn': '{game}: あなたの番です',
  'table.notify': '自分の番になったら知らせる',
  'table.over': 'ゲーム終了。',
  'table.your_move': 'あなたの番です。',
  'table.waiting_for': '{names} を待っています。',
  'table.waiting': '待っています。',
  'table.you_are': 'あなたは {name} ({seat}番席) です。',
  'table.spectator': '観戦中です。',
  'table.connection_open': '接続中',
  'table.connection_closed': '再接続中…',
  'table.your_move_panel': 'あなたの手',
  'table.not_your_turn': 'あなたの番ではありません。',
  'table.choose_on_board': '盤面で選んでください。',
  'table.other_choices': 'その他の選択肢',
  'table.take_back': '取り消す',
  'table.send': 'この手を指す',
  'table.ask_before_sending': '手を送る前に確認する',
  'table.stale': 'あなたの手が届く前にテーブルが変わりました。もう一度選んでください。',
  'table.players': 'プレイヤー',
  'table.player': 'プレイヤー',
  'table.score': '得点',
  'table.clock': '持ち時間',
  'table.connected': '接続中',
  'table.not_connected': '未接続',
  'table.you': 'あなた',
  'table.to_move': '手番',
  'table.open_seat': '空席',
  'table.zombie': 'ボットが代行中',
  'table.bot': 'ボット: {bot}',
  'table.person': '人',
  'table.let_bot_play': '{name} の代わりにボットに打たせる',
  'table.hand_back': '{name} に席を戻す',
  'table.open_seats_note': 'まだ空席があります。ロビーから参加できます。',
  'table.hint': 'ヒント',
  'table.hint_thinking': '考え中…',
  'table.hint_line': '勝率 {win}% · 約 {score} {unit}',
  'table.hint_exact': '厳密',
  'table.log': '経過',
  'table.notation': '記譜',
  'table.final_scores': '最終得点',
  'table.winner': '勝者',
  'table.download_record': '棋譜をダウンロード',
  'table.replay': 'ゲームを再生',

  // ---- replay
  'replay.title': '再生',
  'replay.upload': '棋譜ファイル',
  'replay.controls': '手順',
  'replay.first': '最初',
  'replay.previous': '前へ',
  'replay.next': '次へ',
  'replay.last': '最後',
  'replay.position': '局面',
  'replay.step': '{steps} 手中 {step} 手目',
  'replay.seen_by': '視点',
  'replay.everyone': '全員 (すべての手札を公開)',
  'replay.spectator': '観戦者',

  // ---- piece o' Cake (js/games/piece-o-cake.js)

  // ---- end of piece o' Cake

  // ---- Marie's Table (js/games/maries-table.js)

  // ---- end of Marie's Table

  // ---- Cake Master (js/games/cake-master.js)

  // ---- end of Cake Master

  // ---- Mice Cake (js/games/mice-cake.js)

  // ---- end of Mice Cake
};
