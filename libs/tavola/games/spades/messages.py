"""Spades message catalogue (English and Brazilian Portuguese)."""

from tavola.games.spades.timers import TIMERS

MESSAGES = {
    "spades.players": {
        "en": "Spades is played by exactly four players (two partnerships); {players} given.",
        "pt": "Espadas se joga com exatamente quatro jogadores (duas duplas); foram {players}.",
    },
    "spades.not_in_hand": {
        "en": "{card} is not in your hand.",
        "pt": "Você não tem o {card} na mão.",
    },
    "spades.must_follow_clubs": {
        "en": "You must follow clubs: you still have a club.",
        "pt": "Você precisa seguir paus: ainda tem carta de paus.",
    },
    "spades.must_follow_diamonds": {
        "en": "You must follow diamonds: you still have a diamond.",
        "pt": "Você precisa seguir ouros: ainda tem carta de ouros.",
    },
    "spades.must_follow_hearts": {
        "en": "You must follow hearts: you still have a heart.",
        "pt": "Você precisa seguir copas: ainda tem carta de copas.",
    },
    "spades.must_follow_spades": {
        "en": "You must follow spades: you still have a spade.",
        "pt": "Você precisa seguir espadas: ainda tem carta de espadas.",
    },
    "spades.spades_not_broken": {
        "en": "Spades are not broken yet: you cannot lead {card} while you hold another suit.",
        "pt": "As espadas ainda não foram quebradas: você não pode abrir com {card} "
        "enquanto tiver carta de outro naipe.",
    },
    "spades.bid_out_of_range": {
        "en": "Bids are from 0 (nil) to 13; {bid} is not a bid.",
        "pt": "Os lances vão de 0 (nulo) a 13; {bid} não é um lance.",
    },
    "spades.no_blind_nil": {
        "en": "There is no blind nil at our tables.",
        "pt": "Não há nulo às cegas nas nossas mesas.",
    },
    "spades.bid_first": {
        "en": "Everyone bids before the first card is played: it is your turn to bid.",
        "pt": "Todos dão o lance antes da primeira carta: agora é a sua vez de dar o lance.",
    },
    "spades.bidding_over": {
        "en": "The bidding is over: play a card.",
        "pt": "Os lances já acabaram: jogue uma carta.",
    },
    "spades.auto.bid": {
        "en": "Time ran out: the table bid {bid}, what your hand is worth.",
        "pt": "O tempo acabou: a mesa deu o lance de {bid}, o que a sua mão vale.",
    },
    "spades.auto.card": {
        "en": "Time ran out: the table played a safe card for you, {card}.",
        "pt": "O tempo acabou: a mesa jogou uma carta segura por você, {card}.",
    },
    # ----- hints: the hard level's choice and why (tavola.games.spades.bots.hint) -----
    "spades.hint.bid": {
        "en": "Bid {bid}: your cards are worth about {worth} tricks.",
        "pt": "Dê o lance de {bid}: as suas cartas valem cerca de {worth} vazas.",
    },
    "spades.hint.nil": {
        "en": "Bid nil: no high spade, no side ace, and your high cards are well covered.",
        "pt": "Dê nulo: sem espada alta, sem ás nos outros naipes e cartas altas bem protegidas.",
    },
    "spades.hint.only": {
        "en": "Play {card}: it is your only legal card.",
        "pt": "Jogue o {card}: é a sua única carta válida.",
    },
    "spades.hint.forced": {
        "en": "Play {card}: every card you may play wins this trick; this one costs least.",
        "pt": "Jogue o {card}: qualquer carta sua ganha esta vaza; esta é a que custa menos.",
    },
    "spades.hint.keep_nil": {
        "en": "Play {card}: you bid nil, so get rid of your highest card that loses.",
        "pt": "Jogue o {card}: você deu nulo, então livre-se da carta mais alta que perde.",
    },
    "spades.hint.cover_nil": {
        "en": "Play {card}: your partner bid nil; take the trick above your partner.",
        "pt": "Jogue o {card}: o seu parceiro deu nulo; ganhe a vaza por cima dele.",
    },
    "spades.hint.set_nil": {
        "en": "Play {card}: an opponent bid nil; play low and let them take the trick.",
        "pt": "Jogue o {card}: um adversário deu nulo; jogue baixo e deixe-o ganhar a vaza.",
    },
    "spades.hint.cash": {
        "en": "Lead {card}: no card left in play can beat it.",
        "pt": "Saia com o {card}: nenhuma carta ainda em jogo ganha dele.",
    },
    "spades.hint.partner_ruff": {
        "en": "Lead {card}: your partner has no card of that suit and can trump it.",
        "pt": "Saia com o {card}: o seu parceiro não tem esse naipe e pode cortar com espada.",
    },
    "spades.hint.lead_low": {
        "en": "Lead {card}: a low card, keeping your high cards for later.",
        "pt": "Saia com o {card}: uma carta baixa, guardando as altas para depois.",
    },
    "spades.hint.partner_wins": {
        "en": "Play {card}: your partner is winning this trick; do not waste a high card.",
        "pt": "Jogue o {card}: o seu parceiro está ganhando a vaza; não gaste carta alta.",
    },
    "spades.hint.win_sure": {
        "en": "Play {card}: the cheapest card that surely wins this trick.",
        "pt": "Jogue o {card}: a carta mais barata que ganha esta vaza com certeza.",
    },
    "spades.hint.second_low": {
        "en": "Play {card}: play low second; your partner still plays after you.",
        "pt": "Jogue o {card}: em segundo, jogue baixo; o seu parceiro ainda joga depois.",
    },
    "spades.hint.win": {
        "en": "Play {card}: it wins the trick for now and makes the last player pay.",
        "pt": "Jogue o {card}: ganha a vaza por enquanto e obriga o último a gastar.",
    },
    "spades.hint.duck": {
        "en": "Play {card}: you cannot win this trick; keep your good cards.",
        "pt": "Jogue o {card}: você não ganha esta vaza; guarde as cartas boas.",
    },
    "spades.hint.avoid_bags": {
        "en": "Play {card}: your side has its tricks; avoid bags.",
        "pt": "Jogue o {card}: a sua dupla já tem as vazas; evite sobras.",
    },
    "spades.option.target": {
        "en": "A partnership reaching this score ends the match (rule book: 500).",
        "pt": "A dupla que chegar a estes pontos acaba a partida (regra: 500).",
    },
    "spades.option.floor": {
        "en": "A partnership falling to this score ends the match (rule book: -200).",
        "pt": "A dupla que descer a estes pontos acaba a partida (regra: -200).",
    },
    "spades.option.hands": {
        "en": "Play this many hands, then the higher score wins (0: play to a threshold).",
        "pt": "Jogar este número de mãos; ganha a pontuação mais alta (0: até um limite).",
    },
    **TIMERS.messages(),
}
