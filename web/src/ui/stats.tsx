// The player's own statistics (ScoringService) and match history: finished tables the
// player sat at, house rules flagged, each with its result and a replay.
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { create } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";

import { api, refusal } from "../api";
import { ListTablesRequestSchema, TableStatus, type TableSummary } from "../gen/tavola/v1/lobby_pb";
import {
  GetMatchStandingsRequestSchema,
  GetPlayerStandingsRequestSchema,
  type GetPlayerStandingsResponse,
  type MatchStandingLine,
} from "../gen/tavola/v1/scoring_pb";
import { t } from "../i18n";
import { gameTitle } from "../labels";
import { session } from "../session";
import { Notice } from "./pieces";

export function Stats(props: { name: string; accountId: string }): JSX.Element {
  const [totals, setTotals] = useState<GetPlayerStandingsResponse | null>(null);
  const [perGame, setPerGame] = useState<[string, GetPlayerStandingsResponse][]>([]);
  const [history, setHistory] = useState<TableSummary[]>([]);
  const [results, setResults] = useState<Record<string, MatchStandingLine | null>>({});
  const [error, setError] = useState("");
  useEffect(() => {
    if (!props.name) return;
    (async () => {
      try {
        setTotals(await api.scoring.getPlayerStandings(create(GetPlayerStandingsRequestSchema, { playerName: props.name })));
        const games = ["spades", "dominoes", "barbu", "doppelkopf", "fan-tan"];
        const each = await Promise.all(
          games.map(async (game) => [game, await api.scoring.getPlayerStandings(create(GetPlayerStandingsRequestSchema, { playerName: props.name, game }))] as [string, GetPlayerStandingsResponse]),
        );
        setPerGame(each.filter(([, r]) => Number(r.matches) > 0));
        const tables = (await api.lobby.listTables(create(ListTablesRequestSchema, { mine: true, status: TableStatus.FINISHED, limit: 30 }))).tables;
        setHistory(tables);
        const found: Record<string, MatchStandingLine | null> = {};
        for (const table of tables.slice(0, 20)) {
          try {
            const standings = await api.scoring.getMatchStandings(create(GetMatchStandingsRequestSchema, { matchId: table.matchId }));
            found[table.matchId] = standings.lines.find((l) => l.accountId === props.accountId) ?? null;
          } catch {
            found[table.matchId] = null;
          }
        }
        setResults(found);
      } catch (e) {
        setError(refusal(e).message);
      }
    })();
  }, [props.name, props.accountId]);
  const matches = Number(totals?.matches ?? 0n);
  return (
    <main class="stats">
      <h1>{t("stats.title")}</h1>
      <Notice text={error} kind="error" />
      {totals && (
        <section aria-label={t("stats.title")}>
          <p>{t("stats.matches", { n: matches })}</p>
          <p>{t("stats.wins", { n: Number(totals.wins) })}</p>
          {matches > 0 && <p>{t("stats.avg_rank", { n: (Number(totals.rankSum) / matches).toFixed(2) })}</p>}
          <h2>{t("stats.ratings")}</h2>
          <ul>
            {perGame.map(([game, r]) => (
              <li key={game}>
                {t("stats.game_line", { game: gameTitle(game), matches: Number(r.matches), wins: Number(r.wins) })}
                {r.ratings[0] ? ` · ${t("stats.rating", { ordinal: r.ratings[0].ordinal.toFixed(1), matches: Number(r.ratings[0].matches) })}` : ""}
              </li>
            ))}
          </ul>
          {totals.ratings.length === 0 && <p>{t("stats.unrated")}</p>}
        </section>
      )}
      <section aria-label={t("stats.history")}>
        <h2>{t("stats.history")}</h2>
        {history.length === 0 ? (
          <p>{t("stats.no_history")}</p>
        ) : (
          <ul class="history">
            {history.map((table) => {
              const line = results[table.matchId];
              const when = table.createdAt ? timestampDate(table.createdAt).toLocaleString(session.locale() === "pt" ? "pt-BR" : "en") : "";
              return (
                <li key={table.tableId} data-match={table.matchId}>
                  <strong>{gameTitle(table.game)}</strong> · {when}
                  {table.houseRules.length > 0 && <span class="badge house">{t("common.house_rules")}</span>}
                  {line && <span> · {t("stats.result", { rank: line.rank, score: Number(line.score) })}</span>} · <a href={`#/replay/${table.matchId}`}>{t("table.replay")}</a>
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </main>
  );
}
