import { z } from "zod";
import type { Currency } from "../../kernel/money.ts";
import { invalidRequest } from "../../platform/errors.ts";
import { msisdnSchema } from "../../platform/http/validation.ts";

/**
 * The utility providers a merchant can sell for: prepaid electricity (ZESA), airtime and bundles of
 * the three mobile networks, DStv subscriptions and City of Harare water accounts. Each declares its
 * account format, currencies, products (a free amount within bounds, or a fixed price per unit), the
 * `additional_data` it needs (a strict zod schema, published as JSON Schema by
 * `GET /v1/utilities/providers`), the platform's fee and the provider's commission to the merchant.
 *
 * The same catalogue answers in both worlds; the sandbox and the simulator play the billers.
 */

type Cents = Partial<Record<Currency, number>>;

export type UtilityProduct =
  | { code: string; name: string; pricing: "variable"; min_cents: Cents; max_cents: Cents }
  | { code: string; name: string; pricing: "fixed"; price_cents: Cents; unit: string };

export type UtilityProvider = {
  id: string;
  name: string;
  category: "electricity" | "airtime" | "tv" | "water";
  currencies: readonly Currency[];
  account: { label: string; pattern: RegExp; example: string };
  products: readonly UtilityProduct[];
  additionalData: z.ZodType<Record<string, unknown>>;
  /** How many price units a fixed-price purchase is for (DStv: months); 1 for others. */
  quantityOf?: (additionalData: Record<string, unknown>) => number;
  /** The platform's fee to the merchant: basis points of the amount (rounded half up) plus a fixed part. */
  fee: { bps: number; fixed_cents: Record<Currency, number> };
  /** The provider's commission, credited to the merchant with the payment: basis points, rounded half up. */
  commission_bps: number;
};

const noAdditionalData = z.strictObject({}).meta({ description: "Nothing: omit additional_data or send {}." });

const airtime = (options: {
  id: string;
  name: string;
  prefixes: string;
  example: string;
  commissionBps: number;
  bundles: UtilityProduct[];
}): UtilityProvider => ({
  id: options.id,
  name: options.name,
  category: "airtime",
  currencies: ["USD", "ZWG"],
  account: {
    label: `${options.name.split(" ")[0]} mobile number (263 ${options.prefixes} …)`,
    pattern: new RegExp(`^263(${options.prefixes.split("/").join("|")})[0-9]{7}$`),
    example: options.example,
  },
  products: [
    {
      code: "AIRTIME",
      name: "Airtime top-up",
      pricing: "variable",
      min_cents: { USD: 50, ZWG: 1_350 },
      max_cents: { USD: 10_000, ZWG: 270_000 },
    },
    ...options.bundles,
  ],
  additionalData: noAdditionalData,
  fee: { bps: 0, fixed_cents: { USD: 0, ZWG: 0 } },
  commission_bps: options.commissionBps,
});

export const utilityProviders: readonly UtilityProvider[] = [
  {
    id: "zesa",
    name: "ZESA (ZETDC) prepaid electricity",
    category: "electricity",
    currencies: ["USD", "ZWG"],
    account: { label: "Prepaid meter number (11 digits)", pattern: /^[0-9]{11}$/, example: "37132640914" },
    products: [
      {
        code: "ZESA_PREPAID",
        name: "Prepaid electricity token",
        pricing: "variable",
        min_cents: { USD: 100, ZWG: 2_700 },
        max_cents: { USD: 50_000, ZWG: 1_350_000 },
      },
    ],
    additionalData: z
      .strictObject({
        customer_msisdn: msisdnSchema.optional().meta({ description: "Where the token is also sent by SMS." }),
      })
      .meta({ description: "Optional: customer_msisdn (263…) to receive the token by SMS." }),
    fee: { bps: 0, fixed_cents: { USD: 0, ZWG: 0 } },
    commission_bps: 150,
  },
  airtime({
    id: "econet",
    name: "Econet Wireless",
    prefixes: "77/78",
    example: "263771234567",
    commissionBps: 300,
    bundles: [
      {
        code: "DATA_1GB",
        name: "1 GB data bundle (30 days)",
        pricing: "fixed",
        price_cents: { USD: 500 },
        unit: "bundle",
      },
      { code: "SMS_200", name: "200 SMS bundle (7 days)", pricing: "fixed", price_cents: { USD: 100 }, unit: "bundle" },
    ],
  }),
  airtime({
    id: "netone",
    name: "NetOne",
    prefixes: "71",
    example: "263712345678",
    commissionBps: 350,
    bundles: [
      {
        code: "ONEFI_2GB",
        name: "OneFi 2 GB data bundle (30 days)",
        pricing: "fixed",
        price_cents: { USD: 800 },
        unit: "bundle",
      },
    ],
  }),
  airtime({
    id: "telecel",
    name: "Telecel Zimbabwe",
    prefixes: "73",
    example: "263732345678",
    commissionBps: 350,
    bundles: [],
  }),
  {
    id: "dstv",
    name: "DStv (MultiChoice Zimbabwe)",
    category: "tv",
    currencies: ["USD"],
    account: { label: "Smartcard number (10 digits)", pattern: /^[0-9]{10}$/, example: "4123456789" },
    products: [
      { code: "DSTV_PADI", name: "DStv Padi", pricing: "fixed", price_cents: { USD: 1_300 }, unit: "month" },
      { code: "DSTV_FAMILY", name: "DStv Family", pricing: "fixed", price_cents: { USD: 2_500 }, unit: "month" },
      { code: "DSTV_COMPACT", name: "DStv Compact", pricing: "fixed", price_cents: { USD: 4_200 }, unit: "month" },
      { code: "DSTV_PREMIUM", name: "DStv Premium", pricing: "fixed", price_cents: { USD: 9_900 }, unit: "month" },
    ],
    additionalData: z
      .strictObject({
        customer_name: z
          .string()
          .trim()
          .min(2)
          .max(100)
          .meta({ description: "The subscriber's name, as on the account." }),
        months: z
          .number()
          .int()
          .min(1)
          .max(12)
          .meta({ description: "Months paid for: amount_cents is price × months." }),
      })
      .meta({ description: "Required: customer_name and months (1 to 12)." }),
    quantityOf: (additionalData) => (typeof additionalData.months === "number" ? additionalData.months : 1),
    fee: { bps: 0, fixed_cents: { USD: 50, ZWG: 1_350 } },
    commission_bps: 100,
  },
  {
    id: "harare_water",
    name: "City of Harare water and rates",
    category: "water",
    currencies: ["USD", "ZWG"],
    account: { label: "Council account number (8 to 10 digits)", pattern: /^[0-9]{8,10}$/, example: "0120034567" },
    products: [
      {
        code: "WATER_RATES",
        name: "Water and rates payment",
        pricing: "variable",
        min_cents: { USD: 100, ZWG: 2_700 },
        max_cents: { USD: 500_000, ZWG: 13_500_000 },
      },
    ],
    additionalData: z
      .strictObject({
        account_holder: z.string().trim().min(2).max(100).meta({ description: "The account holder's name." }),
        stand_number: z.string().trim().min(1).max(20).optional().meta({ description: "The property's stand number." }),
      })
      .meta({ description: "Required: account_holder; optional: stand_number." }),
    fee: { bps: 0, fixed_cents: { USD: 25, ZWG: 675 } },
    commission_bps: 50,
  },
];

const roundedBps = (amountCents: number, bps: number) => Math.floor((amountCents * bps + 5000) / 10_000);

export type PricedUtilityPayment = {
  provider: UtilityProvider;
  product: UtilityProduct;
  additionalData: Record<string, unknown>;
  feeCents: number;
  commissionCents: number;
};

type UtilityPaymentInput = {
  provider: string;
  provider_product: string;
  amount_cents: number;
  currency: Currency;
  destination_account: string;
  additional_data?: Record<string, unknown> | undefined;
};

/**
 * Validates a payment against its provider (account format, currency, product, amount, and the
 * shape of `additional_data`, checked in that order) and prices it. Throws the 400 that names what is wrong.
 */
export function priceUtilityPayment(input: UtilityPaymentInput): PricedUtilityPayment {
  const { provider, product } = providerProductOf(input);
  if (!provider.account.pattern.test(input.destination_account)) {
    throw invalidRequest(
      "invalid_destination_account",
      `destination_account: expected a ${provider.account.label}, e.g. ${provider.account.example}.`,
    );
  }
  const additionalData = additionalDataOf(provider, input.additional_data);
  const currency = input.currency;
  const amount = input.amount_cents;
  if (!provider.currencies.includes(currency)) {
    throw invalidRequest("currency_not_supported", `${provider.name} takes ${provider.currencies.join(" or ")}.`);
  }
  if (product.pricing === "variable") {
    checkVariableAmount(product, currency, amount);
  } else {
    checkFixedAmount(product, currency, amount, provider.quantityOf?.(additionalData) ?? 1);
  }
  return {
    provider,
    product,
    additionalData,
    feeCents: roundedBps(amount, provider.fee.bps) + provider.fee.fixed_cents[currency],
    commissionCents: roundedBps(amount, provider.commission_bps),
  };
}

/** The payment's provider and product, or the 400 that lists the ones there are. */
function providerProductOf(input: UtilityPaymentInput): { provider: UtilityProvider; product: UtilityProduct } {
  const provider = utilityProviders.find((candidate) => candidate.id === input.provider);
  if (provider === undefined) {
    throw invalidRequest(
      "unknown_provider",
      `provider: no provider ${input.provider}; GET /v1/utilities/providers lists them (${utilityProviders.map((each) => each.id).join(", ")}).`,
    );
  }
  const product = provider.products.find((candidate) => candidate.code === input.provider_product);
  if (product === undefined) {
    throw invalidRequest(
      "unknown_provider_product",
      `provider_product: ${provider.name} sells ${provider.products.map((each) => each.code).join(", ")}.`,
    );
  }
  return { provider, product };
}

/** `additional_data` as the provider's schema reads it, or the 400 that names its first wrong field. */
function additionalDataOf(
  provider: UtilityProvider,
  additionalData: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const parsed = provider.additionalData.safeParse(additionalData ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field =
      issue === undefined || issue.path.length === 0 ? "additional_data" : `additional_data.${issue.path.join(".")}`;
    const detail = issue?.code === "unrecognized_keys" ? `unknown field ${issue.keys.join(", ")}` : issue?.message;
    throw invalidRequest("invalid_additional_data", `${field}: ${detail ?? "invalid"}.`);
  }
  return parsed.data;
}

/** A variable-priced product: the amount within its range in that currency. */
function checkVariableAmount(
  product: Extract<UtilityProduct, { pricing: "variable" }>,
  currency: Currency,
  amount: number,
): void {
  const min = product.min_cents[currency];
  const max = product.max_cents[currency];
  if (min === undefined || max === undefined) {
    throw invalidRequest("currency_not_supported", `${product.name} is not sold in ${currency}.`);
  }
  if (amount < min || amount > max) {
    throw invalidRequest(
      "amount_out_of_range",
      `amount_cents: ${product.name} is from ${min} to ${max} cents in ${currency}.`,
    );
  }
}

/** A fixed-priced product: the amount exactly its price times the quantity bought. */
function checkFixedAmount(
  product: Exclude<UtilityProduct, { pricing: "variable" }>,
  currency: Currency,
  amount: number,
  quantity: number,
): void {
  const price = product.price_cents[currency];
  if (price === undefined) {
    throw invalidRequest(
      "currency_not_supported",
      `${product.name} is sold in ${Object.keys(product.price_cents).join(", ")}.`,
    );
  }
  if (amount !== price * quantity) {
    throw invalidRequest(
      "amount_mismatch",
      `amount_cents: ${product.name} costs ${price} cents per ${product.unit}; ${quantity} ${product.unit}(s) is ${price * quantity}.`,
    );
  }
}

/** The catalogue as `GET /v1/utilities/providers` publishes it. */
export function presentCatalogue() {
  return utilityProviders.map((provider) => ({
    id: provider.id,
    object: "utility_provider" as const,
    name: provider.name,
    category: provider.category,
    currencies: [...provider.currencies],
    destination_account: {
      label: provider.account.label,
      pattern: provider.account.pattern.source,
      example: provider.account.example,
    },
    products: provider.products.map((product) =>
      product.pricing === "variable"
        ? {
            code: product.code,
            name: product.name,
            pricing: product.pricing,
            min_cents: product.min_cents,
            max_cents: product.max_cents,
          }
        : {
            code: product.code,
            name: product.name,
            pricing: product.pricing,
            price_cents: product.price_cents,
            unit: product.unit,
          },
    ),
    additional_data_schema: z.toJSONSchema(provider.additionalData, { io: "input" }) as Record<string, unknown>,
    fee: { bps: provider.fee.bps, fixed_cents: provider.fee.fixed_cents },
    commission_bps: provider.commission_bps,
  }));
}
