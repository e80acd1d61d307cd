/**
 * Eval tools: run caller-supplied functions in the active window's page or in the main process.
 * Each declares its eval target; the Dispatcher lists and runs it only when `--allow-eval` allows it.
 */
import { Effect, Queue, Schema } from "effect"
import { boundDialogText, DialogOpen } from "../../layers/driver/errors.js"
import { toFunction, type ModalState } from "../../layers/driver/ElectronDriver.js"
import { modalRowsText } from "../modal/modal-rows.js"
import { InvalidArgument } from "../contract/errors.js"
import { defineTool } from "../contract/Tool.js"
import { callHandle, type CallHandle } from "../contract/handle.js"
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
      const value = yield* untilNativeDialog(call, call.evaluate(entry, "evaluate in the page", fn, input.arg))
      return answer(render(value), { window: entry.id, value: structuredValue(value) })
    })
})

/**
 * A native dialog the function opens and awaits (`await dialog.showMessageBox(…)` in the main process, or an IPC
 * invoke from the page whose handler awaits one) is held in the main process until
 * the agent answers it (src/layers/driver/main-modals.ts), so the evaluation would wait for the call's whole bound
 * and time out saying nothing of it. The call ends instead when such a dialog is held, with DIALOG_OPEN and the
 * dialog's rows, as a web dialog ends a page evaluation: answering it lets the function go on. The main process
 * says when its held dialogs change (MODALS_CHANGED); each change is checked once, none missed during a check.
 */
const nativeDialogHeld = (call: CallHandle, before: ReadonlySet<number>) =>
  Effect.flatMap(call.current, (session) =>
    session === undefined
      ? Effect.never
      : Effect.acquireUseRelease(
          Effect.flatMap(Queue.sliding<void>(1), (changed) =>
            Effect.sync(() => ({ changed, off: session.modals.onNativeChanged(() => Queue.unsafeOffer(changed, undefined)) }))
          ),
          ({ changed }) =>
            Queue.take(changed).pipe(
              Effect.zipRight(call.modals),
              Effect.map((view) => view.states.filter((state) => "native" in state.origin && !before.has(state.origin.native.id))),
              Effect.repeat({ until: (held) => held.length > 0 }),
              Effect.flatMap((held) => Effect.fail(nativeDialogOpen(held)))
            ),
          ({ off }) => Effect.sync(off)
        )
  )

/** `evaluation`, ended with DIALOG_OPEN when a native dialog not held before it is held while it runs. */
const untilNativeDialog = <A, E, R>(call: CallHandle, evaluation: Effect.Effect<A, E, R>) =>
  Effect.flatMap(call.modals, (view) => {
    const before = new Set(view.states.flatMap((state) => ("native" in state.origin ? [state.origin.native.id] : [])))
    return Effect.raceFirst(evaluation, nativeDialogHeld(call, before))
  })

const nativeDialogOpen = (held: ReadonlyArray<ModalState>) =>
  new DialogOpen({
    message: `The function opened a native ${held[0]!.kind} dialog, held in the main process until it is answered ("${boundDialogText(held[0]!.text)}"); the function waits for it:\n${modalRowsText(held)}`,
    hint: "Answer it with electron_click on one of its refs above (electron_snapshot lists it too); the function then goes on, and its result is not told.",
    window: held[0]!.surface ?? "the main process",
    dialog: held[0]!.kind,
    dialogMessage: boundDialogText(held[0]!.text)
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
      const value = yield* untilNativeDialog(call, call.evaluateMain("evaluate in the main process", input.function, input.arg))
      return answer(render(value), { value: structuredValue(value) })
    })
})

export const evalTools = [evalRenderer, evalMain]
