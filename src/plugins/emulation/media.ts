/**
 * What the pages see: the theme (nativeTheme.themeSource in the main process, read back from each
 * window's prefers-color-scheme) and other media features (prefers-reduced-motion, prefers-contrast,
 * forced-colors) emulated per window through CDP Emulation.setEmulatedMedia on this plugin's own session,
 * which sets only the features asked for (Playwright's page.emulateMedia would also reset
 * prefers-color-scheme, which nativeTheme may drive).
 */
import { Effect, Schema } from "effect"
import { sessionLocal, type AppSession } from "../../layers/driver/ElectronDriver.js"
import { InvalidArgument } from "../../tools/contract/errors.js"
import { defineTool } from "../../tools/contract/Tool.js"
import { applyInEveryWindow } from "../shared/cdp.js"
import { callHandle } from "../../tools/contract/handle.js"
import { answer } from "../../tools/contract/respond.js"

/** Reads matchMedia queries in every open window. */
export const readMedia = (session: AppSession, queries: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const call = yield* callHandle
    return yield* Effect.forEach(
      yield* (yield* callHandle).surfaces(),
      (w) =>
        call
          .evaluate(w, "read media features", (qs: ReadonlyArray<string>) => qs.map((q) => window.matchMedia(q).matches), queries)
          .pipe(Effect.map((matches) => ({ window: w.id, matches }))),
      { concurrency: "unbounded" }
    )
  })

export const theme = defineTool({
  name: "electron_emulation_theme",
  description:
    "Set nativeTheme.themeSource (system|light|dark) in the main process, or read it; returns shouldUseDarkColors and the prefers-color-scheme each window now reports.",
  type: "interact",
  idempotent: true,
  errors: ["APP_NOT_RUNNING", "NEEDS_MAIN_PROCESS"],
  input: Schema.Struct({ theme: Schema.optional(Schema.Literal("system", "light", "dark")) }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const session = yield* call.session
      const main = yield* call.evaluateMain(
        "set the theme",
        ({ nativeTheme }: { nativeTheme: { themeSource: string; shouldUseDarkColors: boolean } }, wanted: string | null) => {
          if (wanted !== null) nativeTheme.themeSource = wanted
          return { themeSource: nativeTheme.themeSource, shouldUseDarkColors: nativeTheme.shouldUseDarkColors }
        },
        input.theme ?? null
      )
      // Windows repaint asynchronously: read until each reports the scheme the main process chose (3 s at most).
      const seen = yield* call.poll(
        Effect.map(readMedia(session, ["(prefers-color-scheme: dark)"]), (windows) => ({
          ok: windows.every((w) => w.matches[0] === main.shouldUseDarkColors),
          actual: windows.map((w) => ({ window: w.window, colorScheme: w.matches[0] ? "dark" : "light" }))
        })),
        input.theme === undefined ? 0 : 3_000
      )
      const lines = seen.actual.map((w) => `${w.window}: prefers-color-scheme ${w.colorScheme}`)
      return answer(`nativeTheme.themeSource=${main.themeSource}, shouldUseDarkColors=${main.shouldUseDarkColors}\n${lines.join("\n")}`, {
        ...main,
        windows: seen.actual
      })
    })
})

const FEATURES = {
  reducedMotion: { name: "prefers-reduced-motion", values: ["reduce", "no-preference"] },
  contrast: { name: "prefers-contrast", values: ["more", "less", "no-preference"] },
  forcedColors: { name: "forced-colors", values: ["active", "none"] }
} as const
type FeatureKey = keyof typeof FEATURES

const mediaOverrides = sessionLocal<Partial<Record<FeatureKey, string>>>("emulation/media", () => ({}))

export const media = defineTool({
  name: "electron_emulation_reduced_motion",
  description:
    'Emulate media features in every window (new ones too): reducedMotion reduce|no-preference, contrast more|less|no-preference, forcedColors active|none; "default" removes an override. Returns what each window\'s matchMedia reports.',
  type: "interact",
  idempotent: true,
  errors: ["APP_NOT_RUNNING"],
  input: Schema.Struct({
    reducedMotion: Schema.optional(Schema.Literal("reduce", "no-preference", "default")),
    contrast: Schema.optional(Schema.Literal("more", "less", "no-preference", "default")),
    forcedColors: Schema.optional(Schema.Literal("active", "none", "default"))
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const session = yield* call.session
      const overrides = mediaOverrides.of(session)
      const asked = (Object.keys(FEATURES) as Array<FeatureKey>).filter((k) => input[k] !== undefined)
      if (asked.length > 0) {
        for (const k of asked) {
          if (input[k] === "default") delete overrides[k]
          else overrides[k] = input[k]
        }
        // Every asked feature is sent (an empty value clears the override of this session).
        const features = (Object.keys(FEATURES) as Array<FeatureKey>).map((k) => ({ name: FEATURES[k].name, value: overrides[k] ?? "" }))
        yield* call.run("emulate media features", () =>
          applyInEveryWindow(session, "media", (cdp) => cdp.send("Emulation.setEmulatedMedia", { features }), Object.keys(overrides).length > 0)
        )
      }
      const keys = Object.keys(FEATURES) as Array<FeatureKey>
      const queries = keys.flatMap((k) => FEATURES[k].values.map((v) => `(${FEATURES[k].name}: ${v})`))
      const windows = yield* readMedia(session, queries)
      const seen = windows.map((w) => {
        let i = 0
        const values: Record<string, string> = {}
        for (const k of keys) {
          const hits = FEATURES[k].values.filter(() => w.matches[i++])
          values[k] = hits[0] ?? "unknown"
        }
        return { window: w.window, ...values }
      })
      if (seen.length === 0)
        return yield* new InvalidArgument({ message: "the app has no open window", hint: "Open a window first (electron_windows lists them)." })
      return answer(seen.map((w) => `${w.window}: ${keys.map((k) => `${FEATURES[k].name} ${(w as Record<string, string>)[k]}`).join(", ")}`).join("\n"), {
        overrides,
        windows: seen
      })
    })
})
