"""Dominoes message catalogue: English, Brazilian Portuguese ("pt") and, where it differs,
the European form ("pt-PT")."""

from tavola.games.dominoes.timers import TIMERS

MESSAGES = {
    # ----- why an action is illegal ---------------------------------------------------
    "dominoes.must_play": {
        "en": "You have a tile that fits, so you must play (passing is automatic).",
        "pt": "Você tem peça que encaixa, então precisa jogar (o passe é automático).",
    },
    "dominoes.not_in_hand": {
        "en": "{tile} is not in your hand.",
        "pt": "Você não tem a peça {tile}.",
    },
    "dominoes.must_open_with": {
        "en": "This hand must be opened with {tile}.",
        "pt": "Esta mão tem que ser aberta com a {tile}.",
    },
    "dominoes.does_not_fit": {
        "en": "{tile} does not fit: the ends are {left} and {right}.",
        "pt": "A {tile} não encaixa: as pontas são {left} e {right}.",
    },
    "dominoes.does_not_fit_end": {
        "en": "{tile} does not fit the {end} end, which shows {number}.",
        "pt": "A {tile} não encaixa na ponta {end}, que mostra {number}.",
    },
    "dominoes.choose_end": {
        "en": "{tile} fits both ends ({left} and {right}): choose L or R.",
        "pt": "A {tile} encaixa nas duas pontas ({left} e {right}): escolha L (esquerda) ou "
        "R (direita).",
    },
    "dominoes.single_placement": {
        "en": "{tile} has only one placement: play it without an end.",
        "pt": "A {tile} só tem um lugar possível: jogue sem indicar a ponta.",
    },
    # ----- table set-up -----------------------------------------------------------------
    "dominoes.players": {
        "en": "Dominoes is played by 2 or 4 players, not {players}.",
        "pt": "O dominó é jogado por 2 ou 4 jogadores, não por {players}.",
    },
    "dominoes.mode_players": {
        "en": "The {mode} mode needs {needed} players, not {players}.",
        "pt": "O modo {mode} precisa de {needed} jogadores, não de {players}.",
    },
    "dominoes.best_of": {
        "en": "A match is one game or the best of 3 or 5 games, not of {best_of}.",
        "pt": "A partida é de um jogo ou em melhor de 3 ou de 5 jogos, não de {best_of}.",
        "pt-PT": "A partida é de um jogo ou à melhor de 3 ou de 5 jogos, não de {best_of}.",
    },
    # ----- automatic moves ----------------------------------------------------------------
    "dominoes.auto.heaviest_tile": {
        "en": "Time ran out: your heaviest playable tile, {tile}, was played.",
        "pt": "O tempo acabou: foi jogada a sua peça mais pesada que encaixa, a {tile}.",
    },
    # ----- hints (the hard bot's move and why) ------------------------------------------
    "dominoes.hint.only_move": {
        "en": "Play {tile}: it is your only tile that fits.",
        "pt": "Jogue a {tile}: é a sua única peça que encaixa.",
    },
    "dominoes.hint.domino": {
        "en": "Play {tile}: it is your last tile, you go out (domino).",
        "pt": "Jogue a {tile}: é a sua última peça, você bate.",
    },
    "dominoes.hint.block": {
        "en": "Play {tile}: it blocks the game while your side should hold fewer pips.",
        "pt": "Jogue a {tile}: ela tranca o jogo e a sua dupla deve ter menos pontos na mão.",
    },
    "dominoes.hint.opponent_lacks": {
        "en": "Play {tile}: counting the passes and the tiles seen, the next opponent has no "
        "{numbers}, so they cannot play (they pass or draw).",
        "pt": "Jogue a {tile}: pelos passes e pelas peças já vistas, o próximo adversário não "
        "tem {numbers}, então não pode jogar (passa ou compra).",
    },
    "dominoes.hint.heavy": {
        "en": "Play {tile}: get rid of a heavy tile ({pips} pips) before the count.",
        "pt": "Jogue a {tile}: livre-se de uma peça pesada ({pips} pontos) antes da contagem.",
    },
    "dominoes.hint.keep_control": {
        "en": "Play {tile}: it leaves {numbers} open, which you can still follow.",
        "pt": "Jogue a {tile}: deixa {numbers} nas pontas, e você ainda tem peça para elas.",
    },
    "dominoes.hint.count": {
        "en": "Play {tile}: counting the tiles seen and the passes, it leaves {numbers} open, "
        "which the next opponent can match only about {chance}% of the time.",
        "pt": "Jogue a {tile}: contando as peças vistas e os passes, ela deixa {numbers} nas "
        "pontas, e o próximo adversário só tem peça para isso em cerca de {chance}% das vezes.",
    },
    # ----- announcements ------------------------------------------------------------------
    "dominoes.opening.any": {
        "en": "Player {seat} opens the hand with any tile.",
        "pt": "O jogador {seat} abre a mão com qualquer peça.",
    },
    "dominoes.opening.double_six": {
        "en": "The holder of 6-6 (carroça de sena) opens with it.",
        "pt": "Quem tem a carroça de sena (6-6) abre a mão com ela.",
    },
    "dominoes.opening.highest_double": {
        "en": "The holder of the highest double opens with it.",
        "pt": "Quem tem a maior carroça abre a mão com ela.",
    },
    "dominoes.opening.heaviest_tile": {
        "en": "Nobody holds a double: the holder of the heaviest tile opens with it.",
        "pt": "Ninguém tem carroça: quem tem a peça mais pesada abre a mão com ela.",
    },
    "dominoes.passed": {
        "en": "Player {seat} passes: nothing fits {left} or {right}.",
        "pt": "O jogador {seat} passa a vez: nada encaixa no {left} nem no {right}.",
    },
    "dominoes.drew": {
        "en": "Player {seat} draws from the boneyard ({left} left).",
        "pt": "O jogador {seat} compra do monte (restam {left}).",
    },
    "dominoes.ending.domino": {
        "en": "Domino! Player {seat} went out; their side scores {points}.",
        "pt": "Batida! O jogador {seat} bateu e a sua dupla marca {points}.",
    },
    "dominoes.ending.blocked": {
        "en": "Blocked game (player {seat} blocked it): the side with fewer pips scores {points}.",
        "pt": "Jogo trancado (quem trancou foi o jogador {seat}): o lado com menos pontos "
        "na mão marca {points}.",
    },
    "dominoes.ending.blocked_tie": {
        "en": "Blocked game tied at {pips} pips each.",
        "pt": "Jogo trancado empatado: {pips} pontos na mão de cada lado.",
    },
    "dominoes.bonus.carroca": {
        "en": "Went out with a double (batida de carroça): +{points}.",
        "pt": "Batida de carroça: +{points}.",
    },
    "dominoes.bonus.la_e_lo": {
        "en": "The last tile fitted either end (lá-e-lô): +{points}.",
        "pt": "Batida lá-e-lô (a última peça servia nas duas pontas): +{points}.",
    },
    "dominoes.bonus.cruzada": {
        "en": "A last double fitting both ends (cruzada): +{points}.",
        "pt": "Batida cruzada (carroça que servia nas duas pontas): +{points}.",
    },
    "dominoes.match_won": {
        "en": "Side {side} wins the match, {score} to {other}.",
        "pt": "O lado {side} vence a partida por {score} a {other}.",
    },
    # ----- options and house rules ---------------------------------------------------------
    "dominoes.option.mode": {
        "en": "Mode: partnership (4 players), one against one blocking, or one against one "
        "drawing.",
        "pt": "Modo: em duplas (4 jogadores), um contra um sem compra ou um contra um "
        "comprando do monte.",
    },
    "dominoes.mode.partnership": {"en": "Partnership", "pt": "Em duplas"},
    "dominoes.mode.block": {"en": "One against one (block)", "pt": "Um contra um (sem compra)"},
    "dominoes.mode.draw": {"en": "One against one (draw)", "pt": "Um contra um (comprando)"},
    "dominoes.option.target": {
        "en": "Points to win a game (the match, unless it is a best of 3 or 5).",
        "pt": "Pontos para vencer um jogo (a partida, se ela não for em melhor de 3 ou de 5).",
        "pt-PT": "Pontos para ganhar um jogo (a partida, se esta não for à melhor de 3 ou de 5).",
    },
    "dominoes.option.best_of": {
        "en": "Games in the match: one, or the best of 3 or 5 (each game to the target, "
        "from 0 points).",
        "pt": "Jogos da partida: um, ou melhor de 3 ou de 5 (cada jogo até a meta de pontos, "
        "começando do zero).",
        "pt-PT": "Jogos da partida: um, ou à melhor de 3 ou de 5 (cada jogo até aos pontos da "
        "meta, a começar do zero).",
    },
    "dominoes.option.opener": {
        "en": "Who opens the next hand.",
        "pt": "Quem abre a mão seguinte.",
    },
    "dominoes.opener.next_counterclockwise": {
        "en": "The next player counter-clockwise after the last opener.",
        "pt": "O próximo jogador, no sentido anti-horário, depois de quem abriu a anterior.",
    },
    "dominoes.opener.winner_opens": {
        "en": "The winner of the previous hand.",
        "pt": "Quem venceu a mão anterior.",
    },
    "dominoes.option.blocked_tie": {
        "en": "A blocked game tied on pips.",
        "pt": "Empate no jogo trancado.",
    },
    "dominoes.blocked_tie.blocker_loses": {
        "en": "The side of the player who blocked loses.",
        "pt": "Perde a dupla de quem trancou.",
    },
    "dominoes.blocked_tie.nobody_scores": {
        "en": "Nobody scores.",
        "pt": "Ninguém marca pontos.",
    },
    "dominoes.blocked_tie.lowest_single_hand": {
        "en": "The player with the fewest pips wins for their side.",
        "pt": "Vence a dupla do jogador com menos pontos na mão.",
    },
    "dominoes.option.carroca_bonus": {
        "en": "Bonus for going out with a double (batida de carroça).",
        "pt": "Bônus por bater com carroça.",
    },
    "dominoes.option.la_e_lo_bonus": {
        "en": "Bonus for a last tile that fitted either end (lá-e-lô).",
        "pt": "Bônus por bater lá-e-lô (a peça servia nas duas pontas).",
    },
    "dominoes.option.cruzada_bonus": {
        "en": "Bonus for a last double fitting both ends (cruzada; -1: the sum of the other "
        "two bonuses).",
        "pt": "Bônus por bater cruzado (carroça nas duas pontas; -1: a soma dos outros dois "
        "bônus).",
    },
    **TIMERS.messages(),
}
