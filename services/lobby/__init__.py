"""The lobby: tables for a game with its options, seats and their tokens, bots filling
empty seats (always marked), and the start of the match (asking the engine to create it)."""
