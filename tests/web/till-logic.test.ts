/// <reference lib="dom" />

import { parseAmountCents, quickTenders } from "../../web/till/money.ts";
import { saleReference } from "../../web/till/returns/sale-reference.ts";
import { characterOf, KEY_GAP_MS_MAX, ScanDetector } from "../../web/till/scan/scanner.ts";

/** The till's pure logic; its behaviour on screen is tested in real Chromium (tests/browser/till). */

describe("ScanDetector", () => {
  const feed = (detector: ScanDetector, text: string, startMs: number, gapMs: number) => {
    for (const [index, character] of [...text].entries()) {
      detector.character(character, startMs + index * gapMs);
    }
    return startMs + (text.length - 1) * gapMs;
  };

  test("a burst of keys at most 30 ms apart ended by Enter within 30 ms is a scan", () => {
    const detector = new ScanDetector();
    const last = feed(detector, "5000112637922", 1000, 8);
    expect(detector.end(last + 9)).toBe("5000112637922");
  });

  test("people typing (60 ms and more between keys) are never a scan, however fast the Enter", () => {
    const detector = new ScanDetector();
    const last = feed(detector, "5000112637922", 1000, 60);
    expect(detector.end(last + 5)).toBeUndefined();
  });

  test("a gap over the limit starts a new burst; only the burst before Enter counts; too short is no scan", () => {
    const detector = new ScanDetector();
    const typed = feed(detector, "12", 1000, 200);
    const last = feed(detector, "6001234567890", typed + 500, KEY_GAP_MS_MAX);
    expect(detector.end(last + KEY_GAP_MS_MAX)).toBe("6001234567890");
    const short = feed(detector, "12", last + 1000, 5);
    expect(detector.end(short + 5)).toBeUndefined();
    const slowEnd = feed(detector, "123456", short + 1000, 5);
    expect(detector.end(slowEnd + KEY_GAP_MS_MAX + 1)).toBeUndefined();
  });

  test("a key stamped before the previous one starts afresh", () => {
    const detector = new ScanDetector();
    feed(detector, "999", 5000, 5);
    const last = feed(detector, "4006381333931", 1000, 5);
    expect(detector.end(last + 5)).toBe("4006381333931");
  });
});

test("characterOf reads digits and letters from the physical key, whatever the layout typed", () => {
  // AZERTY: the key of "1" types "&" unshifted; a scanner meant "1".
  expect(characterOf({ key: "&", code: "Digit1", shiftKey: false })).toBe("1");
  expect(characterOf({ key: "q", code: "KeyA", shiftKey: false })).toBe("a");
  expect(characterOf({ key: "Q", code: "KeyA", shiftKey: true })).toBe("A");
  expect(characterOf({ key: "-", code: "Minus", shiftKey: false })).toBe("-");
  expect(characterOf({ key: "Shift", code: "ShiftLeft", shiftKey: true })).toBeUndefined();
});

test("parseAmountCents takes what a cashier types and nothing else", () => {
  expect(["13", "13.5", "13.50", "1,234.05", " 7 "].map(parseAmountCents)).toEqual([1300, 1350, 1350, 123405, 700]);
  expect(["", "abc", "1.234", "-3", "1e3", "12.3.4"].map(parseAmountCents)).toEqual([
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
  ]);
});

test("quick tenders are the next amounts notes make above the total, smallest first", () => {
  expect(quickTenders(420, "USD")).toEqual([500, 600, 1000, 2000]);
  expect(quickTenders(1340, "USD")).toEqual([1400, 1500, 2000, 5000]);
  expect(quickTenders(2000, "USD")).toEqual([5000, 10_000]);
  expect(quickTenders(2500, "ZWG")).toEqual([3000, 4000, 5000, 10_000]);
});

describe("saleReference", () => {
  const token = "Ab3_-".repeat(6).concat("xy");
  test("a receipt's number, its link (as its QR holds it) or its bare token name a sale", () => {
    expect(saleReference(" sale_0123456789ABCDEFGHIJabcd ")).toEqual({ saleId: "sale_0123456789ABCDEFGHIJabcd" });
    expect(saleReference(`https://pay.example/receipts/${token}`)).toEqual({ receiptToken: token });
    expect(saleReference(`https://pay.example/receipts/${token}?paper=a4`)).toEqual({ receiptToken: token });
    expect(saleReference(token)).toEqual({ receiptToken: token });
  });

  test("anything else names nothing", () => {
    for (const input of [
      "",
      "sale_short",
      "ret_0123456789ABCDEFGHIJabcd",
      `https://pay.example/receipts/${token}x`,
      "Kettle",
    ]) {
      expect(saleReference(input)).toBeUndefined();
    }
  });
});
