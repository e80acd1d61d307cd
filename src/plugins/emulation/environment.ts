/**
 * A window's zoom factor (webContents.setZoomFactor, read back from the main process and the page's
 * devicePixelRatio), the time zone of every window (CDP Emulation.setTimezoneOverride on this plugin's
 * session of each window, new ones too; read back from the page's Intl), and the locale (Chromium takes
 * --lang only at start-up: it applies at the next launch, or at once with relaunch).
 */
import { Effect, Schema } from "effect"
import { AppLifecycle } from "../../layers/driver/ElectronDriver.js"
import { InvalidArgument } from "../../tools/contract/errors.js"
import { WindowId } from "../../tools/contract/shapes.js"
import { defineTool } from "../../tools/contract/Tool.js"
import { applyInEveryWindow } from "../shared/cdp.js"
import { callHandle } from "../../tools/contract/handle.js"
import { answer } from "../../tools/contract/respond.js"

export const zoom = defineTool({
  name: "electron_emulation_zoom",
  description: "Set (or read) a window's zoom factor through webContents.setZoomFactor; returns the factor in force and the page's devicePixelRatio.",
  type: "interact",
  idempotent: true,
  errors: ["APP_NOT_RUNNING", "NEEDS_MAIN_PROCESS", "WINDOW_NOT_FOUND"],
  input: Schema.Struct({
    factor: Schema.optional(Schema.Number.pipe(Schema.between(0.25, 5))).annotations({ description: "1 = 100%" }),
    window: Schema.optional(WindowId)
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const entry = yield* call.surface(input.window)
      const factor = yield* call.evaluateWindow(
        entry,
        "set the zoom factor",
        (win: { webContents: { setZoomFactor: (f: number) => void; getZoomFactor: () => number } }, wanted: number | null) => {
          if (wanted !== null) win.webContents.setZoomFactor(wanted)
          return win.webContents.getZoomFactor()
        },
        input.factor ?? null
      )
      const dpr = yield* call.evaluate(entry, "read devicePixelRatio", () => window.devicePixelRatio)
      return answer(`${entry.id}: zoom factor ${factor} (${Math.round(factor * 100)}%), page devicePixelRatio ${dpr}`, {
        window: entry.id,
        zoomFactor: factor,
        devicePixelRatio: dpr
      })
    })
})

const isTimeZone = (id: string) => {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: id })
    return true
  } catch {
    return false
  }
}

export const timezone = defineTool({
  name: "electron_emulation_timezone",
  description:
    "Override the time zone every window's pages see (IANA id like Asia/Tokyo; \"system\" removes it; new windows too); returns each page's Intl time zone and UTC offset. The main process keeps its own.",
  type: "interact",
  idempotent: true,
  errors: ["APP_NOT_RUNNING"],
  input: Schema.Struct({ timezone: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(64))) }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const session = yield* call.session
      const wanted = input.timezone
      if (wanted !== undefined) {
        if (wanted !== "system" && !isTimeZone(wanted)) {
          return yield* new InvalidArgument({
            message: `timezone: ${wanted} is not an IANA time zone`,
            hint: 'Examples: Europe/Paris, America/New_York, Asia/Tokyo, UTC; "system" removes the override.'
          })
        }
        const timezoneId = wanted === "system" ? "" : wanted
        yield* call.run("override the time zone", () =>
          applyInEveryWindow(session, "timezone", (cdp) => cdp.send("Emulation.setTimezoneOverride", { timezoneId }), timezoneId !== "")
        )
      }
      const seen = yield* Effect.forEach(
        yield* (yield* callHandle).surfaces(),
        (w) =>
          call
            .evaluate(w, "read the time zone", () => ({
              timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
              utcOffsetMinutes: -new Date().getTimezoneOffset()
            }))
            .pipe(Effect.map((tz) => ({ window: w.id, ...tz }))),
        { concurrency: "unbounded" }
      )
      return answer(seen.map((w) => `${w.window}: ${w.timeZone} (UTC${w.utcOffsetMinutes >= 0 ? "+" : "-"}${Math.abs(w.utcOffsetMinutes) / 60})`).join("\n"), {
        windows: seen
      })
    })
})

const LOCALE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$/

export const locale = defineTool({
  name: "electron_emulation_locale",
  description:
    "Read the app's locale (app.getLocale, navigator.language). A locale applies only at start-up: relaunch: true restarts the app with it (same app, args, env); else use electron_launch locale.",
  type: "interact",
  errors: ["APP_NOT_RUNNING", "NEEDS_MAIN_PROCESS", "LAUNCH_FAILED"],
  input: Schema.Struct({
    locale: Schema.optional(Schema.String.pipe(Schema.maxLength(40))).annotations({ description: "e.g. fr, pt-BR" }),
    relaunch: Schema.optional(Schema.Boolean)
  }),
  handler: (input) =>
    Effect.gen(function* () {
      if (input.locale !== undefined && !LOCALE.test(input.locale)) {
        return yield* new InvalidArgument({
          message: `locale: ${JSON.stringify(input.locale)} is not a locale`,
          hint: "Give a BCP 47 tag like fr, de-CH or pt-BR."
        })
      }
      const lifecycle = yield* AppLifecycle
      const call = yield* callHandle
      let session = yield* call.session
      if (input.relaunch === true) {
        if (input.locale === undefined)
          return yield* new InvalidArgument({ message: "relaunch needs locale", hint: 'Example: { "locale": "fr", "relaunch": true }' })
        const launch = session.launch
        if (launch === undefined)
          return yield* new InvalidArgument({
            message: "relaunch: this app was attached, not launched",
            hint: "Start it with --lang=<locale> yourself, or electron_launch it with locale."
          })
        const args = [...launch.args.filter((a) => !a.startsWith("--lang=")), `--lang=${input.locale}`]
        session = yield* lifecycle.launch({
          ...(launch.app !== undefined ? { app: launch.app } : {}),
          executablePath: launch.executablePath,
          args,
          env: launch.env,
          ...(launch.cwd !== undefined ? { cwd: launch.cwd } : {})
        })
      }
      const main = yield* call.evaluateMain(
        "read the locale",
        ({ app }: { app: { getLocale: () => string; getSystemLocale?: () => string } }) => ({
          appLocale: app.getLocale(),
          systemLocale: app.getSystemLocale?.() ?? null
        }),
        undefined
      )
      const entry = yield* call.surface()
      const page = yield* call.evaluate(entry, "read navigator.language", () => ({ language: navigator.language, languages: [...navigator.languages] }))
      const now = `app.getLocale()=${main.appLocale}, ${entry.id} navigator.language=${page.language} (${page.languages.join(", ")})`
      const pending =
        input.locale !== undefined && input.relaunch !== true
          ? `\nNot applied: the locale is read at start-up. Use electron_launch with locale: "${input.locale}", or this tool with relaunch: true.`
          : input.relaunch === true
            ? `\nRelaunched with --lang=${input.locale} (pid ${session.pid}).`
            : ""
      return answer(`${now}${pending}`, { ...main, ...page, applied: input.relaunch === true, pid: session.pid })
    })
})
