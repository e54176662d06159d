"""The game engine: validates commands against the rules, appends events to the log, and
serves the public gRPC API (forwarding lobby and scoring calls over NATS).

A freshly started engine knows nothing: any match is rebuilt from the log on demand.
"""
