/**
 * ElectronDriver: owns the app session (launched through playwright-core's `_electron` or attached over
 * CDP), its windows and the active one, snapshot refs, and bounded buffers of console messages,
 * errors and requests. Tools never touch playwright-core directly; they ask this service.
 *
 * The session is a scoped resource: it lives in a child scope of the layer's scope, so closing the
 * app, replacing it, or shutting the server down (however it ends) closes the Electron process.
 */
import { Context, Effect, ExecutionStrategy, Exit, Layer, Ref, Scope } from "effect"
import type { ChildProcess } from "node:child_process"
import { existsSync, readdirSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { _electron, chromium } from "playwright-core"
import type { Browser, BrowserContext, ConsoleMessage, Dialog, ElectronApplication, Locator, Page } from "playwright-core"
import {
  AmbiguousLocator,
  AppCrashed,
  AppNotRunning,
  DialogOpen,
  ElementNotFound,
  InvalidArgument,
  LaunchFailed,
  NeedsMainProcess,
  NotInteractable,
  OperationFailed,
  RefStale,
  Timeout,
  WindowNotFound,
  type ToolError
} from "../tools/errors.js"
import { BUFFER_CAPACITY, RingBuffer, type ConsoleEntry, type ErrorEntry, type RequestEntry } from "./buffers.js"
import { resolveElectronRuntime } from "./electron-runtime.js"
import { InspectorClient } from "./inspector-client.js"

export interface LaunchOptions {
  /** App folder (with package.json) or main script. */
  readonly app?: string | undefined
  readonly executablePath?: string | undefined
  readonly args?: ReadonlyArray<string> | undefined
  readonly env?: Readonly<Record<string, string>> | undefined
  readonly cwd?: string | undefined
  readonly timeoutMs?: number | undefined
}

export interface AttachOptions {
  /** Chromium's remote debugging endpoint: http://127.0.0.1:9222, ws://..., or a port. */
  readonly cdpUrl: string
  /** The main process's Node inspector: ws://..., http://127.0.0.1:9229 or a port. */
  readonly inspectorUrl?: string | undefined
  readonly timeoutMs?: number | undefined
}

/** One recorded step, for test export. */
export interface RecordedStep {
  readonly tool: string
  readonly window: string
  readonly code: string
  /** The window's URL when the step ran (the export finds the window by it). */
  readonly windowUrl?: string
  /** Set on answered web dialogs: the export registers the answer before the action that opened it. */
  readonly dialog?: { readonly action: "accept" | "dismiss"; readonly promptText?: string | undefined }
}

export interface PendingDialog {
  readonly window: string
  readonly type: string
  readonly message: string
  readonly defaultValue: string
  readonly dialog: Dialog
}

export type DialogPolicy = { readonly action: "accept" | "dismiss"; readonly promptText?: string | undefined }

export class WindowEntry {
  latestSnapshot: string | undefined
  refs: ReadonlySet<string> = new Set()
  targetId: string | undefined
  constructor(
    readonly id: string,
    readonly page: Page,
    readonly openedAt: number
  ) {}
}

export class AppSession {
  readonly windows: Array<WindowEntry> = []
  activeId: string | undefined
  exit: { readonly at: string; readonly expected: boolean; readonly detail: string } | undefined
  closing = false
  readonly console = new RingBuffer<ConsoleEntry>(BUFFER_CAPACITY.console)
  readonly errors = new RingBuffer<ErrorEntry>(BUFFER_CAPACITY.errors)
  readonly requests = new RingBuffer<RequestEntry>(BUFFER_CAPACITY.requests)
  readonly steps: Array<RecordedStep> = []
  readonly pendingDialogs: Array<PendingDialog> = []
  dialogPolicy: DialogPolicy | undefined
  mainErrorCursor = 0
  tracing = false
  private windowSeq = 0
  private readonly windowWaiters = new Set<(entry: WindowEntry) => void>()

  constructor(
    readonly kind: "launched" | "attached",
    readonly context: BrowserContext,
    readonly startedAt: Date,
    readonly launch:
      | {
          readonly executablePath: string
          readonly runtime: string
          readonly app?: string | undefined
          readonly args: ReadonlyArray<string>
          readonly cwd?: string | undefined
          /** Only the variables the caller passed (the rest came from the server's environment). */
          readonly env: Readonly<Record<string, string>>
        }
      | undefined,
    readonly electronApp: ElectronApplication | undefined,
    readonly browser: Browser | undefined,
    readonly inspector: InspectorClient | undefined,
    /** The launched process, captured at launch (playwright-core's handle to it does not outlive the app). */
    readonly child: ChildProcess | undefined
  ) {}

  get hasMainProcess(): boolean {
    return this.electronApp !== undefined || (this.inspector !== undefined && !this.inspector.closed)
  }

  get pid(): number | undefined {
    return this.child?.pid
  }

  windowOf(page: Page): WindowEntry | undefined {
    return this.windows.find((w) => w.page === page)
  }

  addWindow(page: Page): WindowEntry {
    const existing = this.windowOf(page)
    if (existing) return existing
    const entry = new WindowEntry(`w${++this.windowSeq}`, page, Date.now())
    this.windows.push(entry)
    if (this.activeId === undefined) this.activeId = entry.id
    this.watchPage(entry)
    for (const waiter of this.windowWaiters) waiter(entry)
    return entry
  }

  /** Resolves with the next window that opens (or an already open one matching `accept`). */
  nextWindow(accept: (entry: WindowEntry) => boolean | Promise<boolean>): { promise: Promise<WindowEntry>; cancel: () => void } {
    let waiter: ((entry: WindowEntry) => void) | undefined
    const promise = new Promise<WindowEntry>((resolvePromise) => {
      waiter = (entry) => {
        Promise.resolve(accept(entry)).then((ok) => {
          if (ok) resolvePromise(entry)
        }, () => undefined)
      }
      this.windowWaiters.add(waiter)
    })
    return { promise, cancel: () => waiter && this.windowWaiters.delete(waiter) }
  }

  private watchPage(entry: WindowEntry): void {
    const page = entry.page
    const window = entry.id
    page.on("close", () => {
      const index = this.windows.indexOf(entry)
      if (index >= 0) this.windows.splice(index, 1)
      if (this.activeId === window) this.activeId = this.windows[this.windows.length - 1]?.id
    })
    const recordConsole = (message: ConsoleMessage) => {
      const location = message.location()
      this.console.push({
        at: Date.now(),
        source: "renderer",
        window,
        level: message.type(),
        text: message.text(),
        ...(location.url ? { location: `${location.url}:${location.lineNumber}` } : {})
      })
    }
    const recordPageError = (error: Error) => {
      this.errors.push({ at: Date.now(), kind: "pageerror", window, message: error.message, ...(error.stack ? { stack: error.stack } : {}) })
    }
    // A window's first messages can come before this listener exists (an app opens its window while the
    // launch is still settling): take them from playwright-core's per-page history, then go live.
    backfill(
      page,
      "console",
      () => page.consoleMessages(),
      recordConsole,
      (m) => `${m.type()}\u0000${m.text()}\u0000${m.location().url}:${m.location().lineNumber}`
    )
    backfill(page, "pageerror", () => page.pageErrors(), recordPageError, (e) => `${e.message}\u0000${e.stack ?? ""}`)
    page.on("crash", () => {
      this.errors.push({ at: Date.now(), kind: "crash", window, message: `The renderer of window ${window} crashed` })
    })
    const started = new WeakMap<object, { entry: RequestEntry; at: number }>()
    page.on("request", (request) => {
      const item: RequestEntry = { at: Date.now(), window, method: request.method(), url: request.url(), resourceType: request.resourceType() }
      this.requests.push(item)
      started.set(request, { entry: item, at: Date.now() })
    })
    page.on("requestfinished", async (request) => {
      const record = started.get(request)
      if (!record) return
      record.entry.durationMs = Date.now() - record.at
      const response = await request.response().catch(() => null)
      if (response) record.entry.status = response.status()
    })
    page.on("requestfailed", (request) => {
      const record = started.get(request)
      if (!record) return
      record.entry.durationMs = Date.now() - record.at
      record.entry.failure = request.failure()?.errorText ?? "failed"
    })
    page.on("dialog", (dialog) => {
      const policy = this.dialogPolicy
      if (policy) {
        const settle = policy.action === "accept" ? dialog.accept(policy.promptText) : dialog.dismiss()
        settle.catch(() => undefined)
        return
      }
      this.pendingDialogs.push({ window, type: dialog.type(), message: dialog.message(), defaultValue: dialog.defaultValue(), dialog })
      for (const listener of this.dialogListeners) listener()
    })
  }

  readonly dialogListeners = new Set<() => void>()
}

/**
 * A window's title without waiting on a renderer that does not answer (stuck in a loop, crashed):
 * after `ms` it gives up with "(not responding)", so listing windows never hangs. Titles are read
 * concurrently, so a listing waits this long at most; 2 s leaves a busy machine's renderers time to answer.
 */
export const titleOf = (page: Page, ms = 2_000): Promise<string> =>
  Promise.race([
    page.title().catch(() => ""),
    new Promise<string>((resolveTitle) => setTimeout(() => resolveTitle("(not responding)"), ms).unref())
  ])

/** Where an element is looked for: a ref from the latest snapshot or a Playwright selector. */
export const REF_PATTERN = /^(?:f\d+)?e\d+$/

/**
 * Our selector shorthands, rewritten to the engines Playwright's getBy* locators use, segment by
 * segment, so they chain with `>>` like any selector: `testid=row >> nth=2`.
 * A quoted value matches exactly (case-sensitive); an unquoted one matches case-insensitively as a substring.
 */
const isQuoted = (value: string) => /^(["']).*\1$/.test(value)
const unquote = (value: string) => (isQuoted(value) ? value.slice(1, -1) : value)
/** `"x"s` (exact) for a quoted value, `"x"i` (substring, any case) otherwise. */
const textValue = (value: string) => `${JSON.stringify(unquote(value))}${isQuoted(value) ? "s" : "i"}`

const SHORTHANDS: ReadonlyArray<readonly [prefix: string, engine: (value: string) => string]> = [
  ["testid=", (v) => `internal:testid=[data-testid=${JSON.stringify(unquote(v))}s]`],
  ["label=", (v) => `internal:label=${textValue(v)}`],
  ["placeholder=", (v) => `internal:attr=[placeholder=${textValue(v)}]`],
  ["title=", (v) => `internal:attr=[title=${textValue(v)}]`],
  ["alt=", (v) => `internal:attr=[alt=${textValue(v)}]`]
]

export const expandSelector = (target: string): string =>
  target
    .split(/\s+>>\s+/)
    .map((segment) => {
      const shorthand = SHORTHANDS.find(([prefix]) => segment.startsWith(prefix))
      return shorthand ? shorthand[1](segment.slice(shorthand[0].length)) : segment
    })
    .join(" >> ")

/** Maps a playwright-core rejection onto the shared error vocabulary. */
export const fromPlaywright = (error: unknown, what: string, session?: AppSession): ToolError => {
  const message = error instanceof Error ? error.message : String(error)
  const firstLine = message.split("\n")[0] ?? message
  if (session?.exit && !session.exit.expected) {
    return new AppCrashed({ message: `${what}: the app exited (${session.exit.detail})` })
  }
  if (/Target page, context or browser has been closed|Target closed|has been closed|Browser has been closed/i.test(message)) {
    if (session?.exit) return new AppCrashed({ message: `${what}: the app exited (${session.exit.detail})` })
    return new WindowNotFound({ message: `${what}: the window closed during the call` })
  }
  if (/strict mode violation/.test(message)) {
    const count = /resolved to (\d+) elements/.exec(message)?.[1]
    return new AmbiguousLocator({ message: `${what}: the target matches ${count ?? "several"} elements`, details: { playwright: firstLine } })
  }
  if (/aria-ref=/.test(message) && /Timeout/.test(message)) {
    return new RefStale({ message: `${what}: the ref no longer points to an element on the page` })
  }
  if (/Timeout \d+ms exceeded|TimeoutError/.test(message) || (error instanceof Error && error.name === "TimeoutError")) {
    if (/element is not (visible|enabled|editable|stable)|intercepts pointer events|element is outside of the viewport|not attached/.test(message)) {
      const reason = /element is not (?:visible|enabled|editable|stable)|[^\n]*intercepts pointer events/.exec(message)?.[0] ?? "not interactable"
      return new NotInteractable({ message: `${what}: ${reason.trim()}` })
    }
    if (/waiting for (locator|getBy)/.test(message) && !/locator resolved to/.test(message)) {
      const waited = /Timeout (\d+)ms exceeded/.exec(message)?.[1]
      return new ElementNotFound({ message: `${what}: no element matched the target${waited ? ` within ${waited} ms` : ""}` })
    }
    return new Timeout({ message: `${what}: ${firstLine}` })
  }
  if (/Unknown engine|Unexpected token|is not a valid selector|Malformed/.test(message)) {
    return new InvalidArgument({ message: `${what}: invalid selector: ${firstLine}` })
  }
  return new OperationFailed({ message: `${what}: ${firstLine}` })
}

const describeWindowSelector = (selector: WindowSelector) =>
  Object.entries(selector)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(", ")

export interface WindowSelector {
  readonly id?: string | undefined
  readonly index?: number | undefined
  readonly title?: string | undefined
  readonly url?: string | undefined
}

export interface WindowInfo {
  readonly id: string
  readonly active: boolean
  readonly title: string
  readonly url: string
  readonly bounds?: { x: number; y: number; width: number; height: number }
  readonly focused?: boolean
  readonly visible?: boolean
  readonly minimized?: boolean
  readonly maximized?: boolean
  readonly fullScreen?: boolean
}

const ENV_REFUSED = /^(ELECTRON_RUN_AS_NODE|NODE_OPTIONS|LD_.*|DYLD_.*)$/

export interface ElectronDriverShape {
  readonly launch: (options: LaunchOptions) => Effect.Effect<AppSession, LaunchFailed | InvalidArgument>
  readonly attach: (options: AttachOptions) => Effect.Effect<AppSession, LaunchFailed>
  readonly close: (timeoutMs?: number) => Effect.Effect<{ readonly graceful: boolean; readonly pid?: number | undefined }, AppNotRunning>
  /** The current session, whether running or ended. */
  readonly current: Effect.Effect<AppSession | undefined>
  /** The running session; fails when none is running or it crashed. */
  readonly session: Effect.Effect<AppSession, AppNotRunning | AppCrashed>
  /** A window by id, or the active one; fails at once with DialogOpen while a web dialog blocks its page. */
  readonly window: (id?: string) => Effect.Effect<WindowEntry, AppNotRunning | AppCrashed | WindowNotFound | DialogOpen>
  readonly findWindow: (selector: WindowSelector) => Effect.Effect<WindowEntry, AppNotRunning | AppCrashed | WindowNotFound>
  readonly selectWindow: (selector: WindowSelector) => Effect.Effect<WindowEntry, AppNotRunning | AppCrashed | WindowNotFound>
  readonly windowInfo: (entry: WindowEntry) => Effect.Effect<WindowInfo, ToolError>
  /** Resolves a target (ref or selector) in a window to a Locator; refs are checked against its latest snapshot. */
  readonly locate: (entry: WindowEntry, target: string) => Effect.Effect<Locator, RefStale | InvalidArgument>
  /** Runs a playwright-core call, mapping its rejection onto the error vocabulary. */
  readonly run: <A>(what: string, f: () => Promise<A>) => Effect.Effect<A, ToolError>
  /** An AI-mode aria snapshot of a window (or of a target in it); records its refs. */
  readonly snapshot: (entry: WindowEntry, options?: { readonly target?: string; readonly depth?: number }) => Effect.Effect<string, ToolError>
  /** Runs `fn(electron, arg)` in the main process (needs a launched app or an attached inspector). */
  readonly evaluateMain: <R, A>(what: string, fn: string | ((electron: any, arg: A) => R | Promise<R>), arg: A) => Effect.Effect<R, ToolError>
  /** Runs `fn(browserWindow, arg)` in the main process for a window. */
  readonly evaluateWindow: <R, A>(entry: WindowEntry, what: string, fn: (win: any, arg: A) => R | Promise<R>, arg: A) => Effect.Effect<R, ToolError>
  readonly recordStep: (step: RecordedStep) => Effect.Effect<void>
  /** Moves main-process errors (uncaught exceptions, crashed or unresponsive renderers) into the session's buffer. */
  readonly pullMainErrors: Effect.Effect<void, AppNotRunning | AppCrashed>
}

/** Builds a function value in this process whose toString() is `source`, for playwright-core's evaluate; throws on a syntax error. */
export const toFunction = (source: string): (...args: Array<any>) => unknown => {
  return new Function(`return (${source})`)() as (...args: Array<any>) => unknown
}

const makeDriver = Effect.gen(function* () {
  const layerScope = yield* Effect.scope
  const state = yield* Ref.make<{ session: AppSession; scope: Scope.CloseableScope } | undefined>(undefined)

  const current = Effect.map(Ref.get(state), (s) => s?.session)

  const session: ElectronDriverShape["session"] = Effect.flatMap(current, (s): Effect.Effect<AppSession, AppNotRunning | AppCrashed> => {
    if (s === undefined) return Effect.fail(new AppNotRunning({ message: "No app is running" }))
    if (s.exit && !s.exit.expected) return Effect.fail(new AppCrashed({ message: `The app exited unexpectedly (${s.exit.detail})` }))
    if (s.exit) return Effect.fail(new AppNotRunning({ message: "The app was closed" }))
    return Effect.succeed(s)
  })

  const run = <A>(what: string, f: () => Promise<A>): Effect.Effect<A, ToolError> =>
    Effect.flatMap(current, (s) => Effect.tryPromise({ try: f, catch: (error) => fromPlaywright(error, what, s) }))

  const closeCurrent = (timeoutMs: number) =>
    Effect.gen(function* () {
      const held = yield* Ref.get(state)
      if (held === undefined) return undefined
      yield* Ref.set(state, undefined)
      held.session.closing = true
      const pid = held.session.pid
      const graceful = yield* Effect.promise(() => gracefulClose(held.session, timeoutMs))
      yield* Scope.close(held.scope, Exit.void)
      return { graceful, pid }
    })

  /** Registers a fresh session in its own scope; its finalizer makes sure the process is gone. */
  const install = (make: (scope: Scope.Scope) => Effect.Effect<AppSession, LaunchFailed>) =>
    Effect.gen(function* () {
      yield* closeCurrent(5_000)
      const scope = yield* Scope.fork(layerScope, ExecutionStrategy.sequential)
      // Failure or interruption (the operation timeout, a cancelled call) closes what was started so far.
      const session = yield* make(scope).pipe(Effect.onExit((exit) => (Exit.isSuccess(exit) ? Effect.void : Scope.close(scope, Exit.void))))
      yield* Ref.set(state, { session, scope })
      return session
    })

  const launch: ElectronDriverShape["launch"] = Effect.fn("ElectronDriver.launch")(function* (options: LaunchOptions) {
    const refused = Object.keys(options.env ?? {}).filter((key) => ENV_REFUSED.test(key))
    if (refused.length > 0) {
      return yield* new InvalidArgument({
        message: `env: ${refused.join(", ")} would change how Electron itself runs and is refused`,
        hint: "Remove these variables from env; pass app settings through args or other variables."
      })
    }
    const runtime = options.executablePath
      ? { kind: "electron" as const, executablePath: resolve(options.executablePath), reason: "executablePath given" }
      : yield* Effect.try({
          try: () => resolveElectronRuntime(),
          catch: (cause) => new LaunchFailed({ message: String(cause instanceof Error ? cause.message : cause) })
        })
    if (!existsSync(runtime.executablePath)) {
      return yield* new LaunchFailed({ message: `executablePath ${runtime.executablePath} does not exist` })
    }
    const app = options.app === undefined ? undefined : resolve(options.cwd ?? ".", options.app)
    if (app !== undefined && !existsSync(app)) {
      return yield* new LaunchFailed({
        message: `app ${app} does not exist`,
        hint: "Pass an app folder containing package.json, or the app's main script."
      })
    }
    if (app !== undefined && statSync(app).isDirectory() && !existsSync(resolve(app, "package.json"))) {
      return yield* new LaunchFailed({ message: `app folder ${app} has no package.json`, hint: "Pass the folder that holds package.json, or the main script itself." })
    }
    const timeout = options.timeoutMs ?? 30_000
    const args = [...(app !== undefined ? [app] : []), ...(options.args ?? [])]
    return yield* install((scope) =>
      Effect.gen(function* () {
        const { electronApp, child } = yield* Effect.acquireRelease(
          Effect.tryPromise({
            try: () => {
              const before = artifactFolders()
              return _electron
                .launch({
                  executablePath: runtime.executablePath,
                  args,
                  env: { ...(process.env as Record<string, string>), ...(options.env ?? {}) },
                  ...(options.cwd !== undefined ? { cwd: resolve(options.cwd) } : {}),
                  timeout
                })
                .then((electronApp) => ({
                  electronApp,
                  child: electronApp.process(),
                  artifacts: [...artifactFolders()].filter((name) => !before.has(name))
                }))
            },
            catch: (cause) =>
              new LaunchFailed({
                message: `Could not launch ${app ?? runtime.executablePath}: ${(cause instanceof Error ? cause.message : String(cause)).split("\n")[0]}`
              })
          }),
          // playwright-core's handle to the process does not outlive the app: use the one captured at launch.
          // It removes its artifacts folder only after reporting the app closed: wait for that, so a server
          // that exits right after closing its apps leaves no folder behind.
          ({ child, artifacts }) => Effect.promise(() => killProcessGroup(child).then(() => waitForRemoval(artifacts, 3_000)))
        ).pipe(Scope.extend(scope))
        const session = new AppSession(
          "launched",
          electronApp.context(),
          new Date(),
          { executablePath: runtime.executablePath, runtime: runtime.kind, app, args: options.args ?? [], cwd: options.cwd, env: options.env ?? {} },
          electronApp,
          undefined,
          undefined,
          child
        )
        wireSession(session)
        electronApp.on("console", (message) => {
          session.console.push({ at: Date.now(), source: "main", level: message.type(), text: message.text() })
        })
        electronApp.on("close", () => {
          if (!session.exit) {
            session.exit = {
              at: new Date().toISOString(),
              expected: session.closing,
              detail: session.closing ? "closed" : describeExit(child)
            }
            if (!session.closing) session.errors.push({ at: Date.now(), kind: "main", message: `The main process exited (${session.exit.detail})` })
          }
        })
        yield* Effect.promise(() => electronApp.evaluate(installMainHooks).catch(() => undefined))
        yield* Effect.tryPromise({
          try: async () => {
            const page = await electronApp.firstWindow({ timeout })
            // A new window starts at about:blank until the app's loadURL/loadFile commits: wait a little for that.
            await page.waitForURL((url) => url.href !== "about:blank", { timeout: Math.min(timeout, 3_000), waitUntil: "commit" }).catch(() => undefined)
            await page.waitForLoadState("domcontentloaded", { timeout }).catch(() => undefined)
            session.activeId = session.addWindow(page).id
          },
          catch: (cause) =>
            new LaunchFailed({
              message: `The app started but opened no window within ${timeout} ms: ${(cause instanceof Error ? cause.message : String(cause)).split("\n")[0]}`,
              hint: "Check that the app creates a BrowserWindow at startup; pass a larger timeoutMs for slow apps."
            })
        })
        return session
      })
    )
  })

  const attach: ElectronDriverShape["attach"] = Effect.fn("ElectronDriver.attach")(function* (options: AttachOptions) {
    const timeout = options.timeoutMs ?? 15_000
    const endpoint = /^\d+$/.test(options.cdpUrl) ? `http://127.0.0.1:${options.cdpUrl}` : options.cdpUrl
    return yield* install((scope) =>
      Effect.gen(function* () {
        const browser = yield* Effect.acquireRelease(
          Effect.tryPromise({
            try: () => chromium.connectOverCDP(endpoint, { timeout }),
            catch: (cause) =>
              new LaunchFailed({
                message: `Could not attach to ${endpoint}: ${(cause instanceof Error ? cause.message : String(cause)).split("\n")[0]}`,
                hint: "Start the app with --remote-debugging-port=PORT and pass that port (or http://127.0.0.1:PORT) as cdpUrl."
              })
          }),
          (browser) => Effect.promise(() => browser.close().catch(() => undefined))
        ).pipe(Scope.extend(scope))
        const inspector = options.inspectorUrl
          ? yield* Effect.acquireRelease(
              Effect.tryPromise({
                try: () => InspectorClient.connect(options.inspectorUrl!, timeout),
                catch: (cause) =>
                  new LaunchFailed({
                    message: `Attached to the windows, but not to the main process inspector ${options.inspectorUrl}: ${cause instanceof Error ? cause.message : String(cause)}`,
                    hint: "Start the app with --inspect=PORT and pass that port as inspectorUrl, or omit inspectorUrl."
                  })
              }),
              (client) => Effect.sync(() => client.close())
            ).pipe(Scope.extend(scope))
          : undefined
        const context = browser.contexts()[0]
        if (!context) return yield* new LaunchFailed({ message: `${endpoint} has no browser context to attach to` })
        const session = new AppSession("attached", context, new Date(), undefined, undefined, browser, inspector, undefined)
        wireSession(session)
        inspector?.onEvent((method, params) => {
          if (method === "Runtime.consoleAPICalled") {
            const text = (params.args ?? []).map((a: any) => (a.value !== undefined ? String(a.value) : (a.description ?? a.type))).join(" ")
            session.console.push({ at: Date.now(), source: "main", level: params.type, text })
          } else if (method === "Runtime.exceptionThrown") {
            session.errors.push({ at: Date.now(), kind: "main", message: params.exceptionDetails?.exception?.description ?? params.exceptionDetails?.text ?? "exception" })
          }
        })
        browser.on("disconnected", () => {
          if (!session.exit) session.exit = { at: new Date().toISOString(), expected: session.closing, detail: session.closing ? "detached" : "the app closed its debugging connection" }
        })
        for (const page of context.pages()) session.addWindow(page)
        if (session.windows.length === 0) {
          // An app attached right after it started may not have opened its first window yet.
          yield* Effect.promise(() => context.waitForEvent("page", { timeout: Math.min(timeout, 10_000) }).catch(() => undefined))
        }
        const first = session.windows[0]
        if (first) {
          yield* Effect.promise(() =>
            first.page.waitForURL((url) => url.href !== "about:blank", { timeout: 3_000, waitUntil: "domcontentloaded" }).catch(() => undefined)
          )
        }
        if (inspector) yield* Effect.promise(() => inspector.evaluate(installMainHooks.toString()).catch(() => undefined))
        return session
      })
    )
  })

  const wireSession = (session: AppSession) => {
    for (const page of session.context.pages()) session.addWindow(page)
    session.context.on("page", (page) => {
      session.addWindow(page)
    })
  }

  const close: ElectronDriverShape["close"] = (timeoutMs = 5_000) =>
    Effect.flatMap(closeCurrent(timeoutMs), (result) =>
      result === undefined ? Effect.fail(new AppNotRunning({ message: "No app to close" })) : Effect.succeed(result)
    )

  const window: ElectronDriverShape["window"] = (id) =>
    Effect.flatMap(session, (s): Effect.Effect<WindowEntry, WindowNotFound | DialogOpen> => {
      const wanted = id ?? s.activeId
      const entry = s.windows.find((w) => w.id === wanted && !w.page.isClosed())
      if (entry) return dialogGate(s, entry)
      const open = s.windows.map((w) => w.id).join(", ") || "none"
      return Effect.fail(
        new WindowNotFound({
          message: id === undefined ? `No active window (open windows: ${open})` : `No window ${id} (open windows: ${open})`
        })
      )
    })

  const findWindow: ElectronDriverShape["findWindow"] = (selector) =>
    Effect.gen(function* () {
      const s = yield* session
      const open = s.windows.filter((w) => !w.page.isClosed())
      if (selector.id !== undefined) {
        // Selecting is not touching the page: a window with an open dialog can be selected.
        const byId = open.find((w) => w.id === selector.id)
        if (byId) return byId
        return yield* new WindowNotFound({ message: `No window ${selector.id} (open windows: ${open.map((w) => w.id).join(", ") || "none"})` })
      }
      if (selector.index !== undefined) {
        const entry = open[selector.index]
        if (entry) return entry
      } else {
        // Titles are read together, each bounded (a stuck renderer answers "(not responding)"); a window
        // picked by title gets longer than a listing's 2 s, as a busy renderer can be slow to answer.
        const titles =
          selector.title !== undefined
            ? yield* Effect.promise(() => Promise.all(open.map((entry) => titleOf(entry.page, 3_000))))
            : open.map(() => "")
        const found = open.find(
          (entry, i) =>
            (selector.title === undefined || titles[i]!.includes(selector.title)) &&
            (selector.url === undefined || entry.page.url().includes(selector.url))
        )
        if (found) return found
      }
      return yield* new WindowNotFound({ message: `No window matches ${describeWindowSelector(selector)} (${open.length} open)` })
    })

  const selectWindow: ElectronDriverShape["selectWindow"] = (selector) =>
    Effect.flatMap(findWindow(selector), (entry) =>
      Effect.flatMap(session, (s) =>
        Effect.sync(() => {
          s.activeId = entry.id
          entry.page.bringToFront().catch(() => undefined)
          return entry
        })
      )
    )

  const evaluateMain = <R, A>(what: string, fn: string | ((electron: any, arg: A) => R | Promise<R>), arg: A): Effect.Effect<R, ToolError> =>
    Effect.flatMap(session, (s) => {
      if (s.electronApp) {
        const app = s.electronApp
        const callable = typeof fn === "string" ? toFunction(fn) : fn
        return run(what, () => app.evaluate(callable as any, arg as any) as Promise<R>)
      }
      if (s.inspector && !s.inspector.closed) {
        const inspector = s.inspector
        return run(what, () => inspector.evaluate<R, A>(fn, arg))
      }
      return Effect.fail(
        new NeedsMainProcess({ message: `${what} needs the Electron main process, and this app was attached without its Node inspector` })
      )
    })

  const targetIdOf = (s: AppSession, entry: WindowEntry) =>
    entry.targetId !== undefined
      ? Effect.succeed(entry.targetId)
      : run("read the window's target id", async () => {
          const cdp = await s.context.newCDPSession(entry.page)
          try {
            const { targetInfo } = (await cdp.send("Target.getTargetInfo")) as { targetInfo: { targetId: string } }
            entry.targetId = targetInfo.targetId
            return targetInfo.targetId
          } finally {
            await cdp.detach().catch(() => undefined)
          }
        })

  const evaluateWindow = <R, A>(entry: WindowEntry, what: string, fn: (win: any, arg: A) => R | Promise<R>, arg: A): Effect.Effect<R, ToolError> =>
    Effect.gen(function* () {
      const s = yield* session
      if (!s.hasMainProcess) {
        return yield* new NeedsMainProcess({ message: `${what} needs the Electron main process, and this app was attached without its Node inspector` })
      }
      const targetId = yield* targetIdOf(s, entry)
      const wrapper = `async (electron, input) => {
        const wc = electron.webContents.fromDevToolsTargetId(input.targetId)
        const win = wc ? electron.BrowserWindow.fromWebContents(wc) : null
        if (!win) throw new Error("This page has no BrowserWindow")
        return await (${fn.toString()})(win, input.arg)
      }`
      return yield* evaluateMain<R, { targetId: string; arg: A }>(what, wrapper, { targetId, arg })
    })

  const windowInfo: ElectronDriverShape["windowInfo"] = (entry) =>
    Effect.gen(function* () {
      const s = yield* session
      const title = yield* Effect.promise(() => titleOf(entry.page))
      const base = { id: entry.id, active: s.activeId === entry.id, title, url: entry.page.url() }
      if (!s.hasMainProcess) return base
      const state = yield* evaluateWindow(entry, "read the window state", (win) => ({
        bounds: win.getBounds(),
        focused: win.isFocused(),
        visible: win.isVisible(),
        minimized: win.isMinimized(),
        maximized: win.isMaximized(),
        fullScreen: win.isFullScreen()
      }), undefined).pipe(Effect.orElseSucceed(() => ({})))
      return { ...base, ...state }
    })

  const locate: ElectronDriverShape["locate"] = (entry, target) => {
    const trimmed = target.trim()
    if (trimmed === "") return Effect.fail(new InvalidArgument({ message: "target is empty", hint: "Pass a ref like e12 from electron_snapshot, or a selector like role=button[name=\"Save\"]." }))
    if (REF_PATTERN.test(trimmed)) {
      if (!entry.refs.has(trimmed)) {
        return Effect.fail(
          new RefStale({
            message:
              entry.latestSnapshot === undefined
                ? `${trimmed} is a ref, but window ${entry.id} has no snapshot yet`
                : `${trimmed} is not in the latest snapshot of window ${entry.id}`
          })
        )
      }
      return Effect.succeed(entry.page.getByRef(trimmed))
    }
    return Effect.succeed(entry.page.locator(expandSelector(trimmed)))
  }

  const snapshot: ElectronDriverShape["snapshot"] = (entry, options = {}) =>
    Effect.gen(function* () {
      const depth = options.depth
      if (options.target !== undefined) {
        const locator = yield* locate(entry, options.target)
        const text = yield* run("snapshot", () => locator.ariaSnapshot({ mode: "ai", ...(depth !== undefined ? { depth } : {}), timeout: 5_000 }))
        // A scoped snapshot replaces the page's ref map: take the full one again so every ref stays usable.
        yield* refreshRefs(entry)
        return text
      }
      const text = yield* run("snapshot", () => entry.page.ariaSnapshot({ mode: "ai", ...(depth !== undefined ? { depth } : {}) }))
      if (depth === undefined) recordSnapshot(entry, text)
      else yield* refreshRefs(entry)
      return text
    })

  const refreshRefs = (entry: WindowEntry) =>
    Effect.map(run("snapshot", () => entry.page.ariaSnapshot({ mode: "ai" })), (full) => recordSnapshot(entry, full))

  const pullMainErrors: ElectronDriverShape["pullMainErrors"] = Effect.gen(function* () {
    const s = yield* session
    if (!s.hasMainProcess) return
    const fresh = yield* evaluateMain("read main-process errors", (_electron: any, after: number) => {
      const state = (globalThis as any).__stagewright
      return state ? state.errors.filter((e: any) => e.seq > after) : []
    }, s.mainErrorCursor).pipe(Effect.orElseSucceed(() => [] as Array<any>))
    for (const e of fresh as Array<{ seq: number; at: number; kind: ErrorEntry["kind"]; message: string; window?: string }>) {
      s.mainErrorCursor = Math.max(s.mainErrorCursor, e.seq)
      s.errors.push({ at: e.at, kind: e.kind, message: e.message })
    }
  })

  const recordStep: ElectronDriverShape["recordStep"] = (step) =>
    Effect.flatMap(current, (s) =>
      Effect.sync(() => {
        if (s === undefined) return
        const page = s.windows.find((w) => w.id === step.window)?.page
        s.steps.push(page && !page.isClosed() ? { ...step, windowUrl: page.url() } : step)
      })
    )

  // Whatever way the server ends, the app goes with it.
  yield* Effect.addFinalizer(() => Effect.asVoid(closeCurrent(3_000)))

  return ElectronDriver.of({
    launch,
    attach,
    close,
    current,
    session,
    window,
    findWindow,
    selectWindow,
    windowInfo,
    locate,
    run,
    snapshot,
    evaluateMain,
    evaluateWindow,
    recordStep,
    pullMainErrors
  })
})

/**
 * Runs once in the main process: records uncaught exceptions (as a monitor, so the app's own handling is
 * unchanged) and renderers that crash or hang, for electron_errors.
 */
export const installMainHooks = (electron: any): void => {
  const g = globalThis as any
  if (g.__stagewright) return
  const state = (g.__stagewright = { errors: [] as Array<unknown>, seq: 0 })
  const push = (kind: string, message: string) => {
    state.errors.push({ seq: ++state.seq, at: Date.now(), kind, message })
    if (state.errors.length > 200) state.errors.shift()
  }
  process.on("uncaughtExceptionMonitor", (error: any) => push("main", `uncaught exception in main: ${error?.stack ?? error}`))
  const watch = (wc: any) => {
    wc.on("render-process-gone", (_event: unknown, details: any) => push("crash", `renderer of webContents ${wc.id} gone: ${details?.reason ?? "unknown"}`))
    wc.on("unresponsive", () => push("unresponsive", `webContents ${wc.id} (${wc.getURL()}) is unresponsive`))
  }
  for (const wc of electron.webContents.getAllWebContents()) watch(wc)
  electron.app.on("web-contents-created", (_event: unknown, wc: any) => watch(wc))
}

export const recordSnapshot = (entry: WindowEntry, text: string): void => {
  entry.latestSnapshot = text
  entry.refs = new Set(Array.from(text.matchAll(/\[ref=([a-z0-9]+)\]/g), (m) => m[1]!))
}

const describeExit = (child: ChildProcess): string => {
  if (child.signalCode) return `killed by ${child.signalCode}`
  if (child.exitCode !== null) return `exit code ${child.exitCode}`
  return "the process ended"
}

/** Asks the app to quit, and kills it when it has not exited within the bound. Returns whether it quit by itself. */
const gracefulClose = async (session: AppSession, timeoutMs: number): Promise<boolean> => {
  if (session.electronApp && session.child) {
    const app = session.electronApp
    const child = session.child
    if (child.exitCode !== null || child.signalCode !== null) return true
    const exited = new Promise<void>((resolveExit) => child.once("exit", () => resolveExit()))
    const closed = await Promise.race([
      app.close().then(() => true, () => false),
      new Promise<boolean>((resolveTimer) => setTimeout(() => resolveTimer(false), timeoutMs))
    ])
    if (!closed) await killProcessGroup(child)
    await Promise.race([exited, new Promise((r) => setTimeout(r, 2_000))])
    return closed
  }
  if (session.browser) {
    await session.browser.close().catch(() => undefined)
  }
  session.inspector?.close()
  return true
}

const ARTIFACTS_PREFIX = "playwright-artifacts-"

/** playwright-core's per-launch temporary folders present now (names under the temp folder). */
const artifactFolders = (): ReadonlySet<string> => {
  try {
    return new Set(readdirSync(tmpdir()).filter((name) => name.startsWith(ARTIFACTS_PREFIX)))
  } catch {
    return new Set()
  }
}

/**
 * Waits, at most `ms`, until the folders are gone. The names are the ones that appeared while our launch
 * ran; a concurrent launch elsewhere can add one, which only makes this wait for it, never delete it.
 */
const waitForRemoval = async (names: ReadonlyArray<string>, ms: number): Promise<void> => {
  const deadline = Date.now() + ms
  while (names.some((name) => existsSync(join(tmpdir(), name))) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 25))
  }
}

/**
 * Listens to a page event and also records what the page emitted before the listener existed, from
 * playwright-core's history of that page (`page.consoleMessages()`, `page.pageErrors()`). Events that
 * arrive while the history is fetched are held; those the history already holds (its tail, in order) are
 * dropped, so nothing is recorded twice or lost.
 */
export const backfill = <T>(
  page: Page,
  event: "console" | "pageerror",
  history: () => Promise<ReadonlyArray<T>>,
  record: (item: T) => void,
  key: (item: T) => string
): void => {
  let held: Array<T> | undefined = []
  page.on(event as "console", ((item: T) => (held ? held.push(item) : record(item))) as never)
  const goLive = (earlier: ReadonlyArray<T>) => {
    const live = held ?? []
    held = undefined
    for (const item of earlier) record(item)
    const earlierKeys = earlier.map(key)
    const liveKeys = live.map(key)
    let overlap = Math.min(earlierKeys.length, liveKeys.length)
    while (overlap > 0 && !liveKeys.slice(0, overlap).every((k, i) => k === earlierKeys[earlierKeys.length - overlap + i])) overlap--
    for (const item of live.slice(overlap)) record(item)
  }
  history().then(goLive, () => goLive([]))
}

/** Kills the app's whole process group (Electron or the stand-in, and its Chromium). */
const killProcessGroup = async (child: ChildProcess): Promise<void> => {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolveExit) => child.once("exit", () => resolveExit()))
  try {
    if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL")
  } catch {
    try {
      child.kill("SIGKILL")
    } catch {
      // already gone
    }
  }
  await Promise.race([exited, new Promise((r) => setTimeout(r, 3_000))])
}

export class ElectronDriver extends Context.Tag("stagewright/ElectronDriver")<ElectronDriver, ElectronDriverShape>() {
  static readonly layer = Layer.scoped(ElectronDriver, makeDriver)
}

/**
 * The one gate every page-touching call passes (through `window()`): a page with an unanswered web
 * dialog runs no script, so any call on it would hang until its timeout. Fail at once instead.
 */
export const dialogGate = (session: AppSession, entry: WindowEntry): Effect.Effect<WindowEntry, DialogOpen> => {
  const pending = session.pendingDialogs.find((d) => d.window === entry.id)
  if (pending === undefined) return Effect.succeed(entry)
  const message = pending.message.length > 200 ? `${pending.message.slice(0, 199)}…` : pending.message
  return Effect.fail(
    new DialogOpen({
      message: `${/^[aeiou]/.test(pending.type) ? "An" : "A"} ${pending.type} dialog is open in ${entry.id}: "${message}"; its page is blocked until it is answered`,
      window: entry.id,
      dialog: pending.type,
      dialogMessage: message
    })
  )
}
