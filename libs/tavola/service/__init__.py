"""Service runtime adapters shared by the four services: logging, metrics, gRPC, NATS."""
