// The public API through the gateway, with Connect's browser transport (binary messages;
// server streams over fetch). Every call carries the signed-in token and the locale, as
// any gRPC client's metadata would (docs/web.md).
import { Code, ConnectError, createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { BinaryReader } from "@bufbuild/protobuf/wire";

import { AccountService } from "./gen/tavola/v1/account_pb";
import { GameService } from "./gen/tavola/v1/game_pb";
import { LobbyService } from "./gen/tavola/v1/lobby_pb";
import { ScoringService } from "./gen/tavola/v1/scoring_pb";
import { session } from "./session";

const credentials: Interceptor = (next) => async (request) => {
  const token = session.token();
  if (token) request.header.set("Authorization", `Bearer ${token}`);
  request.header.set("Tavola-Locale", session.locale());
  return next(request);
};

const transport = createConnectTransport({
  baseUrl: globalThis.location?.origin ?? "http://127.0.0.1:8080",
  useBinaryFormat: true,
  interceptors: [credentials],
});

export const api = {
  game: createClient(GameService, transport),
  lobby: createClient(LobbyService, transport),
  account: createClient(AccountService, transport),
  scoring: createClient(ScoringService, transport),
};

export interface Refusal {
  code: Code;
  reason: string; // ErrorInfo.reason, the stable code ("" when none)
  params: Record<string, string>;
  message: string; // already in the locale asked for
  retryAfterMs: number | null;
}

/** ErrorInfo: reason = 1, domain = 2, metadata = 3 (map<string, string>). */
function errorInfo(bytes: Uint8Array): { reason: string; params: Record<string, string> } {
  const reader = new BinaryReader(bytes);
  let reason = "";
  const params: Record<string, string> = {};
  while (reader.pos < reader.len) {
    const [field, wire] = reader.tag();
    if (field === 1) reason = reader.string();
    else if (field === 3) {
      const entry = new BinaryReader(reader.bytes());
      let key = "";
      let value = "";
      while (entry.pos < entry.len) {
        const [f] = entry.tag();
        if (f === 1) key = entry.string();
        else value = entry.string();
      }
      params[key] = value;
    } else reader.skip(wire);
  }
  return { reason, params };
}

export function refusal(error: unknown): Refusal {
  const e = ConnectError.from(error);
  let reason = "";
  let params: Record<string, string> = {};
  for (const detail of e.details) {
    if ("type" in detail && detail.type === "google.rpc.ErrorInfo" && "value" in detail) {
      ({ reason, params } = errorInfo(detail.value));
    }
  }
  const retry = e.metadata.get("retry-after-ms");
  return {
    code: e.code,
    reason,
    params,
    message: e.rawMessage,
    retryAfterMs: retry !== null && /^\d+$/.test(retry) ? Number(retry) : null,
  };
}

export { Code };
