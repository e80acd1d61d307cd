/**
 * Errors at the app's own source: the Bundled Demo (test/fixtures/apps/bundled) is built here from its
 * TypeScript sources with esbuild, minified — the renderer with a linked source map beside its bundle, the
 * main process with its map inline — and what it throws is reported at its source file and line, the
 * bundle's position kept, in electron_errors (a renderer page error, a main-process uncaught exception)
 * and electron_console (where a warning was logged).
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { build } from "esbuild"
import { Effect } from "effect"
import { cpSync, mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { callUntil, freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"

const sources = join(import.meta.dirname, "../fixtures/apps/bundled")

/** The line of `needle` in a source file (1-based), so the test does not hard-code it. */
const lineOf = (file: string, needle: string) =>
  readFileSync(join(sources, "src", file), "utf8")
    .split("\n")
    .findIndex((l) => l.includes(needle)) + 1

const buildApp = async () => {
  const app = mkdtempSync(join(tmpdir(), "sw-bundled-"))
  // The app's folder as a project has it: its sources beside what is built from them.
  cpSync(sources, app, { recursive: true })
  const common = { bundle: true, minify: true, logLevel: "silent" as const, absWorkingDir: app }
  await build({ ...common, entryPoints: ["src/renderer.ts"], outfile: join(app, "dist/renderer.js"), platform: "browser", format: "iife", sourcemap: "linked" })
  await build({
    ...common,
    entryPoints: ["src/main.ts"],
    outfile: join(app, "dist/main.js"),
    platform: "node",
    format: "cjs",
    external: ["electron"],
    sourcemap: "inline"
  })
  return app
}

let mcp: TestClient | undefined
afterAll(async () => {
  await mcp?.close()
})

describe("errors mapped through the app's source maps", () => {
  it.live("a bundled app's renderer and main-process errors name its source files and lines, the bundle position kept", () =>
    Effect.gen(function* () {
      const app = yield* Effect.promise(buildApp)
      // The bundles are minified: one line of code each, so the bundle's own positions say nothing.
      expect(readFileSync(join(app, "dist/renderer.js"), "utf8")).toMatch(/\/\/# sourceMappingURL=renderer\.js\.map\s*$/)
      mcp = yield* Effect.promise(() => inMemoryClient())
      const launched = yield* Effect.promise(() => mcp!.call("electron_launch", { app, env: { SAMPLE_APP_USER_DATA: freshUserData() } }))
      expect(launched.isError, launched.text).toBe(false)
      // The click only sets the errors off (what is asserted is how they are told). It is the first action on a fresh
      // window, which pays for the page's injected script; under the whole suite's load one such click once took
      // over the default 5 s (~0.3 s alone, and with four CPU hogs): its bound is the suite's, not an agent's.
      const clicked = yield* Effect.promise(() => mcp!.call("electron_click", { target: "testid=total", timeoutMs: 20_000 }))
      expect(clicked.isError, clicked.text).toBe(false)

      const throwLine = lineOf("cart.ts", 'throw new Error("cannot total')
      const callLine = lineOf("renderer.ts", "total(items)")
      const mainLine = lineOf("settings.ts", 'throw new Error("the theme')
      const errors = yield* callUntil(mcp, "electron_errors", {}, (r) => r.text.includes("cannot total") && r.text.includes("the theme setting"))
      // The original position first, the bundle's after it in parentheses.
      expect(errors.text).toMatch(new RegExp(`\\(src/cart\\.ts:${throwLine}:\\d+ \\[dist/renderer\\.js:1:\\d+\\]\\)`))
      expect(errors.text).toMatch(new RegExp(`\\(src/renderer\\.ts:${callLine}:\\d+ \\[dist/renderer\\.js:1:\\d+\\]\\)`))
      expect(errors.text).toMatch(new RegExp(`\\(src/settings\\.ts:${mainLine}:\\d+ \\[dist/main\\.js:1:\\d+\\]\\)`))
      const page = errors.structured.errors.find((e: any) => e.kind === "pageerror")
      expect(page.stack).toMatch(new RegExp(`src/cart\\.ts:${throwLine}:`))

      const warnLine = lineOf("renderer.ts", 'console.warn("totalling"')
      const logged = yield* Effect.promise(() => mcp!.call("electron_console", { text: "totalling" }))
      expect(logged.text).toMatch(new RegExp(`totalling 0 items \\(at src/renderer\\.ts:${warnLine}:\\d+\\)`))
      expect(logged.structured.messages[0].original).toMatch(new RegExp(`^src/renderer\\.ts:${warnLine}:`))
    })
  )

  it.live("a failed assertion's answer tells the app's errors that came since the last answer, each at its source line", () =>
    Effect.gen(function* () {
      const app = yield* Effect.promise(buildApp)
      yield* Effect.promise(async () => mcp?.close())
      mcp = yield* Effect.promise(() => inMemoryClient({ allowEval: ["main"] }))
      const launched = yield* Effect.promise(() => mcp!.call("electron_launch", { app, env: { SAMPLE_APP_USER_DATA: freshUserData() } }))
      expect(launched.isError, launched.text).toBe(false)
      // The main process clicks the page's button a while after its answer, so that answer tells no error; the
      // errors are waited for with electron_errors (a debug tool: it leaves them untold).
      const scheduled = yield* Effect.promise(() =>
        mcp!.call("electron_eval_main", {
          function:
            "({ BrowserWindow }) => { setTimeout(() => BrowserWindow.getAllWindows()[0].webContents.executeJavaScript(\"document.querySelector('[data-testid=total]').click()\", true), 1500); return 'scheduled' }"
        })
      )
      expect(scheduled.text).toBe('"scheduled"')
      yield* callUntil(mcp, "electron_errors", {}, (r) => r.text.includes("cannot total") && r.text.includes("the theme setting"))
      const failed = yield* Effect.promise(() => mcp!.call("electron_expect_text", { target: "testid=result", text: "Total: 0", timeoutMs: 500 }))
      expect(failed.code).toBe("ASSERTION_FAILED")
      const throwLine = lineOf("cart.ts", 'throw new Error("cannot total')
      const mainLine = lineOf("settings.ts", 'throw new Error("the theme')
      expect(failed.text).toContain("New errors of the app since the last answer:")
      expect(failed.text).toMatch(new RegExp(`Page error \\(w1\\): .*cannot total.* \\(at src/cart\\.ts:${throwLine}:\\d+ \\[dist/renderer\\.js:1:\\d+\\]\\)`))
      expect(failed.text).toMatch(
        new RegExp(`Main-process error: .*the theme setting.* \\(at src/settings\\.ts:${mainLine}:\\d+ \\[dist/main\\.js:1:\\d+\\]\\)`)
      )
      const told = failed.structured.error.newErrors
      expect(told.shown.map((e: any) => e.at)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(new RegExp(`^src/cart\\.ts:${throwLine}:`)),
          expect.stringMatching(new RegExp(`^src/settings\\.ts:${mainLine}:`))
        ])
      )
      // Told once: the next answer does not repeat them.
      const again = yield* Effect.promise(() => mcp!.call("electron_expect_text", { target: "testid=result", text: "Total: 0", timeoutMs: 300 }))
      expect(again.text).not.toContain("New errors of the app")
    })
  )
})
