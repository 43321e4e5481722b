/** Lines per sale. */
export const SALE_ITEMS_MAX = 100;
/** Units per line. */
export const LINE_QTY_MAX = 100_000;
/** The largest sale total: the largest payment (10,000,000.00), whatever the tender. */
export const SALE_TOTAL_CENTS_MAX = 1_000_000_000;
