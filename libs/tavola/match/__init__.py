"""The match aggregate: a game's state wrapped with the platform's own facts.

Pure like the rules: a match is created (``MatchCreated``), driven by seat actions and
chance resolved from the seed, ends (``MatchEnded``) and reveals its seed
(``SeedRevealed``). The engine service and the offline verifier both use it.
"""
