/**
 * electron_ipc_invoke, electron_ipc_mock, electron_ipc_clear_mocks, electron_ipc_send: act on IPC
 * from the main process, through Electron's own handler table and webContents.send.
 */
import { Effect, Schema } from "effect"
import { type ElectronModule } from "../../layers/driver/ElectronDriver.js"
import { InvalidArgument } from "../../tools/contract/errors.js"
import { defineTool } from "../../tools/contract/Tool.js"
import type { InvokeHandlers, IpcState } from "./recorder.js"
import { Args, Channel, OptionalWindow, preview, requireRecorder, webContentsIdOf } from "./shared.js"
import { callHandle } from "../../tools/contract/handle.js"
import { answer } from "../../tools/contract/respond.js"

type InvokeOutcome =
  | { readonly kind: "no-handler"; readonly channels: ReadonlyArray<string> }
  | { readonly kind: "ok"; readonly value: unknown; readonly json: boolean; readonly ms: number; readonly mocked: boolean }
  | { readonly kind: "threw"; readonly error: string; readonly ms: number; readonly mocked: boolean }

/**
 * Runs in the main process: calls the channel's handler the way Electron's dispatch does (the window's
 * webContents.ipc first, then ipcMain), with an IpcMainInvokeEvent whose sender is the window's webContents.
 */
const invokeInMain = async ({ ipcMain, webContents }: ElectronModule, input: { wc: number; channel: string; args: Array<unknown> }): Promise<InvokeOutcome> => {
  const wc = webContents.fromId(input.wc)
  const state = (globalThis as { __stagewright_ipc?: IpcState }).__stagewright_ipc
  const mocked = state?.mocks.has(input.channel) === true
  if (!wc) throw new Error(`webContents ${input.wc} is gone (its window closed)`)
  // Electron's private handler tables (see InvokeHandlers): the window's webContents.ipc first, then ipcMain.
  const target = ([wc.ipc, ipcMain] as Array<InvokeHandlers>).find((candidate) => candidate._invokeHandlers?.has(input.channel))
  if (!target) {
    const table = (ipcMain as InvokeHandlers)._invokeHandlers
    const channels = state
      ? [...state.handled()]
      : table instanceof Map
        ? (Array.from(Map.prototype.keys.call(table) as Iterable<string>) as Array<string>)
        : []
    return { kind: "no-handler", channels: channels.sort() }
  }
  const frame = wc.mainFrame
  const event = {
    type: "frame",
    sender: wc,
    senderFrame: frame,
    frameId: frame?.routingId ?? 1,
    processId: frame?.processId ?? 0,
    ports: [],
    defaultPrevented: false,
    preventDefault() {},
    __stagewright: true
  }
  const started = Date.now()
  try {
    const value = await target._invokeHandlers!.get(input.channel)!(event, ...input.args)
    const ms = Date.now() - started
    // What the renderer would get is a copy: send a JSON copy back (or the text of what cannot be one).
    try {
      return { kind: "ok", value: value === undefined ? undefined : JSON.parse(JSON.stringify(value)), json: true, ms, mocked }
    } catch {
      return { kind: "ok", value: String(value), json: false, ms, mocked }
    }
  } catch (error) {
    return { kind: "threw", error: error instanceof Error ? error.toString() : String(error), ms: Date.now() - started, mocked }
  }
}

export const invokeTool = defineTool({
  name: "electron_ipc_invoke",
  description:
    "Invoke an ipcMain.handle channel as the window's renderer would (from the main process, with an event whose sender is the window's webContents; the page's preload is not involved) and show the reply or the error the renderer would get. It runs the app's real handler: side effects happen.",
  type: "native",
  errors: ["APP_NOT_RUNNING", "NEEDS_MAIN_PROCESS", "WINDOW_NOT_FOUND", "OPERATION_FAILED", "DIALOG_OPEN"],
  input: Schema.Struct({ channel: Channel, args: Args, window: OptionalWindow }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const entry = yield* call.surface(input.window)
      const wc = yield* webContentsIdOf(entry)
      // A handler that awaits a native dialog it opens ends the call with the dialog's rows (its reply is not told).
      const outcome = yield* call.untilNativeDialog(
        "handler",
        call.evaluateMain(`invoke ${input.channel}`, invokeInMain, { wc, channel: input.channel, args: [...(input.args ?? [])] })
      )
      if (outcome.kind === "no-handler") {
        return yield* new InvalidArgument({
          message: `channel: no handler is registered for '${input.channel}' (a renderer would get "No handler registered for '${input.channel}'")`,
          hint:
            outcome.channels.length > 0
              ? `Handled channels: ${outcome.channels.slice(0, 30).join(", ")}`
              : "The app registers no ipcMain.handle channel; electron_ipc_handlers lists listeners.",
          details: { channels: outcome.channels }
        })
      }
      const how = `${input.channel} from ${entry.id}${outcome.mocked ? " (mocked)" : ""}, ${outcome.ms} ms`
      if (outcome.kind === "threw") {
        return answer(`${how}: the handler threw; the renderer would get: Error invoking remote method '${input.channel}': ${outcome.error}`, {
          channel: input.channel,
          window: entry.id,
          ok: false,
          error: outcome.error,
          ms: outcome.ms,
          mocked: outcome.mocked
        })
      }
      return answer(`${how}: replied ${outcome.json ? preview(outcome.value, 4_000) : `${outcome.value} (not JSON: the renderer gets a structured clone)`}`, {
        channel: input.channel,
        window: entry.id,
        ok: true,
        value: outcome.value,
        ms: outcome.ms,
        mocked: outcome.mocked
      })
    })
})

/** Runs in the main process: sets a mock through the recorder, which says whether the app has a handler. */
const setMock = (_electron: ElectronModule, input: { channel: string; result?: unknown; error?: string }) =>
  (globalThis as { __stagewright_ipc?: IpcState }).__stagewright_ipc!.setMock(
    input.channel,
    input.error !== undefined ? { error: input.error } : { result: input.result }
  )

export const mockTool = defineTool({
  name: "electron_ipc_mock",
  description:
    "Make an ipcMain.handle channel answer a fixed result, or fail with an error message, instead of running the app's handler (until electron_ipc_clear_mocks). Works for channels with no handler too. The log marks mocked calls.",
  type: "native",
  errors: ["APP_NOT_RUNNING", "NEEDS_MAIN_PROCESS", "OPERATION_FAILED"],
  input: Schema.Struct({
    channel: Channel,
    result: Schema.optional(Schema.Unknown).annotations({ description: "the reply (any JSON value; null for none)" }),
    error: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(1_000))).annotations({
      description: "fail with Error(this message) instead"
    })
  }),
  handler: (input) =>
    Effect.gen(function* () {
      if (("result" in input && input.result !== undefined) === (input.error !== undefined)) {
        return yield* new InvalidArgument({
          message: "give exactly one of result or error",
          hint: 'Example: { "channel": "tasks:save", "error": "disk full" } or { "channel": "tasks:load", "result": { "tasks": [] } }'
        })
      }
      yield* requireRecorder("mock an IPC channel", true)
      const call = yield* callHandle
      const args = input.error !== undefined ? { channel: input.channel, error: input.error } : { channel: input.channel, result: input.result }
      const set = yield* call.evaluateMain(`mock ${input.channel}`, setMock, args)
      const reply = input.error !== undefined ? `fail with Error: ${input.error}` : `reply ${preview(input.result)}`
      return answer(
        `${input.channel} now ${set.replaced ? "(mock replaced) " : ""}${reply}${set.handled ? "; the app's handler is kept and comes back with electron_ipc_clear_mocks" : "; the app registers no handler for it"}.`,
        { channel: input.channel, handled: set.handled, replaced: set.replaced }
      )
    })
})

/** Runs in the main process: removes mocks (one or all), with how often each answered, and the ones left. */
const clearMocks = (_electron: ElectronModule, channel: string | null) => {
  const state = (globalThis as { __stagewright_ipc?: IpcState }).__stagewright_ipc!
  const cleared = state.clearMocks(channel)
  return { cleared, left: Array.from(state.mocks.keys()) }
}

export const clearMocksTool = defineTool({
  name: "electron_ipc_clear_mocks",
  description: "Remove IPC mocks (one channel, or all): the app's own handlers answer again. Says how many calls each mock answered.",
  type: "native",
  idempotent: true,
  errors: ["APP_NOT_RUNNING", "NEEDS_MAIN_PROCESS", "OPERATION_FAILED"],
  input: Schema.Struct({ channel: Schema.optional(Channel).annotations({ description: "only this channel, default all" }) }),
  handler: (input) =>
    Effect.gen(function* () {
      yield* requireRecorder("clear IPC mocks", false)
      const call = yield* callHandle
      const result = yield* call.evaluateMain("clear IPC mocks", clearMocks, input.channel ?? null)
      if (input.channel !== undefined && result.cleared.length === 0) {
        return yield* new InvalidArgument({
          message: `channel: '${input.channel}' is not mocked`,
          hint: result.left.length > 0 ? `Mocked channels: ${result.left.join(", ")}` : "No channel is mocked."
        })
      }
      const text =
        result.cleared.length === 0
          ? "No mocks were set."
          : `Cleared ${result.cleared.map((m) => `${m.channel} (answered ${m.calls} call${m.calls === 1 ? "" : "s"})`).join(", ")}; the app's handlers answer again.`
      return answer(text, result)
    })
})

export const sendTool = defineTool({
  name: "electron_ipc_send",
  description:
    "Send a main → renderer message to a window (webContents.send): the page's ipcRenderer.on(channel) listeners get (event, ...args). The main process cannot see whether a listener exists: check the page's reaction.",
  type: "native",
  errors: ["APP_NOT_RUNNING", "NEEDS_MAIN_PROCESS", "WINDOW_NOT_FOUND"],
  input: Schema.Struct({ channel: Channel, args: Args, window: OptionalWindow }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const entry = yield* call.surface(input.window)
      const args = [...(input.args ?? [])]
      yield* call.evaluateWindow(
        entry,
        `send ${input.channel}`,
        (win, arg: { channel: string; args: Array<unknown> }) => {
          win.webContents.send(arg.channel, ...arg.args)
        },
        { channel: input.channel, args }
      )
      return answer(`Sent ${input.channel} to ${entry.id} with ${args.length === 0 ? "no arguments" : preview(args)}.`, {
        channel: input.channel,
        window: entry.id,
        args: args.length
      })
    })
})
