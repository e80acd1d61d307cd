/**
 * electron_ipc_handlers (what the main process answers) and electron_ipc_log (what went across).
 */
import { Effect, Schema } from "effect"
import { type ElectronModule } from "../../layers/driver/ElectronDriver.js"
import { defineTool } from "../../tools/contract/Tool.js"
import type { InvokeHandlers, IpcEntry, IpcState } from "./recorder.js"
import { label, requireRecorder, time, windowIdsByWebContents } from "./shared.js"
import { callHandle } from "../../tools/contract/handle.js"
import { answer } from "../../tools/contract/respond.js"

interface ChannelInfo {
  readonly channel: string
  readonly handler: boolean
  readonly listeners: number
  readonly mocked: boolean
}

/** Runs in the main process: ipcMain's handlers (invoke) and listeners (send), and the mocks. */
const readChannels = ({ ipcMain }: ElectronModule): ReadonlyArray<ChannelInfo> => {
  const table = (ipcMain as typeof ipcMain & InvokeHandlers)._invokeHandlers
  const state = (globalThis as { __stagewright_ipc?: IpcState }).__stagewright_ipc
  // The recorder leaves out the placeholders of mocked channels the app has no handler for.
  const handled: Array<string> = state ? [...state.handled()] : table instanceof Map ? Array.from(Map.prototype.keys.call(table) as Iterable<string>) : []
  const mocked: Array<string> = state ? Array.from(state.mocks.keys()) : []
  // "error" carries Electron's own no-op listener (so an "error" channel never throws).
  const listened = (ipcMain.eventNames() as Array<string | symbol>).filter((name): name is string => typeof name === "string" && name !== "error")
  const names = Array.from(new Set([...handled, ...listened, ...mocked])).sort()
  return names.map((channel) => ({
    channel,
    handler: handled.includes(channel),
    listeners: listened.includes(channel) ? ipcMain.listenerCount(channel) : 0,
    mocked: mocked.includes(channel)
  }))
}

export const handlersTool = defineTool({
  name: "electron_ipc_handlers",
  description:
    "IPC channels the main process serves: ipcMain.handle handlers (renderer invoke) and ipcMain.on listeners (renderer send), and which are mocked. Filter by channel substring.",
  type: "debug",
  errors: ["APP_NOT_RUNNING", "NEEDS_MAIN_PROCESS"],
  input: Schema.Struct({
    channel: Schema.optional(Schema.String.pipe(Schema.maxLength(200))).annotations({ description: "channel contains" })
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const all = yield* call.evaluateMain("list the IPC handlers", readChannels, undefined)
      const shown = all.filter((c) => input.channel === undefined || c.channel.includes(input.channel))
      const lines = shown.map(
        (c) =>
          `${c.channel}: ${[c.handler ? "handle" : undefined, c.listeners > 0 ? `on ×${c.listeners}` : undefined, c.mocked ? "MOCKED" : undefined].filter(Boolean).join(", ")}`
      )
      const handlers = shown.filter((c) => c.handler).length
      const head = `${handlers} handlers, ${shown.filter((c) => c.listeners > 0).length} listened channels${input.channel !== undefined ? ` matching "${input.channel}"` : ""}`
      return answer(
        lines.length > 0
          ? `${head}\n${lines.join("\n")}`
          : `No IPC channels${input.channel !== undefined ? ` match "${input.channel}"` : " are registered on ipcMain"}.`,
        { channels: shown }
      )
    })
})

/** Runs in the main process: entries after `after`, and the counters. */
const readLog = (_electron: ElectronModule, input: { after: number; clear: boolean }) => {
  const state = (globalThis as { __stagewright_ipc?: { entries: Array<IpcEntry>; seq: number; dropped: number } }).__stagewright_ipc
  if (state === undefined) return undefined
  const entries = state.entries.filter((e) => e.seq > input.after)
  const out = { entries, cursor: state.seq, dropped: state.dropped }
  if (input.clear) state.entries.length = 0
  return out
}

const describeEntry = (e: IpcEntry, ids: ReadonlyMap<number, string>) => {
  const who = label(ids, e.wc)
  const arrow = e.dir === "in" ? `${who} → main` : `main → ${who}`
  const tags = [e.synthetic ? "via electron_ipc_invoke" : undefined, e.mocked ? "mocked" : undefined, e.listeners === 0 ? "no listener" : undefined].filter(
    Boolean
  )
  const reply = e.kind === "invoke" ? (e.error !== undefined ? ` ⇒ threw ${e.error}` : ` ⇒ ${e.result?.preview ?? "undefined"} (${e.result?.size ?? 0} B)`) : ""
  return `#${e.seq} ${time(e.at)} ${arrow} ${e.kind} ${e.channel} ${e.preview} (${e.size} B)${reply}${e.ms !== undefined ? ` ${e.ms} ms` : ""}${tags.length > 0 ? ` [${tags.join(", ")}]` : ""}`
}

export const logTool = defineTool({
  name: "electron_ipc_log",
  description:
    "IPC traffic recorded since launch, oldest first: renderer invoke (with reply or error and duration) and send, main → renderer webContents.send; window, size, argument preview, time. Pass the returned cursor to read only new entries.",
  type: "debug",
  errors: ["APP_NOT_RUNNING", "NEEDS_MAIN_PROCESS", "OPERATION_FAILED"],
  input: Schema.Struct({
    channel: Schema.optional(Schema.String.pipe(Schema.maxLength(200))).annotations({ description: "channel contains" }),
    direction: Schema.optional(Schema.Literal("in", "out")).annotations({ description: "in: renderer → main, out: main → renderer" }),
    cursor: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.nonNegative())).annotations({ description: "only entries after this cursor" }),
    limit: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1, 500))).annotations({ description: "newest entries to show, default 30" }),
    clear: Schema.optional(Schema.Boolean).annotations({ description: "empty the log after reading" })
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      yield* requireRecorder("read the IPC log", false)
      const read = yield* call.evaluateMain("read the IPC log", readLog, { after: input.cursor ?? 0, clear: input.clear === true })
      if (read === undefined) return yield* Effect.dieMessage("the ipc recorder vanished")
      const entries = read.entries.filter(
        (e) => (input.channel === undefined || e.channel.includes(input.channel)) && (input.direction === undefined || e.dir === input.direction)
      )
      const limit = input.limit ?? 30
      const shown = entries.slice(-limit)
      const ids = yield* windowIdsByWebContents
      const lines = shown.map((e) => describeEntry(e, ids))
      if (entries.length > shown.length) lines.unshift(`… ${entries.length - shown.length} older matching entries not shown`)
      if (read.dropped > 0) lines.unshift(`(${read.dropped} oldest entries were dropped: the log keeps 500)`)
      return answer(
        `${shown.length > 0 ? lines.join("\n") : "No matching IPC traffic."}\ncursor: ${read.cursor}${input.clear === true ? " (log cleared)" : ""}`,
        {
          cursor: read.cursor,
          dropped: read.dropped,
          omitted: entries.length - shown.length,
          entries: shown.map((e) => ({ ...e, window: label(ids, e.wc), at: new Date(e.at).toISOString() }))
        }
      )
    })
})
