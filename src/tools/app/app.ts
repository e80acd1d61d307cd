/**
 * App tools: start, attach to, close and describe the Electron app (the server describes itself: src/server/tools.ts).
 */
import type { ElectronModule } from "../../layers/driver/ElectronDriver.js"
import { Effect, Schema } from "effect"
import { AppLifecycle, type AppSession } from "../../layers/driver/ElectronDriver.js"
import { InvalidArgument } from "../contract/errors.js"
import { defineTool } from "../contract/Tool.js"
import { vetLaunch } from "../policy/launch-policy.js"
import { titleOrDialog } from "../modal/dialogs.js"
import { SessionName, TimeoutMs } from "../contract/shapes.js"
import { callHandle } from "../contract/handle.js"
import { answer } from "../contract/respond.js"
import { windowsTold } from "../pipeline/new-windows.js"

/** The session's pages as listed when the call began (which is active, and each one's parent, read then too), with their titles. */
export const describeWindows = (session: AppSession) =>
  Effect.suspend(() => {
    // The answer lists them: later answers tell only the windows opened or closed since (../pipeline/new-windows.ts).
    windowsTold(session)
    const activeId = session.activeId
    const listed = session.surfaces
      .filter((w) => w.frame === undefined)
      .map((w) => ({ w, row: { id: w.id, kind: w.kind, ...(w.parentId !== undefined ? { parent: w.parentId } : {}), active: activeId === w.id } }))
    return Effect.forEach(listed, ({ w, row }) => titleOrDialog(session, w).pipe(Effect.map((title) => ({ ...row, title, url: w.shownUrl() }))), {
      concurrency: "unbounded"
    })
  })

export const windowLines = (windows: ReadonlyArray<{ id: string; kind: string; parent?: string; active: boolean; title: string; url: string }>) =>
  windows
    .map(
      (w) => `${w.active ? "*" : " "} ${w.id}${w.kind === "window" ? "" : ` ${w.kind}${w.parent !== undefined ? ` in ${w.parent}` : ""}`} "${w.title}" ${w.url}`
    )
    .join("\n")

/** What a launch answer says of a build launched over CDP (its inspect fuse is off). */
export const OVER_CDP_NOTE =
  "Launched over CDP: the EnableNodeCliInspectArguments fuse is off; main-process tools are unavailable (they answer NEEDS_MAIN_PROCESS)."

const appIdentity = Effect.flatMap(callHandle, (call) =>
  call
    .evaluateMain(
      "read the app name",
      ({ app }: ElectronModule) => ({ name: app.getName(), version: app.getVersion(), electron: process.versions.electron ?? "" }),
      undefined
    )
    .pipe(Effect.orElseSucceed(() => undefined as { name: string; version: string; electron: string } | undefined))
)

export const launch = defineTool({
  name: "electron_launch",
  description:
    "Start (open) an Electron app and make its first window active. Give the app folder (with package.json) or main script; without executablePath the app's own electron package is used (else STAGEWRIGHT_ELECTRON). Replaces the running app unless session is a new name. Next: electron_snapshot.",
  type: "lifecycle",
  touchesPage: false,
  openWorld: true,
  errors: ["LAUNCH_FAILED", "PATH_NOT_ALLOWED", "EVAL_NOT_AUTHORIZED"],
  input: Schema.Struct({
    app: Schema.optional(Schema.String).annotations({ description: "app folder or main script" }),
    executablePath: Schema.optional(Schema.String).annotations({ description: "Electron binary" }),
    args: Schema.optional(Schema.Array(Schema.String)).annotations({
      description: "extra command-line arguments; switches that run code or open a debugger need --allow-eval main"
    }),
    env: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String })).annotations({ description: "extra environment variables" }),
    cwd: Schema.optional(Schema.String),
    locale: Schema.optional(Schema.String).annotations({ description: "--lang, e.g. fr" }),
    session: Schema.optional(SessionName),
    timeoutMs: TimeoutMs(30_000)
  }),
  handler: ({ locale, session: name, ...input }) =>
    Effect.gen(function* () {
      if (locale !== undefined && !/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$/.test(locale)) {
        return yield* new InvalidArgument({ message: `locale: ${JSON.stringify(locale)} is not a locale`, hint: "Give a BCP 47 tag like fr, de-CH or pt-BR." })
      }
      const args = locale === undefined ? input.args : [...(input.args ?? []).filter((a) => !a.startsWith("--lang=")), `--lang=${locale}`]
      const request = yield* vetLaunch((yield* callHandle).tool, { ...input, args })
      const lifecycle = yield* AppLifecycle
      const session = yield* lifecycle.launch(request, name)
      const named = (yield* lifecycle.sessions).find((s) => s.session === session)?.name
      const identity = yield* appIdentity
      const windows = yield* describeWindows(session)
      // The launch waited a while for a window to show (src/layers/driver/surfaces.ts): say when none did.
      const active = session.activeId === undefined ? undefined : session.surface(session.activeId)
      const hidden = active?.kind === "window" && active.facts?.visible === false ? active.id : undefined
      const runtime = session.launch?.runtime ?? "electron"
      const display = session.launch?.display
      const overCdp = session.overCdpReason !== undefined
      // Where the Electron that runs came from, in a word (the full reason and path are in structured content).
      const reason = session.launch?.reason ?? ""
      const from = reason.startsWith("the app's own")
        ? "the app's own"
        : reason.startsWith("STAGEWRIGHT_ELECTRON")
          ? "from STAGEWRIGHT_ELECTRON"
          : reason === "executablePath given"
            ? "from executablePath"
            : ""
      return answer(
        `Launched ${identity ? `${identity.name} ${identity.version}` : "the app"} as session ${named} (${runtime === "standin" ? "Electron stand-in" : `Electron${identity?.electron ? ` ${identity.electron}` : ""}`}${from === "" ? "" : `, ${from}`}, pid ${session.pid}${display ? `, display ${display.display}` : ""}).\n${overCdp ? `${OVER_CDP_NOTE}\n` : ""}${windowLines(windows)}${
          hidden === undefined ? "" : `\nThe active window ${hidden} is hidden: the app had shown no window when the launch ended.`
        }`,
        {
          pid: session.pid,
          runtime,
          executablePath: session.launch?.executablePath,
          runtimeReason: session.launch?.reason,
          ...(overCdp ? { overCdp, mainProcess: false } : {}),
          ...(display ? { display } : {}),
          ...identity,
          windows,
          ...(hidden === undefined ? {} : { activeHidden: true })
        }
      )
    })
})

export const close = defineTool({
  name: "electron_close",
  description: "Close the active session's app: ask it to quit, then kill it after timeoutMs. An attached app is only detached.",
  type: "lifecycle",
  touchesPage: false,
  destructive: true,
  errors: ["APP_NOT_RUNNING"],
  input: Schema.Struct({ timeoutMs: TimeoutMs(5_000) }),
  handler: (input) =>
    Effect.gen(function* () {
      const lifecycle = yield* AppLifecycle
      const result = yield* lifecycle.close(input.timeoutMs)
      const left = yield* lifecycle.sessions
      const active = left.find((s) => s.active)?.name
      const rest = left.length > 0 ? ` Sessions left: ${left.map((s) => s.name).join(", ")}; active: ${active}.` : ""
      return answer(
        `${result.graceful ? `Closed the app of session ${result.name}.` : `The app of session ${result.name} did not quit within the bound and was killed${result.pid ? ` (pid ${result.pid})` : ""}.`}${rest}`,
        { graceful: result.graceful, session: result.name, sessions: left.map((s) => s.name), active: active ?? null }
      )
    })
})

export const appInfo = defineTool({
  name: "electron_app_info",
  description: "App name, version, isPackaged, Electron/Chrome/Node versions, locale and app.getPath folders (userData, logs…). Needs the main process.",
  type: "read",
  errors: ["APP_NOT_RUNNING", "NEEDS_MAIN_PROCESS"],
  input: Schema.Struct({}),
  handler: () =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const info = yield* call.evaluateMain(
        "read app info",
        ({ app }: ElectronModule) => {
          const names = ["home", "appData", "userData", "sessionData", "temp", "exe", "logs", "downloads"] as const
          const paths: Record<string, string> = {}
          for (const name of names) {
            try {
              paths[name] = app.getPath(name)
            } catch {
              // not every platform has every path
            }
          }
          return {
            name: app.getName(),
            version: app.getVersion(),
            isPackaged: app.isPackaged,
            locale: app.getLocale(),
            appPath: app.getAppPath(),
            versions: { electron: process.versions.electron, chrome: process.versions.chrome, node: process.versions.node },
            platform: process.platform,
            paths
          }
        },
        undefined
      )
      const text = [
        `${info.name} ${info.version} (isPackaged: ${info.isPackaged}, locale ${info.locale}, ${info.platform})`,
        `electron ${info.versions.electron}, chrome ${info.versions.chrome}, node ${info.versions.node}`,
        `appPath: ${info.appPath}`,
        ...Object.entries(info.paths).map(([k, v]) => `${k}: ${v}`)
      ].join("\n")
      return answer(text, info)
    })
})

/** electron_attach lives in attach.ts (it lists running apps too). */
export const appTools = [launch, close, appInfo]
