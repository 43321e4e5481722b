import express from "express";
import pg from "pg";

/**
 * The ceiling the platform is compared with: bare Express 5 answering each request with one indexed
 * query through a pg pool of the same size as the API's, and nothing else.
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
const server = app.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === "object" && address !== null ? address.port : 0}\n`);
});
process.on("SIGTERM", () => {
  server.close();
  void pool.end().then(() => process.exit(0));
});
