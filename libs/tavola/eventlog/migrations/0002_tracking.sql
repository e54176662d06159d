-- Where each consumer (projection, relay) has got to in the global order. Written in the
-- consumer's own transaction, together with its effects (effectively-once processing).

CREATE TABLE tracking (
    name        text PRIMARY KEY,
    tx          xid8 NOT NULL,
    position    bigint NOT NULL
);
