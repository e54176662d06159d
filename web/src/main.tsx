// The web table: sign-in, lobby, tables, replays and statistics, routed by the URL's hash
// (#/, #/match/ID, #/table/ID, #/replay/ID, #/stats), in English or Portuguese.
import { render, type JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { create } from "@bufbuild/protobuf";

import { api, Code, refusal } from "./api";
import { WhoAmIRequestSchema } from "./gen/tavola/v1/account_pb";
import { t } from "./i18n";
import { session, type Locale } from "./session";
import { Lobby } from "./ui/lobby";
import { Dialog } from "./ui/pieces";
import { Replay } from "./ui/replay";
import { localSignIn, SignIn } from "./ui/signin";
import { Stats } from "./ui/stats";
import { TableScreen } from "./ui/table";
import { WaitingRoom } from "./ui/waiting";
import "./styles.css";

function route(): string[] {
  return (location.hash.replace(/^#\/?/, "").split("?")[0] ?? "").split("/").filter(Boolean);
}

function KeysHelp(props: { onClose: () => void }): JSX.Element {
  return (
    <Dialog title={t("keys.title")} onClose={props.onClose} id="keys-help">
      <ul class="keys">
        <li>{t("keys.tab")}</li>
        <li>{t("keys.arrows")}</li>
        <li>{t("keys.enter")}</li>
        <li>{t("keys.escape")}</li>
        <li>{t("keys.h")}</li>
        <li>{t("keys.u")}</li>
        <li>{t("keys.m")}</li>
        <li>{t("keys.help")}</li>
      </ul>
    </Dialog>
  );
}

function App(): JSX.Element {
  const [path, setPath] = useState(route());
  const [locale, setLocale] = useState<Locale>(session.locale());
  const [sound, setSound] = useState(session.sound());
  const [me, setMe] = useState<{ name: string; accountId: string } | null>(null);
  const [signedIn, setSignedIn] = useState(Boolean(session.token()));
  const [signInMessage, setSignInMessage] = useState("");
  const [keys, setKeys] = useState(false);

  useEffect(() => {
    const onHash = (): void => setPath(route());
    globalThis.addEventListener("hashchange", onHash);
    return () => globalThis.removeEventListener("hashchange", onHash);
  }, []);

  // the link `make run` printed: #sign-in=SECRET, exchanged once, then out of the address bar
  useEffect(() => {
    const found = /sign-in=([\w-]+)/.exec(location.hash);
    if (!found) return;
    history.replaceState(null, "", location.pathname + "#/");
    setPath([]);
    localSignIn(found[1] as string)
      .then((ok) => {
        if (ok) setSignedIn(true);
        else setSignInMessage(t("signin.local_failed"));
      })
      .catch(() => setSignInMessage(t("signin.local_failed")));
  }, []);

  useEffect(() => {
    if (!signedIn) return;
    api.account
      .whoAmI(create(WhoAmIRequestSchema, {}))
      .then((r) => setMe({ name: r.account?.name ?? "", accountId: r.account?.accountId ?? "" }))
      .catch((e: unknown) => {
        if (refusal(e).code === Code.Unauthenticated) {
          session.signOut();
          setSignedIn(false);
        }
      });
  }, [signedIn]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      const target = e.target as HTMLElement | null;
      if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === "m" || e.key === "M") {
        session.setSound(!session.sound());
        setSound(session.sound());
      } else if (e.key === "?") {
        setKeys((open) => !open);
      }
    };
    globalThis.addEventListener("keydown", onKey);
    return () => globalThis.removeEventListener("keydown", onKey);
  }, []);

  const choose = (next: Locale): void => {
    session.setLocale(next);
    setLocale(next);
  };

  const [screen, id = ""] = path;
  let body: JSX.Element;
  if (!signedIn) body = <SignIn onSignedIn={() => setSignedIn(true)} message={signInMessage} />;
  else if (screen === "match") body = <TableScreen matchId={id} />;
  else if (screen === "table") body = <WaitingRoom tableId={id} accountId={me?.accountId ?? ""} />;
  else if (screen === "replay") body = <Replay matchId={id} />;
  else if (screen === "stats") body = <Stats name={me?.name ?? ""} accountId={me?.accountId ?? ""} />;
  else body = <Lobby />;

  return (
    <div class="app" lang={locale === "pt" ? "pt-BR" : "en"}>
      <a class="skip" href="#content" onClick={(e) => { e.preventDefault(); document.getElementById("content")?.focus(); }}>
        {t("nav.skip")}
      </a>
      <header class="top">
        <a class="brand" href="#/">
          {t("app.name")}
        </a>
        {signedIn && (
          <nav>
            <a href="#/">{t("nav.lobby")}</a>
            <a href="#/stats">{t("nav.stats")}</a>
          </nav>
        )}
        <div class="top-tools">
          <div class="language" role="group" aria-label={t("nav.language")}>
            <button aria-pressed={locale === "en"} onClick={() => choose("en")} lang="en" data-locale="en">
              EN
            </button>
            <button aria-pressed={locale === "pt"} onClick={() => choose("pt")} lang="pt-BR" data-locale="pt">
              PT
            </button>
          </div>
          <button class="quiet" aria-pressed={sound} onClick={() => { session.setSound(!sound); setSound(!sound); }}>
            {sound ? t("nav.sound_on") : t("nav.sound_off")}
          </button>
          <button class="quiet" onClick={() => setKeys(true)}>
            {t("nav.keys")}
          </button>
          {signedIn && me && <span class="who">{t("nav.signed_in_as", { name: me.name })}</span>}
          {signedIn && (
            <button class="quiet" onClick={() => { session.signOut(); setSignedIn(false); }}>
              {t("nav.sign_out")}
            </button>
          )}
        </div>
      </header>
      <div id="content" tabIndex={-1} key={`${locale}-${path.join("/")}`}>
        {body}
      </div>
      {keys && <KeysHelp onClose={() => setKeys(false)} />}
    </div>
  );
}

session.setLocale(session.locale());
render(<App />, document.getElementById("app") as HTMLElement);
