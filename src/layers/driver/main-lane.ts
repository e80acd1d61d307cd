/**
 * The driver's own line to a launched app's main process: a second session on the Node inspector that
 * playwright-core's launch opened, for the main-process read every action's answer waits on (the modal
 * states: ./Dialogs.ts). Through playwright-core (`electronApplication.evaluate`: its client, its in-process
 * dispatcher, the utility script and the argument serializer) a trivial evaluation costs ~1.4 ms on a quiet
 * stand-in and the modal read ~2.6 ms right after an action; `Runtime.callFunctionOn` on this session costs
 * 0.4 ms and 1.1 ms (bench/overhead-issue42.md, eleventh pass).
 *
 * Only the driver's own self-contained functions run here (JSON in, JSON out, as over an attached app's
 * inspector: ./inspector-client.ts); caller code (electron_eval_main, plugins) keeps playwright-core's
 * evaluation and its serialization. The session enables no Runtime domain, so the app's console is not sent
 * twice. Opening it is best effort: without it (an inspector that takes one session, a main process that does
 * not say its address) the reads go through playwright-core as before. It closes with the session's scope, and
 * at once when the main process ends: Node holds an ending process (one that exits, or signals itself) until
 * its inspector's WebSocket clients disconnect, so the lane asks to be told (NodeRuntime's
 * waitingForDisconnect, ./inspector-client.ts) and lets go; playwright-core's session then hears the main
 * context end as it would without the lane.
 */
import { Effect, type Scope } from "effect"
import type { ElectronApplication } from "playwright-core"
import { isLoopbackHost } from "../config/loopback.js"
import { InspectorClient } from "./inspector-client.js"
import type { AppSession } from "./session.js"
import { mainSource, toFunction } from "./selectors.js"

const lanes = new WeakMap<AppSession, InspectorClient>()

/** The session's open lane, if it has one. */
export const laneOf = (s: AppSession): InspectorClient | undefined => {
  const lane = lanes.get(s)
  return lane !== undefined && !lane.closed ? lane : undefined
}

/** Runs in the main process: the inspector's WebSocket address (undefined without an active inspector). */
const inspectorUrl = (): string | undefined => {
  const p = process as unknown as { getBuiltinModule?: (id: string) => unknown; mainModule?: { require: (id: string) => unknown } }
  try {
    const inspector = (p.getBuiltinModule ? p.getBuiltinModule("node:inspector") : p.mainModule?.require("inspector")) as
      | { url?: () => string | undefined }
      | undefined
    return inspector?.url?.()
  } catch {
    return undefined
  }
}

/**
 * The address the main process gave is the app's word: only a ws:// address on this machine's loopback is
 * connected to (playwright-core read the same inspector's address off the app's stderr at launch).
 */
export const loopbackInspector = (url: unknown): string | undefined => {
  if (typeof url !== "string") return undefined
  try {
    const parsed = new URL(url)
    return parsed.protocol === "ws:" && isLoopbackHost(parsed.hostname) ? url : undefined
  } catch {
    return undefined
  }
}

/** Opens the lane of a session launched with its main process, in `scope`; never fails (no lane then). */
export const openLane = (s: AppSession, electronApp: ElectronApplication, timeoutMs: number): Effect.Effect<void, never, Scope.Scope> =>
  Effect.gen(function* () {
    const ask = toFunction(mainSource(inspectorUrl)) as Parameters<typeof electronApp.evaluate>[0]
    const url = loopbackInspector(yield* Effect.promise(() => electronApp.evaluate(ask).catch(() => undefined)))
    if (url === undefined) return yield* Effect.logDebug("main lane: the main process gave no loopback inspector address")
    const lane = yield* Effect.acquireRelease(
      Effect.tryPromise(() => InspectorClient.connect(url, timeoutMs, { events: false })),
      (client) => Effect.sync(() => client.shutdown())
    )
    // Used only once it runs a function on the `electron` module as playwright-core's evaluate does.
    const works = yield* Effect.tryPromise(() => lane.evaluate<string, undefined>("(electron) => typeof electron.BrowserWindow", undefined)).pipe(
      Effect.timeout(timeoutMs)
    )
    if (works !== "function") return yield* Effect.logDebug(`main lane: the electron module did not answer as expected (${works})`)
    lanes.set(s, lane)
  }).pipe(Effect.catchAll((error) => Effect.logDebug(`main lane not opened: ${String(error)}`)))
