"""Fan Tan message catalogue: English, Brazilian Portuguese ("pt") and, where it differs,
the European form ("pt-PT")."""

from tavola.games.fantan.timers import TIMERS

MESSAGES = {
    "fantan.not_in_hand": {
        "en": "{card} is not in your hand.",
        "pt": "Você não tem o {card} na mão.",
        "pt-PT": "Não tens o {card} na mão.",
    },
    "fantan.seven_of_diamonds_first": {
        "en": "The hand opens with 7♦: play it first.",
        "pt": "A mão começa com o sete de ouros: jogue-o primeiro.",
        "pt-PT": "A mão começa com o sete de ouros: joga-o primeiro.",
    },
    "fantan.seven_first": {
        "en": "The hand opens with a seven.",
        "pt": "A mão começa com um sete.",
    },
    "fantan.row_not_open": {
        "en": "{card} cannot be played: its suit's row is not open (its 7 is not on the table).",
        "pt": "Você não pode jogar o {card}: a fila desse naipe ainda não abriu (falta o sete).",
        "pt-PT": "Não podes jogar o {card}: a fila desse naipe ainda não abriu (falta o sete).",
    },
    "fantan.not_adjacent": {
        "en": "{card} must sit next to an end of its row (now {low} to {high}).",
        "pt": "O {card} precisa encostar numa ponta da fila (agora de {low} a {high}).",
        "pt-PT": "O {card} tem de encostar a uma ponta da fila (agora de {low} a {high}).",
    },
    "fantan.must_play": {
        "en": "You have a card that can be played, so you must play.",
        "pt": "Você tem uma carta que pode jogar, então precisa jogar.",
        "pt-PT": "Tens uma carta que podes jogar, por isso tens de jogar.",
    },
    "fantan.auto.safe_card": {
        "en": "Time ran out: {card} was played for you.",
        "pt": "O tempo acabou: o {card} foi jogado por você.",
        "pt-PT": "O tempo acabou: foi jogado o {card} por ti.",
    },
    "fantan.hint.only_card": {
        "en": "Play {card}: it is your only playable card.",
        "pt": "Jogue o {card}: é a única carta que você pode jogar.",
        "pt-PT": "Joga o {card}: é a única carta que podes jogar.",
    },
    "fantan.hint.own_run": {
        "en": "Play {card}: it opens the way to your own {next}, so you keep a move.",
        "pt": "Jogue o {card}: ele abre caminho para o seu {next}, e assim você guarda uma jogada.",
        "pt-PT": "Joga o {card}: abre caminho ao teu {next}, e assim guardas uma jogada.",
    },
    "fantan.hint.keep_run": {
        "en": (
            "Play {card} and keep {kept}: the cards behind it are yours alone, a reserve "
            "for a turn when you would otherwise pass."
        ),
        "pt": "Jogue o {card} e guarde o {kept}: as cartas atrás dele são só suas, uma reserva "
        "para a vez em que você teria que passar.",
        "pt-PT": "Joga o {card} e guarda o {kept}: as cartas atrás dele são só tuas, uma reserva "
        "para a vez em que terias de passar.",
    },
    "fantan.hint.far_cards": {
        "en": "Play {card}: it brings {count} of your cards further out closer to the table.",
        "pt": "Jogue o {card}: ele aproxima da mesa {count} das suas cartas mais afastadas.",
        "pt-PT": "Joga o {card}: aproxima da mesa {count} das tuas cartas mais afastadas.",
    },
    "fantan.hint.keep_block": {
        "en": "Play {card} and keep {kept}: while you hold it, others stay blocked.",
        "pt": "Jogue o {card} e guarde o {kept}: enquanto ele estiver com você, os outros ficam "
        "travados.",
        "pt-PT": "Joga o {card} e guarda o {kept}: enquanto o tiveres, os outros ficam presos.",
    },
    "fantan.hint.nobody_waiting": {
        "en": "Play {card}: it uncovers nothing the others can use.",
        "pt": "Jogue o {card}: ele não libera nada que os outros possam usar.",
        "pt-PT": "Joga o {card}: não destapa nada que os outros possam usar.",
    },
    "fantan.hint.least_gift": {
        "en": "Play {card}: it gives the others the least and brings your cards closer.",
        "pt": "Jogue o {card}: é o que menos dá aos outros e aproxima as suas cartas.",
        "pt-PT": "Joga o {card}: é o que menos dá aos outros e aproxima as tuas cartas.",
    },
    "fantan.option.penalty": {
        "en": "Penalty: 1 per card left, or the cards' values (a longer game).",
        "pt": "Penalidade: 1 por carta, ou o valor das cartas (jogo mais longo).",
        "pt-PT": "Penalização: 1 por carta, ou o valor das cartas (jogo mais longo).",
    },
    "fantan.option.face_cards_ten": {
        "en": "J, Q and K count 10 when penalties are card values.",
        "pt": "Valete, dama e rei valem 10 quando a penalidade é o valor das cartas.",
        "pt-PT": "Valete, dama e rei valem 10 quando a penalização é o valor das cartas.",
    },
    "fantan.option.any_seven_starts": {
        "en": "If 7♦ was not dealt, any seven may start.",
        "pt": "Se ninguém recebeu o sete de ouros, pode começar qualquer sete.",
    },
    "fantan.option.equal_hands": {
        "en": "Equal hands: the cards that do not divide evenly are set aside unseen.",
        "pt": "Mãos iguais: as cartas que sobram ficam de fora, viradas para baixo.",
    },
    "fantan.option.hands": {
        "en": "Number of hands in the match (0: one deal per player).",
        "pt": "Número de mãos da partida (0: cada jogador dá uma vez).",
    },
    "fantan.option.penalty_limit": {
        "en": "The match ends when a player reaches this penalty (0: no limit).",
        "pt": "A partida acaba quando alguém chega a esta penalidade (0: sem limite).",
        "pt-PT": "A partida acaba quando alguém chega a esta penalização (0: sem limite).",
    },
    **TIMERS.messages(),
}
