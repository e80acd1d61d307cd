/**
 * Window tools: list, select, wait for, change the state of, size and close the app's windows.
 */
import { Effect, Schema } from "effect"
import { AppLifecycle, type AppSession, type Surface, type WindowInfo } from "../../layers/driver/ElectronDriver.js"
import { InvalidArgument } from "../contract/errors.js"
import { defineTool } from "../contract/Tool.js"
import { SessionName, TimeoutMs, WindowId } from "../contract/shapes.js"
import { callHandle } from "../contract/handle.js"
import { answer } from "../contract/respond.js"
import { windowsTold } from "../pipeline/new-windows.js"

const formatWindow = (w: WindowInfo) => {
  const flags = [
    w.focused ? "focused" : undefined,
    w.visible === false ? "hidden" : undefined,
    w.minimized ? "minimized" : undefined,
    w.maximized ? "maximized" : undefined,
    w.fullScreen ? "fullscreen" : undefined
  ].filter(Boolean)
  const bounds = w.bounds ? ` ${w.bounds.width}x${w.bounds.height}@${w.bounds.x},${w.bounds.y}` : ""
  const failed = w.failedUrl !== undefined ? ` (failed to load ${w.failedUrl})` : ""
  // A plain window reads as before; a view, guest or frame says what it is and where it is shown.
  const kind =
    w.kind !== undefined && (w.kind !== "window" || w.parent !== undefined)
      ? ` ${w.kind}${w.parent !== undefined ? ` in ${w.parent}` : ""}${w.crossOrigin ? ", cross-origin" : ""}`
      : ""
  return `${w.active ? "*" : " "} ${w.id}${kind} "${w.title}" ${w.url}${failed}${bounds}${flags.length > 0 ? ` [${flags.join(", ")}]` : ""}`
}

/** A window's info; a window whose page a web dialog blocks is described without asking its page. */
const infoOf = (session: AppSession, entry: Surface) =>
  Effect.flatMap(callHandle, (call) => {
    const page = session.windowOf(entry.page)?.id
    const pending = session.pendingDialogs.find((d) => d.window === page)
    if (pending === undefined) return call.surfaceInfo(entry)
    return Effect.succeed<WindowInfo>({
      id: entry.id,
      kind: entry.kind,
      active: session.activeId === entry.id,
      title: `(${pending.type} dialog open)`,
      url: entry.shownUrl()
    })
  })

export const windows = defineTool({
  name: "electron_windows",
  description:
    "See which windows are open: lists windows, views (WebContentsView/BrowserView), <webview> guests and frames, parents first: id, kind, parent, title, URL, bounds, state; * marks the active one.",
  type: "read",
  errors: ["APP_NOT_RUNNING"],
  input: Schema.Struct({}),
  handler: () =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const surfaces = yield* call.surfaces({ gated: false })
      const session = yield* call.session
      const infos = yield* Effect.forEach(surfaces, (w) => infoOf(session, w), { concurrency: "unbounded" })
      windowsTold(session)
      return answer(infos.length > 0 ? infos.map(formatWindow).join("\n") : "No open windows.", { windows: infos })
    })
})

const WindowQuery = {
  window: Schema.optional(WindowId),
  title: Schema.optional(Schema.String).annotations({ description: "title contains" }),
  url: Schema.optional(Schema.String).annotations({ description: "URL contains" })
}

export const selectWindow = defineTool({
  name: "electron_select_window",
  description:
    "Go to (switch to) a window, view or frame, such as the main window, making it active (by id, title or URL substring, or index); later tools act in it.",
  type: "interact",
  idempotent: true,
  errors: ["APP_NOT_RUNNING", "WINDOW_NOT_FOUND"],
  input: Schema.Struct({
    ...WindowQuery,
    index: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.nonNegative())),
    session: Schema.optional(SessionName)
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const lifecycle = yield* AppLifecycle
      const call = yield* callHandle
      if (input.session !== undefined) yield* lifecycle.selectSession(input.session)
      const chosen = input.window !== undefined || input.title !== undefined || input.url !== undefined || input.index !== undefined
      const entry = chosen ? yield* call.selectSurface({ id: input.window, title: input.title, url: input.url, index: input.index }) : yield* call.surface()
      const session = yield* call.session
      const info = yield* infoOf(session, entry)
      windowsTold(session, [entry.id])
      return answer(`Active window: ${formatWindow(info).trim()}`, { window: info })
    })
})

export const waitForWindow = defineTool({
  name: "electron_wait_for_window",
  description:
    "Wait for a window whose title or URL contains the given text (one already open counts; a window whose load failed matches the URL it tried), or without filters for the next new window; makes it active unless select is false. A timeout lists the open windows.",
  type: "read",
  errors: ["APP_NOT_RUNNING", "TIMEOUT"],
  input: Schema.Struct({
    title: WindowQuery.title,
    url: WindowQuery.url,
    select: Schema.optional(Schema.Boolean).annotations({ description: "default true" }),
    timeoutMs: TimeoutMs(10_000)
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const entry = yield* call.waitForSurface({ title: input.title, url: input.url }, { timeoutMs: input.timeoutMs ?? 10_000, select: input.select !== false })
      const info = yield* call.surfaceInfo(entry)
      windowsTold(yield* call.session, [entry.id])
      return answer(`Window ${formatWindow(info).trim()}`, { window: info })
    })
})

const STATE_ACTIONS = ["minimize", "maximize", "restore", "focus", "show", "hide", "fullscreen", "unfullscreen"] as const

export const windowState = defineTool({
  name: "electron_window_state",
  description:
    "Minimize, maximize, restore (to normal from minimized, maximized or fullscreen), focus, show, hide or (un)fullscreen a window (default: the active one); returns the new state. Needs the main process.",
  type: "interact",
  idempotent: true,
  errors: ["APP_NOT_RUNNING", "WINDOW_NOT_FOUND", "NEEDS_MAIN_PROCESS"],
  input: Schema.Struct({ action: Schema.Literal(...STATE_ACTIONS), window: Schema.optional(WindowId) }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const entry = yield* call.surface(input.window)
      yield* call.evaluateWindow(
        entry,
        `${input.action} the window`,
        (win, action: string) => {
          switch (action) {
            case "minimize":
              return win.minimize()
            case "maximize":
              return win.maximize()
            case "restore":
              // Electron's restore() only leaves the minimized state; undo maximize and fullscreen too.
              if (win.isFullScreen()) win.setFullScreen(false)
              if (win.isMinimized()) win.restore()
              if (win.isMaximized()) win.unmaximize()
              return
            case "focus":
              return win.focus()
            case "show":
              return win.show()
            case "hide":
              return win.hide()
            case "fullscreen":
              return win.setFullScreen(true)
            case "unfullscreen":
              return win.setFullScreen(false)
          }
        },
        input.action
      )
      const info = yield* call.surfaceInfo(entry)
      return answer(formatWindow(info).trim(), { window: info })
    })
})

const Coordinate = Schema.Number.pipe(Schema.int(), Schema.between(-100_000, 100_000))
const Size = Schema.Number.pipe(Schema.int(), Schema.between(1, 100_000))

export const windowBounds = defineTool({
  name: "electron_window_bounds",
  description: "Get a window's bounds, or set any of x, y, width, height (pixels) and get the result. Needs the main process.",
  type: "interact",
  idempotent: true,
  errors: ["APP_NOT_RUNNING", "WINDOW_NOT_FOUND", "NEEDS_MAIN_PROCESS"],
  input: Schema.Struct({
    window: Schema.optional(WindowId),
    x: Schema.optional(Coordinate),
    y: Schema.optional(Coordinate),
    width: Schema.optional(Size),
    height: Schema.optional(Size)
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const entry = yield* call.surface(input.window)
      const { window: _window, ...change } = input
      const bounds = yield* call.evaluateWindow(
        entry,
        "set the window bounds",
        (win, next: Record<string, number>) => {
          if (Object.keys(next).length > 0) win.setBounds({ ...win.getBounds(), ...next })
          return win.getBounds() as { x: number; y: number; width: number; height: number }
        },
        change as Record<string, number>
      )
      return answer(`${entry.id}: ${bounds.width}x${bounds.height} at ${bounds.x},${bounds.y}`, { window: entry.id, bounds })
    })
})

export const windowClose = defineTool({
  name: "electron_window_close",
  description: "Close one window (default: the active one) as the user would; the app's close handlers run. Lists the windows left.",
  type: "interact",
  destructive: true,
  errors: ["APP_NOT_RUNNING", "WINDOW_NOT_FOUND"],
  input: Schema.Struct({ window: Schema.optional(WindowId) }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const entry = yield* call.surface(input.window)
      if (entry.kind === "frame") {
        return yield* new InvalidArgument({
          message: `${entry.id} is a frame, not a window`,
          hint: `Close the window it is in (${entry.parentId ?? "electron_windows lists it"}).`
        })
      }
      yield* call.run("close the window", () => entry.page.close({ runBeforeUnload: false }))
      const session = yield* call.current
      const left = session && !session.exit ? session.windows.filter((w) => !w.page.isClosed()).map((w) => w.id) : []
      if (session !== undefined) windowsTold(session)
      return answer(`Closed ${entry.id}. ${left.length > 0 ? `Open: ${left.join(", ")}; active: ${session?.activeId}` : "No windows left."}`, {
        closed: entry.id,
        open: left,
        active: session?.activeId ?? null
      })
    })
})

export const windowTools = [windows, selectWindow, waitForWindow, windowState, windowBounds, windowClose]
