/**
 * A basket's money: line and cart discounts, then value-added tax per rate, exact to the cent. The till
 * prices a basket with these functions while it is offline and the API prices the sale it records
 * with the same ones, so both always agree. Imports nothing, so browser code may use it.
 *
 * The rules (docs/shop.md, "Discounts and tax"):
 * - A percentage is in basis points (1 % = 100); every division rounds half up, in integers.
 * - A line's discount comes off the line's gross (unit price × quantity), never below zero.
 * - A cart discount comes off what the lines come to after their own discounts, and is spread over
 *   the lines in proportion to them (largest remainder, ties to the earlier line), so each rate's
 *   taxable amount and each line's refund know their share.
 * - Tax is rounded once per rate over the whole sale (per invoice, as ZIMRA's fiscal receipts and
 *   most VAT authorities require), not per line.
 * - Prices entered tax-inclusive: the total is what the lines come to, and each rate's tax is the
 *   part of it that is tax. Tax-exclusive: each rate's tax is added on top.
 */

export type Discount =
  | { readonly kind: "percent"; readonly basisPoints: number }
  | { readonly kind: "amount"; readonly cents: number };

export type TaxMode = "inclusive" | "exclusive";

export type BasketLineInput = {
  readonly unitPriceCents: number;
  readonly quantity: number;
  readonly taxRateBasisPoints: number;
  readonly discount?: Discount | null;
};

export type PricedLine = {
  readonly grossCents: number;
  readonly lineDiscountCents: number;
  readonly cartDiscountCents: number;
  /** What the line comes to after both discounts, in the entered prices' terms. */
  readonly netCents: number;
  readonly taxRateBasisPoints: number;
};

export type TaxLine = {
  readonly rateBasisPoints: number;
  /** The amount the tax is charged on, without the tax. */
  readonly taxableCents: number;
  readonly taxCents: number;
};

export type PricedBasket = {
  readonly lines: readonly PricedLine[];
  /** The lines' gross before any discount. */
  readonly subtotalCents: number;
  readonly discountCents: number;
  readonly taxCents: number;
  readonly totalCents: number;
  /** One line per rate, lowest rate first. */
  readonly taxes: readonly TaxLine[];
};

const BASIS = 10_000n;

/** numerator / denominator for non-negative integers, rounded half up. */
export function divideRoundingHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (numerator * 2n + denominator) / (denominator * 2n);
}

/** A discount's cents off `baseCents`: never more than the base. */
export function discountCents(discount: Discount | null | undefined, baseCents: number): number {
  if (discount === null || discount === undefined) {
    return 0;
  }
  const off =
    discount.kind === "amount"
      ? discount.cents
      : Number(divideRoundingHalfUp(BigInt(baseCents) * BigInt(discount.basisPoints), BASIS));
  return Math.min(off, baseCents);
}

/**
 * Splits `totalCents` over parts in proportion to `weights` (largest remainder; ties to the earlier
 * part): the shares sum to the total exactly and none exceeds its weight when the total does not
 * exceed the weights' sum.
 */
export function spreadByWeight(totalCents: number, weights: readonly number[]): number[] {
  const weightSum = weights.reduce((sum, weight) => sum + BigInt(weight), 0n);
  if (weightSum === 0n) {
    return weights.map(() => 0);
  }
  const exact = weights.map((weight) => BigInt(totalCents) * BigInt(weight));
  const shares = exact.map((product) => product / weightSum);
  let left = totalCents - Number(shares.reduce((sum, share) => sum + share, 0n));
  const byRemainder = exact
    .map((product, index) => ({ index, remainder: product % weightSum }))
    .sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  const result = shares.map(Number);
  for (const { index } of byRemainder) {
    if (left === 0) {
      break;
    }
    result[index] = (result[index] ?? 0) + 1;
    left -= 1;
  }
  return result;
}

/** Each rate's tax over the lines' nets, rounded once per rate. */
function taxesByRate(lines: readonly PricedLine[], mode: TaxMode): TaxLine[] {
  const netByRate = new Map<number, bigint>();
  for (const line of lines) {
    netByRate.set(line.taxRateBasisPoints, (netByRate.get(line.taxRateBasisPoints) ?? 0n) + BigInt(line.netCents));
  }
  return [...netByRate.entries()]
    .sort(([a], [b]) => a - b)
    .map(([rate, net]) => {
      const rateBig = BigInt(rate);
      if (mode === "exclusive") {
        const tax = divideRoundingHalfUp(net * rateBig, BASIS);
        return { rateBasisPoints: rate, taxableCents: Number(net), taxCents: Number(tax) };
      }
      const tax = divideRoundingHalfUp(net * rateBig, BASIS + rateBig);
      return { rateBasisPoints: rate, taxableCents: Number(net - tax), taxCents: Number(tax) };
    });
}

/** Prices a basket: discounts, then tax per rate, then the total (see the rules above). */
export function priceBasket(
  lines: readonly BasketLineInput[],
  options: { readonly cartDiscount?: Discount | null; readonly taxMode: TaxMode },
): PricedBasket {
  const afterLineDiscounts = lines.map((line) => {
    const grossCents = line.unitPriceCents * line.quantity;
    const lineDiscountCents = discountCents(line.discount, grossCents);
    return { grossCents, lineDiscountCents, afterCents: grossCents - lineDiscountCents };
  });
  const afterSum = afterLineDiscounts.reduce((sum, line) => sum + line.afterCents, 0);
  const cartShares = spreadByWeight(
    discountCents(options.cartDiscount, afterSum),
    afterLineDiscounts.map((line) => line.afterCents),
  );
  const priced: PricedLine[] = afterLineDiscounts.map((line, index) => {
    const cartDiscountCents = cartShares[index] ?? 0;
    return {
      grossCents: line.grossCents,
      lineDiscountCents: line.lineDiscountCents,
      cartDiscountCents,
      netCents: line.afterCents - cartDiscountCents,
      taxRateBasisPoints: lines[index]?.taxRateBasisPoints ?? 0,
    };
  });
  const taxes = taxesByRate(priced, options.taxMode);
  const netSum = priced.reduce((sum, line) => sum + line.netCents, 0);
  const taxCents = taxes.reduce((sum, tax) => sum + tax.taxCents, 0);
  return {
    lines: priced,
    subtotalCents: priced.reduce((sum, line) => sum + line.grossCents, 0),
    discountCents: priced.reduce((sum, line) => sum + line.lineDiscountCents + line.cartDiscountCents, 0),
    taxCents,
    totalCents: options.taxMode === "exclusive" ? netSum + taxCents : netSum,
    taxes,
  };
}
