/**
 * What the ipc tools share: input shapes, reading the recorder's state, and naming windows by the
 * driver's ids (w1, w2) from the webContents ids the main process knows.
 */
import { Effect, Schema } from "effect"
import { type Surface } from "../../layers/driver/ElectronDriver.js"
import { OperationFailed } from "../../tools/contract/errors.js"
import { WindowId } from "../../tools/contract/shapes.js"
import { callHandle } from "../../tools/contract/handle.js"

export const Channel = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)).annotations({ description: "IPC channel, e.g. tasks:save" })
export const Args = Schema.optional(Schema.Array(Schema.Unknown).pipe(Schema.maxItems(20))).annotations({ description: "arguments (JSON values), default []" })
export const OptionalWindow = Schema.optional(WindowId).annotations({ description: "window id (w1), default the active window" })

/** A JSON value as one bounded line. */
export const preview = (value: unknown, max = 300): string => {
  let text: string
  try {
    text = value === undefined ? "undefined" : (JSON.stringify(value) ?? String(value))
  } catch {
    text = String(value)
  }
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text
}

/** Fails when the recorder is missing (its hook could not run) or could not wrap the handler table. */
export const NO_RECORDER_HINT =
  "The ipc hook installs at launch/attach while the plugin is loaded: relaunch the app (electron_close, electron_launch), and check electron_console for a hook failure."

export const requireRecorder = (what: string, needHandlers: boolean) =>
  Effect.gen(function* () {
    const call = yield* callHandle
    const status = yield* call.evaluateMain(
      "check the ipc recorder",
      () => {
        const state = (globalThis as { __stagewright_ipc?: { handlersHooked: boolean } }).__stagewright_ipc
        return state === undefined ? "missing" : state.handlersHooked ? "ok" : "no-handler-table"
      },
      undefined
    )
    if (status === "missing") return yield* new OperationFailed({ message: `${what}: the ipc recorder is not installed in this app`, hint: NO_RECORDER_HINT })
    if (needHandlers && status === "no-handler-table") {
      return yield* new OperationFailed({
        message: `${what}: this Electron has no ipcMain._invokeHandlers table, so invoke handlers cannot be wrapped`,
        hint: "Listing and sending still work; report the Electron version."
      })
    }
  })

/** The driver's window id of each webContents id (windows that answer; others are left out). */
export const windowIdsByWebContents = Effect.gen(function* () {
  const call = yield* callHandle
  const session = yield* call.session
  const open = session.windows.filter((w) => !w.page.isClosed())
  const pairs = yield* Effect.forEach(
    open,
    (entry) =>
      call
        .evaluateWindow(entry, "read the window's webContents id", (win) => win.webContents.id, undefined)
        .pipe(
          Effect.map((wc) => [wc, entry.id] as const),
          Effect.orElseSucceed(() => undefined)
        ),
    { concurrency: "unbounded" }
  )
  return new Map(pairs.filter((p) => p !== undefined))
})

/** The webContents id of a window. */
export const webContentsIdOf = (entry: Surface) =>
  Effect.gen(function* () {
    const call = yield* callHandle
    return yield* call.evaluateWindow(entry, "read the window's webContents id", (win) => win.webContents.id, undefined)
  })

export const label = (ids: ReadonlyMap<number, string>, wc: number | undefined) => (wc === undefined ? "main" : (ids.get(wc) ?? `webContents ${wc}`))

export const time = (at: number) => new Date(at).toISOString().slice(11, 23)
