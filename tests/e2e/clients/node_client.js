// A client we did not write in Python: Node's gRPC stack, loading the public proto files.
// Plays a whole Fan Tan match at seat 0 against bots: create, sit, fill, start, then
// GetView / SubmitAction until the end (taking its third move back once: every other seat
// is a bot); prints one JSON line with what it saw.
const grpc = require("@grpc/grpc-js");
const loader = require("@grpc/proto-loader");

const [address, protoRoot, token] = process.argv.slice(2);
const def = loader.loadSync(
  ["tavola/v1/lobby.proto", "tavola/v1/game.proto"],
  { includeDirs: [protoRoot], keepCase: true, longs: Number, enums: String, defaults: true },
);
const v1 = grpc.loadPackageDefinition(def).tavola.v1;
const lobby = new v1.LobbyService(address, grpc.credentials.createInsecure());
const game = new v1.GameService(address, grpc.credentials.createInsecure());
// Every call carries the account's bearer token (docs/security.md).
const auth = new grpc.Metadata();
auth.set("authorization", `Bearer ${token}`);
const call = (stub, method, request) =>
  new Promise((resolve, reject) =>
    stub[method](request, auth, (error, reply) => (error ? reject(error) : resolve(reply))));

async function main() {
  const { table } = await call(lobby, "CreateTable", { game: "fan-tan", players: 4 });
  const sat = await call(lobby, "SitDown", { table_id: table.table_id, seat: 0, player_name: "node" });
  await call(lobby, "FillWithBots", { table_id: table.table_id, level: "easy" });
  const { match_id } = await call(lobby, "StartMatch", { table_id: table.table_id });
  const seen = { moves: 0, illegal: null, reasons: 0, taken: 0 };
  for (let n = 0; n < 5000; n++) {
    const view = await call(game, "GetView", { match_id, seat: 0, seat_token: sat.seat_token, locale: "pt" });
    if (view.finished) {
      seen.finished = true;
      seen.standings = view.standings.map((s) => [s.seat, s.score, s.rank]);
      break;
    }
    if (view.legal_actions.length === 0) { await new Promise((r) => setTimeout(r, 50)); continue; }
    if (seen.moves === 3 && seen.taken === 0) {
      const back = await call(game, "TakeBack", { match_id, seat: 0, seat_token: sat.seat_token,
        command_id: `node-back-${n}`, locale: "pt" });
      seen.taken = back.restored_version;
      continue;
    }
    seen.reasons += view.blocked.length;
    if (seen.illegal === null && view.blocked.length > 0) {
      try {
        await call(game, "SubmitAction", { match_id, seat: 0, seat_token: sat.seat_token,
          command_id: `bad-${n}`, action: view.blocked[0].code, locale: "pt" });
      } catch (error) {
        seen.illegal = { code: error.code, details: error.details };
      }
    }
    await call(game, "SubmitAction", { match_id, seat: 0, seat_token: sat.seat_token,
      command_id: `node-${n}`, expected_version: view.version, action: view.legal_actions[0].code });
    seen.moves += 1;
  }
  console.log(JSON.stringify(seen));
}
main().catch((error) => { console.error(error); process.exit(1); });
