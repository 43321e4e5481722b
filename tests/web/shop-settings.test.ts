import { basisPointsOf, percentOf } from "../../web/dashboard/pages/shop/settings/tax-rate.ts";
import { rateText } from "../../web/lib/api/exchange-rates.ts";

/** The shop settings' pure conversions; the pages themselves are tested in real Chromium. */

describe("a tax rate typed as a percent", () => {
  test("is read exactly as basis points, from the digits", () => {
    expect(basisPointsOf("15.5")).toBe(1550);
    expect(basisPointsOf("14.35")).toBe(1435); // 14.35 * 100 is 1434.9999999999998
    expect(basisPointsOf("0")).toBe(0);
    expect(basisPointsOf("100")).toBe(10_000);
    expect(basisPointsOf(" 15 % ")).toBe(1500);
    for (const refused of ["", "15.555", "100.01", "101", "-1", "1e2", "15,5", "."]) {
      expect(basisPointsOf(refused)).toBeUndefined();
    }
  });

  test("every rate the API keeps reads back as the percent that makes it", () => {
    const misread = Array.from({ length: 10_001 }, (_, basisPoints) => basisPoints).filter(
      (basisPoints) => basisPointsOf(percentOf(basisPoints)) !== basisPoints,
    );
    expect(misread).toEqual([]);
    expect(percentOf(1550)).toBe("15.5");
    expect(percentOf(1500)).toBe("15");
    expect(percentOf(5)).toBe("0.05");
  });
});

describe("a rate of the day as typed", () => {
  test("is sent when the API would take it", () => {
    expect(rateText(" 26.7843 ")).toBe("26.7843");
    expect(rateText("0.037")).toBe("0.037");
    for (const refused of ["", "0", "0.000000", "26.1234567", "01.5", "26,78", "-3", "1000000000"]) {
      expect(rateText(refused)).toBeUndefined();
    }
  });
});
