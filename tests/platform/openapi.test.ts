import { Validator } from "@seriousme/openapi-schema-validator";
import request from "supertest";
import { apiRoutes } from "../../src/wiring/api-routes.ts";
import { createGateways } from "../../src/wiring/gateways.ts";
import { testApp, testConfig } from "../support/app.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

let db: TestDatabase;
let app: ReturnType<typeof testApp>;

beforeAll(async () => {
  db = await createTestDatabase();
  app = testApp({ database: db.database, config: testConfig(db.url, { PUBLIC_BASE_URL: "https://pay.example.com" }) });
});
afterAll(() => db.close());

describe("GET /v1/openapi.json", () => {
  test("is served without a key and validates as OpenAPI 3.1, version 1.0.0", async () => {
    const response = await request(app).get("/v1/openapi.json");
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe("3.1.0");
    expect(response.body.info.version).toBe("1.0.0");
    expect(response.body.servers).toEqual([{ url: "https://pay.example.com" }]);
    const validator = new Validator();
    const result = await validator.validate(response.body);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  test("documents every route with its method, parameters and error envelope", async () => {
    const document = (await request(app).get("/v1/openapi.json")).body;
    for (const route of apiRoutes(createGateways(testConfig("postgres://unused/db")))) {
      const path = route.path.replace(/:([A-Za-z_]+)/g, "{$1}");
      const operation = document.paths[path]?.[route.method];
      expect(operation).toBeDefined();
      expect(operation.operationId).toBe(route.operationId);
      for (const name of route.path.match(/:([A-Za-z_]+)/g) ?? []) {
        expect(operation.parameters.map((parameter: { name: string }) => parameter.name)).toContain(name.slice(1));
      }
      expect(operation.responses["500"].content["application/json"].schema.$ref).toBe(
        "#/components/schemas/ErrorEnvelope",
      );
    }
    // A merchant route takes a secret key or a dashboard session (cookie + CSRF header).
    expect(document.paths["/v1/me"].get.security).toEqual([{ apiKey: [] }, { session: [], csrfToken: [] }]);
    expect(document.paths["/v1/me"].get.responses["429"]).toBeDefined();
    expect(document.components.schemas.MerchantProfile.properties.livemode).toEqual({ type: "boolean" });
  });

  test("request schemas carry the specification's error codes", async () => {
    const document = (await request(app).get("/v1/openapi.json")).body;
    const body =
      document.paths["/admin/v1/merchants/{id}/payout_destination"].post.requestBody.content["application/json"].schema;
    expect(body.properties.msisdn["x-error-code"]).toBe("invalid_msisdn");
    expect(body.additionalProperties).toBe(false);
  });
});
