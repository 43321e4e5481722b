import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * The merchants' webhook endpoint for bench:deploy, in a process of its own as a merchant's server
 * would be: in the benchmark's process it shared an event loop with the load generator, so a delivery
 * made while a load ran waited for autocannon's turns. Answers each delivery 200 at once and notes
 * when each event first arrived (`x-pos-event-id`); `GET /arrivals` tells them as event id → ms since
 * the epoch (this machine's clock, as PostgreSQL's `now()`), and `GET /arrivals/count` how many.
 */
const arrivedAtMs = new Map<string, number>();
const server = http.createServer((request, response) => {
  // How many have arrived, cheap enough to ask ten times a second while a backlog drains.
  if (request.method === "GET" && request.url === "/arrivals/count") {
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(arrivedAtMs.size));
    return;
  }
  if (request.method === "GET" && request.url === "/arrivals") {
    response
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify(Object.fromEntries(arrivedAtMs)));
    return;
  }
  request.resume();
  request.on("end", () => {
    const eventId = String(request.headers["x-pos-event-id"]);
    if (!arrivedAtMs.has(eventId)) arrivedAtMs.set(eventId, Date.now());
    response.writeHead(200).end();
  });
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
process.on("SIGTERM", () => {
  server.close();
  process.exit(0);
});
