import { createHash } from "node:crypto";
import { type Currency, formatMoney } from "../kernel/money.ts";
import type { UtilityPaymentRequest } from "./wallet-gateway.ts";

/**
 * What the wallet network and its billers would answer, derived deterministically from the request:
 * wallet holders' names, account numbers, provider references, prepaid tokens and receipts. Both the
 * stateless sandbox (test world) and the gateway simulator (live world's stand-in) use it, so the same
 * request reads the same everywhere and a test can predict the answer.
 */

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

/** `count` decimal digits derived from `seed`. */
export function digitsOf(seed: string, count: number): string {
  let digits = "";
  let round = 0;
  while (digits.length < count) {
    const value = BigInt(`0x${digest(`${seed}:${round}`).toString("hex")}`);
    digits += value.toString().slice(1);
    round += 1;
  }
  return digits.slice(0, count);
}

const FIRST_NAMES = [
  "Tendai",
  "Rutendo",
  "Tatenda",
  "Chipo",
  "Farai",
  "Nyasha",
  "Tinashe",
  "Vimbai",
  "Kudakwashe",
  "Rudo",
  "Tafadzwa",
  "Shamiso",
  "Blessing",
  "Memory",
  "Takudzwa",
  "Ruvimbo",
] as const;
const LAST_NAMES = [
  "Moyo",
  "Ncube",
  "Dube",
  "Sibanda",
  "Mpofu",
  "Chikwanha",
  "Mutasa",
  "Marufu",
  "Zvobgo",
  "Chiweshe",
  "Mlambo",
  "Nyathi",
  "Gumbo",
  "Makoni",
  "Mhlanga",
  "Chinembiri",
] as const;

/** A plausible Zimbabwean name for a wallet number or a utility account. */
export function holderNameOf(seed: string): string {
  const bytes = digest(`name:${seed}`);
  return `${FIRST_NAMES[(bytes[0] ?? 0) % FIRST_NAMES.length]} ${LAST_NAMES[(bytes[1] ?? 0) % LAST_NAMES.length]}`;
}

/** The wallet's account number in a currency: a bank-style number derived from the MSISDN. */
export function walletAccountNumberOf(msisdn: string, currency: Currency): string {
  return `${currency === "USD" ? "40" : "41"}${msisdn.slice(3).padStart(10, "0")}`;
}

/** A reference in the gateway's style, e.g. `ZESA-7730412298`. */
export function referenceOf(prefix: string, seed: string): string {
  return `${prefix}${digitsOf(`reference:${seed}`, 10)}`;
}

/** A 20-digit prepaid electricity token (STS), as the meter's keypad takes it. */
export function electricityTokenOf(seed: string): string {
  return digitsOf(`token:${seed}`, 20);
}

/** Tariffs of the sandbox's prepaid electricity, in cents per kWh (a flat rate, for simplicity). */
const ELECTRICITY_CENTS_PER_KWH: Record<Currency, number> = { USD: 10, ZWG: 270 };

/**
 * The biller's side of a utility payment: its reference, the token when the product has one, and the
 * receipt details the customer gets. The providers and products are the platform's catalogue
 * (src/modules/utilities/catalogue.ts).
 */
export function utilityReceiptOf(request: Omit<UtilityPaymentRequest, "attempt">): {
  providerReference: string;
  token: string | null;
  receipt: Record<string, string | number | null>;
} {
  const providerReference = referenceOf(`${request.provider.toUpperCase()}-`, request.paymentId);
  switch (request.provider) {
    case "zesa": {
      const token = electricityTokenOf(request.paymentId);
      const units = (request.amountCents / ELECTRICITY_CENTS_PER_KWH[request.currency]).toFixed(1);
      return {
        providerReference,
        token,
        receipt: {
          token_display: token.replace(/(\d{4})(?=\d)/g, "$1 "),
          units_kwh: units,
          tariff: `${formatMoney(request.currency, ELECTRICITY_CENTS_PER_KWH[request.currency])}/kWh`,
          meter_number: request.account,
          customer_name: holderNameOf(`meter:${request.account}`),
        },
      };
    }
    case "econet":
    case "netone":
    case "telecel":
      return {
        providerReference,
        token: null,
        receipt: {
          recipient_msisdn: request.account,
          product: request.product,
          airtime_value: formatMoney(request.currency, request.amountCents),
        },
      };
    case "dstv": {
      const months = typeof request.additionalData.months === "number" ? request.additionalData.months : 1;
      const today = new Date();
      const validUntil = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + months, today.getUTCDate()));
      return {
        providerReference,
        token: null,
        receipt: {
          smartcard_number: request.account,
          package: request.product,
          months,
          valid_until: validUntil.toISOString().slice(0, 10),
        },
      };
    }
    default:
      return {
        providerReference,
        token: null,
        receipt: {
          account_number: request.account,
          account_holder: holderNameOf(`account:${request.provider}:${request.account}`),
        },
      };
  }
}
