/**
 * electron_wait_for_event: waits for one event of the app and answers with its arguments. Main-process
 * sources (`app`, the active window's `BrowserWindow` or `webContents`, an `ipcMain` channel) get a
 * one-shot listener installed under a token; page sources (`window`, `document`, an element) one held by a
 * JSHandle. Either way the listener is removed however the call ends — the event, its timeout, a
 * cancellation (the release of acquireUseRelease calls it off in the app). No caller code runs: the event
 * name is data, checked by its Schema, and a few names whose listener would change the app are refused.
 */
import { randomUUID } from "node:crypto"
import { Duration, Effect, Schema } from "effect"
import { budgetMs } from "../../layers/driver/ElectronDriver.js"
import { InvalidArgument, Timeout } from "../contract/errors.js"
import { ARGUMENT_BUDGET, armOnElectron, armOnElement, armOnPage, armOnWindow, mainCancel, mainTake } from "./event-values.js"
import { answer, cut } from "../contract/respond.js"
import { Target, TimeoutMs } from "../contract/shapes.js"
import { defineTool } from "../contract/Tool.js"
import { callHandle } from "../contract/handle.js"

const DEFAULT_TIMEOUT = 10_000
/** The longest the call waits for its listener to be removed once it stops waiting. */
const RELEASE_MS = Duration.seconds(2)
const MAIN_SOURCES = ["app", "BrowserWindow", "webContents", "ipcMain"] as const
type Source = (typeof MAIN_SOURCES)[number] | "window" | "document" | "element"

/** Events whose mere listener changes what the app does (or that are the emitter's own bookkeeping). */
const REFUSED: Readonly<Record<string, string>> = {
  newListener: "it is the emitter's own bookkeeping",
  removeListener: "it is the emitter's own bookkeeping",
  "window-all-closed": "a listener for it stops the app from quitting when its last window closes; wait for will-quit or quit instead"
}

interface Fired {
  readonly fired: boolean
  readonly args?: unknown
  readonly sender?: unknown
  readonly event?: unknown
}

export const waitForEvent = defineTool({
  name: "electron_wait_for_event",
  description:
    "Wait for one event and return its arguments: main process (app, the active window's BrowserWindow or webContents, an ipcMain channel) or page (window, document, an element target). Listens from the call's start.",
  type: "read",
  errors: ["APP_NOT_RUNNING", "NEEDS_MAIN_PROCESS", "ELEMENT_NOT_FOUND", "AMBIGUOUS_LOCATOR", "REF_STALE", "TIMEOUT", "INVALID_ARGUMENT"],
  input: Schema.Struct({
    on: Schema.Literal(...MAIN_SOURCES, "window", "document", "element"),
    event: Schema.String.pipe(Schema.pattern(/^[A-Za-z][\w:.\-]{0,99}$/)).annotations({ description: "event name, or the ipcMain channel" }),
    target: Schema.optional(Target),
    timeoutMs: TimeoutMs(DEFAULT_TIMEOUT)
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const on: Source = input.on
      if ((on === "element") !== (input.target !== undefined)) {
        return yield* new InvalidArgument({
          message: on === "element" ? "on=element needs a target" : `target is only for on=element, not ${on}`,
          hint: 'Example: { "on": "element", "event": "change", "target": "testid=editor" }.'
        })
      }
      // Own keys only: "constructor" or "toString" is an event name, not a lookup into Object.prototype.
      const refused = Object.hasOwn(REFUSED, input.event) ? REFUSED[input.event] : undefined
      if (refused !== undefined && on !== "window" && on !== "document" && on !== "element") {
        return yield* new InvalidArgument({ message: `event: ${input.event} is not waited for: ${refused}`, hint: "Wait for another event." })
      }
      const call = yield* callHandle
      // The active window, for every source: a page a web dialog blocks sends no events (DIALOG_OPEN says so).
      const entry = yield* call.surface()
      const window = entry.id
      const bound = yield* budgetMs(input.timeoutMs ?? DEFAULT_TIMEOUT)
      const what = `${on === "element" ? input.target! : on} ${input.event}`
      const timedOut = () =>
        new Timeout({
          message: `no ${what} event within ${bound} ms`,
          hint: "The wait listens from its start: run the action that causes the event while it waits (a parallel call), or pass a larger timeoutMs."
        })
      const started = Date.now()
      let fired: Fired
      if (on === "app" || on === "ipcMain" || on === "BrowserWindow" || on === "webContents") {
        const call = yield* callHandle
        const token = randomUUID()
        const arg = { token, on, event: input.event, ttlMs: bound + 10_000, budget: ARGUMENT_BUDGET, invoke: on === "ipcMain" }
        const arm =
          on === "app" || on === "ipcMain"
            ? call.evaluateMain(`listen for ${what}`, armOnElectron, arg)
            : call.evaluateWindow(entry, `listen for ${what}`, armOnWindow, arg)
        fired = yield* Effect.acquireUseRelease(
          arm,
          () =>
            call.evaluateMain(`wait for ${what}`, mainTake, token).pipe(
              Effect.map((result) => result as Fired),
              Effect.timeoutFail({ duration: Duration.millis(bound), onTimeout: timedOut })
            ),
          () => call.evaluateMain(`stop waiting for ${what}`, mainCancel, token).pipe(Effect.timeout(RELEASE_MS), Effect.ignore)
        )
      } else {
        const arg = { on, event: input.event, budget: ARGUMENT_BUDGET }
        let arm
        if (on === "element") {
          const call = yield* callHandle
          const locator = yield* call.locate(entry, input.target!)
          yield* call.waitSliced(`find ${input.target}`, (slice) => locator.waitFor({ state: "attached", timeout: slice }), bound)
          arm = call.run(`listen for ${what}`, () => locator.evaluateHandle(armOnElement, arg, { timeout: 1_000 }))
        } else {
          arm = call.run(`listen for ${what}`, () => entry.page.evaluateHandle(armOnPage, arg))
        }
        fired = yield* Effect.acquireUseRelease(
          arm,
          (handle) =>
            call
              .run(`wait for ${what}`, () => handle.evaluate((held: { promise: Promise<Fired> }) => held.promise))
              .pipe(Effect.timeoutFail({ duration: Duration.millis(bound), onTimeout: timedOut })),
          // A page blocked by a web dialog answers the cancel once the dialog is gone: the release does not wait for that.
          (handle) =>
            Effect.promise(() =>
              handle
                .evaluate((held: { cancel: () => void }) => held.cancel())
                .catch(() => undefined)
                .then(() => handle.dispose().catch(() => undefined))
            ).pipe(Effect.timeout(RELEASE_MS), Effect.ignore)
        )
      }
      if (!fired.fired) return yield* timedOut()
      const elapsedMs = Date.now() - started
      const data = fired.event ?? fired.args
      return answer(
        `${what} fired after ${elapsedMs} ms: ${cut(JSON.stringify(data) ?? "null", 1_500)}${fired.sender !== undefined ? ` (sender ${JSON.stringify(fired.sender)})` : ""}`,
        {
          on,
          event: input.event,
          window,
          elapsedMs,
          ...(fired.event !== undefined ? { fired: fired.event } : { args: fired.args }),
          ...(fired.sender !== undefined ? { sender: fired.sender } : {})
        }
      )
    })
})
