/**
 * The in-app tier: a main-process hook that records what Electron cannot be asked afterwards (permission
 * handlers, shell.openExternal calls, CSP headers an app's webRequest listener passes on), and the reads
 * that turn a running app into AppFacts for the checklist.
 */
import { Effect } from "effect"
import type { BrowserWindowHandle, ElectronModule, MainValue, Surface } from "../../layers/driver/ElectronDriver.js"
import type { AppFacts, WebPrefsFacts, WindowFacts } from "./checklist.js"
import { callHandle } from "../../tools/contract/handle.js"

/**
 * Installed in the main process (serialized: self-contained). Wraps, for what happens from now on:
 * `shell.openExternal` (URLs kept, the latest 50), `setPermissionRequestHandler` of every session (which
 * sessions have one), `setWindowOpenHandler` (which webContents have one) and `webRequest.onHeadersReceived`
 * (the CSP header of main-frame responses, as the app's own listener passes it on; never a listener of its
 * own, which would replace the app's). `early` says whether it ran before the app was ready.
 */
// `any` below: the prototypes this hook patches, and the webRequest details it passes on, are reached dynamically.
export const productionRecorder = (electron: ElectronModule): void => {
  const g = globalThis as MainValue
  if (g.__stagewright_production) return
  const state = {
    early: !electron.app.isReady(),
    openExternal: [] as Array<string>,
    permission: new WeakMap<object, boolean>(),
    windowOpen: new WeakMap<object, boolean>(),
    csp: new Map<number, Array<string>>(),
    windowOpenSource: ""
  }
  g.__stagewright_production = state
  try {
    const shell = electron.shell
    const original = shell.openExternal
    shell.openExternal = function (this: unknown, url: unknown, ...rest: Array<unknown>) {
      state.openExternal.push(String(url).slice(0, 500))
      if (state.openExternal.length > 50) state.openExternal.shift()
      return Reflect.apply(original, this, [url, ...rest])
    }
  } catch {
    // a read-only shell module: openExternal calls stay unseen
  }
  const wrapSession = (ses: any) => {
    const proto = Object.getPrototypeOf(ses)
    if (!proto || proto.__stagewrightProduction) return
    proto.__stagewrightProduction = true
    const setHandler = proto.setPermissionRequestHandler
    proto.setPermissionRequestHandler = function (this: object, handler: unknown) {
      state.permission.set(this, typeof handler === "function")
      return setHandler.call(this, handler)
    }
    const web = Object.getPrototypeOf(ses.webRequest)
    if (web && typeof web.onHeadersReceived === "function" && !web.__stagewrightProduction) {
      web.__stagewrightProduction = true
      const register = web.onHeadersReceived
      web.onHeadersReceived = function (this: unknown, ...args: Array<any>) {
        const at = typeof args[0] === "function" || args[0] === null ? 0 : 1
        const listener = args[at]
        if (typeof listener === "function") {
          args[at] = (details: any, callback: (response: any) => void) =>
            listener(details, (response: any) => {
              if (details.resourceType === "mainFrame" && typeof details.webContentsId === "number") {
                const headers = (response && response.responseHeaders) || details.responseHeaders || {}
                const csp = Object.keys(headers)
                  .filter((k) => k.toLowerCase() === "content-security-policy")
                  .flatMap((k) => [].concat(headers[k]))
                state.csp.set(details.webContentsId, csp.map(String))
                if (state.csp.size > 50) state.csp.delete(state.csp.keys().next().value as number)
              }
              callback(response)
            })
        }
        return register.apply(this, args)
      }
    }
  }
  const wrapContents = (wc: any) => {
    const proto = Object.getPrototypeOf(wc)
    if (!proto || proto.__stagewrightProduction) return
    proto.__stagewrightProduction = true
    const setHandler = proto.setWindowOpenHandler
    state.windowOpenSource = String(setHandler)
    proto.setWindowOpenHandler = function (this: object, handler: unknown) {
      state.windowOpen.set(this, typeof handler === "function")
      return setHandler.call(this, handler)
    }
  }
  const onReady = () => {
    try {
      wrapSession(electron.session.defaultSession)
    } catch {
      // no session API
    }
  }
  if (electron.app.isReady()) onReady()
  else electron.app.whenReady().then(onReady)
  for (const wc of electron.webContents.getAllWebContents()) wrapContents(wc)
  electron.app.on("web-contents-created", (_event: unknown, wc: any) => wrapContents(wc))
}

interface MainWindowRead {
  readonly url: string
  readonly prefs: Record<string, unknown> | undefined
  readonly willNavigate: number
  readonly windowOpen: boolean | "unknown"
  readonly permission: boolean | "unknown"
  readonly devTools: boolean
  readonly cspHeader: ReadonlyArray<string> | undefined
}

/** Runs in the main process for one BrowserWindow (serialized: self-contained). */
const readWindow = (win: BrowserWindowHandle): MainWindowRead => {
  // getLastWebPreferences and _windowOpenHandler are Electron's, though not in its published types.
  const wc: typeof win.webContents & { getLastWebPreferences?: () => Record<string, unknown>; _windowOpenHandler?: unknown } = win.webContents
  const state = (globalThis as MainValue).__stagewright_production
  const prefs = typeof wc.getLastWebPreferences === "function" ? wc.getLastWebPreferences() : undefined
  // Electron keeps the handler in webContents._windowOpenHandler (lib/browser/api/web-contents.ts); read it
  // only when this Electron's setWindowOpenHandler is that JS function.
  const readable = state !== undefined && state.windowOpenSource.includes("_windowOpenHandler")
  const windowOpen = state?.windowOpen.has(wc) ? state.windowOpen.get(wc) : readable ? typeof wc._windowOpenHandler === "function" : "unknown"
  const ses = wc.session
  const permission = state?.permission.has(ses) ? state.permission.get(ses) : state?.early ? false : "unknown"
  const picked: Record<string, unknown> = {}
  if (prefs) {
    for (const key of [
      "contextIsolation",
      "sandbox",
      "nodeIntegration",
      "nodeIntegrationInWorker",
      "nodeIntegrationInSubFrames",
      "webSecurity",
      "allowRunningInsecureContent",
      "experimentalFeatures",
      "enableBlinkFeatures",
      "webviewTag",
      "devTools"
    ]) {
      picked[key] = prefs[key]
    }
  }
  return {
    url: wc.getURL(),
    prefs: prefs ? picked : undefined,
    willNavigate: wc.listenerCount("will-navigate"),
    windowOpen,
    permission,
    devTools: wc.isDevToolsOpened(),
    cspHeader: state?.csp.get(wc.id)
  }
}

/** Electron's defaults fill what getLastWebPreferences leaves undefined (sandbox follows nodeIntegration, as since Electron 20). */
export const effectivePrefs = (raw: Record<string, unknown>): WebPrefsFacts => {
  const flag = (key: string, fallback: boolean) => (typeof raw[key] === "boolean" ? (raw[key] as boolean) : fallback)
  const nodeIntegration = flag("nodeIntegration", false)
  return {
    contextIsolation: flag("contextIsolation", true),
    sandbox: flag("sandbox", !nodeIntegration),
    nodeIntegration,
    nodeIntegrationInWorker: flag("nodeIntegrationInWorker", false),
    nodeIntegrationInSubFrames: flag("nodeIntegrationInSubFrames", false),
    webSecurity: flag("webSecurity", true),
    allowRunningInsecureContent: flag("allowRunningInsecureContent", raw.webSecurity === false),
    experimentalFeatures: flag("experimentalFeatures", false),
    enableBlinkFeatures: typeof raw.enableBlinkFeatures === "string" ? raw.enableBlinkFeatures : "",
    webviewTag: flag("webviewTag", false),
    devTools: flag("devTools", true)
  }
}

/** CSP meta tags of the page in a window. */
const readCspMeta = (entry: Surface) =>
  Effect.gen(function* () {
    const call = yield* callHandle
    return yield* call.evaluate(entry, "read the page's CSP meta tags", () =>
      Array.from(document.querySelectorAll("meta[http-equiv]"))
        .filter((meta) => (meta.getAttribute("http-equiv") ?? "").toLowerCase() === "content-security-policy")
        .map((meta) => meta.getAttribute("content") ?? "")
    )
  })

/** Everything the checklist needs from the running app (fails when it has no main process). */
export const appFacts = Effect.gen(function* () {
  const call = yield* callHandle
  const app = yield* call.evaluateMain(
    "read the app's security facts",
    ({ app }: { app: { isPackaged: boolean } }) => {
      const state = (globalThis as { __stagewright_production?: { openExternal: Array<string>; early: boolean } }).__stagewright_production
      return {
        electron: process.versions.electron ?? "unknown",
        packaged: app.isPackaged,
        openExternal: state ? [...state.openExternal] : [],
        early: state?.early ?? false
      }
    },
    undefined
  )
  const windows = yield* Effect.forEach(yield* (yield* callHandle).surfaces(), (entry) =>
    Effect.gen(function* () {
      const main = yield* call.evaluateWindow(entry, `read ${entry.id}'s webPreferences and handlers`, readWindow, undefined)
      const cspMeta = yield* readCspMeta(entry).pipe(Effect.orElseSucceed(() => undefined))
      const facts: WindowFacts = {
        id: entry.id,
        url: main.url,
        prefs: main.prefs ? effectivePrefs(main.prefs) : undefined,
        cspMeta,
        cspHeader: main.cspHeader,
        willNavigateListeners: main.willNavigate,
        windowOpenHandler: main.windowOpen,
        permissionHandler: main.permission,
        devToolsOpened: main.devTools
      }
      return facts
    })
  )
  const facts: AppFacts = { electron: app.electron, packaged: app.packaged, windows, openExternal: app.openExternal, hookedEarly: app.early }
  return facts
})

const onOff = (value: boolean, name: string) => `${name} ${value ? "on" : "off"}`

/** One window's facts as a line or two. */
export const describeWindow = (w: WindowFacts): string => {
  const p = w.prefs
  const prefs = p
    ? [
        onOff(p.contextIsolation, "contextIsolation"),
        onOff(p.sandbox, "sandbox"),
        onOff(p.nodeIntegration, "nodeIntegration"),
        onOff(p.webSecurity, "webSecurity"),
        onOff(p.allowRunningInsecureContent, "allowRunningInsecureContent"),
        onOff(p.experimentalFeatures, "experimentalFeatures"),
        ...(p.enableBlinkFeatures ? [`enableBlinkFeatures ${p.enableBlinkFeatures}`] : []),
        ...(p.webviewTag ? ["webviewTag on"] : []),
        ...(p.devTools ? [] : ["devTools off"])
      ].join(", ")
    : "webPreferences unreadable"
  const csp = w.cspMeta === undefined ? "unreadable" : [...w.cspMeta, ...(w.cspHeader ?? [])].join(" | ") || "none"
  const known = (v: boolean | "unknown") => (v === "unknown" ? "unknown" : v ? "yes" : "no")
  return [
    `${w.id} ${w.url}`,
    `  ${prefs}`,
    `  CSP: ${csp}${w.cspHeader === undefined ? " (headers not visible)" : ""}; will-navigate listeners: ${w.willNavigateListeners}; window-open handler: ${known(w.windowOpenHandler)}; permission handler: ${known(w.permissionHandler)}; DevTools ${w.devToolsOpened ? "open" : "closed"}`
  ].join("\n")
}
