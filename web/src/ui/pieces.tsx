// Cards, tiles, timers and dialogs: the small pieces every table is drawn with.
import type { ComponentChildren, JSX } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";

import { t } from "../i18n";
import { cardFace, cardName, tileName } from "../labels";

export function CardFace(props: { code: string; small?: boolean }): JSX.Element {
  const face = cardFace(props.code);
  return (
    <span class={`card-face${face.red ? " red" : ""}${props.small ? " small" : ""}`} aria-hidden="true">
      <span class="rank">{face.rank}</span>
      <span class="suit">{face.suit}</span>
    </span>
  );
}

/** A card on the table (not in the hand): an image with its name for screen readers. */
export function TableCard(props: { code: string; small?: boolean; label?: string }): JSX.Element {
  return (
    <span class="table-card" role="img" aria-label={props.label ?? cardName(props.code)}>
      <CardFace code={props.code} small={props.small} />
    </span>
  );
}

const PIPS: Record<number, number[][]> = {
  0: [],
  1: [[1, 1]],
  2: [[0, 0], [2, 2]],
  3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [0, 2], [2, 0], [2, 2]],
  5: [[0, 0], [0, 2], [1, 1], [2, 0], [2, 2]],
  6: [[0, 0], [1, 0], [2, 0], [0, 2], [1, 2], [2, 2]],
};

function Half(props: { n: number; x: number; y: number }): JSX.Element {
  return (
    <g>
      {(PIPS[props.n] ?? []).map(([r, c], i) => (
        <circle key={i} cx={props.x + 6 + (c ?? 0) * 9} cy={props.y + 6 + (r ?? 0) * 9} r={2.6} class="pip" />
      ))}
    </g>
  );
}

/** A domino, drawn with its pips; ``vertical`` for doubles across the line. */
export function TileFace(props: { a: number; b: number; vertical?: boolean }): JSX.Element {
  const { a, b, vertical } = props;
  if (vertical) {
    return (
      <svg class="tile-face vertical" viewBox="0 0 30 60" aria-hidden="true">
        <rect x="0.5" y="0.5" width="29" height="59" rx="4" class="tile-body" />
        <line x1="3" y1="30" x2="27" y2="30" class="tile-bar" />
        <Half n={a} x={3} y={3} />
        <Half n={b} x={3} y={33} />
      </svg>
    );
  }
  return (
    <svg class="tile-face" viewBox="0 0 60 30" aria-hidden="true">
      <rect x="0.5" y="0.5" width="59" height="29" rx="4" class="tile-body" />
      <line x1="30" y1="3" x2="30" y2="27" class="tile-bar" />
      <Half n={a} x={3} y={3} />
      <Half n={b} x={33} y={3} />
    </svg>
  );
}

export function TableTile(props: { code: string; left: number; right: number }): JSX.Element {
  const double = props.left === props.right;
  return (
    <span class={`line-tile${double ? " double" : ""}`} role="img" aria-label={tileName(props.code)}>
      <TileFace a={props.left} b={props.right} vertical={double} />
    </span>
  );
}

/** Seconds left until ``deadlineMs``, ticking. */
export function useSecondsLeft(deadlineMs: number | null): number | null {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (deadlineMs === null) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [deadlineMs]);
  if (deadlineMs === null) return null;
  return Math.max(0, Math.ceil((deadlineMs - now) / 1000));
}

export function Timer(props: { deadlineMs: number; seconds: number; name: string; mine: boolean }): JSX.Element {
  const left = useSecondsLeft(props.deadlineMs) ?? 0;
  const share = props.seconds > 0 ? Math.min(1, left / props.seconds) : 0;
  return (
    <span
      class={`timer${props.mine ? " mine" : ""}${left <= 5 ? " urgent" : ""}`}
      role="timer"
      aria-label={t("table.timer_label", { name: props.name, seconds: left })}
      data-seconds={left}
    >
      <span class="timer-bar" style={{ width: `${Math.round(share * 100)}%` }} />
      <span class="timer-text">{t("table.timer", { seconds: left })}</span>
    </span>
  );
}

// the dialogs open now, the latest last: Escape closes the latest wherever the focus is
const openDialogs: (() => void)[] = [];

function escapeClosesTheLatest(e: KeyboardEvent): void {
  if (e.key !== "Escape" || !openDialogs.length) return;
  e.stopPropagation();
  openDialogs[openDialogs.length - 1]?.();
}

export function Dialog(props: { title: string; onClose: () => void; children: ComponentChildren; id?: string }): JSX.Element {
  const box = useRef<HTMLDivElement>(null);
  const close = useRef(props.onClose);
  close.current = props.onClose;
  // the focus moves in as the dialog is drawn (a key pressed at once is the dialog's)
  useLayoutEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    box.current?.querySelector<HTMLElement>("button, [tabindex]")?.focus();
    const mine = (): void => close.current();
    openDialogs.push(mine);
    if (openDialogs.length === 1) document.addEventListener("keydown", escapeClosesTheLatest);
    return () => {
      openDialogs.splice(openDialogs.indexOf(mine), 1);
      if (!openDialogs.length) document.removeEventListener("keydown", escapeClosesTheLatest);
      previous?.focus?.();
    };
  }, []);
  return (
    <div class="dialog-backdrop" onClick={props.onClose}>
      <div
        class="dialog"
        role="dialog"
        aria-modal="true"
        aria-label={props.title}
        id={props.id}
        ref={box}
        onClick={(e) => e.stopPropagation()}
      >
        <header>
          <h2>{props.title}</h2>
          <button class="icon" onClick={props.onClose} aria-label={t("common.close")}>
            ×
          </button>
        </header>
        <div class="dialog-body">{props.children}</div>
      </div>
    </div>
  );
}

export function Notice(props: { text: string; kind?: "error" | "info" }): JSX.Element | null {
  if (!props.text) return null;
  return (
    <p class={`notice ${props.kind ?? "info"}`} role={props.kind === "error" ? "alert" : "status"}>
      {props.text}
    </p>
  );
}
