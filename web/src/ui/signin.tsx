// Signing in: with an API token, or — on the machine that runs `make run` — with the link
// it printed, whose secret the gateway exchanges for the local user's token.
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { create } from "@bufbuild/protobuf";

import { api, refusal } from "../api";
import { WhoAmIRequestSchema } from "../gen/tavola/v1/account_pb";
import { t } from "../i18n";
import { session } from "../session";
import { Notice } from "./pieces";

export async function localSignIn(secret: string): Promise<boolean> {
  const answer = await fetch("/local/sign-in", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ secret }),
  });
  if (!answer.ok) return false;
  const body = (await answer.json()) as { token?: string };
  if (!body.token) return false;
  session.setToken(body.token);
  return true;
}

export function SignIn(props: { onSignedIn: () => void; message?: string }): JSX.Element {
  const [token, setToken] = useState("");
  const [error, setError] = useState(props.message ?? "");
  const [checking, setChecking] = useState(false);
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setChecking(true);
    setError("");
    session.setToken(token.trim());
    try {
      await api.account.whoAmI(create(WhoAmIRequestSchema, {}));
      props.onSignedIn();
    } catch (err) {
      session.signOut();
      setError(refusal(err).message);
    } finally {
      setChecking(false);
    }
  };
  return (
    <main class="sign-in">
      <h1>{t("signin.title")}</h1>
      <p>{t("app.tagline")}</p>
      <form onSubmit={(e) => void submit(e)}>
        <label for="token">{t("signin.token")}</label>
        <input id="token" name="token" type="password" autocomplete="off" value={token} onInput={(e) => setToken((e.target as HTMLInputElement).value)} required />
        <button class="primary" type="submit" disabled={checking}>
          {checking ? t("signin.checking") : t("signin.submit")}
        </button>
      </form>
      <Notice text={error} kind="error" />
      <p>{t("signin.local")}</p>
      <pre class="mono">tavola account token --label browser</pre>
    </main>
  );
}
