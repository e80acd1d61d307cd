/**
 * The stages every tool call runs through inside the Dispatcher's bound (src/server/Dispatcher.ts), the
 * same for core, eval, plugin and third-party tools, from what each tool declares (Tool.ts):
 *
 * 1. the call is given its handle (`Call`, ./handle.ts): its surface, the modal states, locate/act/evaluate/CDP/answer;
 * 2. its file arguments (`files`) are confined to --app-root before anything runs;
 * 3. a page-touching tool (`touchesPage`, the default) is held to the modal room's web dialogs
 *    (src/layers/driver/modal-room.ts): the driver's `window()` refuses a page a dialog already blocks, and
 *    a dialog that opens during the call, unless the call's own action reported it as its result (the
 *    room's race claims it), ends the call at once with DIALOG_OPEN;
 * 4. DIALOG_OPEN says how to answer the dialog in this server's profile;
 * 5. ELEMENT_NOT_FOUND says what is near each of its element targets (`targets`) that matches nothing;
 * 6. a page-touching answer (debug tools aside) tells the console and page errors new since the last one (./new-errors.ts),
 *    and the windows opened or closed since then (./new-windows.ts).
 */
import { Context, Effect, type Fiber, FiberRef, Queue } from "effect"
import { ModalClaims, AppLifecycle, Dialogs, type PendingDialog, type DriverServices } from "../../layers/driver/ElectronDriver.js"
import { dialogOpen } from "../../layers/driver/errors.js"
import type { ServerConfig } from "../../layers/config/ServerConfig.js"
import { ProfileSelector } from "../../profile/ProfileSelector.js"
import { CurrentCall, type CallControl } from "../contract/call-bounds.js"
import { confine } from "../policy/confine.js"
import { answerAdvice } from "../modal/dialogs.js"
import type { DialogOpen, ToolError } from "../contract/errors.js"
import { Call, makeHandle, type CallHandle, type HandleServices } from "../contract/handle.js"
import { explainNoMatch } from "./nearby.js"
import { failureWithNewErrors, resultWithNewErrors, withNewErrors } from "./new-errors.js"
import { resultWithNewWindows } from "./new-windows.js"
import { argumentsAt } from "../contract/tool-args.js"
import { targetPaths, touchesPage, type Tool, type ToolResult } from "../contract/Tool.js"

/**
 * Outside a bound's own fiber (a handler run on its own, or a pipeline run in a fiber a call forked): `handled` is
 * raced against the next web dialog it did not claim; such a dialog fails it with DIALOG_OPEN and interrupts it (a
 * Playwright call blocked by the dialog is abandoned; the driver's actions leave none in flight). In the bound's
 * fiber the same is a dialog listener that ends the call through `CurrentCall` (`stagesOf`): no fiber, queue or race.
 */
const raceModals = <A, E, R>(handled: Effect.Effect<A, E, R>): Effect.Effect<A, E | DialogOpen, R | DriverServices | ProfileSelector> =>
  Effect.gen(function* () {
    const lifecycle = yield* AppLifecycle
    const dialogs = yield* Dialogs
    const session = yield* lifecycle.current
    if (session === undefined || session.exit !== undefined) return yield* handled
    const claims = new Set<PendingDialog>()
    const opened = yield* Queue.unbounded<PendingDialog>()
    // The claim is made in the same dialog event, before this side resumes: it reads a settled set.
    const unclaimed = Queue.take(opened).pipe(Effect.repeat({ until: (dialog) => !claims.has(dialog) }))
    const blocked = Effect.flatMap(unclaimed, (dialog) => Effect.flatMap(answerAdvice, (hint) => Effect.fail(dialogOpen(dialog, hint))))
    return yield* Effect.acquireUseRelease(
      dialogs.onModal((dialog) => Queue.unsafeOffer(opened, dialog)),
      () => Effect.raceFirst(Effect.locally(handled, ModalClaims, claims), blocked),
      (off) => Effect.sync(off)
    )
  })

/** The dialogs a page opens (their answer depends on the profile: answerAdvice); a native one's DIALOG_OPEN keeps its own hint. */
const WEB_DIALOGS: ReadonlySet<string> = new Set(["alert", "confirm", "prompt", "beforeunload"])

type Staged<R> = Effect.Effect<ToolResult, ToolError, Exclude<R, Call> | DriverServices | ServerConfig | ProfileSelector>

/**
 * A tool's pipeline, built once (the Dispatcher keeps one per tool): only the stages that apply to it, chosen
 * from what it declares, not checked on each call: confinement only for a tool with file arguments, the
 * dialog stage and new errors only for a page-touching one (debug tools tell no new errors).
 */
export const stagesOf = <R>(tool: Tool<any, R>): ((input: unknown) => Staged<R>) => {
  const fileArgs = tool.files
  const page = touchesPage(tool)
  const tellsErrors = page && tool.type !== "debug"
  const targets = targetPaths(tool)
  // The handle is made on the first call and kept: a pipeline serves one server, whose services do not change.
  let made: CallHandle | undefined
  const handleOf = Effect.suspend(() => (made !== undefined ? Effect.succeed(made) : Effect.tap(makeHandle(tool.name), (handle) => void (made = handle))))
  const confinedOf = (input: unknown) => {
    const files = fileArgs === undefined ? [] : argumentsAt(input, fileArgs)
    return files.length === 0 ? tool.handler(input) : Effect.zipRight(confine(files.map((f) => [f.value, f.name] as const)), tool.handler(input))
  }
  // What DIALOG_OPEN and ELEMENT_NOT_FOUND say (the handler's own failures; a dialog the listener saw ends the call with its advice).
  const explained = (error: ToolError, input: unknown): Effect.Effect<never, ToolError, HandleServices> =>
    error._tag === "DialogOpen" && WEB_DIALOGS.has(error.dialog)
      ? Effect.flatMap(answerAdvice, (hint) => Effect.fail(dialogOpen(error, hint)))
      : error._tag === "ElementNotFound"
        ? explainNoMatch(error, argumentsAt(input, targets))
        : Effect.fail(error)

  // Outside a bound's own fiber: the same stages composed around the handler, the handle provided to it.
  const composed = (input: unknown): Staged<R> => {
    const handled = Effect.flatMap(handleOf, (handle) => Effect.provideService(confinedOf(input), Call, handle))
    const told = tellsErrors
      ? Effect.flatMap(withNewErrors(handled), (result) =>
          Effect.flatMap(AppLifecycle, (lifecycle) => Effect.flatMap(lifecycle.current, (s) => resultWithNewWindows(s, result)))
        )
      : handled
    return Effect.catchAll(page ? raceModals(told) : told, (error) => explained(error, input)) as Staged<R>
  }

  // In the bound's own fiber (call-bounds.ts), the usual call: the stages set up in one step of that fiber (the handle
  // added to the services it already has, the dialog listener removed when the fiber ends), the answer and its
  // failures shaped in one.
  let withCall: { readonly base: Context.Context<never>; readonly context: Context.Context<never> } | undefined
  const callContext = (base: Context.Context<never>, handle: CallHandle) => {
    if (withCall === undefined || withCall.base !== base) withCall = { base, context: Context.add(base, Call, handle) }
    return withCall.context
  }
  const answered = (input: unknown, handle: CallHandle) =>
    Effect.matchEffect(confinedOf(input), {
      onFailure: (error) =>
        tellsErrors && error._tag === "AssertionFailed" ? Effect.flatMap(handle.current, (s) => failureWithNewErrors(s, error)) : explained(error, input),
      onSuccess: (result) =>
        tellsErrors
          ? Effect.flatMap(handle.current, (s) => Effect.flatMap(resultWithNewErrors(s, result), (told) => resultWithNewWindows(s, told)))
          : Effect.succeed(result)
    })
  const inBound = (input: unknown, fiber: Fiber.RuntimeFiber<ToolResult, ToolError>, control: CallControl, handle: CallHandle) => {
    const base = fiber.getFiberRef(FiberRef.currentContext)
    const inCall = FiberRef.set(FiberRef.currentContext, callContext(base, handle))
    if (!page) return Effect.zipRight(inCall, answered(input, handle))
    return Effect.flatMap(handle.current, (session) => {
      if (session === undefined || session.exit !== undefined) return Effect.zipRight(inCall, answered(input, handle))
      const claims = new Set<PendingDialog>()
      const profile = Context.get(base as Context.Context<ProfileSelector>, ProfileSelector)
      // A late listener: it runs after the action's race has claimed its own dialog.
      const off = session.modals.onModal((dialog) => {
        if (!claims.has(dialog)) control.endWith(dialogOpen(dialog, Effect.runSync(Effect.provideService(answerAdvice, ProfileSelector, profile))))
      }, true)
      fiber.addObserver(off)
      return Effect.zipRight(Effect.zipRight(inCall, FiberRef.set(ModalClaims, claims)), answered(input, handle))
    })
  }

  return (input) =>
    Effect.withFiberRuntime<ToolResult, ToolError, R | HandleServices | ServerConfig>((fiber) => {
      const control = fiber.getFiberRef(CurrentCall)
      if (control === undefined || !control.ownedBy(fiber)) return composed(input)
      return made !== undefined ? inBound(input, fiber, control, made) : Effect.flatMap(handleOf, (handle) => inBound(input, fiber, control, handle))
    }) as Staged<R>
}

/** One tool call through the stages above (the Dispatcher bounds it and maps its outcome). */
export const runStages = <R>(tool: Tool<any, R>, input: unknown): Staged<R> => stagesOf(tool)(input)
