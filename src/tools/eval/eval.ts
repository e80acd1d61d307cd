/**
 * Eval tools: run caller-supplied functions in the active window's page or in the main process.
 * Each declares its eval target; the Dispatcher lists and runs it only when `--allow-eval` allows it.
 */
import { Effect, Schema } from "effect"
import { toFunction } from "../../layers/driver/ElectronDriver.js"
import { InvalidArgument } from "../contract/errors.js"
import { defineTool } from "../contract/Tool.js"
import { callHandle } from "../contract/handle.js"
import { answer } from "../contract/respond.js"

const MAX_RESULT_CHARS = 20_000

const FunctionSource = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(50_000))

const checkFunction = (source: string) =>
  /^\s*(async\s+)?(function\b|\([^)]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)/.test(source)
    ? Effect.void
    : Effect.fail(
        new InvalidArgument({
          message: "function: not a function expression",
          hint: 'Pass source like "() => document.title" or "async (electron, arg) => …".'
        })
      )

/** JSON text of a result when it has one (cycles and BigInts have none: their String form is used). */
const toJson = (value: unknown): string | undefined => {
  try {
    return JSON.stringify(value, null, 1)
  } catch {
    return undefined
  }
}

const render = (value: unknown) => {
  const json = value === undefined ? "undefined" : (toJson(value) ?? String(value))
  return json.length > MAX_RESULT_CHARS ? `${json.slice(0, MAX_RESULT_CHARS)}… (${json.length} chars, cut)` : json
}

/** The structured form: the value itself when it survives JSON, else its text. */
const structuredValue = (value: unknown) =>
  value === undefined ? null : toJson(value) !== undefined ? value : { unserializable: String(value).slice(0, 1_000) }

/**
 * Checks the source's syntax by compiling it (never calling what was compiled: nothing of it runs in
 * this process) and hands playwright-core an inert value whose text is the source.
 */
const parseFunction = (source: string) =>
  Effect.try({
    try: () => {
      void new Function(`return (${source}\n)`)
      return toFunction(source)
    },
    catch: (error) =>
      new InvalidArgument({ message: `function: ${(error as Error).message}`, hint: 'Pass a complete function expression, e.g. "() => document.title".' })
  })

export const evalRenderer = defineTool({
  name: "electron_eval_renderer",
  description:
    'Run a function in the active window\'s page and return its JSON result, e.g. "() => localStorage.length" or "(arg) => …" with arg. Awaits promises.',
  type: "eval",
  evalTarget: "renderer",
  errors: ["APP_NOT_RUNNING", "WINDOW_NOT_FOUND", "OPERATION_FAILED"],
  input: Schema.Struct({ function: FunctionSource, arg: Schema.optional(Schema.Unknown) }),
  handler: (input) =>
    Effect.gen(function* () {
      yield* checkFunction(input.function)
      const call = yield* callHandle
      const entry = yield* call.surface()
      const fn = yield* parseFunction(input.function)
      // A page's own dialog ends the call through the pipeline (DIALOG_OPEN); a native one it awaits over IPC, here.
      const value = yield* call.untilNativeDialog("function", call.evaluate(entry, "evaluate in the page", fn, input.arg))
      return answer(render(value), { window: entry.id, value: structuredValue(value) })
    })
})

export const evalMain = defineTool({
  name: "electron_eval_main",
  description:
    "Run a function in the Electron main process as (electron, arg) => …, e.g. \"({ app }) => app.getPath('userData')\"; returns its JSON result. Awaits promises.",
  type: "eval",
  evalTarget: "main",
  errors: ["APP_NOT_RUNNING", "NEEDS_MAIN_PROCESS", "OPERATION_FAILED", "DIALOG_OPEN"],
  input: Schema.Struct({ function: FunctionSource, arg: Schema.optional(Schema.Unknown) }),
  handler: (input) =>
    Effect.gen(function* () {
      yield* checkFunction(input.function)
      yield* parseFunction(input.function)
      const call = yield* callHandle
      const value = yield* call.untilNativeDialog("function", call.evaluateMain("evaluate in the main process", input.function, input.arg))
      return answer(render(value), { value: structuredValue(value) })
    })
})

export const evalTools = [evalRenderer, evalMain]
