// The table's rules: behind the gear, every option and its value; behind the "?" beside
// the game's name, "At this table": the preset, the match length and every rule that
// differs from the official one.
import type { JSX } from "preact";

import type { GameInfo } from "../gen/tavola/v1/lobby_pb";
import { t } from "../i18n";
import { choiceText } from "../labels";
import type { MatchInfo } from "./model";

function valueText(value: string): string {
  return choiceText(value);
}

export function matchLength(info: MatchInfo): string {
  const o = info.options;
  if (info.game === "doppelkopf" && o["match"]) return choiceText(o["match"]);
  if (info.game === "barbu") return t("length.blocks", { n: o["blocks"] ?? "4" });
  if (o["hands"] && o["hands"] !== "0") return t("length.hands", { n: o["hands"] });
  if (o["target"]) return t("length.target", { n: o["target"] });
  return t("length.one_per_player");
}

export function AtThisTable(props: { info: MatchInfo; game: GameInfo | undefined }): JSX.Element {
  const { info, game } = props;
  const preset = info.options["preset"];
  const specs = new Map((game?.options ?? []).map((o) => [o.name, o]));
  const differing = info.houseRules;
  return (
    <div class="at-this-table">
      <p>{t("table.preset", { name: preset ? choiceText(preset) : t("common.official") })}</p>
      <p>{t("table.length", { text: matchLength(info) })}</p>
      {differing.length === 0 ? (
        <p>{t("table.no_differences")}</p>
      ) : (
        <>
          <p>{t("table.differs")}</p>
          <ul>
            {differing.map((name) => (
              <li key={name}>
                <strong>{specs.get(name)?.description?.text ?? name}</strong>: {valueText(info.options[name] ?? "")}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

export function AllRules(props: { info: MatchInfo; game: GameInfo | undefined }): JSX.Element {
  const { info, game } = props;
  const names = game?.options.map((o) => o.name) ?? Object.keys(info.options);
  return (
    <table class="rules-table">
      <tbody>
        {names.map((name) => {
          const spec = game?.options.find((o) => o.name === name);
          const value = info.options[name] ?? spec?.defaultValue ?? "";
          const house = info.houseRules.includes(name);
          return (
            <tr key={name} class={house ? "house" : ""}>
              <th scope="row">{spec?.description?.text ?? name}</th>
              <td>
                {valueText(value)}
                {house && <span class="badge house"> {t("lobby.house_rule")}</span>}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
