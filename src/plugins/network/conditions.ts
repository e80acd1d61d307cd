/**
 * Network conditions of every window: offline (BrowserContext.setOffline) and throttling (latency,
 * download / upload throughput) through Network.emulateNetworkConditions on this plugin's CDP session of
 * each window, new windows too. Both carry the same offline flag, so neither undoes the other.
 * Each answer reads back what the pages see: navigator.onLine and navigator.connection (rtt, downlink).
 */
import { Effect, Schema } from "effect"
import { sessionLocal, type AppSession } from "../../layers/driver/ElectronDriver.js"
import { InvalidArgument } from "../../tools/contract/errors.js"
import { defineTool } from "../../tools/contract/Tool.js"
import { applyInEveryWindow } from "../shared/cdp.js"
import { callHandle } from "../../tools/contract/handle.js"
import { answer } from "../../tools/contract/respond.js"

interface Conditions {
  offline: boolean
  latencyMs: number
  downloadKbps: number
  uploadKbps: number
}

const conditions = sessionLocal<Conditions>("network/conditions", () => ({ offline: false, latencyMs: 0, downloadKbps: 0, uploadKbps: 0 }))
const conditionsOf = conditions.of

const throttled = (c: Conditions) => c.latencyMs > 0 || c.downloadKbps > 0 || c.uploadKbps > 0

const applyConditions = (session: AppSession, c: Conditions) =>
  applyInEveryWindow(
    session,
    "network-conditions",
    async (cdp) => {
      await cdp.send("Network.enable")
      await cdp.send("Network.emulateNetworkConditions", {
        offline: c.offline,
        latency: c.latencyMs,
        // kbit/s -> bytes/s; -1 disables the limit
        downloadThroughput: c.downloadKbps > 0 ? (c.downloadKbps * 1000) / 8 : -1,
        uploadThroughput: c.uploadKbps > 0 ? (c.uploadKbps * 1000) / 8 : -1
      })
    },
    c.offline || throttled(c)
  )

interface Seen {
  readonly window: string
  readonly onLine: boolean
  readonly rttMs: number | null
  readonly downlinkMbps: number | null
}

/** What each window's page reports now. */
const readBack = (session: AppSession) =>
  Effect.gen(function* () {
    const call = yield* callHandle
    return yield* Effect.forEach(
      yield* (yield* callHandle).surfaces(),
      (w) =>
        call
          .evaluate(w, "read the network state", () => {
            const connection = (navigator as { connection?: { rtt?: number; downlink?: number } }).connection
            return { onLine: navigator.onLine, rttMs: connection?.rtt ?? null, downlinkMbps: connection?.downlink ?? null }
          })
          .pipe(Effect.map((seen): Seen => ({ window: w.id, ...seen }))),
      { concurrency: "unbounded" }
    )
  })

const describe = (c: Conditions, seen: ReadonlyArray<Seen>) =>
  [
    `Conditions: ${c.offline ? "offline" : "online"}${throttled(c) ? `, latency ${c.latencyMs} ms, down ${c.downloadKbps || "∞"} kbit/s, up ${c.uploadKbps || "∞"} kbit/s` : ", no throttling"}.`,
    ...seen.map(
      (s) => `${s.window} sees: navigator.onLine=${s.onLine}${s.rttMs !== null ? `, connection.rtt=${s.rttMs} ms, downlink=${s.downlinkMbps} Mbit/s` : ""}`
    )
  ].join("\n")

export const offline = defineTool({
  name: "electron_network_offline",
  description: "Take every window offline (requests fail, navigator.onLine false) or back online; new windows follow. Returns what the pages report.",
  type: "interact",
  idempotent: true,
  errors: ["APP_NOT_RUNNING"],
  input: Schema.Struct({ offline: Schema.Boolean }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const session = yield* call.session
      const c = conditionsOf(session)
      c.offline = input.offline
      yield* call.run("set offline", () => session.context.setOffline(input.offline))
      // The same flag on this plugin's sessions, so throttling set there cannot contradict it.
      yield* call.run("set offline", () => applyConditions(session, c))
      const seen = yield* readBack(session)
      return answer(describe(c, seen), { ...c, windows: seen })
    })
})

const Kbps = Schema.optional(Schema.Number.pipe(Schema.nonNegative(), Schema.lessThanOrEqualTo(10_000_000)))

export const throttle = defineTool({
  name: "electron_network_throttle",
  description:
    "Throttle every window's network (new windows too): added latency, download/upload throughput in kbit/s. All 0 or omitted turns throttling off. Returns what the pages report (navigator.connection).",
  type: "interact",
  idempotent: true,
  errors: ["APP_NOT_RUNNING"],
  input: Schema.Struct({
    latencyMs: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(0, 60_000))),
    downloadKbps: Kbps,
    uploadKbps: Kbps
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const session = yield* call.session
      const c = conditionsOf(session)
      if (input.downloadKbps !== undefined && input.downloadKbps > 0 && input.downloadKbps < 1) {
        return yield* new InvalidArgument({
          message: "downloadKbps: at least 1 kbit/s (or 0 for no limit)",
          hint: 'Example: { "latencyMs": 400, "downloadKbps": 400 } (a slow 3G link).'
        })
      }
      c.latencyMs = input.latencyMs ?? 0
      c.downloadKbps = input.downloadKbps ?? 0
      c.uploadKbps = input.uploadKbps ?? 0
      yield* call.run("throttle the network", () => applyConditions(session, c))
      const seen = yield* readBack(session)
      return answer(describe(c, seen), { ...c, windows: seen })
    })
})
