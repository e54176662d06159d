// Standings between games (provisional) and at the end (final), a bot always marked.
import type { JSX } from "preact";

import { t } from "../i18n";
import { botMark, type MatchInfo, type TableState } from "./model";

export function Standings(props: { state: TableState; info: MatchInfo | null; me: number }): JSX.Element {
  const { state, info, me } = props;
  const rows = [...state.standings].sort((a, b) => a.rank - b.rank || a.seat - b.seat);
  const title = state.finished ? t("table.final") : t("table.provisional");
  return (
    <section class="standings" aria-label={title} data-final={state.finished ? "true" : "false"}>
      <h3>{title}</h3>
      <table>
        <thead>
          <tr>
            <th scope="col">{t("table.rank")}</th>
            <th scope="col">{t("table.player")}</th>
            <th scope="col">{t("table.score")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((s) => (
            <tr key={s.seat} class={s.seat === me ? "me" : ""}>
              <td>{s.rank}</td>
              <td>
                {s.name}
                {s.seat === me ? ` (${t("common.you")})` : ""}
                {s.isBot && <span class="badge bot">{botMark(info, s.seat) || t("common.bot")}</span>}
              </td>
              <td>{s.score}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
