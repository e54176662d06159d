import { afterEach, describe, expect, it } from "vitest";

import { actionLabel, cardName, cardShort, tileName } from "../src/labels";
import { record } from "../src/record";
import { session } from "../src/session";
import { slotOf } from "../src/ui/games";
import { create } from "@bufbuild/protobuf";
import { RecordSchema } from "../src/gen/tavola/v1/common_pb";

const names = (seat: number): string => ["Ana", "Bia", "Caio", "Davi"][seat] ?? "?";

afterEach(() => session.setLocale("en"));

describe("labels from the API's codes", () => {
  it("names cards for the eye and for screen readers", () => {
    expect(cardShort("TH")).toBe("10♥");
    expect(cardName("QS")).toBe("queen of spades");
    session.setLocale("pt");
    expect(cardName("QS")).toBe("dama de espadas");
    expect(tileName("6-4")).toBe("pedra 6-4");
  });

  it("labels every kind of action in both languages", () => {
    expect(actionLabel("spades", "bid 4", "Bid 4", names)).toBe("Bid 4");
    expect(actionLabel("spades", "nil", "Nil", names)).toBe("Nil");
    expect(actionLabel("barbu", "double 0 2", "double 0, 2", names)).toBe("Double Ana, Caio");
    expect(actionLabel("barbu", "contract trumps S", "", names)).toBe("Trumps ♠");
    expect(actionLabel("barbu", "contract domino T", "", names)).toBe("Domino from 10");
    expect(actionLabel("dominoes", "6-1 L", "", names)).toBe("6|1 on the left");
    expect(actionLabel("doppelkopf", "solo Q", "Queen solo", names)).toBe("Queen solo");
    session.setLocale("pt");
    expect(actionLabel("barbu", "contract no-queens", "No Queens", names)).toBe("Sem Damas");
    expect(actionLabel("doppelkopf", "no 90", "no 90", names)).toBe("Sem 90");
    expect(actionLabel("doppelkopf", "healthy", "healthy", names)).toBe("«Gesund» (sem reserva)");
    expect(actionLabel("spades", "pass", "pass", names)).toBe("Passo");
  });

  it("keeps the server's label for a code it does not know", () => {
    expect(actionLabel("fan-tan", "something new", "Something new", names)).toBe("Something new");
  });
});

describe("records and the table's geometry", () => {
  it("reads a typed record into plain values", () => {
    const r = create(RecordSchema, {
      type: "spades.View",
      fields: [
        { name: "hand_number", value: { kind: { case: "intValue", value: 3n } } },
        { name: "hand", value: { kind: { case: "list", value: { items: [{ kind: { case: "card", value: { code: "AS", rank: 14, suit: 4 } } }] } } } },
        { name: "winner", value: { kind: { case: "nullValue", value: true } } },
      ],
    });
    const view = record(r);
    expect(view["hand_number"]).toBe(3);
    expect(view["hand"]).toEqual([{ t: "card", code: "AS", rank: 14, suit: 4 }]);
    expect(view["winner"]).toBeNull();
    expect(view["$type"]).toBe("spades.View");
  });

  it("puts the viewer at the bottom and the others around", () => {
    expect([0, 1, 2, 3].map((s) => slotOf(s, 2, 4))).toEqual(["top", "right", "bottom", "left"]);
    expect([0, 1].map((s) => slotOf(s, 1, 2))).toEqual(["top", "bottom"]);
    expect(slotOf(2, -1, 5)).toBe("top");
  });
});
