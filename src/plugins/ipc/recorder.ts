/**
 * The ipc plugin's main-process hook: a bounded log of IPC traffic and the mock table, kept on
 * `globalThis.__stagewright_ipc`. It is serialized and run in the app's main process with the `electron`
 * module as its only input, so it is self-contained (no imports, no outer helpers).
 *
 * - renderer -> main `invoke`: Electron's dispatch asks `ipcMain._invokeHandlers.has(channel)` and then
 *   `.get(channel)` (lib/browser/api/web-contents.ts). The hook answers `get` with a wrapper around the
 *   registered handler (so handlers the app registered before the hook ran are covered too) that logs the
 *   call and its reply, or gives the mock's fixed answer while a mock is set. The registered handlers are
 *   never replaced, so clearing a mock restores the original at once. A mock of a channel without a handler
 *   holds a placeholder entry (so `has` answers true), which `ipcMain.handle` drops when the app registers
 *   its own handler for that channel.
 * - renderer -> main `send`: `ipcMain.emit(channel, event, ...args)` with an IPC event (it has `sender`).
 * - main -> renderer: `webContents.send` of every webContents, existing and created later.
 */
import type { ElectronModule, MainValue } from "../../layers/driver/ElectronDriver.js"

/** One recorded message. `dir`: "in" renderer -> main, "out" main -> renderer. */
export interface IpcEntry {
  readonly seq: number
  readonly at: number
  readonly channel: string
  readonly dir: "in" | "out"
  readonly kind: "invoke" | "send"
  /** The webContents id of the sender (in) or the receiver (out). */
  readonly wc?: number
  readonly size: number
  readonly preview: string
  /** invoke: the reply, or the error the renderer got. */
  readonly result?: { readonly size: number; readonly preview: string }
  readonly error?: string
  readonly ms?: number
  readonly mocked?: boolean
  /** invoke made by electron_ipc_invoke (not by a renderer). */
  readonly synthetic?: boolean
  /** send: how many ipcMain listeners it reached. */
  readonly listeners?: number
}

export interface IpcMock {
  readonly result?: unknown
  readonly error?: string
  readonly calls: number
}

/**
 * Electron's private table of `handle()` handlers on ipcMain and on each `webContents.ipc`
 * (lib/browser/ipc-main-impl.ts): not in its published types, so it is declared here.
 */
export interface InvokeHandlers {
  readonly _invokeHandlers?: Map<string, (event: MainValue, ...args: Array<unknown>) => unknown>
}

export interface IpcState {
  /** Sets (or replaces) a mock; says whether the app has a handler for the channel and whether a mock was replaced. */
  readonly setMock: (
    channel: string,
    answer: { readonly result?: unknown; readonly error?: string }
  ) => { readonly handled: boolean; readonly replaced: boolean }
  /** Removes the mock of one channel (or all), with how many calls each answered. */
  readonly clearMocks: (channel: string | null) => ReadonlyArray<{ readonly channel: string; readonly calls: number }>
  /** The channels the app registered ipcMain.handle handlers for (placeholders of mocks left out). */
  readonly handled: () => ReadonlyArray<string>
  seq: number
  dropped: number
  readonly capacity: number
  readonly entries: Array<IpcEntry>
  readonly mocks: Map<string, IpcMock>
  /** The handler table could be wrapped (false: invoke traffic is not recorded and mocks cannot work). */
  readonly handlersHooked: boolean
}

// The argument is the app's `electron` module; Electron's private handler table is reached dynamically.
export const installIpcRecorder = (electron: ElectronModule): void => {
  const { ipcMain, app, webContents } = electron
  const handlers = (ipcMain as typeof ipcMain & InvokeHandlers)._invokeHandlers
  const hooked = handlers instanceof Map
  const table = {
    has: (channel: string): boolean => hooked && Map.prototype.has.call(handlers, channel),
    get: (channel: string): ((...args: Array<unknown>) => unknown) | undefined => (hooked ? Map.prototype.get.call(handlers, channel) : undefined),
    set: (channel: string, fn: unknown) => hooked && Map.prototype.set.call(handlers, channel, fn),
    delete: (channel: string) => hooked && Map.prototype.delete.call(handlers, channel)
  }
  // Stands in the handler table for a mocked channel the app has no handler for.
  const placeholder = () => undefined
  const mocks = new Map<string, { result?: unknown; error?: string; calls: number }>()
  const state = {
    seq: 0,
    dropped: 0,
    capacity: 500, // entries kept; older ones are dropped (counted)
    entries: [] as Array<Record<string, unknown>>,
    mocks,
    handlersHooked: hooked,
    setMock: (channel: string, answer: { result?: unknown; error?: string }) => {
      const replaced = mocks.has(channel)
      const handled = table.has(channel) && table.get(channel) !== placeholder
      mocks.set(channel, { ...answer, calls: 0 })
      if (!table.has(channel)) table.set(channel, placeholder)
      return { handled, replaced }
    },
    clearMocks: (channel: string | null) => {
      const cleared = Array.from(mocks.entries())
        .filter(([name]) => channel === null || name === channel)
        .map(([name, mock]) => ({ channel: name, calls: mock.calls }))
      for (const { channel: name } of cleared) {
        mocks.delete(name)
        if (table.get(name) === placeholder) table.delete(name)
      }
      return cleared
    },
    handled: () =>
      hooked ? (Array.from(Map.prototype.keys.call(handlers) as Iterable<string>) as Array<string>).filter((name) => table.get(name) !== placeholder) : []
  }
  ;(globalThis as Record<string, unknown>).__stagewright_ipc = state
  const measure = (value: unknown) => {
    let text: string
    try {
      text = value === undefined ? "undefined" : (JSON.stringify(value) ?? String(value))
    } catch {
      text = String(value)
    }
    return { size: text.length, preview: text.length > 200 ? `${text.slice(0, 200)}…` : text }
  }
  const push = (entry: Record<string, unknown>) => {
    state.entries.push({ seq: ++state.seq, at: Date.now(), ...entry })
    if (state.entries.length > state.capacity) {
      state.entries.shift()
      state.dropped++
    }
  }
  if (hooked) {
    handlers.get = (channel: string) => {
      const registered = table.get(channel)
      const original = registered === placeholder ? undefined : registered
      const mock = mocks.get(channel)
      if (original === undefined && mock === undefined) return undefined
      return async (event: { sender?: { id?: number }; __stagewright?: boolean }, ...args: Array<unknown>) => {
        const started = Date.now()
        const base = {
          channel,
          dir: "in",
          kind: "invoke",
          wc: event?.sender?.id,
          ...measure(args),
          ...(mock ? { mocked: true } : {}),
          ...(event?.__stagewright === true ? { synthetic: true } : {})
        }
        try {
          let value: unknown
          if (mock) {
            mock.calls++
            if (mock.error !== undefined) throw new Error(mock.error)
            value = mock.result
          } else {
            value = await original!(event, ...args)
          }
          push({ ...base, result: measure(value), ms: Date.now() - started })
          return value
        } catch (error) {
          push({ ...base, error: error instanceof Error ? error.toString() : String(error), ms: Date.now() - started })
          throw error
        }
      }
    }
  }
  if (hooked && typeof ipcMain.handle === "function") {
    // The app registering a handler for a channel mocked without one replaces the placeholder (the mock stays).
    const handle = ipcMain.handle
    ipcMain.handle = function (this: unknown, channel: string, fn: Parameters<typeof handle>[1]) {
      if (table.get(channel) === placeholder) table.delete(channel)
      return handle.call(this, channel, fn)
    }
  }
  const emit = ipcMain.emit
  ipcMain.emit = function (this: { listenerCount: (c: string) => number }, channel: string, event: unknown, ...args: Array<unknown>) {
    if (typeof channel === "string" && event !== null && typeof event === "object" && "sender" in event) {
      const sender = (event as { sender?: { id?: number } }).sender
      push({ channel, dir: "in", kind: "send", wc: sender?.id, ...measure(args), listeners: this.listenerCount(channel) })
    }
    return emit.call(this, channel, event, ...args)
  }
  const watch = (wc: { id: number; send: (channel: string, ...a: Array<unknown>) => unknown; __stagewrightIpc?: boolean }) => {
    if (!wc || wc.__stagewrightIpc) return
    wc.__stagewrightIpc = true
    const send = wc.send
    wc.send = function (this: unknown, channel: string, ...args: Array<unknown>) {
      push({ channel, dir: "out", kind: "send", wc: wc.id, ...measure(args) })
      return send.call(this, channel, ...args)
    }
  }
  for (const wc of webContents.getAllWebContents()) watch(wc)
  app.on("web-contents-created", (_event: unknown, wc: Parameters<typeof watch>[0]) => watch(wc))
}
