// What the browser keeps: the token, the language, and for each match the seat it plays,
// that seat's token and the last version it saw — so a reload, or a network that comes
// back, finds the table exactly as it was (StreamEvents after that version, then GetView).
export type Locale = "en" | "pt";

export interface SeatCredentials {
  matchId: string;
  tableId: string;
  game: string;
  seat: number;
  seatToken: string;
  version: number; // the last version this browser saw
  practice: boolean; // every other seat played by the platform's bots
}

const TOKEN = "tavola.token";
const LOCALE = "tavola.locale";
const SEATS = "tavola.seats";
const SOUND = "tavola.sound";

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

function read<T>(key: string, fallback: T): T {
  try {
    const raw = storage()?.getItem(key);
    return raw ? (JSON.parse(raw) as T) : fallback;
  } catch {
    return fallback;
  }
}

function write(key: string, value: unknown): void {
  storage()?.setItem(key, JSON.stringify(value));
}

function initialLocale(): Locale {
  const kept = read<string>(LOCALE, "");
  if (kept === "en" || kept === "pt") return kept;
  const browser = globalThis.navigator?.language ?? "en";
  return browser.toLowerCase().startsWith("pt") ? "pt" : "en";
}

let locale: Locale = initialLocale();

export const session = {
  token: (): string => read<string>(TOKEN, ""),
  setToken: (token: string): void => write(TOKEN, token),
  signOut: (): void => storage()?.removeItem(TOKEN),
  locale: (): Locale => locale,
  setLocale: (next: Locale): void => {
    locale = next;
    write(LOCALE, next);
    if (globalThis.document) globalThis.document.documentElement.lang = next === "pt" ? "pt-BR" : "en";
  },
  sound: (): boolean => read<boolean>(SOUND, true),
  setSound: (on: boolean): void => write(SOUND, on),
  seats: (): Record<string, SeatCredentials> => read<Record<string, SeatCredentials>>(SEATS, {}),
  seat: (matchId: string): SeatCredentials | null => session.seats()[matchId] ?? null,
  keepSeat: (seat: SeatCredentials): void => write(SEATS, { ...session.seats(), [seat.matchId]: seat }),
  sawVersion: (matchId: string, version: number): void => {
    const all = session.seats();
    const seat = all[matchId];
    if (seat && version > seat.version) write(SEATS, { ...all, [matchId]: { ...seat, version } });
  },
};
