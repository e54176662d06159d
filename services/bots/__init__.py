"""The bot service: plays bot seats through the same command path as any client.

It listens to committed events (JetStream, queue group ``bots`` so instances share the
work), and when a bot seat is to act it asks the engine for that seat's view — exactly what
a client of that seat receives — chooses, and submits with a deterministic command id, so a
redelivered event can never make a bot move twice.
"""
