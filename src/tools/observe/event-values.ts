/**
 * What runs in the app for electron_wait_for_event, as source text: a one-shot listener in the main
 * process (kept under a token in `globalThis.__stagewright_waits`, removed when it fires, when the call
 * stops waiting — its timeout, a cancellation — or, should the server never come back, after a bound of its
 * own) and in the page (held by a JSHandle, nothing global). Event arguments are made plain data here,
 * bounded: depth, keys, items, string lengths and a total budget, cycles and Electron objects named.
 */
import { toFunction } from "../../layers/driver/ElectronDriver.js"
import type { MainValue } from "../../layers/driver/ElectronDriver.js"

/** About this many characters of arguments, at most, come back. */
export const ARGUMENT_BUDGET = 4_000

/** Runs in the app: `value` as bounded plain data (self-contained: its source is sent). */
export const safeValue = (value: unknown, budget: number): unknown => {
  let left = budget
  const seen = new Set<unknown>()
  const describeNode = (node: MainValue): string => {
    if (node.nodeType !== 1) return node.nodeName === "#document" ? "document" : String(node.nodeName)
    const testid = node.getAttribute?.("data-testid")
    return `${String(node.tagName).toLowerCase()}${node.id ? `#${node.id}` : ""}${testid ? `[data-testid=${testid}]` : ""}`
  }
  const walk = (v: MainValue, depth: number): unknown => {
    if (left <= 0) return "…"
    if (v === null || v === undefined) return null
    if (typeof v === "boolean") return v
    if (typeof v === "number") return Number.isFinite(v) ? v : String(v)
    if (typeof v === "string") {
      const s = v.length > 500 ? `${v.slice(0, 499)}…` : v
      left -= s.length
      return s
    }
    if (typeof v === "function") return "[Function]"
    if (typeof v !== "object") return String(v)
    if (seen.has(v)) return "[Circular]"
    left -= 10
    try {
      if (typeof v.nodeType === "number" && typeof v.nodeName === "string") return describeNode(v)
      if (typeof v.window === "object" && v.window === v) return "window"
      if (v instanceof Error) return { name: v.name, message: walk(v.message, depth + 1) }
      if (v instanceof Date) return v.toISOString()
      if (typeof v.getTitle === "function" && typeof v.id === "number" && v.webContents) return { BrowserWindow: v.id, title: String(v.getTitle()) }
      if (typeof v.getURL === "function" && typeof v.id === "number" && typeof v.send === "function") return { webContents: v.id, url: String(v.getURL()) }
      if (depth >= 4) return "[Object]"
      seen.add(v)
      if (Array.isArray(v) || ArrayBuffer.isView(v)) {
        const length = Number((v as MainValue).length ?? 0)
        const items = Array.prototype.slice.call(v, 0, 20).map((item: unknown) => walk(item, depth + 1))
        return length > 20 ? [...items, `… ${length - 20} more`] : items
      }
      if (v instanceof Map || v instanceof Set) return `[${v instanceof Map ? "Map" : "Set"} of ${v.size}]`
      const out: Record<string, unknown> = {}
      const keys = Object.keys(v)
      for (const key of keys.slice(0, 20)) {
        if (left <= 0) break
        left -= key.length
        out[key] = walk(v[key], depth + 1)
      }
      if (keys.length > 20) out["…"] = `${keys.length - 20} more keys`
      return out
    } catch {
      return "[unreadable]"
    }
  }
  return walk(value, 0)
}

/**
 * Runs in the main process: a one-shot listener for `arg.event` on `emitter`, kept under `arg.token`. Its
 * result (the arguments, without the leading Electron Event, whose sender is given apart) waits there to
 * be taken. Returns how many listeners the event has now.
 */
export const mainArm = (
  emitter: MainValue,
  arg: { token: string; event: string; ttlMs: number; budget: number; invoke?: boolean },
  safe: typeof safeValue
): number => {
  const g = globalThis as MainValue
  const waits: Map<string, MainValue> = (g.__stagewright_waits ??= new Map())
  let settle: (result: unknown) => void = () => undefined
  const wait: MainValue = { promise: new Promise((resolve) => (settle = resolve)), done: false }
  const finish = (result: unknown) => {
    if (wait.done) return
    wait.done = true
    emitter.removeListener(arg.event, listener)
    // The channel's ipcMain.handle handler gets its own back (unless the app replaced it meanwhile).
    if (handlers && Map.prototype.get.call(handlers, arg.event) === wrapped) handlers.set(arg.event, original)
    clearTimeout(wait.timer)
    settle(result)
  }
  const listener = (...args: Array<MainValue>) => {
    const first = args[0]
    const isEvent = first !== null && typeof first === "object" && typeof first.preventDefault === "function"
    const rest = isEvent ? args.slice(1) : args
    finish({ fired: true, args: safe(rest, arg.budget), ...(isEvent && first.sender ? { sender: safe(first.sender, 200) } : {}) })
  }
  wait.finish = finish
  emitter.on(arg.event, listener)
  // A channel the app serves with ipcMain.handle (ipcRenderer.invoke) emits no event: its handler (in
  // Electron's ipcMain._invokeHandlers) is wrapped while the wait lasts, reporting the call, then running it.
  const handlers: Map<string, MainValue> | undefined = arg.invoke && emitter._invokeHandlers instanceof Map ? emitter._invokeHandlers : undefined
  // The stored entry, read past the map's own get (the held-dialog hooks wrap what get returns to follow invokes).
  const original: MainValue = handlers === undefined ? undefined : Map.prototype.get.call(handlers, arg.event)
  const wrapped = function (this: unknown, ...args: Array<MainValue>) {
    listener(...args)
    return original.apply(this, args)
  }
  ;(wrapped as MainValue).__stagewright_wait = arg.token
  if (handlers && typeof original === "function") handlers.set(arg.event, wrapped)
  // Should the server never take the result nor call it off, the listener goes after its own bound.
  wait.timer = setTimeout(() => {
    finish({ fired: false })
    waits.delete(arg.token)
  }, arg.ttlMs)
  wait.timer.unref?.()
  waits.set(arg.token, wait)
  return emitter.listenerCount(arg.event)
}

/** Runs in the main process: the result of the wait `token` once it has one (taken: the entry goes). */
export const mainTake = (_electron: unknown, token: string): unknown => {
  const waits: Map<string, MainValue> | undefined = (globalThis as MainValue).__stagewright_waits
  const wait = waits?.get(token)
  if (!wait) return { fired: false }
  return wait.promise.then((result: unknown) => {
    waits!.delete(token)
    return result
  })
}

/** Runs in the main process: calls the wait `token` off (its listener removed, a pending take answered). */
export const mainCancel = (_electron: unknown, token: string): boolean => {
  const waits: Map<string, MainValue> | undefined = (globalThis as MainValue).__stagewright_waits
  const wait = waits?.get(token)
  if (!wait) return false
  wait.finish({ fired: false, cancelled: true })
  waits!.delete(token)
  return true
}

/**
 * Runs in the page: a listener for `arg.event` on the element, `window` or `document`, held by the handle
 * this returns (`promise` resolves with the event, bounded; `cancel` removes the listener and resolves it).
 */
export const pageArm = (element: Element | undefined, arg: { on: string; event: string; budget: number }, safe: typeof safeValue) => {
  const target: EventTarget = element ?? (arg.on === "window" ? window : document)
  const controller = new AbortController()
  let settle: (result: unknown) => void = () => undefined
  const promise = new Promise((resolve) => (settle = resolve))
  const FIELDS = ["detail", "data", "key", "code", "button", "clientX", "clientY", "origin", "message", "reason", "newURL", "oldURL", "state", "persisted"]
  target.addEventListener(
    arg.event,
    (event) => {
      controller.abort()
      const fields: Record<string, unknown> = {}
      for (const field of FIELDS) {
        const value = (event as unknown as Record<string, unknown>)[field]
        if (field in event && value !== undefined && value !== null) fields[field] = value
      }
      settle({ fired: true, event: safe({ type: event.type, target: event.target, isTrusted: event.isTrusted, ...fields }, arg.budget) })
    },
    { signal: controller.signal }
  )
  return {
    promise,
    cancel: () => {
      controller.abort()
      settle({ fired: false })
    }
  }
}

const WITH_SAFE = (params: string, body: string) => `(${params}) => { const __name = (f) => f; const safeValue = (${safeValue.toString()}); ${body} }`

/** Main-process code arming on `app` or `ipcMain` (arg.on). */
export const armOnElectron = WITH_SAFE(
  "electron, arg",
  `const arm = (${mainArm.toString()}); return arm(arg.on === "app" ? electron.app : electron.ipcMain, arg, safeValue)`
)

/** Main-process code arming on a window's BrowserWindow or webContents (arg.on), for evaluateWindow. */
export const armOnWindow = toFunction(
  WITH_SAFE("win, arg", `const arm = (${mainArm.toString()}); return arm(arg.on === "webContents" ? win.webContents : win, arg, safeValue)`)
)

/** Page code arming on an element (locator.evaluateHandle). */
export const armOnElement = toFunction(WITH_SAFE("element, arg", `const arm = (${pageArm.toString()}); return arm(element, arg, safeValue)`))

/** Page code arming on `window` or `document` (page.evaluateHandle). */
export const armOnPage = toFunction(WITH_SAFE("arg", `const arm = (${pageArm.toString()}); return arm(undefined, arg, safeValue)`))
