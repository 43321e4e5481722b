import { z } from "zod";

export const taxModes = ["inclusive", "exclusive"] as const;
export type TaxMode = (typeof taxModes)[number];

export const shopProfileRowSchema = z.object({
  display_name: z.string().nullable(),
  address: z.string().nullable(),
  tax_number: z.string().nullable(),
  receipt_footer: z.string().nullable(),
  tax_mode: z.enum(taxModes),
  default_tax_rate_bp: z.number().int(),
  discount_limit_bp: z.number().int(),
  updated_at: z.date().nullable(),
});
export type ShopProfileRow = z.infer<typeof shopProfileRowSchema>;

// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters refused.
const CONTROL_BUT_LINE_BREAK = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

/** A printable line or lines: no control characters but the line break; empty is none. */
const printable = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((text) => !CONTROL_BUT_LINE_BREAK.test(text), "expected printable text (line breaks allowed)")
    .transform((text) => (text === "" ? null : text))
    .nullable();

export const updateShopProfileBody = z
  .strictObject({
    display_name: printable(100)
      .optional()
      .meta({ description: "The shop's name on receipts; empty or null: the account's name." }),
    address: printable(300).optional().meta({ description: "Up to 300 characters; line breaks kept." }),
    tax_number: printable(50).optional().meta({ description: "The VAT or tax number printed on receipts." }),
    receipt_footer: printable(300).optional().meta({ description: "A closing line or two (returns policy, thanks)." }),
    tax_mode: z.enum(taxModes).optional().meta({
      description: "`inclusive`: product prices include tax (the usual shelf price); `exclusive`: tax is added on top.",
    }),
    default_tax_rate_bp: z
      .number()
      .int()
      .min(0)
      .max(10_000)
      .optional()
      .meta({ description: "The tax rate of a product that names none, in basis points (15.5 % = 1550)." }),
    discount_limit_bp: z
      .number()
      .int()
      .min(0)
      .max(10_000)
      .optional()
      .meta({
        description:
          "The largest discount a cashier gives without a manager, in basis points of the sale's gross " +
          "(10 % = 1000; 10000, the default: no limit). Above it a till with cashiers needs a manager's approval.",
      }),
  })
  .refine((body) => Object.keys(body).length > 0, { message: "Send at least one field." });
export type ShopProfileUpdate = z.infer<typeof updateShopProfileBody>;

/** The profile as the API shows it: its row, named as an object, with the name it prints and times as text. */
export const shopProfileSchema = z
  .object({ object: z.literal("shop_profile") })
  .extend(shopProfileRowSchema.shape)
  .extend({
    display_name: z.string().meta({ description: "The name printed on receipts (the account's name unless set)." }),
    updated_at: z.string().nullable(),
  })
  .meta({ id: "ShopProfile" });
