/**
 * Starting a session: an app launched through playwright-core's `_electron`, or one attached over CDP
 * (and, when given, its Node inspector). playwright-core is loaded here, at the first launch or attach,
 * never when the server starts. Each returns a function of the session's scope, so whatever was started
 * is released with it (a failed or interrupted start closes what it had started).
 */
import { dynamicImport } from "../../dynamic-import.js"
import { Effect, Scope } from "effect"
import type { ChildProcess } from "node:child_process"
import { randomUUID } from "node:crypto"
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { resolveElectronRuntime } from "./electron-runtime.js"
import { LaunchFailed } from "./errors.js"
import { InspectorClient } from "./inspector-client.js"
import { recordMainConsole } from "./main-console.js"
import { installMainHooks } from "./main-hooks.js"
import { openLane } from "./main-lane.js"
import { notePlainFieldEngine, registerPlainFieldEngine } from "./plain-field.js"
import { installHeldSource } from "./held-read.js"
import { HOLD_MS } from "./main-modals.js"
import { mainSource, toFunction } from "./selectors.js"
import { describeExit, killProcessGroup } from "./process.js"
import { inspectFuseOff } from "./fuses.js"
import { AppSession, type AttachOptions, type LaunchOptions } from "./session.js"
import type { XvfbMode } from "./display.js"
import { displayForLaunch } from "./xvfb.js"
import { reapOnExit } from "./reaper.js"
import { LAUNCH_TOKEN, watchSpawns } from "./spawn-watch.js"
import { awaitShownWindow, pageFacts, windowPageOf } from "./surfaces.js"

/** How long a launch whose first window is hidden waits for a window to show (a tray app shows none). */
const SHOWN_WINDOW_MS = 3_000

export const firstLine = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause)).split("\n")[0]

/** playwright-core, loaded at the first launch or attach, with the driver's selector engine registered (./plain-field.ts). */
export const playwright = Effect.tryPromise({
  try: () =>
    dynamicImport<typeof import("playwright-core")>("playwright-core").then(async (loaded) => {
      await registerPlainFieldEngine(loaded)
      return loaded
    }),
  catch: (cause) => new LaunchFailed({ message: `playwright-core could not be loaded: ${firstLine(cause)}`, cause })
})

/** Registers every page of the context, now and later, as a surface of the session (a window, view or guest: ./surfaces.ts). */
export const wireSession = (session: AppSession) => {
  for (const page of session.context.pages()) void session.addPage(page, pageFacts(session, page))
  session.context.on("page", (page) => {
    void session.addPage(page, pageFacts(session, page))
  })
}

/**
 * Checks a launch request before anything starts; resolves the runtime and the app path (relative paths
 * against cwd, as the tools' launch policy resolved them). What an agent may launch is decided above
 * the driver (src/tools/policy/launch-policy.ts); the operator's own launches (the production CLI) come here directly.
 */
export const prepareLaunch = Effect.fn("ElectronDriver.prepareLaunch")(function* (options: LaunchOptions, appRoot?: string) {
  const runtime = options.executablePath
    ? { kind: "electron" as const, executablePath: resolve(options.cwd ?? ".", options.executablePath), reason: "executablePath given" }
    : yield* Effect.try({
        try: () => resolveElectronRuntime(process.env, options.app === undefined ? undefined : resolve(options.cwd ?? ".", options.app), appRoot),
        catch: (cause) => new LaunchFailed({ message: String(cause instanceof Error ? cause.message : cause), cause })
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
    return yield* new LaunchFailed({
      message: `app folder ${app} has no package.json`,
      hint: "Pass the folder that holds package.json, or the main script itself."
    })
  }
  // A build whose EnableNodeCliInspectArguments fuse is off ignores --inspect: it is launched over CDP (cdp-launch.ts).
  const overCdp = runtime.kind === "electron" && (yield* inspectFuseOff(runtime.executablePath))
  return { runtime, app, timeout: options.timeoutMs ?? 30_000, overCdp }
})

export type Prepared = Effect.Effect.Success<ReturnType<typeof prepareLaunch>>

/**
 * Launches the prepared app in `scope` and waits for its first window. A headed app on Linux gets its
 * display first (xvfb.ts: a private Xvfb in the same scope, per `xvfb`, the --xvfb mode).
 */
export const launchSession =
  (options: LaunchOptions, { runtime, app, timeout }: Prepared, xvfb: XvfbMode = "auto") =>
  (scope: Scope.Scope) =>
    Effect.gen(function* () {
      const { env, display } = yield* displayForLaunch(xvfb, runtime.kind, { ...(process.env as Record<string, string>), ...(options.env ?? {}) }).pipe(
        Scope.extend(scope)
      )
      const loaded = yield* playwright
      const { _electron } = loaded
      const args = [...(app !== undefined ? [app] : []), ...(options.args ?? [])]
      // The artifacts folder is ours, made before the launch and removed after the app is gone, whatever
      // happened: playwright-core's own is left behind when a launch fails or times out before the spawn.
      const artifactsDir = yield* Effect.acquireRelease(
        Effect.sync(() => mkdtempSync(join(tmpdir(), "stagewright-artifacts-"))),
        (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
      ).pipe(Scope.extend(scope))
      // The app's process is known from its spawn, not from the launch's end: a launch still pending
      // (interrupted: a cancelled call, a client gone, the server stopping) kills its whole group at once.
      const spawned: Array<ChildProcess> = []
      const token = randomUUID()
      // Listed with the reaper at once: a server killed mid-launch leaves no app behind either (./reaper.ts).
      const unwatch = watchSpawns(token, (child) => {
        spawned.push(child)
        reapOnExit(child, "group")
      })
      yield* Scope.addFinalizer(
        scope,
        Effect.suspend(() => {
          unwatch()
          return Effect.forEach(spawned, killProcessGroup, { discard: true })
        })
      )
      const { electronApp, child } = yield* Effect.tryPromise({
        try: () =>
          _electron
            .launch({
              executablePath: runtime.executablePath,
              args,
              env: { ...env, [LAUNCH_TOKEN]: token },
              ...(options.cwd !== undefined ? { cwd: resolve(options.cwd) } : {}),
              artifactsDir,
              timeout
            })
            .then((electronApp) => ({ electronApp, child: electronApp.process() })),
        catch: (cause) => new LaunchFailed({ message: `Could not launch ${app ?? runtime.executablePath}: ${firstLine(cause)}`, cause })
      }).pipe(Effect.ensuring(Effect.sync(unwatch)))
      notePlainFieldEngine(loaded, electronApp.context())
      // playwright-core's handle to the process does not outlive the app: the one captured at launch is killed.
      if (!spawned.includes(child)) spawned.push(child)
      const session = new AppSession({
        kind: "launched",
        context: electronApp.context(),
        launch: {
          executablePath: runtime.executablePath,
          runtime: runtime.kind,
          reason: runtime.reason,
          app,
          args: options.args ?? [],
          cwd: options.cwd,
          env: options.env ?? {},
          ...(display ? { display } : {})
        },
        electronApp,
        child
      })
      wireSession(session)
      electronApp.on("console", (message) => recordMainConsole(session, message.type(), message.text()))
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
      const hooks = toFunction(mainSource(installMainHooks)) as Parameters<typeof electronApp.evaluate>[0]
      yield* Effect.promise(() => electronApp.evaluate(hooks).catch(() => undefined))
      // Native dialogs wait for the agent in the modal room (./main-modals.ts).
      const held = toFunction(installHeldSource()) as Parameters<typeof electronApp.evaluate>[0]
      yield* Effect.promise(() => electronApp.evaluate(held, HOLD_MS as never).catch(() => undefined))
      // The driver's own line for the read every action's answer waits on (./main-lane.ts).
      yield* openLane(session, electronApp, Math.min(timeout, 5_000)).pipe(Scope.extend(scope))
      const first = yield* Effect.tryPromise({
        try: async () => {
          const page = await electronApp.firstWindow({ timeout })
          // A new Electron window has no document until the app's first loadURL/loadFile commits, and
          // playwright-core reports such a page only after that first navigation: no wait of our own here.
          await page.waitForLoadState("domcontentloaded", { timeout }).catch(() => undefined)
          const entry = await session.addPage(page, pageFacts(session, page))
          session.launchedWith(entry.id)
          return entry
        },
        catch: (cause) =>
          new LaunchFailed({
            message: `The app started but opened no window within ${timeout} ms: ${firstLine(cause)}`,
            hint: "Check that the app creates a BrowserWindow at startup; pass a larger timeoutMs for slow apps.",
            cause
          })
      })
      yield* windowPageOf(session, first, Math.min(timeout, 10_000))
      yield* awaitShownWindow(session, Math.min(timeout, SHOWN_WINDOW_MS))
      yield* Effect.logInfo(`launched ${app ?? runtime.executablePath} (pid ${child.pid}, ${runtime.kind})`)
      return session
    })

/** Attaches to a running app's windows (and its main process when an inspector URL is given) in `scope`. */
export const attachSession = (options: AttachOptions) => (scope: Scope.Scope) =>
  Effect.gen(function* () {
    const timeout = options.timeoutMs ?? 15_000
    const endpoint = /^\d+$/.test(options.cdpUrl) ? `http://127.0.0.1:${options.cdpUrl}` : options.cdpUrl
    const { chromium } = yield* playwright
    const browser = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => chromium.connectOverCDP(endpoint, { timeout }),
        catch: (cause) =>
          new LaunchFailed({
            message: `Could not attach to ${endpoint}: ${firstLine(cause)}`,
            hint: "Start the app with --remote-debugging-port=PORT and pass that port (or http://127.0.0.1:PORT) as cdpUrl.",
            cause
          })
      }),
      (browser) => Effect.promise(() => browser.close().catch(() => undefined))
    ).pipe(Scope.extend(scope))
    const inspectorUrl = options.inspectorUrl
    const inspector = inspectorUrl
      ? yield* Effect.acquireRelease(
          Effect.tryPromise({
            try: () => InspectorClient.connect(inspectorUrl, timeout),
            catch: (cause) =>
              new LaunchFailed({
                message: `Attached to the windows, but not to the main process inspector ${inspectorUrl}: ${firstLine(cause)}`,
                hint: "Start the app with --inspect=PORT and pass that port as inspectorUrl, or omit inspectorUrl.",
                cause
              })
          }),
          (client) => Effect.sync(() => client.close())
        ).pipe(Scope.extend(scope))
      : undefined
    return yield* attachedSession(browser, inspector, endpoint, timeout)
  })

/**
 * The session of an app attached over `browser` (a CDP connection) and, when given, its main-process
 * inspector: its windows registered, the inspector's console and exceptions recorded, the hooks installed.
 */
export const attachedSession = (browser: import("playwright-core").Browser, inspector: InspectorClient | undefined, endpoint: string, timeout: number) =>
  Effect.gen(function* () {
    const context = browser.contexts()[0]
    if (!context) return yield* new LaunchFailed({ message: `${endpoint} has no browser context to attach to` })
    const session = new AppSession({ kind: "attached", context, browser, inspector })
    wireSession(session)
    yield* Effect.promise(() => session.pagesSettled())
    inspector?.onEvent((method, params) => {
      if (method === "Runtime.consoleAPICalled") {
        const text = (params.args ?? [])
          .map((a: { value?: unknown; description?: string; type: string }) => (a.value !== undefined ? String(a.value) : (a.description ?? a.type)))
          .join(" ")
        recordMainConsole(session, params.type, text)
      } else if (method === "Runtime.exceptionThrown") {
        session.errors.push({
          at: Date.now(),
          kind: "main",
          message: params.exceptionDetails?.exception?.description ?? params.exceptionDetails?.text ?? "exception"
        })
      }
    })
    browser.on("disconnected", () => {
      if (!session.exit)
        session.exit = {
          at: new Date().toISOString(),
          expected: session.closing,
          detail: session.closing ? "detached" : inspector?.ending ? "its main process ended" : "the app closed its debugging connection"
        }
    })
    if (session.windows.length === 0) {
      // An app attached right after it started may not have opened its first window yet.
      yield* Effect.promise(() => context.waitForEvent("page", { timeout: Math.min(timeout, 10_000) }).catch(() => undefined))
    }
    // A window found at attach may still be on a document the app replaces at once (a splash, or
    // about:blank it loads itself): give its first real document a short while.
    const first = session.windows[0]
    if (first) {
      yield* Effect.promise(() =>
        first.page.waitForURL((url) => url.href !== "about:blank", { timeout: 3_000, waitUntil: "domcontentloaded" }).catch(() => undefined)
      )
    }
    if (inspector) yield* Effect.promise(() => inspector.evaluate(mainSource(installMainHooks)).catch(() => undefined))
    if (inspector) yield* Effect.promise(() => inspector.evaluate(installHeldSource(), HOLD_MS).catch(() => undefined))
    yield* Effect.logInfo(`attached to ${endpoint}${inspector ? " with its main process" : ""}`)
    return session
  })
