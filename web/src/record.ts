// A typed `tavola.v1.Record` (a view or an event payload) as plain values: integers are
// numbers, cards and tiles small objects, enums their member's name, nested records objects.
import type { Record as PbRecord, Value } from "./gen/tavola/v1/common_pb";

export interface CardV {
  t: "card";
  code: string;
  rank: number;
  suit: number; // 1 clubs, 2 diamonds, 3 hearts, 4 spades
}
export interface TileV {
  t: "tile";
  code: string;
  high: number;
  low: number;
}
export interface EnumV {
  t: "enum";
  type: string;
  name: string;
}
export type Val = number | string | boolean | null | CardV | TileV | EnumV | Val[] | Obj;
export interface Obj {
  [field: string]: Val;
}

export function value(v: Value | undefined): Val {
  if (v === undefined) return null;
  const k = v.kind;
  switch (k.case) {
    case "intValue":
      return Number(k.value);
    case "stringValue":
    case "boolValue":
      return k.value;
    case "card":
      return { t: "card", code: k.value.code, rank: k.value.rank, suit: k.value.suit };
    case "tile":
      return { t: "tile", code: k.value.code, high: k.value.high, low: k.value.low };
    case "enumValue":
      return { t: "enum", type: k.value.type, name: k.value.name };
    case "list":
      return k.value.items.map(value);
    case "record":
      return record(k.value);
    default:
      return null;
  }
}

export function record(r: PbRecord | undefined): Obj {
  const out: Obj = {};
  if (r === undefined) return out;
  for (const f of r.fields) out[f.name] = value(f.value);
  out["$type"] = r.type;
  return out;
}

// ----- small readers, so renderers never trust a field's shape -----
export const num = (v: Val | undefined): number | null => (typeof v === "number" ? v : null);
export const list = (v: Val | undefined): Val[] => (Array.isArray(v) ? v : []);
export const obj = (v: Val | undefined): Obj | null =>
  v !== null && typeof v === "object" && !Array.isArray(v) && !("t" in v && typeof v.t === "string" && (v.t === "card" || v.t === "tile" || v.t === "enum")) ? (v as Obj) : null;
export const objs = (v: Val | undefined): Obj[] => list(v).map(obj).filter((o): o is Obj => o !== null);
export const isCard = (v: Val | undefined): v is CardV => typeof v === "object" && v !== null && !Array.isArray(v) && (v as CardV).t === "card";
export const isTile = (v: Val | undefined): v is TileV => typeof v === "object" && v !== null && !Array.isArray(v) && (v as TileV).t === "tile";
export const enumName = (v: Val | undefined): string | null =>
  typeof v === "object" && v !== null && !Array.isArray(v) && (v as EnumV).t === "enum" ? (v as EnumV).name : null;
export const cards = (v: Val | undefined): CardV[] => list(v).filter(isCard);
export const tiles = (v: Val | undefined): TileV[] => list(v).filter(isTile);
export const nums = (v: Val | undefined): number[] => list(v).map((x) => (typeof x === "number" ? x : 0));
