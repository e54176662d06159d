"""Spades message catalogue (English and Brazilian Portuguese)."""

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
}
