import express from "express";
import pg from "pg";

/**
 * The ceilings the platform is compared with: bare Express 5 answering each request with one indexed
 * query (GET /v1/me) or one INSERT (POST /v1/payments, into bench_payments, which the benchmark
 * creates) through a pg pool of the same size as the API's, and nothing else.
 */
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
});
const app = express();
app.get("/v1/me", async (request, response) => {
  const { rows } = await pool.query(
    "SELECT merchant_id FROM api_keys WHERE secret_hash = sha256(convert_to($1, 'UTF8'))",
    [request.get("authorization")?.slice(7) ?? ""],
  );
  response.json({ merchant_id: rows[0]?.merchant_id ?? null });
});
// The same single INSERT answers POST /v1/sales, the ceiling bench:pos compares cash sales with.
app.post(["/v1/payments", "/v1/sales"], express.json(), async (request, response) => {
  const { rows } = await pool.query(
    "INSERT INTO bench_payments (amount_cents) VALUES ($1) RETURNING id, amount_cents, created_at",
    [Number(request.body?.amount_cents ?? 0)],
  );
  response.status(201).json(rows[0]);
});
const server = app.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === "object" && address !== null ? address.port : 0}\n`);
});
process.on("SIGTERM", () => {
  server.close();
  void pool.end().then(() => process.exit(0));
});
