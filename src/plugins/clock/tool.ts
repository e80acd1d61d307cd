/**
 * electron_clock_control: one tool for fake time in the windows (playwright-core's clock, renderer.ts) and
 * in the main process (main-clock.ts), driven together (target both, the default) or apart. It runs no
 * caller code: the main-process clock is this plugin's own.
 */
import { Effect, Schema } from "effect"
import { InvalidArgument, NeedsMainProcess } from "../../tools/contract/errors.js"
import { answer } from "../../tools/contract/respond.js"
import { defineTool } from "../../tools/contract/Tool.js"
import { mainClock, type MainClockAction, type MainClockCommand, type MainClockState } from "./main-clock.js"
import { applyRenderer, rendererClock, windowTimes, type RendererCommand, type WindowTime } from "./renderer.js"
import { formatDuration, parseDuration, parseTime } from "./time.js"
import { callHandle } from "../../tools/contract/handle.js"

const ACTIONS = ["install", "set", "advance", "run", "pause", "resume", "status", "uninstall"] as const
/** run fires every timer on the way (an animation-frame loop 60 times a second): bounded. */
const MAX_RUN_MS = 3_600_000
const MAX_JUMP_MS = 3_650 * 86_400_000
/** The most main-process timer callbacks one call fires. */
const MAX_FIRE = 10_000

const iso = (ms: number) => new Date(ms).toISOString()

const NOT_FAKED =
  "Not faked in main: timers set before install, setImmediate/nextTick, performance.now/hrtime/uptime, functions taken from require('timers'), Electron's native timers."

const invalid = (message: string, hint: string) => new InvalidArgument({ message, hint })

const mainLine = (m: MainClockState, action: MainClockAction): Array<string | undefined> => {
  if (!m.installed) {
    const moved = m.moved !== undefined && m.moved > 0 ? `; ${m.moved} pending timer(s) moved to real timers` : ""
    return [`main: real time ${iso(m.now)}${m.removedAtQuit === true ? " (the fake was removed when the app began to quit)" : ""}${moved}`]
  }
  const mode = [m.paused ? "paused" : "running", m.fixed ? "Date fixed" : undefined].filter(Boolean).join(", ")
  const fired = action === "advance" || action === "run" || action === "pause" ? `; fired ${m.fired} timer(s)` : ""
  return [
    `main (${mode}): ${iso(m.now)}, ${m.pending} timer(s) pending${fired}`,
    m.errors.length > 0 ? `main: ${m.errors.length} callback(s) threw (rethrown in the app): ${m.errors[0]}` : undefined,
    m.stoppedEarly ? `main: stopped after ${MAX_FIRE} callbacks at ${iso(m.now)}; call ${action} again to go on.` : undefined
  ]
}

const windowsLine = (installed: boolean, paused: boolean, fixed: boolean, times: ReadonlyArray<WindowTime>) => {
  const mode = !installed ? "real time" : [paused ? "paused" : "running", fixed ? "Date fixed" : undefined].filter(Boolean).join(", ")
  const list = times.map((t) => `${t.window} ${iso(t.now)}${installed && !t.faked ? " (not faked yet)" : ""}`).join(", ")
  return `windows (${mode}): ${list === "" ? "none open" : list}`
}

export const clockControl = defineTool({
  name: "electron_clock_control",
  description:
    "Fake time (Date, timers) in every window, new ones too, and the main process. install (at time, running); set time without firing timers (fixed: Date frozen); advance by, each due timer fires once; run by, every timer fires; pause (at time); resume; status; uninstall.",
  type: "interact",
  errors: ["APP_NOT_RUNNING", "NEEDS_MAIN_PROCESS", "INVALID_ARGUMENT", "OPERATION_FAILED"],
  input: Schema.Struct({
    action: Schema.Literal(...ACTIONS),
    target: Schema.optional(Schema.Literal("renderer", "main", "both")).annotations({ description: "default both" }),
    time: Schema.optional(Schema.String.pipe(Schema.maxLength(40))).annotations({ description: "ISO 8601 or epoch ms" }),
    by: Schema.optional(Schema.String.pipe(Schema.maxLength(24))).annotations({ description: "a duration: 1d, 2h30m, 90s, 500ms" }),
    fixed: Schema.optional(Schema.Boolean)
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const { action } = input
      const onRenderer = input.target !== "main"
      const onMain = input.target !== "renderer"
      const time = input.time === undefined ? undefined : parseTime(input.time)
      if (input.time !== undefined && time === undefined) {
        return yield* invalid(`time: ${JSON.stringify(input.time)} is not a time`, "Give an ISO 8601 time (2030-01-15T09:00:00Z) or epoch milliseconds.")
      }
      if (action === "set" && time === undefined) return yield* invalid("set needs time", 'Example: { "action": "set", "time": "2030-01-15T09:00:00Z" }')
      const by = input.by === undefined ? undefined : parseDuration(input.by)
      if (action === "advance" || action === "run") {
        if (by === undefined)
          return yield* invalid(
            `${action} needs by, a duration`,
            `Example: { "action": "${action}", "by": "${action === "run" ? "30m" : "1d"}" } (units ms, s, m, h, d).`
          )
        const max = action === "run" ? MAX_RUN_MS : MAX_JUMP_MS
        if (by > max) {
          return yield* invalid(
            `by: ${input.by} is more than ${formatDuration(max)}`,
            action === "run" ? "run fires every timer on the way; jump further with advance (each due timer fires once)." : "Jump at most 10 years at a time."
          )
        }
      }

      const renderer = onRenderer ? yield* rendererClock : undefined
      if (renderer !== undefined && !renderer.installed && !["install", "status", "uninstall"].includes(action)) {
        return yield* invalid(`the windows' clock is not installed, so it cannot ${action}`, 'Call { "action": "install" } first (or target "main").')
      }
      const call = yield* callHandle
      const inMain = (what: string, command: MainClockCommand) =>
        call
          .evaluateMain(what, mainClock, command)
          .pipe(
            Effect.catchTag("NeedsMainProcess", (e) =>
              Effect.fail(
                new NeedsMainProcess({ message: e.message, hint: `${e.hint} Or fake the windows' time alone: target "renderer".`, details: e.details })
              )
            )
          )
      // A pause without time stops the clocks together at the next whole second: a running clock cannot
      // be stopped at an exact instant from outside, and playwright-core refuses a time already past.
      let at = time
      if (action === "pause" && onRenderer) {
        const seen = (yield* windowTimes).map((t) => t.now)
        if (onMain) seen.push((yield* inMain("read the main-process clock", { action: "status", maxFire: MAX_FIRE })).now)
        const latest = Math.max(0, ...seen)
        if (at === undefined) at = Math.ceil((latest + 250) / 1_000) * 1_000
        else if (at < latest)
          return yield* invalid(`time: ${iso(at)} is before the app's time ${iso(latest)}`, "pause stops the clock at a time still to come; set jumps back.")
      }

      let main: MainClockState | undefined
      if (onMain) {
        const m = yield* inMain(`${action} the main-process clock`, {
          action,
          ...(at !== undefined ? { time: at } : {}),
          ...(by !== undefined ? { by } : {}),
          ...(input.fixed !== undefined ? { fixed: input.fixed } : {}),
          maxFire: MAX_FIRE
        })
        if (m.refused === "not-installed")
          return yield* invalid(`the main-process clock is not installed, so it cannot ${action}`, 'Call { "action": "install" } first (or target "renderer").')
        if (m.refused === "past")
          return yield* invalid(
            `time: ${iso(at!)} is before the main process's time ${iso(m.now)}`,
            "pause stops the clock at a time still to come; set jumps back."
          )
        main = m
      }

      let windows: ReadonlyArray<WindowTime> = []
      let state = renderer
      if (onRenderer) {
        const command: RendererCommand = {
          action,
          ...(at !== undefined ? { time: at } : {}),
          ...(by !== undefined ? { by } : {}),
          ...(input.fixed !== undefined ? { fixed: input.fixed } : {})
        }
        if (action !== "status" && !(action === "uninstall" && renderer?.installed !== true)) state = yield* applyRenderer(command)
        windows = yield* windowTimes
      }

      const head =
        action === "advance" || action === "run"
          ? `${action} ${formatDuration(by!)}`
          : action === "set" || action === "pause" || action === "install"
            ? `${action}${at !== undefined ? ` at ${iso(at)}` : ""}`
            : action
      const lines = [
        `${head}:`,
        state !== undefined ? windowsLine(state.installed, state.paused, state.fixed, windows) : undefined,
        ...(main !== undefined ? mainLine(main, action) : []),
        action === "install" && onRenderer ? "Timers a page set before install keep real time: electron_reload puts them on the fake clock." : undefined,
        action === "install" && onMain ? NOT_FAKED : undefined,
        action === "pause" ? "Timers (and the windows' animation frames) wait until advance, run or resume." : undefined,
        action === "uninstall" && onRenderer ? "The windows keep playwright-core's clock, now following real time, until the app restarts." : undefined
      ]
      return answer(lines, {
        action,
        ...(state !== undefined ? { renderer: { ...state, windows: windows.map((w) => ({ ...w, time: iso(w.now) })) } } : {}),
        ...(main !== undefined ? { main: { ...main, time: iso(main.now) } } : {})
      })
    })
})
