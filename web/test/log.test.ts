import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";

import { CauseKind, CauseSchema, EventEnvelopeSchema, type EventEnvelope } from "../src/gen/tavola/v1/events_pb";
import { ReasonSchema } from "../src/gen/tavola/v1/common_pb";
import { logLines, type LogLine } from "../src/ui/model";

function event(version: number, kind: CauseKind, last: boolean, extra: { hidden?: boolean; action?: string } = {}, reason = ""): EventEnvelope {
  return create(EventEnvelopeSchema, {
    version: BigInt(version),
    lastInBatch: last,
    cause: create(CauseSchema, {
      kind,
      seat: kind === CauseKind.SYSTEM ? -1 : 2,
      action: extra.action ?? (kind === CauseKind.SYSTEM ? "" : "7D"),
      automaticReason: reason ? create(ReasonSchema, { text: reason }) : undefined,
    }),
    hidden: extra.hidden ?? false,
  });
}

/** The lines a stream's events make, in two runs split inside the first append (an append
 * may span two responses of a backlog). */
function lines(events: EventEnvelope[]): LogLine[] {
  const first = logLines(events.slice(0, 1), false);
  return [...first.lines, ...logLines(events.slice(1), first.logged).lines];
}

describe("the table's log of moves", () => {
  it("has one line a move, though the append ends with the next turn's timer", () => {
    const stream = [
      event(10, CauseKind.ACTION, false), // the card
      event(11, CauseKind.ACTION, false), // the trick it won
      event(12, CauseKind.SYSTEM, true), // match.DeadlineSet
      event(13, CauseKind.TIMEOUT, false, {}, "The time ran out"),
      event(14, CauseKind.TIMEOUT, false, {}, "The time ran out"),
      event(15, CauseKind.SYSTEM, true),
      event(16, CauseKind.ACTION, true), // an append of one event
    ];
    expect(lines(stream)).toEqual([
      { version: 10, seat: 2, action: "7D", automatic: null },
      { version: 13, seat: 2, action: "7D", automatic: "The time ran out" },
      { version: 16, seat: 2, action: "7D", automatic: null },
    ]);
  });

  it("leaves out what the viewer may not see and the platform's own events", () => {
    const stream = [
      event(1, CauseKind.SYSTEM, true),
      event(2, CauseKind.CHANCE, true),
      event(3, CauseKind.ACTION, false, { hidden: true }), // another seat's card passed
      event(4, CauseKind.ACTION, true),
      event(5, CauseKind.ACTION, true, { action: "" }), // another seat's reservation
      event(6, CauseKind.ACTION, true, { action: "healthy" }), // one's own, not yet shown
    ];
    expect(lines(stream).map((l) => l.version)).toEqual([4]);
  });
});
