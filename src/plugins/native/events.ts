/**
 * Events emitted to the app as the OS would send them (powerMonitor, autoUpdater, app), and the shell
 * calls the plugin's hook recorded instead of running. Each answer says how many listeners the app has
 * for the event, so an unhandled event is visible rather than a silent success.
 */
import { Effect, Schema } from "effect"
import { type ElectronModule, type MainValue } from "../../layers/driver/ElectronDriver.js"
import { InvalidArgument } from "../../tools/contract/errors.js"
import { defineTool } from "../../tools/contract/Tool.js"
import { callHandle } from "../../tools/contract/handle.js"
import { answer } from "../../tools/contract/respond.js"

interface Emitted {
  readonly listeners: number
  readonly defaultPrevented: boolean
  readonly missing?: boolean
  readonly calls?: ReadonlyArray<{ at: number; method: string }>
}

/**
 * Runs in the main process: emits `name` on electron[module] with Electron's arguments; an Event-like
 * first argument for the events that carry one.
 */
const emit = (
  electron: ElectronModule,
  command: { module: string; name: string; args: ReadonlyArray<unknown>; withEvent: boolean; error?: string }
): Emitted => {
  // The module is chosen by name (app, powerMonitor, autoUpdater): reached dynamically.
  const target = (electron as unknown as Record<string, MainValue>)[command.module]
  if (!target || typeof target.emit !== "function") return { listeners: 0, defaultPrevented: false, missing: true }
  const listeners = target.listenerCount(command.name) as number
  const event = {
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true
    }
  }
  const args = command.error !== undefined ? [new Error(command.error)] : command.args
  target.emit(command.name, ...(command.withEvent ? [event, ...args] : args))
  const calls = command.module === "autoUpdater" ? ((globalThis as MainValue).__stagewright_native?.updater ?? []) : undefined
  return { listeners, defaultPrevented: event.defaultPrevented, ...(calls ? { calls } : {}) }
}

const emitted = (what: string, result: Emitted) =>
  result.missing
    ? answer(`${what}: this Electron has no such module.`, { ...result })
    : answer(
        `Emitted ${what} to ${result.listeners} listener(s)${result.listeners === 0 ? ": the app does not handle it" : ""}${result.defaultPrevented ? " (the app called preventDefault)" : ""}.`,
        { ...result }
      )

export const power = defineTool({
  name: "electron_native_power",
  description:
    "Emit a powerMonitor event to the app as the OS would: suspend, resume, lock-screen, unlock-screen, on-ac, on-battery. Says how many listeners the app has.",
  type: "native",
  errors: ["APP_NOT_RUNNING", "NEEDS_MAIN_PROCESS"],
  input: Schema.Struct({ event: Schema.Literal("suspend", "resume", "lock-screen", "unlock-screen", "on-ac", "on-battery") }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const result = yield* call.evaluateMain("emit the power event", emit, { module: "powerMonitor", name: input.event, args: [], withEvent: false })
      return emitted(`powerMonitor ${input.event}`, result)
    })
})

export const updater = defineTool({
  name: "electron_native_updater",
  description:
    "Emit an autoUpdater event to drive the app's update UI: checking-for-update, update-available, update-not-available, update-downloaded (releaseName, releaseNotes), error (message). While the plugin is loaded the app's checkForUpdates/quitAndInstall calls are recorded (listed), not run.",
  type: "native",
  errors: ["APP_NOT_RUNNING", "NEEDS_MAIN_PROCESS"],
  input: Schema.Struct({
    event: Schema.Literal("checking-for-update", "update-available", "update-not-available", "update-downloaded", "error"),
    releaseName: Schema.optional(Schema.String.pipe(Schema.maxLength(200))),
    releaseNotes: Schema.optional(Schema.String.pipe(Schema.maxLength(10_000))),
    message: Schema.optional(Schema.String.pipe(Schema.maxLength(1_000))).annotations({ description: "error message" })
  }),
  handler: (input) =>
    Effect.gen(function* () {
      if ((input.releaseName !== undefined || input.releaseNotes !== undefined) && input.event !== "update-downloaded") {
        return yield* new InvalidArgument({
          message: "releaseName/releaseNotes go with update-downloaded",
          hint: 'Example: { "event": "update-downloaded", "releaseName": "2.0.0" }'
        })
      }
      if (input.message !== undefined && input.event !== "error")
        return yield* new InvalidArgument({ message: "message goes with the error event", hint: 'Example: { "event": "error", "message": "network down" }' })
      const call = yield* callHandle
      const downloaded = input.event === "update-downloaded"
      // Electron: update-downloaded(event, releaseNotes, releaseName, releaseDate, updateURL); error(error); the others (event) or nothing.
      const command = {
        module: "autoUpdater",
        name: input.event,
        args: downloaded ? [input.releaseNotes ?? "", input.releaseName ?? "", new Date().toISOString(), ""] : [],
        withEvent: downloaded,
        ...(input.event === "error" ? { error: input.message ?? "Update failed" } : {})
      }
      const result = yield* call.evaluateMain("emit the updater event", emit, command)
      const base = emitted(`autoUpdater ${input.event}`, result)
      const calls = (result.calls ?? []).map((c) => `${c.method} at ${new Date(c.at).toISOString()}`)
      return answer(`${base.text}${calls.length > 0 ? `\nApp's updater calls (recorded): ${calls.join(", ")}` : ""}`, base.structured)
    })
})

export const appEvent = defineTool({
  name: "electron_native_app_event",
  description:
    "Emit an app event as the OS would: open-url (url), open-file (path), second-instance (argv, cwd), activate. Says how many listeners the app has and whether it called preventDefault.",
  type: "native",
  errors: ["APP_NOT_RUNNING", "NEEDS_MAIN_PROCESS"],
  input: Schema.Struct({
    event: Schema.Literal("open-url", "open-file", "second-instance", "activate"),
    url: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(4_096))),
    path: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(4_096))),
    argv: Schema.optional(Schema.Array(Schema.String.pipe(Schema.maxLength(4_096))).pipe(Schema.maxItems(100))),
    cwd: Schema.optional(Schema.String.pipe(Schema.maxLength(4_096)))
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const needs = { "open-url": "url", "open-file": "path", "second-instance": "argv", activate: undefined }[input.event]
      const given = (["url", "path", "argv", "cwd"] as const).filter((k) => input[k] !== undefined)
      const allowed = input.event === "second-instance" ? ["argv", "cwd"] : needs ? [needs] : []
      const extra = given.filter((k) => !allowed.includes(k))
      if (extra.length > 0)
        return yield* new InvalidArgument({
          message: `${extra.join(", ")}: not used by ${input.event}`,
          hint: `${input.event} takes ${allowed.join(", ") || "nothing else"}.`
        })
      if (needs !== undefined && input[needs as "url" | "path" | "argv"] === undefined) {
        return yield* new InvalidArgument({
          message: `${needs} is required for ${input.event}`,
          hint: `Example: { "event": "${input.event}", "${needs}": ${needs === "argv" ? '["app", "--open", "x"]' : needs === "url" ? '"myapp://open?id=1"' : '"/path/file.txt"'} }`
        })
      }
      const call = yield* callHandle
      const hasVisible =
        input.event === "activate"
          ? yield* call.evaluateMain(
              "count visible windows",
              ({ BrowserWindow }: ElectronModule) => BrowserWindow.getAllWindows().some((w) => w.isVisible()),
              undefined
            )
          : false
      const args =
        input.event === "open-url"
          ? [input.url!]
          : input.event === "open-file"
            ? [input.path!]
            : input.event === "second-instance"
              ? [input.argv!, input.cwd ?? process.cwd(), {}]
              : [hasVisible]
      const result = yield* call.evaluateMain("emit the app event", emit, { module: "app", name: input.event, args, withEvent: true })
      return emitted(`app ${input.event}`, result)
    })
})

/** Runs in the main process: the recorded shell calls (optionally cleared after reading). */
const shellCalls = (
  _electron: unknown,
  clear: boolean
): { installed: boolean; calls: Array<{ seq: number; at: number; method: string; url?: string; path?: string }> } => {
  const state = (globalThis as MainValue).__stagewright_native
  if (!state) return { installed: false, calls: [] }
  const calls = [...state.shell]
  if (clear) state.shell.length = 0
  return { installed: true, calls }
}

export const shell = defineTool({
  name: "electron_native_shell_calls",
  description:
    "The app's shell.openExternal / openPath / showItemInFolder / trashItem calls since launch; while the plugin is loaded they are recorded instead of run (nothing opens or moves). clear empties the list after reading.",
  type: "native",
  readOnly: true,
  errors: ["APP_NOT_RUNNING", "NEEDS_MAIN_PROCESS"],
  input: Schema.Struct({ clear: Schema.optional(Schema.Boolean) }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const result = yield* call.evaluateMain("read the shell calls", shellCalls, input.clear === true)
      const lines = result.calls.map((c) => `${new Date(c.at).toISOString()} ${c.method} ${c.url ?? c.path ?? ""}`)
      return answer(lines.length > 0 ? lines.join("\n") : "No shell calls since launch.", { calls: result.calls })
    })
})
