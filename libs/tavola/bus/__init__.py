"""The bus: NATS JetStream transport for committed events and internal request/reply."""
