"""The CLI's own texts: ``key -> (English, Brazilian Portuguese)`` and the European
Portuguese ones where they differ (``TEXTS_PT_PT``; see ``texts.t``)."""

from __future__ import annotations

_TABLE: dict[str, tuple[str, str]] = {
    # seats and small words
    "seat.you": ("you", "você"),
    "seat.n": ("seat {n}", "lugar {n}"),
    "seat.you_mark": ("(you)", "(você)"),
    "yes": ("yes", "sim"),
    "no": ("no", "não"),
    "title.match": ("match", "partida"),
    "title.you_are": ("you: seat {seat}", "você: lugar {seat}"),
    # actions
    "action.nil": ("nil", "nil"),
    "action.pass": ("pass", "passo"),
    "action.bid": ("bid {n}", "lance {n}"),
    "action.double": ("double {seats}", "dobrar {seats}"),
    "action.domino_from": ("{contract} from {rank}", "{contract} a partir do {rank}"),
    "action.tile_left": ("on the left ({number})", "na esquerda ({number})"),
    "action.tile_right": ("on the right ({number})", "na direita ({number})"),
    "action.give": ("give", "dar"),
    "action.doko.healthy": ("healthy (no reservation)", "«gesund» (sem reserva)"),
    "action.doko.throw": ("throw in (five nines)", "deitar as cartas (cinco noves)"),
    "action.doko.accept": ("accept the poverty", "aceitar a pobreza"),
    "action.doko.decline": ("decline the poverty", "recusar a pobreza"),
    "action.doko.wait": ("no announcement now", "sem anúncio agora"),
    "title.spades": ("Spades", "Espadas"),
    "title.dominoes": ("Brazilian dominoes", "Dominó brasileiro"),
    "call.re": ("Re", "Re"),
    "call.kontra": ("Kontra", "Kontra"),
    "call.no_90": ("no 90", "sem 90"),
    "call.no_60": ("no 60", "sem 60"),
    "call.no_30": ("no 30", "sem 30"),
    "call.schwarz": ("schwarz", "sem vazas (schwarz)"),
    # enumerations inside views and events
    "enum.Party.re": ("Re", "Re"),
    "enum.Party.kontra": ("Kontra", "Kontra"),
    "enum.Call.re": ("Re", "Re"),
    "enum.Call.kontra": ("Kontra", "Kontra"),
    "enum.Call.no_90": ("no 90", "sem 90"),
    "enum.Call.no_60": ("no 60", "sem 60"),
    "enum.Call.no_30": ("no 30", "sem 30"),
    "enum.Call.schwarz": ("schwarz", "sem vazas"),
    "enum.Reservation.healthy": ("healthy", "«gesund»"),
    "enum.Reservation.throw": ("throw in", "deitar as cartas"),
    "enum.End.left": ("left", "esquerda"),
    "enum.End.right": ("right", "direita"),
    "enum.OpeningRule.any": ("any tile", "qualquer pedra"),
    "enum.OpeningRule.double_six": ("the double six", "a dupla de seis"),
    "enum.OpeningRule.highest_double": ("the highest double", "a maior carroça"),
    "enum.OpeningRule.heaviest_tile": ("the heaviest tile", "a pedra mais pesada"),
    "enum.Ending.domino": ("domino", "batida"),
    "enum.Ending.blocked": ("blocked", "trancado"),
    # field names (the generic drawing of a view)
    "field.phase": ("phase", "fase"),
    "field.turn": ("turn", "vez"),
    "field.dealer": ("dealer", "carteador"),
    "field.hand_number": ("hand", "mão"),
    "field.totals": ("totals", "totais"),
    "field.scores": ("scores", "pontos"),
    "field.card_counts": ("cards", "cartas"),
    "field.tile_counts": ("tiles", "pedras"),
    "field.trick": ("trick", "vaza"),
    "field.contract": ("contract", "contrato"),
    "field.rows": ("rows", "filas"),
    "field.line": ("line", "linha"),
    "field.deal": ("deal", "dada"),
    "field.card": ("card", "carta"),
    "field.tile": ("tile", "pedra"),
    "field.suit": ("suit", "naipe"),
    "field.low": ("from", "de"),
    "field.high": ("to", "a"),
    "field.left": ("left", "esquerda"),
    "field.right": ("right", "direita"),
    "field.tricks": ("tricks", "vazas"),
    "field.bid": ("bid", "lance"),
    "field.team": ("team", "dupla"),
    "field.score": ("score", "pontos"),
    "field.mode": ("mode", "modo"),
    "field.opener": ("opener", "abre"),
    "field.opening_rule": ("opening", "abertura"),
    "field.left_end": ("left end", "ponta esquerda"),
    "field.right_end": ("right end", "ponta direita"),
    "field.boneyard_count": ("boneyard", "monte"),
    "field.last_player": ("last to play", "último a jogar"),
    "field.target": ("target", "meta"),
    "field.hands_in_match": ("hands in the match", "mãos na partida"),
    "field.declarer": ("declarer", "declarante"),
    "field.players": ("players", "jogadores"),
    # the table
    "info.hand": ("hand {n}", "mão {n}"),
    "info.hand_of": ("hand {n} of {total}", "mão {n} de {total}"),
    "info.deal_of": ("deal {n} of {total}", "dada {n} de {total}"),
    "info.game": ("game {n}", "jogo {n}"),
    "info.dealer": ("dealer {seat}", "carteador: {seat}"),
    "info.declarer": ("declarer {seat}", "declarante: {seat}"),
    "info.lowest_wins": ("lowest total wins", "ganha o menor total"),
    "info.bidding": ("bidding", "lances"),
    "info.tricks_played": ("{n} tricks played", "{n} vazas jogadas"),
    "info.spades_broken": ("spades broken", "espadas quebradas"),
    "info.extra_hand": ("extra hand (tie-break)", "mão extra (desempate)"),
    "info.suggested_bid": ("suggested bid: {n}", "lance sugerido: {n}"),
    "info.team": ("team {seats}", "dupla {seats}"),
    "info.side": ("side {seats}", "dupla {seats}"),
    "info.points": ("{n} points", "{n} pontos"),
    "info.bags": ("{n} bags", "{n} sobras"),
    "info.contract_progress": ("{tricks} of {contract} tricks bid", "{tricks} de {contract} vazas"),
    "info.from_rank": ("from {rank}", "a partir do {rank}"),
    "info.contracts_left": ("contracts left", "contratos restantes"),
    "info.doubles": ("doubles", "dobras"),
    "info.announced": ("announced", "anunciado"),
    "info.bock": ("Bock: counts double", "Bock: vale o dobro"),
    "info.reservations": ("reservations", "reservas"),
    "info.scores": ("scores", "pontos"),
    "info.target": ("(to {n})", "(até {n})"),
    "info.series": ("games won (best of {n})", "jogos ganhos (melhor de {n})"),
    "info.boneyard": ("boneyard {n}", "monte {n}"),
    "info.open_with": ("you open with", "você abre com"),
    "info.passed": ("passed", "passaram"),
    "col.cards": ("cards", "cartas"),
    "col.tiles": ("tiles", "pedras"),
    "col.penalties": ("penalties", "penalidades"),
    "col.team": ("team", "dupla"),
    "col.side": ("side", "dupla"),
    "col.bid": ("bid", "lance"),
    "col.tricks": ("tricks", "vazas"),
    "col.deal": ("deal", "dada"),
    "col.total": ("total", "total"),
    "col.score": ("score", "pontos"),
    "col.owes_doubles": ("doubles owed {n}", "dobras devidas {n}"),
    "col.out_place": ("out {n}.", "saiu em {n}º"),
    "col.left": ("left the match", "saiu da partida"),
    "col.sits_out": ("sits out", "fica de fora"),
    "col.solo_owed": ("owes a compulsory solo", "deve um solo obrigatório"),
    "col.away": ("away", "ausente"),
    "col.solo_never": ("never played their solo", "não jogou o seu solo"),
    "col.declared": ("declared", "declarou"),
    "col.deciding": ("deciding…", "decidindo…"),
    "board.trick": ("trick", "vaza"),
    "board.last_trick": ("last trick", "última vaza"),
    "board.waiting": ("(to play: {seats})", "(faltam: {seats})"),
    "board.row_closed": ("not open", "fechada"),
    "board.line_empty": ("no tile laid yet", "nenhuma pedra na mesa"),
    "hand.label": ("your hand", "sua mão"),
    "hand.choose": ("choose", "escolha"),
    "hand.more_reasons": ("…and {n} more (?CARD tells why)", "…e mais {n} (?CARTA explica)"),
    # prompt and help
    "prompt.your_move": ("your move", "sua vez"),
    "prompt.waiting": ("waiting for {seats}…", "esperando por {seats}…"),
    "prompt.waiting_table": ("waiting…", "esperando…"),
    "prompt.finished": ("The match is over.", "A partida terminou."),
    "prompt.quit": (
        "Leave the table?  l  leave for good ({what})",
        "Sair da mesa?  l  sair de vez ({what})",
    ),
    "prompt.quit_keys": (
        "p  pause: come back later with tavola play --match …   Enter  keep playing",
        "p  pausa: volte depois com tavola play --match …   Enter  continuar",
    ),
    "help.keys": (
        "number/card: play · h hint · ?card why not · u take back · q leave",
        "número/carta: jogar · h dica · ?carta por que não · u desfazer · q sair",
    ),
    "help.keys_waiting": (
        "the table is playing · q leave or pause · Ctrl-C pause",
        "a mesa está jogando · q sair ou pausar · Ctrl-C pausa",
    ),
    "leave.bot": ("a bot takes your seat", "um bot assume o seu lugar"),
    "leave.doppelkopf": (
        "the game ends unscored; the match goes on with the others or stops",
        "o jogo acaba sem pontos; a partida segue com os outros ou para",
    ),
}

_EVENTS: dict[str, tuple[str, str]] = {
    "automatic": ("(automatic: time ran out)", "(automático: o tempo acabou)"),
    "CardPlayed": ("{seat} played {card}", "{seat} jogou {card}"),
    "TilePlayed": ("{seat} laid {tile}", "{seat} jogou {tile}"),
    "TilePlayed.end": ("{seat} laid {tile} on the {end}", "{seat} jogou {tile} na {end}"),
    "Passed": ("{seat} passed", "{seat} passou"),
    "BidMade": ("{seat} bid {tricks}", "{seat} deu lance de {tricks}"),
    "BidMade.nil": ("{seat} bid nil", "{seat} pediu nil"),
    "PlayStarted": ("bidding over; first lead: {leader}", "fim dos lances; abre: {leader}"),
    "SpadesBroken": ("spades are broken ({seat})", "as espadas foram quebradas ({seat})"),
    "TrickTaken": ("{seat} took trick {number}", "{seat} levou a vaza {number}"),
    "TrickWon": ("{winner} took the trick", "{winner} levou a vaza"),
    "HandStarted": ("hand {hand} begins", "começa a mão {hand}"),
    "HandDealt": ("you were dealt {n} cards", "você recebeu {n} cartas"),
    "HandDealt.tiles": ("you drew {n} tiles", "você recebeu {n} pedras"),
    "HandDealt.other": ("{seat} was dealt", "{seat} recebeu"),
    "spades.MatchEnded": ("final scores {scores}", "placar final {scores}"),
    "dominoes.MatchEnded": ("final scores {scores}", "placar final {scores}"),
    "doppelkopf.MatchEnded": ("the last game is over", "o último jogo terminou"),
    "DealerChosen": ("first dealer: {dealer}", "primeiro carteador: {dealer}"),
    "DealerDrawn": ("first dealer: {dealer}", "primeiro carteador: {dealer}"),
    "FirstDeclarerDrawn": ("first declarer: {declarer}", "primeiro declarante: {declarer}"),
    "DealStarted": ("deal {deal}, declarer: {declarer}", "dada {deal}, declarante: {declarer}"),
    "barbu.ContractChosen": ("{declarer} chose {contract}", "{declarer} escolheu {contract}"),
    "doppelkopf.ContractChosen": ("the game is {contract}", "o jogo é {contract}"),
    "DoublesDeclared": ("{seat} doubled {doubled}", "{seat} dobrou {doubled}"),
    "DoublesDeclared.none": ("{seat} did not double", "{seat} não dobrou"),
    "DealEndedEarly": ("the deal ends early", "a dada acaba mais cedo"),
    "WentOut": ("{seat} went out", "{seat} saiu"),
    "PlayerWentOut": ("{seat} went out with {tile}", "{seat} bateu com {tile}"),
    "DealScored": ("deal scored: totals {totals}", "dada contada: totais {totals}"),
    "fan-tan.HandScored": ("hand scored: totals {totals}", "mão contada: totais {totals}"),
    "spades.HandScored": ("hand scored: {scores}", "mão contada: {scores}"),
    "dominoes.HandScored": (
        "hand scored: {points} points, scores {scores}",
        "mão contada: {points} pontos, placar {scores}",
    ),
    "SessionEnded": ("the session is over", "a sessão terminou"),
    "HandWon": ("{seat} went out and won hand {hand}", "{seat} bateu e ganhou a mão {hand}"),
    "HandBlocked": ("hand {hand} is blocked", "a mão {hand} trancou"),
    "DealVoided": ("deal {hand} is void: dealt again", "dada {hand} anulada: nova dada"),
    "ExtraHandCalled": ("tied at {score}: an extra hand", "empate em {score}: mão extra"),
    "MatchEnded": ("the match is over", "a partida terminou"),
    "TileDrawn": ("you drew {tile}", "você comprou {tile}"),
    "BoneyardDrawn": (
        "{seat} drew from the boneyard ({boneyard_left} left)",
        "{seat} comprou do monte (restam {boneyard_left})",
    ),
    "TilesShown": (
        "left with {seat}: {tiles} ({pips} pips)",
        "ficaram com {seat}: {tiles} ({pips} pontos)",
    ),
    "GameStarted": ("game {deal}, dealer: {dealer}", "jogo {deal}, carteador: {dealer}"),
    "ReservationChosen": ("you declared {reservation}", "você declarou {reservation}"),
    "SeatDeclared": ("{seat} declared", "{seat} declarou"),
    "ReservationsShown": ("reservation: {seats}", "reserva: {seats}"),
    "ReservationsShown.none": ("everyone is healthy", "todos «gesund»"),
    "HandThrown": ("{seat} threw in ({nines} nines)", "{seat} deitou as cartas ({nines} noves)"),
    "DealCancelled": ("deal {deal} is cancelled", "a dada {deal} foi cancelada"),
    "PovertyAnswered": ("{seat} accepted the poverty", "{seat} aceitou a pobreza"),
    "PovertyAnswered.no": ("{seat} declined the poverty", "{seat} recusou a pobreza"),
    "TrumpsHandedOver": ("{poor} handed {cards} to {partner}", "{poor} passou {cards} a {partner}"),
    "TrumpsCounted": (
        "{poor} handed {count} trumps to {partner}",
        "{poor} passou {count} trunfos a {partner}",
    ),
    "CardReturned": ("{partner} gave back {card}", "{partner} devolveu {card}"),
    "CardPassed": ("{giver} passed a card to {receiver}", "{giver} passou uma carta a {receiver}"),
    "AnnouncementsDeferred": (
        "no announcement from {seat} for now",
        "{seat}: sem anúncio por enquanto",
    ),
    "Announced": ("{seat} announced {call}", "{seat} anunciou {call}"),
    "SchweinchenShown": ("{seat} showed the Schweinchen", "{seat} mostrou os porquinhos"),
    "PartnerFound": (
        "wedding of {wedding}: partner {partner}",
        "casamento de {wedding}: parceiro {partner}",
    ),
    "WeddingAlone": (
        "wedding of {wedding}: no partner, played alone",
        "casamento de {wedding}: sem parceiro, joga sozinho",
    ),
    "GameScored": ("game scored: totals {totals}", "jogo contado: totais {totals}"),
    "BockRoundEarned": ("a Bock round is earned", "vem aí uma rodada Bock"),
    "PlayerLeft": ("{seat} left the game", "{seat} saiu do jogo"),
    "GameAbandoned": ("game {deal} abandoned: {seat} left", "jogo {deal} abandonado: {seat} saiu"),
    "SeatLeft": (
        "{seat} left; a bot ({replaced_by}) plays on",
        "{seat} saiu; um bot ({replaced_by}) joga",
    ),
    "SeatLeft.out": ("{seat} left the match", "{seat} saiu da partida"),
    "SeatLeft.away": (
        "{seat} stopped playing; a bot ({replaced_by}) plays until they come back",
        "{seat} parou de jogar; um bot ({replaced_by}) joga até voltar",
    ),
    "SeatAway": ("{seat} is away", "{seat} está ausente"),
    "SeatBack": ("{seat} is back", "{seat} voltou"),
    "SeatReclaimed": ("{seat} is back and plays again", "{seat} voltou e joga de novo"),
    "Correction": (
        "a referee's correction ({kind}) of version {references}: {reason}",
        "uma correção do árbitro ({kind}) da versão {references}: {reason}",
    ),
    "MovesTakenBack": (
        "{seat} took moves back: the table is as it was at version {to_version}",
        "{seat} desfez jogadas: a mesa voltou à versão {to_version}",
    ),
    "PauseStarted": ("a pause of {seconds} s", "uma pausa de {seconds} s"),
}

_COMMANDS: dict[str, tuple[str, str]] = {
    "none": ("none", "nenhuma"),
    "interrupted": ("interrupted.", "interrompido."),
    "prompt.optional": ("you may (Enter: wait)", "você pode (Enter: esperar)"),
    "prompt.line": (
        "your move (number, card, h hint, ?card, u take back, q leave): ",
        "sua vez (número, carta, h dica, ?carta, u desfazer, q sair): ",
    ),
    "prompt.quit_line": (
        "l leave for good · p pause (come back later) · Enter keep playing: ",
        "l sair de vez · p pausa (voltar depois) · Enter continuar: ",
    ),
    "standings.final": ("final standings", "classificação final"),
    "standings.so_far": (
        "standings so far (match not finished)",
        "classificação até agora (partida não terminada)",
    ),
    "standings.highest_wins": ("highest score wins", "ganha o maior total"),
    "standings.lowest_wins": ("lowest score wins", "ganha o menor total"),
    "standings.bot": ("bot", "bot"),
    "players.fixed": ("{n} players", "{n} jogadores"),
    "players.range": ("{min} to {max} players", "{min} a {max} jogadores"),
    # notices under the table
    "notice.hint": ("hint:", "dica:"),
    "notice.legal": ("{action} can be played now.", "{action} pode ser jogado agora."),
    "notice.taken_back": (
        "taken back: the table is as it was at version {version}",
        "desfeito: a mesa está como estava na versão {version}",
    ),
    "notice.moved_on": (
        "The table moved on while you chose:",
        "A mesa andou enquanto você escolhia:",
    ),
    "notice.choose_again": (
        "It is still your turn: choose again.",
        "Ainda é a sua vez: escolha de novo.",
    ),
    "notice.keep_playing": ("Still at the table.", "Você continua na mesa."),
    "notice.not_your_turn": (
        "It is not your turn: wait for the table (q to leave or pause).",
        "Não é a sua vez: espere pela mesa (q para sair ou pausar).",
    ),
    "notice.not_playable": (
        "{typed} is not one of your choices now (numbers are under the "
        "playable cards; ?{typed} tells why not).",
        "{typed} não está entre as suas opções agora (os números estão "
        "debaixo das cartas jogáveis; ?{typed} diz por quê).",
    ),
    "notice.unknown_input": (
        "{typed!r}: type a number, a card (7♦ or 7d), h for a hint, ?card, u or q.",
        "{typed!r}: digite um número, uma carta (7♦ ou 7d), h para uma dica, ?carta, u ou q.",
    ),
    # play
    "play.started": (
        "{game}: you are seat {seat}, with {bots} bots ({level}). Match {match}",
        "{game}: você é o lugar {seat}, com {bots} bots ({level}). Partida {match}",
    ),
    "play.house_rules": ("house rules: {rules}", "regras da casa: {rules}"),
    "play.left": ("You left match {match}: {note}.", "Você saiu da partida {match}: {note}."),
    "play.left_bot": ("a bot ({level}) plays your seat", "um bot ({level}) joga no seu lugar"),
    "play.paused": (
        "Paused: your seat in match {match} is kept (timed turns are played for you meanwhile).\n"
        "Come back with: tavola play --match {match}",
        "Pausa: o seu lugar na partida {match} fica guardado (as jogadas com tempo são feitas "
        "por você enquanto isso).\nVolte com: tavola play --match {match}",
    ),
    "play.interrupted": (
        "paused (Ctrl-C); come back with: tavola play --match {match}",
        "pausa (Ctrl-C); volte com: tavola play --match {match}",
    ),
    "play.lost": (
        "lost the connection ({reason}); come back with: tavola play --match {match}",
        "a ligação caiu ({reason}); volte com: tavola play --match {match}",
    ),
    # demo
    "demo.table": (
        "table {table}: {game}, {players} bots ({level}); seed commitment {commitment}",
        "mesa {table}: {game}, {players} bots ({level}); compromisso da semente {commitment}",
    ),
    "demo.started": ("match {match} started; watching…", "partida {match} começou; assistindo…"),
    "demo.moves": ("moves", "jogadas"),
    "demo.rounds": ("hands", "mãos"),
    "demo.deals": ("deals", "dadas"),
    "demo.finished": (
        "finished after {moves} moves, {events} events.",
        "terminou depois de {moves} jogadas, {events} eventos.",
    ),
    "demo.seed": ("seed {seed} (sha256 {commitment})", "semente {seed} (sha256 {commitment})"),
    # verify and replay
    "verify.events": ("events re-run", "eventos refeitos"),
    "verify.bots": ("bot decisions ({n} re-derived)", "decisões de bots ({n} refeitas)"),
    "verify.ok": (
        "OK: {events} events, chain intact, seed matches its commitment, every deal "
        "and move re-derived ({game}).",
        "OK: {events} eventos, cadeia intacta, a semente confere com o compromisso, "
        "todas as dadas e jogadas refeitas ({game}).",
    ),
    "verify.no_bots": (
        "bot decisions not re-derived (--no-bots)",
        "decisões dos bots não refeitas (--no-bots)",
    ),
    "verify.chain_broken": (
        "FAILED: hash chain broken at version {version}",
        "FALHOU: cadeia de hashes quebrada na versão {version}",
    ),
    "verify.failed": ("FAILED: {why}", "FALHOU: {why}"),
    "verify.undecodable": (
        "FAILED: an event cannot be decoded ({why})",
        "FALHOU: um evento não pode ser decodificado ({why})",
    ),
    "replay.header": (
        "match {match}: {game}, {seats} seats, options {options}",
        "partida {match}: {game}, {seats} lugares, opções {options}",
    ),
    # games and matches
    "games.options": ("options (--option NAME=VALUE):", "opções (--option NOME=VALOR):"),
    "games.presets": ("presets (--preset NAME):", "predefinições (--preset NOME):"),
    "games.default": ("default {value}", "padrão {value}"),
    "games.house_rule": ("house rule", "regra da casa"),
    "games.highest_wins": ("highest score wins", "ganha o maior total"),
    "games.lowest_wins": ("lowest score wins", "ganha o menor total"),
    "games.no_options": ("no table options", "sem opções de mesa"),
    "games.preset_plain": ("the defaults", "os valores padrão"),
    "games.local": (
        "(no platform answers at {address}: the games of this installation)",
        "(nenhuma plataforma responde em {address}: os jogos desta instalação)",
    ),
    "games.usage": (
        "play one: tavola play GAME [--preset NAME] [--option NAME=VALUE]",
        "jogue: tavola play JOGO [--preset NOME] [--option NOME=VALOR]",
    ),
    "matches.heading": (
        "your matches on {address} (kept in {path}):",
        "suas partidas em {address} (guardadas em {path}):",
    ),
    "matches.none": (
        "You hold no seat in any match on {address} (tavola play GAME starts one).",
        "Você não tem lugar em nenhuma partida em {address} (tavola play JOGO começa uma).",
    ),
    "matches.unreachable": (
        "(the platform does not answer: states as last known)",
        "(a plataforma não responde: estados como da última vez)",
    ),
    "matches.open": ("open", "aberta"),
    "matches.left": ("left", "saiu"),
    "matches.finished": ("finished", "terminada"),
    "matches.gone": ("unknown", "desconhecida"),
    "matches.standing": ("rank {rank}, {score} points", "{rank}º lugar, {score} pontos"),
    "matches.come_back": (
        "come back to an open match: tavola play --match ID (a prefix will do)",
        "volte a uma partida aberta: tavola play --match ID (basta o início)",
    ),
    # errors (one line each)
    "error.see_help": ("see {prog} --help", "veja {prog} --help"),
    "error.unavailable": (
        "no platform answers at {address} (start one with `tavola up`, or "
        "give --address HOST:PORT)",
        "nenhuma plataforma responde em {address} (inicie uma com `tavola up`, "
        "ou dê --address HOST:PORTA)",
    ),
    "error.timeout": (
        "the platform at {address} did not answer in time",
        "a plataforma em {address} não respondeu a tempo",
    ),
    "error.unauthenticated": ("not signed in: {detail}", "sem sessão iniciada: {detail}"),
    "error.unknown_game": (
        "unknown game {game}: valid games are {valid}",
        "jogo desconhecido {game}: os jogos válidos são {valid}",
    ),
    "error.players": ("{game} is played by {players}", "{game} se joga com {players}"),
    "error.unknown_option": (
        "unknown option {option} for {game}: valid options are {valid} "
        "(tavola games {game} explains them)",
        "opção desconhecida {option} para {game}: as opções válidas são "
        "{valid} (tavola games {game} explica)",
    ),
    "error.option_value": (
        "{value!r} is not a value of {option}: valid values are {valid}",
        "{value!r} não é um valor de {option}: os valores válidos são {valid}",
    ),
    "error.option_syntax": (
        "--option takes NAME=VALUE (got {given!r}), e.g. --option hands=2",
        "--option leva NOME=VALOR (recebeu {given!r}), p. ex. --option hands=2",
    ),
    "error.unknown_preset": (
        "Unknown preset {preset}: valid presets are {valid}",
        "Predefinição desconhecida {preset}: as válidas são {valid}",
    ),
    "error.no_presets": (
        "Unknown preset {preset}: {game} has no presets",
        "Predefinição desconhecida {preset}: {game} não tem predefinições",
    ),
    "error.play_what": (
        "name a game (tavola games lists them) or give --match ID to come back to a match",
        "diga um jogo (tavola games lista-os) ou dê --match ID para voltar a uma partida",
    ),
    "error.no_kept_match": (
        "no seat of yours in match {match} on {address} (tavola matches lists yours)",
        "você não tem lugar na partida {match} em {address} (tavola matches lista as suas)",
    ),
    "error.ambiguous_match": (
        "{match} could be {ids}: give more of the id",
        "{match} pode ser {ids}: dê mais do identificador",
    ),
    "error.left_match": (
        "you left match {match} for good: a bot plays your seat",
        "você saiu de vez da partida {match}: um bot joga no seu lugar",
    ),
    "error.verify_what": (
        "give a match id (tavola verify MATCH_ID) or a record (tavola verify --file PATH)",
        "dê o identificador de uma partida (tavola verify ID) ou um registro "
        "(tavola verify --file CAMINHO)",
    ),
    "error.no_database": (
        "no database (set TAVOLA_DATABASE_URL, give --database-url, or run `tavola up`)",
        "sem base de dados (defina TAVOLA_DATABASE_URL, dê --database-url, ou execute `tavola up`)",
    ),
    "error.no_match": ("no match {match}", "não existe a partida {match}"),
    "error.no_file": ("no file {path}", "não existe o arquivo {path}"),
    "error.is_folder": (
        "{path} is a folder, not a match record",
        "{path} é uma pasta, não um registro de partida",
    ),
    "error.not_text": (
        "{path} is not a match record (not text; tavola export writes one)",
        "{path} não é um registro de partida (não é texto; tavola export escreve um)",
    ),
    "error.unreadable": ("cannot read {path}: {why}", "não consigo ler {path}: {why}"),
    "error.unwritable": ("cannot write {path}: {why}", "não consigo escrever {path}: {why}"),
    "error.empty_record": (
        "{path} is empty, not a match record (tavola export MATCH_ID -o {path} writes one)",
        "{path} está vazio, não é um registro de partida (tavola export ID -o {path} escreve um)",
    ),
    "error.not_a_record": (
        "{path} is not a match record, or it is cut short ({why})",
        "{path} não é um registro de partida, ou está incompleto ({why})",
    ),
    "error.record_format": (
        "{path} has format {format!r}, not {expected}",
        "{path} tem o formato {format!r}, não {expected}",
    ),
    "error.record_empty_events": ("{path} holds no events", "{path} não tem eventos"),
}

_HELP: dict[str, tuple[str, str]] = {
    "tavola": (
        "tavola: five card and tile games on an event-sourced platform. Run it "
        "(up), see what it hosts (games), watch bots (demo), play (play, matches), "
        "and check any match (replay, verify, export).",
        "tavola: cinco jogos de cartas e pedras numa plataforma de eventos. Execute-a "
        "(up), veja o que oferece (games), assista bots (demo), jogue (play, matches) "
        "e confira qualquer partida (replay, verify, export).",
    ),
    "locale": (
        "language of the CLI and of the game's texts: en or pt (default: TAVOLA_LOCALE, else LANG)",
        "idioma da CLI e dos textos do jogo: en ou pt (padrão: TAVOLA_LOCALE, ou LANG)",
    ),
    "up": ("start the whole platform on this machine", "iniciar a plataforma nesta máquina"),
    "port": (
        "gRPC port for clients (default: TAVOLA_GRPC_ADDRESS's, else 50051; 0: a free one)",
        "porta gRPC dos clientes (padrão: a de TAVOLA_GRPC_ADDRESS, ou 50051; 0: uma livre)",
    ),
    "listen": (
        "where to listen (default: TAVOLA_GRPC_ADDRESS, else 127.0.0.1)",
        "onde escutar (padrão: TAVOLA_GRPC_ADDRESS, ou 127.0.0.1)",
    ),
    "data": ("data folder of the local Postgres and NATS", "pasta de dados do Postgres e NATS"),
    "bots": (
        "bot service instances (they share the work)",
        "instâncias do serviço de bots (dividem o trabalho)",
    ),
    "games": (
        "list the games: players, options (values, defaults, meanings) and presets",
        "listar os jogos: jogadores, opções (valores, padrões, significados) e predefinições",
    ),
    "games_game": ("only this game", "só este jogo"),
    "demo": (
        "a match with every seat a bot, with progress; prints the standings",
        "uma partida só de bots, com progresso; mostra a classificação",
    ),
    "play": (
        "play against bots in the terminal (or come back to a match with --match)",
        "jogar contra bots no terminal (ou voltar a uma partida com --match)",
    ),
    "game": ("the game: {games}", "o jogo: {games}"),
    "match": (
        "come back to a match you hold a seat in (tavola matches lists them; a unique "
        "prefix of the id will do)",
        "voltar a uma partida em que tem lugar (tavola matches lista-as; basta o início "
        "do identificador)",
    ),
    "players": (
        "number of seats (default: 4 where the game allows it, 2 for one-against-one dominoes)",
        "número de lugares (padrão: 4 quando o jogo permite, 2 no dominó um contra um)",
    ),
    "level": ("the bots' level", "o nível dos bots"),
    "think_ms": (
        "bots' thinking time per decision in ms (0: the game's default, about 1 s)",
        "tempo de reflexão dos bots por decisão em ms (0: o do jogo, cerca de 1 s)",
    ),
    "option": (
        "a table option, repeatable (tavola games GAME lists them with their values)",
        "uma opção de mesa, repetível (tavola games JOGO lista-as com os valores)",
    ),
    "preset": (
        "a named set of options, e.g. doppelkopf tavern (tavola games lists them)",
        "um conjunto de opções com nome, p. ex. doppelkopf tavern (tavola games lista)",
    ),
    "mode": (
        "dominoes: partnership (4 players), block or draw (2 players)",
        "dominó: partnership (4 jogadores), block ou draw (2 jogadores)",
    ),
    "address": (
        "the platform's gRPC address (default: TAVOLA_GRPC_ADDRESS, else the one "
        "`tavola up` started, else 127.0.0.1:50051)",
        "o endereço gRPC da plataforma (padrão: TAVOLA_GRPC_ADDRESS, ou o que o `tavola up` "
        "iniciou, ou 127.0.0.1:50051)",
    ),
    "matches": (
        "the matches you hold a seat in, open ones first, and how to come back",
        "as partidas em que tem lugar, abertas primeiro, e como voltar",
    ),
    "replay": (
        "a match hand by hand, as a seat or a spectator saw it",
        "uma partida mão a mão, como um lugar ou um espectador a viu",
    ),
    "match_id": (
        "the match id (printed by demo and play)",
        "o identificador da partida (mostrado por demo e play)",
    ),
    "database_url": (
        "Postgres of the platform (default: TAVOLA_DATABASE_URL or `tavola up`'s)",
        "o Postgres da plataforma (padrão: TAVOLA_DATABASE_URL ou o do `tavola up`)",
    ),
    "verify": (
        "verify a finished match: chain, seed, every deal, move and bot decision",
        "verificar uma partida terminada: cadeia, semente, dadas, jogadas e bots",
    ),
    "verify_match": ("the match id (or give --file)", "o identificador da partida (ou --file)"),
    "file": (
        "an exported record (tavola export), checked offline",
        "um registro exportado (tavola export), verificado offline",
    ),
    "no_bots": (
        "skip re-deriving the bots' decisions (a master decision costs what it did)",
        "não refazer as decisões dos bots (uma decisão master custa o que custou)",
    ),
    "export": (
        "a finished match as a self-contained record (JSON)",
        "uma partida terminada como registro autônomo (JSON)",
    ),
    "output": (
        "where to write it (default: standard output)",
        "onde escrever (padrão: a saída padrão)",
    ),
}

TEXTS: dict[str, tuple[str, str]] = {
    **_COMMANDS,
    **{f"help.{name}": texts for name, texts in _HELP.items()},
    **_TABLE,
    **{f"event.{name}": texts for name, texts in _EVENTS.items()},
}

# European Portuguese (``pt-PT``), only where the Brazilian text would read wrongly in
# Portugal: "tu" for the player (as the rules' own pt-PT messages), "a jogar" for
# "jogando", "registo", "ficheiro", "ronda", "equipa", "pontuação" for "placar"... Every
# other key reads the Brazilian text in pt-PT too. The bare label of the player's seat
# ("seat.you", "seat.you_mark", "title.you_are") stays "você" on purpose: it fills the
# events' {seat}, {partner}, {wedding}... ("{seat} jogou {card}", "casamento de
# {wedding}"), where only a third-person word is grammatical ("tu jogou" is not).
TEXTS_PT_PT: dict[str, str] = {
    # commands
    "prompt.optional": "podes (Enter: esperar)",
    "prompt.line": "a tua vez (número, carta, h dica, ?carta, u desfazer, q sair): ",
    "notice.moved_on": "A mesa avançou enquanto escolhias:",
    "notice.choose_again": "Ainda é a tua vez: escolhe de novo.",
    "notice.keep_playing": "Continuas na mesa.",
    "notice.not_your_turn": "Não é a tua vez: espera pela mesa (q para sair ou pausar).",
    "notice.not_playable": (
        "{typed} não está entre as tuas opções agora (os números estão "
        "debaixo das cartas jogáveis; ?{typed} diz porquê)."
    ),
    "notice.unknown_input": (
        "{typed!r}: escreve um número, uma carta (7♦ ou 7d), h para uma dica, ?carta, u ou q."
    ),
    "play.started": "{game}: és o lugar {seat}, com {bots} bots ({level}). Partida {match}",
    "play.left": "Saíste da partida {match}: {note}.",
    "play.left_bot": "um bot ({level}) joga no teu lugar",
    "play.paused": (
        "Pausa: o teu lugar na partida {match} fica guardado (entretanto, as jogadas com "
        "tempo são feitas por ti).\nVolta com: tavola play --match {match}"
    ),
    "play.interrupted": "pausa (Ctrl-C); volta com: tavola play --match {match}",
    "play.lost": "a ligação caiu ({reason}); volta com: tavola play --match {match}",
    "demo.started": "partida {match} começou; a assistir…",
    "verify.undecodable": "FALHOU: um evento não pode ser descodificado ({why})",
    "games.usage": "joga: tavola play JOGO [--preset NOME] [--option NOME=VALOR]",
    "matches.heading": "as tuas partidas em {address} (guardadas em {path}):",
    "matches.none": (
        "Não tens lugar em nenhuma partida em {address} (tavola play JOGO começa uma)."
    ),
    "matches.come_back": "volta a uma partida aberta: tavola play --match ID (basta o início)",
    "error.see_help": "vê {prog} --help",
    "error.unavailable": (
        "nenhuma plataforma responde em {address} (inicia uma com `tavola up`, "
        "ou indica --address HOST:PORTA)"
    ),
    "error.players": "{game} joga-se com {players}",
    "error.play_what": (
        "indica um jogo (tavola games lista-os) ou dá --match ID para voltar a uma partida"
    ),
    "error.no_kept_match": (
        "não tens lugar na partida {match} em {address} (tavola matches lista as tuas)"
    ),
    "error.ambiguous_match": "{match} pode ser {ids}: indica mais do identificador",
    "error.left_match": "saíste de vez da partida {match}: um bot joga no teu lugar",
    "error.verify_what": (
        "indica o identificador de uma partida (tavola verify ID) ou um registo "
        "(tavola verify --file CAMINHO)"
    ),
    "error.no_database": (
        "sem base de dados (define TAVOLA_DATABASE_URL, indica --database-url, ou executa "
        "`tavola up`)"
    ),
    "error.no_file": "não existe o ficheiro {path}",
    "error.is_folder": "{path} é uma pasta, não um registo de partida",
    "error.not_text": "{path} não é um registo de partida (não é texto; tavola export escreve um)",
    "error.empty_record": (
        "{path} está vazio, não é um registo de partida (tavola export ID -o {path} escreve um)"
    ),
    "error.not_a_record": "{path} não é um registo de partida, ou está incompleto ({why})",
    # help
    "help.tavola": (
        "tavola: cinco jogos de cartas e pedras numa plataforma de eventos. Executa-a "
        "(up), vê o que oferece (games), assiste a bots (demo), joga (play, matches) "
        "e confere qualquer partida (replay, verify, export)."
    ),
    "help.match": (
        "voltar a uma partida em que tens lugar (tavola matches lista-as; basta o início "
        "do identificador)"
    ),
    "help.matches": "as partidas em que tens lugar, abertas primeiro, e como voltar",
    "help.file": "um registo exportado (tavola export), verificado offline",
    "help.export": "uma partida terminada como registo autónomo (JSON)",
    # the table
    "action.tile_left": "à esquerda ({number})",
    "action.tile_right": "à direita ({number})",
    "field.dealer": "quem dá",
    "field.team": "equipa",
    "info.dealer": "dá as cartas: {seat}",
    "info.team": "equipa {seats}",
    "info.side": "equipa {seats}",
    "info.open_with": "abres com",
    "col.penalties": "penalizações",
    "col.team": "equipa",
    "col.side": "equipa",
    "col.deciding": "a decidir…",
    "hand.label": "a tua mão",
    "hand.choose": "escolhe",
    "prompt.your_move": "a tua vez",
    "prompt.waiting": "à espera de {seats}…",
    "prompt.waiting_table": "à espera…",
    "prompt.quit_keys": "p  pausa: volta depois com tavola play --match …   Enter  continuar",
    "help.keys": "número/carta: jogar · h dica · ?carta porque não · u desfazer · q sair",
    "help.keys_waiting": "a mesa está a jogar · q sair ou pausar · Ctrl-C pausa",
    "leave.bot": "um bot assume o teu lugar",
    # events
    "event.TilePlayed.end": "{seat} jogou {tile} à {end}",
    "event.HandDealt": "recebeste {n} cartas",
    "event.HandDealt.tiles": "recebeste {n} pedras",
    "event.spades.MatchEnded": "pontuação final {scores}",
    "event.dominoes.MatchEnded": "pontuação final {scores}",
    "event.dominoes.HandScored": "mão contada: {points} pontos, pontuação {scores}",
    "event.DealerChosen": "primeiro a dar: {dealer}",
    "event.DealerDrawn": "primeiro a dar: {dealer}",
    "event.GameStarted": "jogo {deal}, dá as cartas: {dealer}",
    "event.TileDrawn": "compraste {tile}",
    "event.ReservationChosen": "declaraste {reservation}",
    "event.BockRoundEarned": "segue-se uma ronda Bock",
}
