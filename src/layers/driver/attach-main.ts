/**
 * Attaching to an app that was started without any debug switch, by its pid: its main-process inspector
 * is opened (./debug-process.ts: SIGUSR1, as Node's `process._debugProcess`), connected to, and its
 * windows are reached from the main process through `webContents.debugger` behind a relay endpoint on
 * 127.0.0.1 (./main-relay.ts) that playwright-core connects to over CDP. The session has the windows and
 * the main process.
 *
 * Everything opened is released with the session's scope, in reverse order: playwright-core's connection,
 * the relay (every debugger detached in the app, the endpoint closed), then the inspector: when this
 * attach opened it, `inspector.close()` runs in the app (after our answer, so the call returns), the app
 * closes our connection and the port is gone; an inspector the app had open before stays open. The app keeps running.
 * While the session has an inspector it opened, the server's reaper (./reaper.ts) holds the same undoing for a
 * server that ends without running its finalizers (SIGKILL).
 */
import { Duration, Effect, Scope } from "effect"
import { createRequire } from "node:module"
import { join } from "node:path"
import { packageRoot } from "./electron-runtime.js"
import { attachableProcess, openInspector, type OpenedInspector } from "./debug-process.js"
import { LaunchFailed } from "./errors.js"
import { InspectorClient } from "./inspector-client.js"
import { attachedSession, firstLine, playwright } from "./launch.js"
import { MainRelay } from "./main-relay.js"
import { type InspectorReap, undoAttachOnExit } from "./reaper.js"
import type { AppSession } from "./session.js"

export interface ProcessAttachOptions {
  readonly pid: number
  readonly timeoutMs?: number | undefined
}

/** What the attach opened, for the tool's answer. */
export interface ProcessAttachFacts {
  readonly inspectorPort: number
  readonly openedInspector: boolean
}

export const ATTACHED_FACTS = new WeakMap<AppSession, ProcessAttachFacts>()

/**
 * Closes the inspector the attach opened: the app is asked to run `inspector.close()` once this evaluation has
 * answered, and the close is the app's alone: Node closes every inspector connection, ours included, and the
 * connection's close is the event waited for (bounded by CLOSE_WAIT). Our end never disconnects while the app
 * closes: Node 20's inspector.close() racing a session's own disconnect crashed the app (SIGSEGV) in about half
 * the runs of test/e2e/attach-no-port.test.ts.
 */
const closeInspector = (client: InspectorClient, opened: OpenedInspector) =>
  Effect.gen(function* () {
    if (opened.openedByUs && !client.closed) {
      const asked = yield* Effect.promise(() =>
        client
          .send("Runtime.evaluate", {
            expression: `{ ${CLOSE_INSPECTOR} undefined }`,
            includeCommandLineAPI: true
          })
          .then(
            () => true,
            () => false
          )
      )
      if (asked) yield* Effect.promise(() => client.whenClosed).pipe(Effect.timeout(CLOSE_WAIT), Effect.ignore)
    }
    client.shutdown()
  })

/** Closes the app's inspector once the evaluation that runs this has answered. */
const CLOSE_INSPECTOR = "const inspector = require('inspector'); setImmediate(() => inspector.close());"

/**
 * What the server's reaper runs in the app when the server ended without closing the session (SIGKILL): the
 * relay's debuggers detached (when it started), then the inspector closed, as the session's close does.
 */
const reapSpec = (url: string, relayKey?: string): InspectorReap => ({
  url,
  expression: `{ ${relayKey === undefined ? "" : `try { globalThis[${JSON.stringify(relayKey)}]?.close() } catch {} `}${CLOSE_INSPECTOR} undefined }`,
  ws: createRequire(join(packageRoot(), "package.json")).resolve("ws")
})

/** How long the app may take to close its inspector (and with it our connection) once asked. */
const CLOSE_WAIT = Duration.seconds(5)

/** Checks `pid`, opens its inspector and attaches to its windows and main process in `scope`. */
export const attachProcess = (options: ProcessAttachOptions) => (scope: Scope.Scope) =>
  Effect.gen(function* () {
    const timeout = options.timeoutMs ?? 15_000
    const target = yield* attachableProcess(options.pid)
    const { chromium } = yield* playwright
    const opened = yield* openInspector(target, timeout)
    // An inspector this attach opened is listed with the server's reaper while the session has it (./reaper.ts).
    let undo: ReturnType<typeof undoAttachOnExit> | undefined
    const inspector = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => InspectorClient.connect(opened.url, timeout),
        catch: (cause) =>
          new LaunchFailed({ message: `Opened the inspector of pid ${options.pid} (${target.name}), but connecting to it failed: ${firstLine(cause)}`, cause })
      }).pipe(
        Effect.tapError(() => (opened.openedByUs ? Effect.logWarning(`pid ${options.pid}: its inspector stays open on 127.0.0.1:${opened.port}`) : Effect.void))
      ),
      (client) =>
        Effect.zipRight(
          closeInspector(client, opened),
          Effect.sync(() => undo?.release())
        )
    ).pipe(Scope.extend(scope))
    if (opened.openedByUs) undo = undoAttachOnExit(reapSpec(opened.url))
    inspector.releasedByScope = true
    const electron = yield* Effect.tryPromise({
      try: () =>
        inspector.evaluate<string, undefined>(
          "(electron) => typeof electron?.webContents?.getAllWebContents === 'function' ? process.versions.electron ?? '' : ''"
        ),
      catch: (cause) =>
        new LaunchFailed({ message: `pid ${options.pid} (${target.name}): require('electron') failed in its main process: ${firstLine(cause)}`, cause })
    })
    if (!electron)
      return yield* new LaunchFailed({
        message: `pid ${options.pid} (${target.name}) has a Node inspector, but its main process has no Electron module to reach its windows with`
      })
    const relay = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => MainRelay.start(inspector),
        catch: (cause) =>
          new LaunchFailed({ message: `pid ${options.pid} (${target.name}): the window relay could not start in its main process: ${firstLine(cause)}`, cause })
      }),
      (started) => Effect.promise(() => started.close())
    ).pipe(Scope.extend(scope))
    undo?.update(reapSpec(opened.url, relay.mainKey))
    const browser = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => chromium.connectOverCDP(relay.endpoint, { timeout }),
        catch: (cause) =>
          new LaunchFailed({
            message: `pid ${options.pid} (${target.name}): connecting to its windows through the main process failed: ${firstLine(cause)}`,
            cause
          })
      }),
      (connected) => Effect.promise(() => connected.close().catch(() => undefined))
    ).pipe(Scope.extend(scope))
    const session = yield* attachedSession(browser, inspector, `pid ${options.pid}`, timeout)
    ATTACHED_FACTS.set(session, { inspectorPort: opened.port, openedInspector: opened.openedByUs })
    return session
  })
