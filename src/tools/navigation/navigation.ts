/**
 * Navigation tools: load a URL in the active window, go back or forward, reload.
 */
import { Effect, Schema } from "effect"
import { classifyNavigation, urlScheme } from "../../eval-policy/code-paths.js"
import { gateCode } from "../policy/code-gate.js"
import { confineFileUrl } from "../policy/confine.js"
import { defineTool } from "../contract/Tool.js"
import { TimeoutMs } from "../contract/shapes.js"
import { callHandle } from "../contract/handle.js"
import { answer } from "../contract/respond.js"
import { clipText, MAX_URL_CHARS } from "../../layers/driver/ElectronDriver.js"

const WAIT_UNTIL = ["load", "domcontentloaded", "networkidle", "commit"] as const
const WaitUntil = Schema.optional(Schema.Literal(...WAIT_UNTIL)).annotations({ description: "default load" })

export const navigate = defineTool({
  name: "electron_navigate",
  description:
    "Load an http(s), file: or about:blank URL in the active window and wait for it. The app's will-navigate guards do not see this. javascript:, data: and blob: URLs run code and need --allow-eval renderer.",
  type: "navigate",
  errors: ["APP_NOT_RUNNING", "WINDOW_NOT_FOUND", "EVAL_NOT_AUTHORIZED", "PATH_NOT_ALLOWED"],
  input: Schema.Struct({
    url: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(8_192)),
    waitUntil: WaitUntil,
    timeoutMs: TimeoutMs(30_000)
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const url = input.url.trim()
      // The policy comes first: a caller-written document is code whatever the app state.
      const call = yield* callHandle
      yield* gateCode(call.tool, [classifyNavigation(url)])
      if (urlScheme(url) === "file") yield* confineFileUrl(url)
      const entry = yield* call.surface()
      if (urlScheme(url) === "javascript") {
        const raw = url.replace(/^[^:]*:/, "")
        const source = (() => {
          try {
            return decodeURIComponent(raw)
          } catch {
            return raw // not percent-encoded: run it as written, as a browser would
          }
        })()
        // A string is evaluated by the page itself (never compiled in this process).
        const value = yield* call.evaluate(entry, "run the javascript: URL", source)
        return answer(`Ran the javascript: URL in ${entry.id}${value !== undefined ? `: ${JSON.stringify(value)}` : ""}.`)
      }
      const response = yield* call.run(`navigate to ${url}`, () =>
        entry.scope.goto(url, { waitUntil: input.waitUntil ?? "load", timeout: input.timeoutMs ?? 30_000 })
      )
      const title = yield* call.title(entry)
      const status = response?.status()
      return answer(`${entry.id} at ${entry.shownUrl()} "${title}"${status !== undefined ? ` (HTTP ${status})` : ""}`, {
        window: entry.id,
        url: entry.shownUrl(),
        title,
        ...(status !== undefined ? { status } : {})
      })
    })
})

export const history = defineTool({
  name: "electron_history",
  description: "Go back or forward in the active window's history; returns the new URL (unchanged when there is no entry).",
  type: "navigate",
  errors: ["APP_NOT_RUNNING", "WINDOW_NOT_FOUND"],
  input: Schema.Struct({ direction: Schema.Literal("back", "forward"), timeoutMs: TimeoutMs(30_000) }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const entry = yield* call.surface()
      const before = entry.page.url()
      const options = { timeout: input.timeoutMs ?? 30_000 }
      const response = yield* call.run(`go ${input.direction}`, () => (input.direction === "back" ? entry.page.goBack(options) : entry.page.goForward(options)))
      const moved = response !== null || entry.page.url() !== before
      const now = clipText(entry.page.url(), MAX_URL_CHARS)
      return answer(moved ? `${entry.id} at ${now}` : `No ${input.direction} entry; still at ${now}`, {
        window: entry.id,
        url: now,
        moved
      })
    })
})

export const reload = defineTool({
  name: "electron_reload",
  description: "Reload the active window's page and wait for it to load. Page state that the app does not persist is lost.",
  type: "navigate",
  destructive: true,
  errors: ["APP_NOT_RUNNING", "WINDOW_NOT_FOUND"],
  input: Schema.Struct({ waitUntil: WaitUntil, timeoutMs: TimeoutMs(30_000) }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const entry = yield* call.surface()
      yield* call.run("reload", () => entry.page.reload({ waitUntil: input.waitUntil ?? "load", timeout: input.timeoutMs ?? 30_000 }))
      yield* call.forgetSnapshot(entry)
      const url = clipText(entry.page.url(), MAX_URL_CHARS)
      return answer(`Reloaded ${entry.id} (${url}). Refs reset: take a new snapshot.`, { window: entry.id, url })
    })
})

export const navigationTools = [navigate, history, reload]
