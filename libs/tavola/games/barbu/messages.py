"""Barbu message catalogue: English, Brazilian Portuguese ("pt") and, where it differs, the
European form ("pt-PT"). Card params are codes ("QS"), suit params letters (C D H S), seat
params seat numbers."""

from tavola.games.barbu.timers import TIMERS

MESSAGES = {
    "barbu.four_players": {
        "en": "Barbu is played by exactly 4 players (not {players}).",
        "pt": "O Barbu é jogado por exatamente 4 jogadores (não {players}).",
        "pt-PT": "O Barbu joga-se com exatamente 4 jogadores (não {players}).",
    },
    "barbu.not_on_turn": {
        "en": "It is not your turn (seat {seat}).",
        "pt": "Não é a sua vez (lugar {seat}).",
        "pt-PT": "Não é a tua vez (lugar {seat}).",
    },
    "barbu.expected_contract": {
        "en": "The declarer must now choose a contract.",
        "pt": "Agora o declarante tem de escolher um contrato.",
    },
    "barbu.expected_double": {
        "en": "It is your turn to double: name the players you double, or pass.",
        "pt": "É a sua vez de dobrar: indique quem você dobra, ou passe.",
        "pt-PT": "É a tua vez de dobrar: indica quem dobras, ou passa.",
    },
    "barbu.expected_card": {
        "en": "Play a card.",
        "pt": "Jogue uma carta.",
        "pt-PT": "Joga uma carta.",
    },
    "barbu.must_play": {
        "en": "You have a card that can be played, so you must play (no passing).",
        "pt": "Você tem uma carta que pode jogar, então precisa jogar (não pode passar).",
        "pt-PT": "Tens uma carta que podes jogar, por isso tens de jogar (não podes passar).",
    },
    "barbu.bad_double_list": {
        "en": "List each seat you double once, in ascending order.",
        "pt": "Indique cada lugar que você dobra uma só vez, em ordem crescente.",
        "pt-PT": "Indica cada lugar que dobras uma só vez, por ordem crescente.",
    },
    "barbu.contract_parameter": {
        "en": "Trumps needs a trump suit, Domino a starting rank, other contracts neither "
        "({contract}).",
        "pt": "Trunfos precisa de um naipe, Dominó de um valor inicial, os outros contratos de "
        "nenhum ({contract}).",
    },
    "barbu.contract_used": {
        "en": "You have already played the contract {contract} in this block.",
        "pt": "Você já jogou o contrato {contract} neste bloco.",
        "pt-PT": "Já jogaste o contrato {contract} neste bloco.",
    },
    "barbu.fixed_order": {
        "en": "Contracts follow a fixed order at this table: the next one is {contract}.",
        "pt": "Nesta mesa os contratos seguem uma ordem fixa: o próximo é {contract}.",
    },
    "barbu.cannot_double_self": {
        "en": "You cannot double yourself.",
        "pt": "Você não pode dobrar a si mesmo.",
        "pt-PT": "Não te podes dobrar a ti próprio.",
    },
    "barbu.redouble_only": {
        "en": "As declarer you may only redouble players who doubled you (seat {seat} did not).",
        "pt": "Como declarante, você só pode redobrar quem dobrou você (o lugar {seat} não "
        "dobrou).",
        "pt-PT": "Como declarante só podes redobrar quem te dobrou (o lugar {seat} não te dobrou).",
    },
    "barbu.positive_double_declarer_only": {
        "en": "In Trumps and Domino only the declarer may be doubled (not seat {seat}).",
        "pt": "Em Trunfos e Dominó só se pode dobrar o declarante (não o lugar {seat}).",
    },
    "barbu.must_double_declarer": {
        "en": "You must double the declarer (seat {declarer}): you still owe {owed} "
        "double(s) of the declarer and only {deals_left} deal(s) of this block remain.",
        "pt": "Você precisa dobrar o declarante (lugar {declarer}): ainda deve {owed} dobro(s) ao "
        "declarante e só restam {deals_left} distribuição(ões) neste bloco.",
        "pt-PT": "Tens de dobrar o declarante (lugar {declarer}): ainda deves {owed} dobro(s) ao "
        "declarante e só restam {deals_left} distribuição(ões) neste bloco.",
    },
    "barbu.not_in_hand": {
        "en": "{card} is not in your hand.",
        "pt": "Você não tem o {card} na mão.",
        "pt-PT": "Não tens o {card} na mão.",
    },
    "barbu.no_heart_lead": {
        "en": "You may not lead a heart ({card}) while you hold another suit.",
        "pt": "Você não pode abrir copas ({card}) enquanto tiver cartas de outro naipe.",
        "pt-PT": "Não podes abrir copas ({card}) enquanto tiveres cartas de outro naipe.",
    },
    "barbu.must_follow": {
        "en": "You must follow suit ({suit}); {card} does not.",
        "pt": "Você precisa seguir o naipe ({suit}); o {card} não serve.",
        "pt-PT": "Tens de assistir ao naipe ({suit}); o {card} não serve.",
    },
    "barbu.must_overtrump": {
        "en": "Trump was led: you must beat {trump} since you can ({card} does not).",
        "pt": "Saiu trunfo: você precisa superar o {trump}, porque pode ({card} não supera).",
        "pt-PT": "Saiu trunfo: tens de superar o {trump}, porque podes ({card} não supera).",
    },
    "barbu.must_trump_to_win": {
        "en": "You have none of the suit led: you must play a trump higher than {trump} "
        "({card} is not one).",
        "pt": "Você não tem o naipe pedido: precisa jogar um trunfo maior que o {trump} ({card} "
        "não é).",
        "pt-PT": "Não tens o naipe pedido: tens de jogar um trunfo maior do que o {trump} ({card} "
        "não é).",
    },
    "barbu.must_trump": {
        "en": "You have none of the suit led: you must play a trump ({suit}); {card} is not.",
        "pt": "Você não tem o naipe pedido: precisa jogar trunfo ({suit}); o {card} não é.",
        "pt-PT": "Não tens o naipe pedido: tens de jogar trunfo ({suit}); o {card} não é.",
    },
    "barbu.card_not_playable": {
        "en": "{card} cannot be played now.",
        "pt": "O {card} não pode ser jogado agora.",
    },
    "barbu.domino_row_not_open": {
        "en": "{card} cannot be played: its suit opens with {start}.",
        "pt": "Você não pode jogar o {card}: esse naipe abre com o {start}.",
        "pt-PT": "Não podes jogar o {card}: esse naipe abre com o {start}.",
    },
    "barbu.domino_not_adjacent": {
        "en": "{card} must be next to an end of its row (now {low} to {high}).",
        "pt": "O {card} precisa encostar numa ponta da sequência (agora de {low} a {high}).",
        "pt-PT": "O {card} tem de encostar a uma ponta da sequência (agora de {low} a {high}).",
    },
    "barbu.auto.contract": {
        "en": "Time ran out: {contract} was chosen for you.",
        "pt": "O tempo acabou: o contrato {contract} foi escolhido por você.",
        "pt-PT": "O tempo acabou: foi escolhido por ti o contrato {contract}.",
    },
    "barbu.auto.pass": {
        "en": "Time ran out: you passed (no double).",
        "pt": "O tempo acabou: você passou (sem dobrar).",
        "pt-PT": "O tempo acabou: passaste (sem dobrar).",
    },
    "barbu.auto.double_declarer": {
        "en": "Time ran out: you doubled the declarer (seat {declarer}), as you were obliged to.",
        "pt": "O tempo acabou: você dobrou o declarante (lugar {declarer}), como era obrigado.",
        "pt-PT": "O tempo acabou: dobraste o declarante (lugar {declarer}), como eras obrigado.",
    },
    "barbu.auto.card": {
        "en": "Time ran out: {card} was played for you.",
        "pt": "O tempo acabou: o {card} foi jogado por você.",
        "pt-PT": "O tempo acabou: foi jogado o {card} por ti.",
    },
    "barbu.option.fixed_order": {
        "en": "Fixed order of contracts: the declarer may not choose.",
        "pt": "Ordem fixa dos contratos: o declarante não escolhe.",
    },
    "barbu.option.no_doubling": {
        "en": "No doubles at all.",
        "pt": "Sem dobros.",
    },
    "barbu.option.play_out_all_tricks": {
        "en": "Play all 13 tricks even when every scoring card is already taken.",
        "pt": "Jogar as 13 vazas mesmo depois de capturadas todas as cartas pontuáveis.",
    },
    "barbu.option.void_must_trump": {
        "en": "Trumps: without the suit led you must trump, even if the trump cannot win.",
        "pt": "Trunfos: sem o naipe pedido é obrigatório trunfar, mesmo que o trunfo não ganhe.",
    },
    "barbu.contract.no-tricks": {"en": "No Tricks", "pt": "Sem Vazas"},
    "barbu.contract.no-queens": {"en": "No Queens", "pt": "Sem Damas"},
    "barbu.contract.no-last-two": {"en": "No Last Two", "pt": "Sem as Últimas Duas"},
    "barbu.contract.no-hearts": {"en": "No Hearts", "pt": "Sem Copas"},
    "barbu.contract.no-king": {"en": "No King of Hearts", "pt": "Sem Rei de Copas"},
    "barbu.contract.trumps": {"en": "Trumps", "pt": "Trunfos"},
    "barbu.contract.domino": {"en": "Domino", "pt": "Dominó"},
    "barbu.hint.contract": {
        "en": "Choose {contract}: of the contracts left, your hand suits it best.",
        "pt": "Escolha {contract}: dos contratos que restam, é o que melhor combina com a sua mão.",
        "pt-PT": "Escolhe {contract}: dos contratos que restam, é o que melhor serve a tua mão.",
    },
    "barbu.hint.pass": {
        "en": "Pass: no double looks profitable with this hand.",
        "pt": "Passe: com esta mão nenhum dobro parece compensar.",
        "pt-PT": "Passa: com esta mão nenhum dobro parece compensar.",
    },
    "barbu.hint.double": {
        "en": "Double {seats}: you expect to score more than them in this contract.",
        "pt": "Dobre {seats}: você espera fazer mais pontos do que eles neste contrato.",
        "pt-PT": "Dobra {seats}: esperas fazer mais pontos do que eles neste contrato.",
    },
    "barbu.hint.double_owed": {
        "en": "Double {seats}: you still owe {owed} double(s) of the declarer in this block, "
        "and this hand is a fair one to pay them with.",
        "pt": "Dobre {seats}: você ainda deve {owed} dobro(s) ao declarante neste bloco, e esta "
        "mão é boa para pagá-los.",
        "pt-PT": "Dobra {seats}: ainda deves {owed} dobro(s) ao declarante neste bloco, e esta mão "
        "é boa para os pagar.",
    },
    "barbu.hint.forced": {
        "en": "{card} is your only legal card.",
        "pt": "O {card} é a única carta que você pode jogar.",
        "pt-PT": "O {card} é a única carta que podes jogar.",
    },
    "barbu.hint.duck": {
        "en": "Play {card}: your highest card that still loses the trick.",
        "pt": "Jogue o {card}: a sua carta mais alta que ainda perde a vaza.",
        "pt-PT": "Joga o {card}: a tua carta mais alta que ainda perde a vaza.",
    },
    "barbu.hint.dump_high": {
        "en": "Play {card}: these tricks cost nothing yet, so shed your high cards.",
        "pt": "Jogue o {card}: estas vazas ainda não custam nada, então livre-se das cartas altas.",
        "pt-PT": "Joga o {card}: estas vazas ainda não custam nada, livra-te das cartas altas.",
    },
    "barbu.hint.win_anyway": {
        "en": "Play {card}: you take this trick whatever you play, so get rid of a high card.",
        "pt": "Jogue o {card}: você ganha esta vaza de qualquer jeito, então livre-se de uma carta "
        "alta.",
        "pt-PT": "Joga o {card}: ganhas esta vaza de qualquer maneira, livra-te de uma carta alta.",
    },
    "barbu.hint.lose_low": {
        "en": "Play {card}: you cannot duck, so play low and hope a later card beats it.",
        "pt": "Jogue o {card}: você não consegue ficar por baixo; jogue baixo e torça para que "
        "alguém o supere.",
        "pt-PT": "Joga o {card}: não consegues ficar por baixo; joga baixo e espera que alguém o "
        "supere.",
    },
    "barbu.hint.discard": {
        "en": "Discard {card}: you have none of the suit led, and it is your most dangerous card.",
        "pt": "Descarte o {card}: você não tem o naipe pedido e esta é a sua carta mais perigosa.",
        "pt-PT": "Descarta o {card}: não tens o naipe pedido e é a tua carta mais perigosa.",
    },
    "barbu.hint.lead_low": {
        "en": "Lead {card}: your lowest card.",
        "pt": "Saia com o {card}: a sua carta mais baixa.",
        "pt-PT": "Sai com o {card}: a tua carta mais baixa.",
    },
    "barbu.hint.lead_safe": {
        "en": "Lead {card}: counting the cards still out and who is void, it is the lead "
        "least likely to win the trick.",
        "pt": "Saia com o {card}: contando as cartas que faltam e quem não tem o naipe, é a saída "
        "com menos chance de ganhar a vaza.",
        "pt-PT": "Sai com o {card}: contando as cartas que faltam e quem não tem o naipe, é a "
        "saída com menos hipóteses de ganhar a vaza.",
    },
    "barbu.hint.win_cheap": {
        "en": "Play {card}: the cheapest card that wins the trick.",
        "pt": "Jogue o {card}: a carta mais barata que ganha a vaza.",
        "pt-PT": "Joga o {card}: a carta mais barata que ganha a vaza.",
    },
    "barbu.hint.win_sure": {
        "en": "Play {card}: nobody after you can beat it (cards counted, voids known).",
        "pt": "Jogue o {card}: ninguém depois de você pode superá-lo (cartas contadas, faltas "
        "conhecidas).",
        "pt-PT": "Joga o {card}: ninguém depois de ti o pode superar (cartas contadas, faltas "
        "conhecidas).",
    },
    "barbu.hint.play_low": {
        "en": "Play {card}: this trick cannot be won safely, keep your good cards.",
        "pt": "Jogue o {card}: não dá para ganhar esta vaza com segurança; guarde as cartas boas.",
        "pt-PT": "Joga o {card}: esta vaza não se ganha com segurança, guarda as cartas boas.",
    },
    "barbu.hint.lead_winner": {
        "en": "Lead {card}: it should win the trick.",
        "pt": "Saia com o {card}: ele deve ganhar a vaza.",
        "pt-PT": "Sai com o {card}: deve ganhar a vaza.",
    },
    "barbu.hint.draw_trumps": {
        "en": "Lead {card}: the highest trump left, to draw the others' trumps.",
        "pt": "Saia com o {card}: o trunfo mais alto que resta, para puxar os trunfos dos outros.",
        "pt-PT": "Sai com o {card}: o trunfo mais alto que resta, para puxar os trunfos dos "
        "outros.",
    },
    "barbu.hint.lead_short": {
        "en": "Lead {card}: from your shortest side suit, to be able to trump it soon.",
        "pt": "Saia com o {card}: do seu naipe lateral mais curto, para poder cortar logo.",
        "pt-PT": "Sai com o {card}: do teu naipe lateral mais curto, para poderes trunfar em "
        "breve.",
    },
    "barbu.hint.domino_chain": {
        "en": "Play {card}: it opens the way to more of your own cards.",
        "pt": "Jogue o {card}: ele abre caminho para mais cartas suas.",
        "pt-PT": "Joga o {card}: abre caminho a mais cartas tuas.",
    },
    "barbu.hint.domino_block": {
        "en": "Play {card}: it helps the others least.",
        "pt": "Jogue o {card}: é a que menos ajuda os outros.",
        "pt-PT": "Joga o {card}: é a que menos ajuda os outros.",
    },
    "barbu.option.blocks": {
        "en": "Blocks of 7 deals, one per declarer (4: the full 28-deal session).",
        "pt": "Blocos de 7 mãos, um por declarante (4: a sessão completa de 28 mãos).",
    },
    **TIMERS.messages(),
}
