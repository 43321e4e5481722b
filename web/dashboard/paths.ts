/** Where the dashboard's pages live: the shell answers every path under BASE. */
export const BASE = "/dashboard";

export const paymentPath = (paymentId: string) => `${BASE}/payments/${encodeURIComponent(paymentId)}`;
export const salePath = (saleId: string) => `${BASE}/sales/${encodeURIComponent(saleId)}`;
export const shiftPath = (shiftId: string) => `${BASE}/shifts/${encodeURIComponent(shiftId)}`;
