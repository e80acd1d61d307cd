/**
 * electron_attach: connect to a running app by its debugging endpoint (cdpUrl), its port on 127.0.0.1 or
 * its pid; with no target, list this user's local apps with an open remote debugging port
 * (src/layers/driver/discovery.ts). A port or pid attach only ever reaches 127.0.0.1, and a port that
 * does not answer fails fast (a bounded probe) before playwright-core tries to connect.
 */
import { Effect, Schema } from "effect"
import { EvalNotAuthorized, EvalPolicy, evalFlag } from "../../eval-policy/EvalPolicy.js"
import {
  attachableProcess,
  ATTACHED_FACTS,
  discoverApps,
  inspectableApps,
  type InspectableApp,
  AppLifecycle,
  probeDebugPort,
  type DebuggableApp
} from "../../layers/driver/ElectronDriver.js"
import { InvalidArgument, LaunchFailed } from "../contract/errors.js"
import { defineTool } from "../contract/Tool.js"
import { SessionName, TimeoutMs } from "../contract/shapes.js"
import { describeWindows, windowLines } from "./app.js"
import { answer } from "../contract/respond.js"
import { callHandle } from "../contract/handle.js"

const LIST_HINT = "Call electron_attach with no arguments to list running apps, or start the app with --remote-debugging-port=PORT."

const appLine = (app: DebuggableApp, current: number | undefined) =>
  `  pid ${app.pid} ${app.name} port ${app.port}${app.title !== undefined ? ` "${app.title}"` : " (no page)"}${app.browser !== undefined ? ` ${app.browser}` : ""}${current !== undefined && app.pids.includes(current) ? " (the current session)" : ""}`

/** The answer of electron_attach without a target: what runs, and how to attach to it. */
const listApps = Effect.gen(function* () {
  const found = yield* discoverApps
  if (!found.supported) {
    return answer(`Listing running apps reads /proc, which ${process.platform} does not have: pass port (the app's --remote-debugging-port) or cdpUrl.`, {
      apps: [],
      supported: false
    })
  }
  const current = yield* Effect.map((yield* AppLifecycle).current, (s) => s?.pid)
  const apps = found.apps.map(({ pid, name, port, title, browser }) => ({
    pid,
    name,
    port,
    ...(title !== undefined ? { title } : {}),
    ...(browser !== undefined ? { browser } : {})
  }))
  const more = found.notProbed > 0 ? `\n(${found.notProbed} more port(s) not probed: attach by port.)` : ""
  const inspectable = yield* inspectableApps(new Set(found.apps.flatMap((app) => app.pids)))
  const mainAllowed = (yield* EvalPolicy).isAllowed("main")
  const noPortLine = (app: InspectableApp) =>
    `  pid ${app.pid} ${app.name} (no debug port: ${app.inspectFuseOff ? "its EnableNodeCliInspectArguments fuse is off, restart it with --remote-debugging-port" : mainAllowed ? "attach by pid opens its main-process inspector" : `attach needs ${evalFlag("main")}`})`
  const withoutPort =
    inspectable.length === 0
      ? ""
      : `\n${inspectable.length} Electron app(s) without a debug port (this user's processes):\n${inspectable.map(noPortLine).join("\n")}`
  const text =
    found.apps.length === 0
      ? `No running app with an open remote debugging port among ${found.scanned} processes of this user. Start the app with --remote-debugging-port=9222, then call electron_attach with port 9222.${more}${withoutPort}`
      : `${found.apps.length} running app(s) with an open remote debugging port (this user's processes):\n${found.apps.map((app) => appLine(app, current)).join("\n")}${more}${withoutPort}\nNext: electron_attach with pid or port.`
  return answer(text, { apps, ...(inspectable.length > 0 ? { withoutPort: inspectable } : {}), scanned: found.scanned })
})

/** A port that answers as Chromium's remote debugging port on 127.0.0.1, or LAUNCH_FAILED saying why not. */
const answeringPort = (port: number, timeoutMs: number) =>
  probeDebugPort(port, Math.max(500, Math.min(timeoutMs, 3_000))).pipe(
    Effect.mapError((reason) => new LaunchFailed({ message: `Nothing answers as a remote debugging port on 127.0.0.1:${port} (${reason})`, hint: LIST_HINT }))
  )

/** The port of the app that `pid` belongs to (Linux /proc), or undefined when it has none open. */
const portOfPid = (pid: number) =>
  Effect.gen(function* () {
    if (process.platform !== "linux") {
      return yield* new InvalidArgument({
        message: `pid: finding a process's debugging port reads /proc, which ${process.platform} does not have`,
        hint: "Pass port (the app's --remote-debugging-port) instead."
      })
    }
    const found = yield* discoverApps
    return found.apps.find((a) => a.pids.includes(pid))?.port
  })

/**
 * Attaches by pid to an app with no debug port: its main-process inspector is opened (SIGUSR1), which runs
 * Stagewright's code in the app's main process, so only with --allow-eval main; the checks (same user, an
 * Electron main process, its inspect fuse on) answer first, whatever the flag.
 */
const attachWithoutPort = (pid: number, name: string | undefined, timeoutMs: number) =>
  Effect.gen(function* () {
    const target = yield* attachableProcess(pid)
    const policy = yield* EvalPolicy
    if (!policy.isAllowed("main")) {
      return yield* new EvalNotAuthorized({
        message: `pid ${pid} (${target.name}) has no debug port: attaching opens its main-process inspector (SIGUSR1) and runs Stagewright's code in its main process, which this server does not allow`,
        hint: `Restart the server with ${evalFlag("main")} (or --allow-eval all), or restart the app with --remote-debugging-port=9222 and attach by port (its windows only).`,
        tool: (yield* callHandle).tool,
        target: "main",
        flag: evalFlag("main")
      })
    }
    const session = yield* (yield* AppLifecycle).attachProcess({ pid, timeoutMs }, name)
    const windows = yield* describeWindows(session)
    const facts = ATTACHED_FACTS.get(session)
    const inspector =
      facts === undefined
        ? ""
        : facts.openedInspector
          ? `; its inspector was opened on 127.0.0.1:${facts.inspectorPort} and closes when the session ends`
          : `; its inspector was already open on 127.0.0.1:${facts.inspectorPort} and stays open`
    return answer(
      `Attached to pid ${pid} (${target.name}) through its main process: windows (through webContents.debugger) and main process${inspector}. Closing detaches; the app keeps running.\n${windowLines(windows)}`,
      {
        pid,
        mainProcess: true,
        viaMainProcess: true,
        ...(facts !== undefined ? { inspectorPort: facts.inspectorPort, openedInspector: facts.openedInspector } : {}),
        windows
      }
    )
  })

export const attach = defineTool({
  name: "electron_attach",
  touchesPage: false,
  description:
    "Connect to an Electron app already running with --remote-debugging-port, by cdpUrl, port or pid (a pid without a port: through its main process, needs --allow-eval main). With none of them, list this user's running apps (pid, name, port, first page title) and attach to nothing. Give inspectorUrl too (the app started with --inspect=PORT) for main-process tools (menus, dialogs, app info). Closing only detaches.",
  type: "lifecycle",
  openWorld: true,
  errors: ["LAUNCH_FAILED"],
  input: Schema.Struct({
    cdpUrl: Schema.optional(Schema.String).annotations({ description: "http://127.0.0.1:9222, ws://… or a port" }),
    port: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1, 65_535))).annotations({ description: "debugging port on 127.0.0.1" }),
    pid: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1, 4_194_304))).annotations({ description: "app process from the listing (Linux)" }),
    inspectorUrl: Schema.optional(Schema.String).annotations({ description: "Node inspector: ws://…, http://127.0.0.1:9229 or a port" }),
    session: Schema.optional(SessionName),
    timeoutMs: TimeoutMs(15_000)
  }),
  handler: ({ cdpUrl, port, pid, session: name, ...rest }) =>
    Effect.gen(function* () {
      const given = [cdpUrl !== undefined && "cdpUrl", port !== undefined && "port", pid !== undefined && "pid"].filter(
        (name): name is string => name !== false
      )
      if (given.length > 1)
        return yield* new InvalidArgument({
          message: `Give one of cdpUrl, port and pid (got ${given.join(", ")})`,
          hint: "Pick one target; electron_attach with no arguments lists running apps."
        })
      if (given.length === 0) {
        if (rest.inspectorUrl !== undefined)
          return yield* new InvalidArgument({
            message: "inspectorUrl needs a target: cdpUrl, port or pid",
            hint: "Call electron_attach with no arguments to list running apps first."
          })
        return yield* listApps
      }
      const timeoutMs = rest.timeoutMs ?? 15_000
      const pidPort = pid !== undefined ? yield* portOfPid(pid) : undefined
      if (pid !== undefined && pidPort === undefined) {
        if (rest.inspectorUrl !== undefined)
          return yield* new InvalidArgument({
            message: `pid ${pid} has no open debugging port; inspectorUrl goes with a port or cdpUrl`,
            hint: "Attach by pid alone: Stagewright opens its inspector (with --allow-eval main)."
          })
        return yield* attachWithoutPort(pid, name, timeoutMs)
      }
      const resolvedPort = pid !== undefined ? pidPort : port
      if (resolvedPort !== undefined) yield* answeringPort(resolvedPort, timeoutMs)
      const lifecycle = yield* AppLifecycle
      const session = yield* lifecycle.attach({ ...rest, cdpUrl: resolvedPort !== undefined ? `http://127.0.0.1:${resolvedPort}` : cdpUrl! }, name)
      const windows = yield* describeWindows(session)
      const target = pid !== undefined ? `pid ${pid}, port ${resolvedPort}` : resolvedPort !== undefined ? `port ${resolvedPort}` : undefined
      return answer(
        `Attached${target !== undefined ? ` to ${target}` : ""} (${session.hasMainProcess ? "windows and main process" : "windows only; main-process tools need inspectorUrl"}).\n${windowLines(windows)}`,
        {
          mainProcess: session.hasMainProcess,
          ...(resolvedPort !== undefined ? { port: resolvedPort } : {}),
          ...(pid !== undefined ? { pid } : {}),
          windows
        }
      )
    })
})
