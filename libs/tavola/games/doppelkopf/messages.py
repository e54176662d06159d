"""Doppelkopf message catalogue (English, Brazilian Portuguese "pt", European "pt-PT" where
it differs): reasons, automatic moves, bot hints, settlement lines, Bock and redeal reasons,
options, presets, contracts, match lengths."""

from __future__ import annotations

from collections.abc import Mapping

from tavola.games.doppelkopf.timers import TIMERS

_M = dict[str, dict[str, str]]

REASONS: _M = {
    "doppelkopf.not_now": {
        "en": "That is not possible at this moment.",
        "pt": "Isso não é possível neste momento.",
    },
    "doppelkopf.wedding_unclarified": {
        "en": "No announcement before the wedding is clarified.",
        "pt": "Não há anúncios antes de o casamento (Hochzeit) estar esclarecido.",
    },
    "doppelkopf.wrong_party": {
        "en": "You cannot say {call}: you are not in that party.",
        "pt": "Você não pode dizer {call}: você não é desse lado.",
        "pt-PT": "Não podes dizer {call}: não pertences a esse lado.",
    },
    "doppelkopf.already_announced": {
        "en": "Your party has already announced {call}.",
        "pt": "O seu lado já anunciou {call}.",
        "pt-PT": "O teu lado já anunciou {call}.",
    },
    "doppelkopf.no_denial_after_reply": {
        "en": "{call} is not allowed: your party's Re/Kontra came late, as a reply.",
        "pt": "{call} não é permitido: o Re/Kontra do seu lado foi uma resposta tardia.",
        "pt-PT": "{call} não é permitido: o Re/Kontra do teu lado foi uma resposta tardia.",
    },
    "doppelkopf.too_late": {
        "en": "Too late for {call}: you needed at least {cards} cards in your hand.",
        "pt": "É tarde para {call}: você precisava ter pelo menos {cards} cartas na mão.",
        "pt-PT": "É tarde para {call}: precisavas de ter pelo menos {cards} cartas na mão.",
    },
    "doppelkopf.already_declared": {
        "en": "You have already declared.",
        "pt": "Você já fez a sua declaração.",
        "pt-PT": "Já fizeste a tua declaração.",
    },
    "doppelkopf.must_declare_solo": {
        "en": "You still owe your compulsory solo: declare it now.",
        "pt": "Você ainda deve o seu solo obrigatório: declare-o agora.",
        "pt-PT": "Ainda deves o teu solo obrigatório: tens de o declarar agora.",
    },
    "doppelkopf.wedding_needs_both_queens": {
        "en": "A wedding needs both ♣ queens.",
        "pt": "Para um casamento você precisa das duas damas de paus.",
        "pt-PT": "Para um casamento precisas das duas damas de paus.",
    },
    "doppelkopf.house_rule_off": {
        "en": "The house rule {rule} is not in use at this table.",
        "pt": "A regra da casa {rule} não vale nesta mesa.",
    },
    "doppelkopf.poverty_too_many_trumps": {
        "en": "Armut needs three trumps or fewer.",
        "pt": "Você só pode declarar pobreza com três trunfos ou menos.",
        "pt-PT": "Só podes declarar pobreza com três trunfos ou menos.",
    },
    "doppelkopf.throw_needs_five_nines": {
        "en": "You may lay down your hand only with five nines or more.",
        "pt": "Você só pode baixar as cartas com cinco noves ou mais.",
        "pt-PT": "Só podes deitar as cartas com cinco noves ou mais.",
    },
    "doppelkopf.waiting": {
        "en": "You let your announcements pass: you may announce again once the next card "
        "is played or someone announces.",
        "pt": "Você deixou passar os anúncios: pode voltar a anunciar quando a próxima carta for "
        "jogada ou alguém anunciar.",
        "pt-PT": "Deixaste passar os anúncios: podes voltar a anunciar quando for jogada a próxima "
        "carta ou alguém anunciar.",
    },
    "doppelkopf.wait_on_turn": {
        "en": "It is your turn: play a card (you may announce before it).",
        "pt": "É a sua vez: jogue uma carta (você pode anunciar antes dela).",
        "pt-PT": "É a tua vez: joga uma carta (podes anunciar antes dela).",
    },
    "doppelkopf.not_your_turn_to_play": {
        "en": "It is not your turn to play a card.",
        "pt": "Não é a sua vez de jogar uma carta.",
        "pt-PT": "Não é a tua vez de jogar uma carta.",
    },
    "doppelkopf.not_in_hand": {
        "en": "{card} is not in your hand.",
        "pt": "Você não tem o {card} na mão.",
        "pt-PT": "Não tens o {card} na mão.",
    },
    "doppelkopf.must_follow": {
        "en": "{card} cannot be played: you must follow ({led}).",
        "pt": "Você não pode jogar o {card}: precisa seguir a saída ({led}).",
        "pt-PT": "Não podes jogar o {card}: tens de assistir ({led}).",
    },
    "doppelkopf.players": {
        "en": "Doppelkopf is played by 4 or 5 players, not {players}.",
        "pt": "O Doppelkopf é jogado por 4 ou 5 jogadores, não {players}.",
        "pt-PT": "O Doppelkopf joga-se a 4 ou 5, não a {players}.",
    },
    "doppelkopf.pflichtsolo_needs_rounds": {
        "en": "Pflichtsolo is only possible in a match by rounds.",
        "pt": "O solo obrigatório só é possível numa partida por rodadas.",
        "pt-PT": "O solo obrigatório só é possível numa partida por rondas.",
    },
}

AUTOMATIC: _M = {
    "doppelkopf.auto.wait": {
        "en": "No announcement for now: you may announce again once the next card is "
        "played or someone announces.",
        "pt": "Sem anúncio por enquanto: você pode voltar a anunciar quando a próxima carta for "
        "jogada ou alguém anunciar.",
        "pt-PT": "Sem anúncio por agora: podes voltar a anunciar quando for jogada a próxima carta "
        "ou alguém anunciar.",
    },
    "doppelkopf.auto.forced_solo": {
        "en": "Time ran out: your compulsory solo was declared for you.",
        "pt": "O tempo acabou: o seu solo obrigatório foi declarado por você.",
        "pt-PT": "O tempo acabou: o teu solo obrigatório foi declarado por ti.",
    },
    "doppelkopf.auto.healthy": {
        "en": "Time ran out: you were declared healthy.",
        "pt": "O tempo acabou: você foi declarado «gesund» (sem reserva).",
        "pt-PT": "O tempo acabou: foste declarado «gesund» (sem reserva).",
    },
    "doppelkopf.auto.decline": {
        "en": "Time ran out: the Armut was declined for you.",
        "pt": "O tempo acabou: a pobreza foi recusada por você.",
        "pt-PT": "O tempo acabou: a pobreza foi recusada por ti.",
    },
    "doppelkopf.auto.give": {
        "en": "Time ran out: {card} was given back for you.",
        "pt": "O tempo acabou: o {card} foi devolvido por você.",
        "pt-PT": "O tempo acabou: foi devolvido o {card} por ti.",
    },
    "doppelkopf.auto.card": {
        "en": "Time ran out: {card} was played for you (and nothing announced).",
        "pt": "O tempo acabou: o {card} foi jogado por você (sem anúncio).",
        "pt-PT": "O tempo acabou: foi jogado o {card} por ti (sem anúncio).",
    },
}

OTHER: _M = {
    "doppelkopf.redeal.thrown": {
        "en": "A hand with five nines was laid down: new deal.",
        "pt": "Alguém baixou as cartas com cinco noves: nova distribuição.",
        "pt-PT": "Alguém deitou as cartas com cinco noves: nova dada.",
    },
    "doppelkopf.redeal.poverty_refused": {
        "en": "Nobody accepted the Armut: new deal.",
        "pt": "Ninguém aceitou a pobreza: nova distribuição.",
        "pt-PT": "Ninguém aceitou a pobreza: nova dada.",
    },
    "doppelkopf.bock.heart_trick": {
        "en": "A trick of four hearts: a Bock round follows.",
        "pt": "Uma vaza de quatro copas: vem aí uma rodada Bock.",
        "pt-PT": "Uma vaza de quatro copas: segue-se uma ronda Bock.",
    },
    "doppelkopf.bock.tie": {
        "en": "120 : 120: a Bock round follows.",
        "pt": "120 : 120: vem aí uma rodada Bock.",
        "pt-PT": "120 : 120: segue-se uma ronda Bock.",
    },
    "doppelkopf.bock.lost_announcement": {
        "en": "A party lost after announcing: a Bock round follows.",
        "pt": "Um lado perdeu depois de anunciar: vem aí uma rodada Bock.",
        "pt-PT": "Um lado perdeu depois de anunciar: segue-se uma ronda Bock.",
    },
}

HINTS: _M = {
    "doppelkopf.hint.only_card": {
        "en": "{card}: it is the only card you may play.",
        "pt": "{card}: é a única carta que você pode jogar.",
        "pt-PT": "{card}: é a única carta que podes jogar.",
    },
    "doppelkopf.hint.lead_ace": {
        "en": "Lead {card}: the suit has not been played yet, so everyone should follow.",
        "pt": "Saia com {card}: o naipe ainda não foi jogado, então todos devem seguir.",
        "pt-PT": "Sai com {card}: o naipe ainda não foi jogado, todos devem assistir.",
    },
    "doppelkopf.hint.lead_low": {
        "en": "Lead {card}: your cheapest card gives little away.",
        "pt": "Saia com {card}: a sua carta mais barata entrega pouco ao adversário.",
        "pt-PT": "Sai com {card}: a tua carta mais barata dá pouco ao adversário.",
    },
    "doppelkopf.hint.pull_trumps": {
        "en": "Lead {card}: nobody can beat it, and it draws the opponents' trumps.",
        "pt": "Saia com {card}: ninguém pode batê-la, e ela puxa os trunfos dos adversários.",
        "pt-PT": "Sai com {card}: ninguém a pode bater e puxa os trunfos adversários.",
    },
    "doppelkopf.hint.lead_to_partner": {
        "en": "Lead {card}: your partner has no card of that suit and can trump it.",
        "pt": "Saia com {card}: o seu parceiro não tem esse naipe e pode cortar.",
        "pt-PT": "Sai com {card}: o teu parceiro não tem esse naipe e pode cortar.",
    },
    "doppelkopf.hint.win_safely": {
        "en": "Play {card}: it wins the trick and nobody still to play can beat it.",
        "pt": "Jogue {card}: ela ganha a vaza e ninguém que ainda vai jogar pode batê-la.",
        "pt-PT": "Joga {card}: ganha a vaza e ninguém que falta jogar a pode bater.",
    },
    "doppelkopf.hint.win_cheaply": {
        "en": "Play {card}: the cheapest card that takes the trick from the opponents.",
        "pt": "Jogue {card}: a carta mais barata que tira a vaza dos adversários.",
        "pt-PT": "Joga {card}: a carta mais barata que tira a vaza aos adversários.",
    },
    "doppelkopf.hint.duck": {
        "en": "Play {card}: the trick is lost, give away as little as possible.",
        "pt": "Jogue {card}: a vaza está perdida, entregue o mínimo possível.",
        "pt-PT": "Joga {card}: a vaza está perdida, dá o mínimo possível.",
    },
    "doppelkopf.hint.smear": {
        "en": "Play {card}: your partner's trick is safe, add points to it.",
        "pt": "Jogue {card}: a vaza do seu parceiro está garantida, ponha pontos nela.",
        "pt-PT": "Joga {card}: a vaza do teu parceiro está segura, junta-lhe pontos.",
    },
    "doppelkopf.hint.secure": {
        "en": "Play {card}: make your partner's valuable trick safe.",
        "pt": "Jogue {card}: garanta a vaza valiosa do seu parceiro.",
        "pt-PT": "Joga {card}: segura a vaza valiosa do teu parceiro.",
    },
    "doppelkopf.hint.announce": {
        "en": "Announce {call}: your hand is strong enough.",
        "pt": "Anuncie {call}: a sua mão é forte o suficiente.",
        "pt-PT": "Anuncia {call}: a tua mão é forte o suficiente.",
    },
    "doppelkopf.hint.forced_call": {
        "en": "{call} is the smallest call you can make now.",
        "pt": "{call} é o menor anúncio que você pode fazer agora.",
        "pt-PT": "{call} é o anúncio mais pequeno que podes fazer agora.",
    },
    "doppelkopf.hint.healthy": {
        "en": "Say healthy: your hand is fine for a normal game.",
        "pt": "Diga «gesund»: a sua mão serve para um jogo normal.",
        "pt-PT": "Diz «gesund»: a tua mão serve para um jogo normal.",
    },
    "doppelkopf.hint.solo": {
        "en": "Declare the solo {solo}: your hand should take most tricks alone.",
        "pt": "Declare o solo {solo}: a sua mão deve fazer sozinha a maioria das vazas.",
        "pt-PT": "Declara o solo {solo}: a tua mão deve fazer sozinha a maioria das vazas.",
    },
    "doppelkopf.hint.wedding": {
        "en": "Announce a wedding: you hold both ♣ queens.",
        "pt": "Anuncie casamento: você tem as duas damas de paus.",
        "pt-PT": "Anuncia casamento: tens as duas damas de paus.",
    },
    "doppelkopf.hint.silent_wedding": {
        "en": "Say healthy and play a silent wedding: your hand is strong enough alone.",
        "pt": "Diga «gesund» e jogue um casamento silencioso: a sua mão dá conta sozinha.",
        "pt-PT": "Diz «gesund» e joga um casamento silencioso: a tua mão chega sozinha.",
    },
    "doppelkopf.hint.poverty": {
        "en": "Declare Armut: you have too few trumps.",
        "pt": "Declare pobreza: você tem trunfos de menos.",
        "pt-PT": "Declara pobreza: tens trunfos a menos.",
    },
    "doppelkopf.hint.throw": {
        "en": "Lay down your hand: five nines make it too weak.",
        "pt": "Baixe as cartas: cinco noves deixam a mão fraca demais.",
        "pt-PT": "Deita as cartas: cinco noves tornam a mão fraca demais.",
    },
    "doppelkopf.hint.accept": {
        "en": "Accept the Armut: your trumps are strong enough for two.",
        "pt": "Aceite a pobreza: os seus trunfos são fortes o bastante para dois.",
        "pt-PT": "Aceita a pobreza: os teus trunfos chegam para dois.",
    },
    "doppelkopf.hint.decline": {
        "en": "Decline the Armut: your trumps are too weak for two.",
        "pt": "Recuse a pobreza: os seus trunfos são fracos demais para dois.",
        "pt-PT": "Recusa a pobreza: os teus trunfos são fracos para dois.",
    },
    "doppelkopf.hint.give": {
        "en": "Give back {card}: it is worth little to you.",
        "pt": "Devolva {card}: ela vale pouco para você.",
        "pt-PT": "Devolve {card}: vale-te pouco.",
    },
}

_LINES = {
    "won": ("Won", "Ganho"),
    "below_90": ("Opponents below 90", "Adversários abaixo de 90"),
    "below_60": ("Opponents below 60", "Adversários abaixo de 60"),
    "below_30": ("Opponents below 30", "Adversários abaixo de 30"),
    "schwarz": ("Opponents without a trick", "Adversários sem vazas"),
    "re_announced": ("Re announced", "Re anunciado"),
    "kontra_announced": ("Kontra announced", "Kontra anunciado"),
    "re_no_90": ("Re: no 90", "Re: sem 90"),
    "re_no_60": ("Re: no 60", "Re: sem 60"),
    "re_no_30": ("Re: no 30", "Re: sem 30"),
    "re_schwarz": ("Re: schwarz", "Re: sem vazas"),
    "kontra_no_90": ("Kontra: no 90", "Kontra: sem 90"),
    "kontra_no_60": ("Kontra: no 60", "Kontra: sem 60"),
    "kontra_no_30": ("Kontra: no 30", "Kontra: sem 30"),
    "kontra_schwarz": ("Kontra: schwarz", "Kontra: sem vazas"),
    "reached_120": ("120 reached against no 90", "120 alcançados contra «sem 90»"),
    "reached_90": ("90 reached against no 60", "90 alcançados contra «sem 60»"),
    "reached_60": ("60 reached against no 30", "60 alcançados contra «sem 30»"),
    "reached_30": ("30 reached against schwarz", "30 alcançados contra «sem vazas»"),
    "against_the_old": ("Against the old ones", "Contra as Velhas"),
    "doppelkopf": ("Doppelkopf (a trick of 40 or more)", "Doppelkopf (vaza de 40 ou mais)"),
    "fox": ("Fox caught", "Raposa capturada", "Raposa apanhada"),
    "karlchen": ("Karlchen (♣J won the last trick)", "Carlinhos (valete de paus na última vaza)"),
    "fox_last": ("Fuchs am End (♦A won the last trick)", "Raposa no fim (ás de ouros na última)"),
    "karlchen_caught": ("Karlchen caught", "Carlinhos capturado", "Carlinhos apanhado"),
}

_OPTIONS = {
    "match": (
        "Match length: one game, 1–3 rounds, or to 10/20/30 points (round finished).",
        "Duração: um jogo, 1–3 rodadas, ou até 10/20/30 pontos (a rodada vai até o fim).",
        "Duração: um jogo, 1–3 rondas, ou até 10/20/30 pontos (acaba-se a ronda).",
    ),
    "second_dulle": ("Second Dulle beats the first.", "A segunda Dulle bate a primeira."),
    "schweinchen": (
        "Schweinchen: both ♦A in one hand are the highest trumps.",
        "Porquinhos: os dois ases de ouros na mesma mão são os trunfos mais altos.",
    ),
    "armut": (
        "Armut: with three trumps or fewer you may declare poverty.",
        "Pobreza: com três trunfos ou menos você pode declarar pobreza.",
        "Pobreza: com três trunfos ou menos podes declarar pobreza.",
    ),
    "schmeissen": (
        "Schmeißen: with five nines you may lay down your hand.",
        "Baixar as cartas: com cinco noves você pode baixar a mão.",
        "Deitar as cartas: com cinco noves podes deitar a mão.",
    ),
    "fuchs_am_end": (
        "Fuchs am End: a ♦A winning the last trick scores.",
        "Raposa no fim: um ás de ouros que faz a última vaza pontua.",
    ),
    "karlchen_fangen": (
        "Karlchen fangen: an opposing ♣J beaten in the last trick scores.",
        "Capturar o Carlinhos: um valete de paus adversário batido na última vaza pontua.",
        "Apanhar o Carlinhos: um valete de paus adversário batido na última vaza pontua.",
    ),
    "bockrunde": (
        "Bockrunde: after a heart trick, 120:120 or a lost announcement, a round counts double.",
        "Rodada Bock: depois de uma vaza de copas, 120:120 ou um anúncio perdido, uma "
        "rodada conta em dobro.",
        "Ronda Bock: depois de uma vaza de copas, 120:120 ou um anúncio perdido, uma "
        "ronda conta a dobrar.",
    ),
    "pflichtsolo": (
        "Pflichtsolo: everyone plays one solo per match (by rounds).",
        "Solo obrigatório: cada um joga um solo na partida (por rodadas).",
        "Solo obrigatório: cada um joga um solo na partida (por rondas).",
    ),
    "without_nines": ("Without nines: 40 cards, 10 each.", "Sem noves: 40 cartas, 10 a cada um."),
}

_CONTRACTS = {
    "normal": ("Normal game", "Jogo normal"),
    "wedding": ("Hochzeit", "Casamento (Hochzeit)"),
    "poverty": ("Armut", "Pobreza"),
    "queen_solo": ("Queen solo", "Solo de damas"),
    "jack_solo": ("Jack solo", "Solo de valetes"),
    "clubs_solo": ("♣ solo", "Solo de paus"),
    "spades_solo": ("♠ solo", "Solo de espadas"),
    "hearts_solo": ("♥ solo", "Solo de copas"),
    "diamonds_solo": ("♦ solo", "Solo de ouros"),
    "fleischlos": ("Fleischlos", "Fleischlos"),
    "silent_wedding": ("Silent wedding", "Casamento silencioso"),
}

_MATCH = {
    "one_game": ("One game", "Um jogo"),
    "1_round": ("1 round", "1 rodada", "1 ronda"),
    "2_rounds": ("2 rounds", "2 rodadas", "2 rondas"),
    "3_rounds": ("3 rounds", "3 rodadas", "3 rondas"),
    "to_10": ("To 10 points", "Até 10 pontos"),
    "to_20": ("To 20 points", "Até 20 pontos"),
    "to_30": ("To 30 points", "Até 30 pontos"),
}

_PRESETS = {
    "official": ("Official rules (DDV)", "Regras oficiais (DDV)"),
    "tavern": ("Tavern Doppelkopf", "Doppelkopf de bar", "Doppelkopf de taberna"),
}


def _table(prefix: str, items: Mapping[str, tuple[str, ...]]) -> _M:
    """Codes from ``(en, pt)`` rows; a third text is the European form (``pt-PT``) where
    it differs from the Brazilian ``pt``."""
    return {f"doppelkopf.{prefix}.{k}": _entry(*texts) for k, texts in items.items()}


def _entry(en: str, pt: str, pt_pt: str | None = None) -> dict[str, str]:
    return {"en": en, "pt": pt} if pt_pt is None else {"en": en, "pt": pt, "pt-PT": pt_pt}


MESSAGES: _M = {
    **TIMERS.messages(),
    **REASONS,
    **AUTOMATIC,
    **OTHER,
    **HINTS,
    **_table("line", _LINES),
    **_table("option", _OPTIONS),
    **_table("contract", _CONTRACTS),
    **_table("match", _MATCH),
    **_table("preset", _PRESETS),
    "doppelkopf.hint.wait": {
        "en": "Nothing to do now: you may announce, but need not.",
        "pt": "Nada para fazer agora: você pode anunciar, mas não precisa.",
        "pt-PT": "Nada a fazer agora: podes anunciar, mas não precisas.",
    },
}
