// The lobby: every game with its presets and house rules (their descriptions from the
// API), a table set up and filled with bots at a level, and the open tables to join or
// watch.
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { create } from "@bufbuild/protobuf";

import { api, refusal } from "../api";
import {
  CreateTableRequestSchema,
  FillWithBotsRequestSchema,
  ListGamesRequestSchema,
  ListTablesRequestSchema,
  OptionKind,
  SitDownRequestSchema,
  StartMatchRequestSchema,
  TableStatus,
  type GameInfo,
  type OptionSpec,
  type TableSummary,
} from "../gen/tavola/v1/lobby_pb";
import { t } from "../i18n";
import { choiceText, gameTitle, levelText } from "../labels";
import { session } from "../session";
import { commandId } from "./table";
import { Notice } from "./pieces";

const LEVELS = ["easy", "medium", "hard", "master"];

export function clientSeed(): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(16));
}

/** Sit at ``tableId``: the seat and its token are kept for the table, then its match. */
export async function sitDown(tableId: string, game: string): Promise<{ seat: number; seatToken: string }> {
  const sat = await api.lobby.sitDown(create(SitDownRequestSchema, { tableId, seat: -1, clientSeed: clientSeed(), commandId: commandId() }));
  session.keepSeat({ matchId: `table:${tableId}`, tableId, game, seat: sat.seat, seatToken: sat.seatToken, version: 0, practice: false });
  return { seat: sat.seat, seatToken: sat.seatToken };
}

function OptionField(props: { spec: OptionSpec; value: string; onChange: (v: string) => void }): JSX.Element {
  const { spec, value } = props;
  const id = `option-${spec.name}`;
  const label = spec.description?.text ?? spec.name;
  const house = spec.houseRule ? <span class="badge house">{t("lobby.house_rule")}</span> : null;
  if (spec.kind === OptionKind.BOOL) {
    return (
      <div class="field check">
        <input id={id} name={spec.name} type="checkbox" checked={value === "true"} onChange={(e) => props.onChange((e.target as HTMLInputElement).checked ? "true" : "false")} />
        <label for={id}>
          {label} {house}
        </label>
      </div>
    );
  }
  if (spec.kind === OptionKind.CHOICE) {
    return (
      <div class="field">
        <label for={id}>
          {label} {house}
        </label>
        <select id={id} name={spec.name} value={value} onChange={(e) => props.onChange((e.target as HTMLSelectElement).value)}>
          {spec.choices.map((c) => (
            <option key={c} value={c}>
              {choiceText(c)}
            </option>
          ))}
        </select>
      </div>
    );
  }
  return (
    <div class="field">
      <label for={id}>
        {label} {house}
      </label>
      <input id={id} name={spec.name} type="number" min={Number(spec.minimum)} max={Number(spec.maximum)} value={value} onInput={(e) => props.onChange((e.target as HTMLInputElement).value)} />
      <small>{t("lobby.default", { value: spec.defaultValue })}</small>
    </div>
  );
}

function NewTable(props: { game: GameInfo }): JSX.Element {
  const { game } = props;
  const defaults = (): Record<string, string> => Object.fromEntries(game.options.map((o) => [o.name, o.defaultValue]));
  const [players, setPlayers] = useState(game.minPlayers === game.maxPlayers ? game.minPlayers : Math.min(4, game.maxPlayers));
  const [preset, setPreset] = useState("");
  const [values, setValues] = useState<Record<string, string>>(defaults);
  const [level, setLevel] = useState("easy");
  const [thinkMs, setThinkMs] = useState("0");
  const [working, setWorking] = useState(false);
  const [error, setError] = useState("");
  useEffect(() => {
    setValues(defaults());
    setPreset("");
    setPlayers(game.minPlayers === game.maxPlayers ? game.minPlayers : Math.min(4, game.maxPlayers));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [game.name]);

  const choosePreset = (name: string): void => {
    setPreset(name);
    const chosen = game.presets.find((p) => p.name === name);
    setValues({ ...defaults(), ...(chosen?.options ?? {}) });
  };

  const create_ = async (withBots: boolean): Promise<void> => {
    setWorking(true);
    setError("");
    try {
      const options: Record<string, string> = {};
      for (const spec of game.options) {
        const v = values[spec.name];
        if (v !== undefined && v !== spec.defaultValue) options[spec.name] = v;
      }
      if (preset) options["preset"] = preset;
      const table = (await api.lobby.createTable(create(CreateTableRequestSchema, { game: game.name, players, options, commandId: commandId() }))).table;
      if (!table) throw new Error("no table");
      const sat = await sitDown(table.tableId, game.name);
      if (!withBots) {
        location.hash = `#/table/${table.tableId}`;
        return;
      }
      await api.lobby.fillWithBots(create(FillWithBotsRequestSchema, { tableId: table.tableId, level, thinkMs: Number(thinkMs) || 0 }));
      const started = await api.lobby.startMatch(create(StartMatchRequestSchema, { tableId: table.tableId }));
      session.keepSeat({ matchId: started.matchId, tableId: table.tableId, game: game.name, seat: sat.seat, seatToken: sat.seatToken, version: 0, practice: true });
      location.hash = `#/match/${started.matchId}`;
    } catch (e) {
      setError(refusal(e).message || String(e));
    } finally {
      setWorking(false);
    }
  };

  return (
    <section class="new-table" aria-label={t("lobby.new_table", { game: gameTitle(game.name, game.title) })}>
      <h2>{t("lobby.new_table", { game: gameTitle(game.name, game.title) })}</h2>
      <form onSubmit={(e) => e.preventDefault()}>
        {game.minPlayers !== game.maxPlayers && (
          <div class="field">
            <label for="players">{t("lobby.seats")}</label>
            <select id="players" value={String(players)} onChange={(e) => setPlayers(Number((e.target as HTMLSelectElement).value))}>
              {Array.from({ length: game.maxPlayers - game.minPlayers + 1 }, (_, i) => game.minPlayers + i).map((n) => (
                <option key={n} value={String(n)}>
                  {n}
                </option>
              ))}
            </select>
          </div>
        )}
        {game.presets.length > 0 && (
          <div class="field">
            <label for="preset">{t("lobby.preset")}</label>
            <select id="preset" value={preset} onChange={(e) => choosePreset((e.target as HTMLSelectElement).value)}>
              <option value="">{t("lobby.preset_none")}</option>
              {game.presets.map((p) => (
                <option key={p.name} value={p.name}>
                  {choiceText(p.name) === p.name ? p.name : choiceText(p.name)}
                </option>
              ))}
            </select>
          </div>
        )}
        <fieldset>
          <legend>{t("lobby.options")}</legend>
          {game.options.map((spec) => (
            <OptionField key={spec.name} spec={spec} value={values[spec.name] ?? spec.defaultValue} onChange={(v) => setValues({ ...values, [spec.name]: v })} />
          ))}
        </fieldset>
        <div class="field">
          <label for="level">{t("lobby.bot_level")}</label>
          <select id="level" value={level} onChange={(e) => setLevel((e.target as HTMLSelectElement).value)}>
            {LEVELS.map((l) => (
              <option key={l} value={l}>
                {levelText(l)}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="think">{t("lobby.think_ms")}</label>
          <input id="think" type="number" min={0} max={60000} value={thinkMs} onInput={(e) => setThinkMs((e.target as HTMLInputElement).value)} />
        </div>
        <div class="buttons">
          <button class="primary" type="button" disabled={working} onClick={() => void create_(true)} data-testid="play-bots">
            {t("lobby.play_bots")}
          </button>
          <button type="button" disabled={working} onClick={() => void create_(false)}>
            {t("lobby.open_table")}
          </button>
        </div>
        <Notice text={error} kind="error" />
      </form>
    </section>
  );
}

function OpenTables(props: { games: GameInfo[] }): JSX.Element {
  const [tables, setTables] = useState<TableSummary[]>([]);
  const [error, setError] = useState("");
  const load = async (): Promise<void> => {
    try {
      setTables((await api.lobby.listTables(create(ListTablesRequestSchema, { limit: 30 }))).tables);
    } catch (e) {
      setError(refusal(e).message);
    }
  };
  useEffect(() => {
    void load();
  }, []);
  const title = (name: string): string => gameTitle(name, props.games.find((g) => g.name === name)?.title ?? name);
  const join = async (table: TableSummary): Promise<void> => {
    try {
      await sitDown(table.tableId, table.game);
      location.hash = `#/table/${table.tableId}`;
    } catch (e) {
      setError(refusal(e).message);
    }
  };
  return (
    <section class="open-tables" aria-label={t("lobby.open_tables")}>
      <h2>
        {t("lobby.open_tables")} <button class="quiet" onClick={() => void load()}>{t("lobby.refresh")}</button>
      </h2>
      <Notice text={error} kind="error" />
      {tables.length === 0 ? (
        <p>{t("lobby.no_tables")}</p>
      ) : (
        <ul>
          {tables.map((table) => (
            <li key={table.tableId}>
              <strong>{title(table.game)}</strong> · {t("lobby.host", { name: table.host })} ·{" "}
              {table.status === TableStatus.OPEN ? t("lobby.free", { n: table.freeSeats }) : t("lobby.status_playing")}
              {table.houseRules.length > 0 && <span class="badge house">{t("common.house_rules")}</span>}{" "}
              {table.status === TableStatus.OPEN && table.freeSeats > 0 && <button onClick={() => void join(table)}>{t("lobby.sit")}</button>}
              {table.status === TableStatus.PLAYING && table.matchId && <a href={`#/match/${table.matchId}`}>{t("lobby.watch")}</a>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function Lobby(): JSX.Element {
  const [games, setGames] = useState<GameInfo[]>([]);
  const [chosen, setChosen] = useState("");
  const [error, setError] = useState("");
  useEffect(() => {
    api.lobby
      .listGames(create(ListGamesRequestSchema, { locale: session.locale() }))
      .then((r) => setGames(r.games))
      .catch((e: unknown) => setError(refusal(e).message));
  }, []);
  const game = games.find((g) => g.name === chosen);
  return (
    <main class="lobby">
      <Notice text={error} kind="error" />
      <section class="games" aria-label={t("lobby.games")}>
        <h2>{t("lobby.games")}</h2>
        <div class="game-list">
          {games.map((g) => (
            <button key={g.name} class={`game-tile${chosen === g.name ? " chosen" : ""}`} aria-pressed={chosen === g.name} data-game={g.name} onClick={() => setChosen(g.name)}>
              <strong>{gameTitle(g.name, g.title)}</strong>
              <span>{g.minPlayers === g.maxPlayers ? t("lobby.players_fixed", { n: g.minPlayers }) : t("lobby.players", { min: g.minPlayers, max: g.maxPlayers })}</span>
              <span>{g.lowerScoreWins ? t("lobby.lowest_wins") : t("lobby.highest_wins")}</span>
            </button>
          ))}
        </div>
      </section>
      {game ? <NewTable game={game} /> : <p>{t("lobby.choose_game")}</p>}
      <OpenTables games={games} />
    </main>
  );
}
