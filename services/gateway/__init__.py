"""The web gateway: serves the built web client and bridges browsers to the public API.

**Protocol: Connect** (https://connectrpc.com/docs/protocol), not gRPC-Web. Both are
standard and both are spoken by ``@connectrpc/connect-web``; Connect is the better bridge
here because every call is plain HTTP the browser's ``fetch`` makes and any tool can read:
a unary call is a POST of the request as JSON (``application/json``) or binary
(``application/proto``) answered by the response, or by an HTTP error status with a JSON
error body; a server stream (``StreamEvents``) is a POST whose answer is a sequence of
enveloped messages ended by an end-stream message carrying the status and trailers. There
are no trailers in bodies to parse as in gRPC-Web, no binary framing for unary calls, no
proxy-specific content types, and ``curl`` can call any method. The mapping of statuses,
``google.rpc.ErrorInfo`` details, trailers, deadlines and resumption is in docs/web.md.

The gateway holds no state of its own and decides nothing: the engine authenticates the
browser's token, checks scopes and every limit and answers every error. It adds exactly
one thing, the browser's address, which the engine honours only because the gateway also
presents its own credential (a token with the ``gateway`` scope): per-address limits then
count each browser, not the gateway.
"""
