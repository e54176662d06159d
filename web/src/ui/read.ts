// Readers for the plain values of a record (re-exported with the few the table adds).
export { enumName, list, num, nums, obj, objs, type Obj, type Val } from "../record";
import { isCard, isTile, type Val } from "../record";

export const bool = (v: Val | undefined): boolean => v === true;
/** A card's or tile's code ("" when the value is neither). */
export const cardOf = (v: Val | undefined): string => (isCard(v) || isTile(v) ? v.code : "");
