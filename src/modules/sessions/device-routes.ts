import { z } from "zod";
import { forbidden } from "../../platform/errors.ts";
import { errorEnvelopeSchema } from "../../platform/http/openapi.ts";
import { type AnyRoute, defineRoute } from "../../platform/http/route.ts";
import type { DeviceRow } from "./device-queries.ts";
import * as devices from "./devices.ts";
import { csrfTokenOf, deviceCookie, deviceCookieName, sessionCookie, sessionCookieName } from "./tokens.ts";

const deviceSchema = z
  .object({
    id: z.string(),
    object: z.literal("till_device"),
    name: z.string(),
    status: z.enum(["paired", "revoked"]),
    created_at: z.iso.datetime(),
    last_used_at: z.iso.datetime().nullable(),
    revoked_at: z.iso.datetime().nullable(),
  })
  .meta({ id: "TillDevice" });

function presentDevice(device: DeviceRow) {
  return {
    id: device.id,
    object: "till_device" as const,
    name: device.name,
    status: device.revoked_at === null ? ("paired" as const) : ("revoked" as const),
    created_at: device.created_at.toISOString(),
    last_used_at: device.last_used_at?.toISOString() ?? null,
    revoked_at: device.revoked_at?.toISOString() ?? null,
  };
}

const ownerOnly = {
  description:
    "`principal_not_allowed`: only the owner's dashboard session; `step_up_required` (pairing: type the password again first).",
  schema: errorEnvelopeSchema,
};

/**
 * Pairing, listing and unpairing till devices, and a device opening its till session.
 * Longer than 70 lines as a list of route declarations (a container, docs/conventions.md); each of its
 * handlers keeps to the rule.
 */
export function deviceRoutes(): AnyRoute[] {
  return [
    defineRoute({
      method: "post",
      path: "/v1/till_devices",
      operationId: "pairTillDevice",
      summary: "Pair a till device (owner's dashboard session, fresh password): its token is answered once",
      tags: ["Account"],
      auth: { owner: "step_up" },
      request: {
        body: z.strictObject({
          name: z.string().trim().min(1).max(100),
          keep_in_cookie: z
            .boolean()
            .default(false)
            .meta({
              description:
                "true when the browser pairing is the till itself: the token is set as an HttpOnly, SameSite=Strict " +
                "cookie sent only to POST /v1/session/device, and is not in the answer (page scripts never see it).",
            }),
        }),
      },
      responses: {
        201: {
          description:
            "The device and its token (`tdv_…`, shown only here, absent with keep_in_cookie; stored as SHA-256).",
          schema: deviceSchema.extend({ token: z.string().optional() }),
        },
        403: ownerOnly,
      },
      handler: async ({ body, tenant, config, database, client }) => {
        const paired = await devices.pairDevice(database, tenant, { name: body.name, client });
        const headers: Record<string, string> = { "Cache-Control": "no-store" };
        if (body.keep_in_cookie) {
          // The till pairing itself: the token goes where page scripts cannot read it.
          headers["Set-Cookie"] = deviceCookie(config.publicBaseUrl, paired.token);
          return { status: 201, headers, body: presentDevice(paired.device) };
        }
        return { status: 201, headers, body: { ...presentDevice(paired.device), token: paired.token } };
      },
    }),
    defineRoute({
      method: "get",
      path: "/v1/till_devices",
      operationId: "listTillDevices",
      summary: "The merchant's paired and revoked till devices (owner's dashboard session)",
      tags: ["Account"],
      auth: { owner: "session" },
      responses: {
        200: { description: "The devices.", schema: z.object({ data: z.array(deviceSchema) }) },
        403: ownerOnly,
      },
      handler: async ({ tenant, database }) => ({
        body: { data: (await devices.listDevices(database, tenant)).map(presentDevice) },
      }),
    }),
    defineRoute({
      method: "delete",
      path: "/v1/till_devices/:id",
      operationId: "revokeTillDevice",
      summary: "Unpair a till device: its token is refused and its sessions end at once",
      tags: ["Account"],
      auth: { owner: "session" },
      request: { params: z.strictObject({ id: z.string().max(100) }) },
      responses: {
        200: { description: "The revoked device.", schema: deviceSchema },
        403: ownerOnly,
        404: { description: "`resource_missing`.", schema: errorEnvelopeSchema },
      },
      handler: async ({ params, tenant, database, client }) => ({
        body: presentDevice(await devices.revokeDevice(database, tenant, { id: params.id, client })),
      }),
    }),
    defineRoute({
      method: "post",
      path: "/v1/session/device",
      operationId: "signInDevice",
      summary: "A paired till opens a till session with its device token (no password); sets the session cookie",
      tags: ["Account"],
      auth: "none",
      request: {
        body: z.strictObject({
          device_token: z.string().min(1).max(200).optional().meta({
            description: "The token; when absent, the device cookie set by pairing with keep_in_cookie.",
          }),
        }),
      },
      responses: {
        201: {
          description: "The till session.",
          schema: z.object({
            id: z.string(),
            object: z.literal("session"),
            kind: z.literal("till"),
            csrf_token: z.string(),
          }),
        },
        401: { description: "`device_invalid`: unknown or revoked device token.", schema: errorEnvelopeSchema },
      },
      handler: async ({ body, config, database, client }) => {
        // As for sign-in: another site must not sign the browser into a session of its choosing.
        if (client.origin !== undefined && !client.sameOrigin) {
          throw forbidden("origin_invalid", "Sign in from the till's own origin.");
        }
        const signedIn = await devices.signInDevice(database, config.sessions, {
          deviceToken: body.device_token ?? client.cookie(deviceCookieName(config.publicBaseUrl)) ?? "",
          client,
          cookieName: sessionCookieName(config.publicBaseUrl),
        });
        return {
          status: 201,
          headers: {
            "Set-Cookie": sessionCookie(config.publicBaseUrl, signedIn.token, signedIn.lifetimeMs),
            "Cache-Control": "no-store",
          },
          body: {
            id: signedIn.session.id,
            object: "session" as const,
            kind: "till" as const,
            csrf_token: csrfTokenOf(signedIn.token),
          },
        };
      },
    }),
  ];
}
