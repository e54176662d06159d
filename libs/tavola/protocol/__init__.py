"""Domain types inside, protobuf at the edges: mappers between the two."""
