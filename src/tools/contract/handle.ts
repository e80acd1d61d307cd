/**
 * The handle a tool call is given (the pipeline, src/tools/pipeline/guard.ts, provides it as `Call`: one per tool,
 * made on its first call, as it holds no state of a call;
 * outside the pipeline `callHandle` makes one): the surface the call acts on, the modal states open in
 * the app, a target resolved in one place (a modal control's ref `d3`, or a page ref / selector of the
 * surface), an action performed without outliving the call (answering a modal state when its target is
 * one), page evaluation, a DevTools session, the step record, and the answer (modal rows first). A tool
 * asks for the handle, not for the driver's page-level services one by one; core and plugin tools alike.
 */
import { Context, Effect, Exit, Option } from "effect"
import type { CDPSession, Locator } from "playwright-core"
import type { ServerConfig } from "../../layers/config/ServerConfig.js"
import {
  AppLifecycle,
  Dialogs,
  MainProcess,
  MODAL_REF,
  PageOps,
  Snapshots,
  Windows,
  type AppSession,
  type DialogsShape,
  type DriverServices,
  type MainProcessShape,
  type SnapshotsShape,
  type WindowsShape,
  type ModalControl,
  type ModalState,
  type PageFunction,
  type PageOpsShape,
  type PendingDialog,
  type RecordedStep,
  type SessionError,
  type Surface
} from "../../layers/driver/ElectronDriver.js"
import type { ProfileSelector } from "../../profile/ProfileSelector.js"
import { isPasswordField, markIfPasswordField, markSecret, redactInCode } from "../policy/call-secrets.js"
import { changeSummary, summarizes } from "../snapshot/change-summary.js"
import { dialogResult } from "../modal/dialogs.js"
import { InvalidArgument, RefStale, type DialogOpen, type NotInteractable, type PlaywrightError, type ToolError, type WindowNotFound } from "./errors.js"
import { answerModal, type ModalIntent } from "../modal/modal-answer.js"
import { inputRefused, modalFacts, modalRowsText } from "../modal/modal-rows.js"
import { untilNativeDialog } from "../modal/native-held.js"
import { stepCode } from "./step-code.js"
import type { ToolResult } from "./Tool.js"
import { amended, answer } from "./respond.js"

export interface ActOptions {
  readonly target: string
  readonly describe: string
  readonly step: (code: string) => string
  /** The action's own timeoutMs (0: none); Playwright is given the smaller of it and what is left of the call. */
  readonly timeoutMs: number
  /**
   * How it waits for its element without acting (the driver's runAction): "trial" repeats the action with
   * `trial: true` (pointer actions), "attached" waits for the element (keys), "repeat" repeats the action
   * itself (all-or-nothing ones: fill, selectOption, setInputFiles).
   */
  readonly wait: "trial" | "attached" | "repeat"
  /** Whether the action is tried at once before any probe (default true; a drag that pressed the mouse must not be repeated). */
  readonly tryFirst?: boolean
  readonly perform: (locator: Locator, entry: Surface, options: { readonly timeout: number; readonly trial?: boolean }) => Promise<unknown>
  /** The text the action types, if any: secret in the call's record when the target is a password field (./call-secrets.ts). */
  readonly typed?: string
  /** Whether `typed` is redacted from the recorded step in a password field (default true; a key name such as Enter is not). */
  readonly typedInStep?: boolean
  /** The target was told no password field just before (the plain-field count excludes them): the step's check is skipped. */
  readonly notPassword?: boolean
  /** What the action means on a modal control (a dialog's button or text box, a menu item); without it a modal ref is refused. */
  readonly modal?: ModalIntent
}

/** The modal states open now, and what the main process answered on its own since the last read. */
export interface ModalView {
  readonly states: ReadonlyArray<ModalState>
  readonly told: ReadonlyArray<string>
}

/** A step for test export, as a handler records it: the tool's name is the call's. */
export type StepRecord = Omit<RecordedStep, "tool">

export interface CallHandle {
  /** The name of the tool the call runs, as its defineTool wrote it (the pipeline's; "" outside one). */
  readonly tool: string
  /**
   * The surface the call acts on: `id`, or the active one. Gated (the default), a page an open web
   * dialog blocks is refused at once with DIALOG_OPEN; `gated: false` returns it anyway (to show its dialog).
   * `input: true` (a tool that clicks or types as a user): a window that takes no input (its modal window is open,
   * or the app disabled it) is refused at once with NOT_INTERACTABLE, as a user's input would not reach it.
   */
  readonly surface: (
    id?: string,
    options?: { readonly gated?: boolean; readonly input?: boolean }
  ) => Effect.Effect<Surface, SessionError | WindowNotFound | DialogOpen | NotInteractable>
  /** The open modal states (read now: the main process once, bounded). */
  readonly modals: Effect.Effect<ModalView>
  /**
   * Runs `evaluation` (code of the app's that the call awaits: an eval, an IPC invoke), ended with DIALOG_OPEN and the
   * dialog's rows when a native dialog it opens is held meanwhile (../modal/native-held.ts); `who` names the code.
   */
  readonly untilNativeDialog: <A, E, R>(who: "function" | "handler", evaluation: Effect.Effect<A, E, R>) => Effect.Effect<A, E | DialogOpen, R>
  /** The open modal state and control a modal ref names; undefined for a target that is not a modal ref; REF_STALE for one no longer open. */
  readonly modalTarget: (target: string) => Effect.Effect<{ readonly state: ModalState; readonly control: ModalControl } | undefined, RefStale>
  /** Answers a modal state (`control` undefined: a key pressed on it). */
  readonly answerModal: (state: ModalState, control: ModalControl | undefined, intent: ModalIntent) => Effect.Effect<ToolResult, ToolError>
  /** Resolves a page target (a ref of the surface's latest snapshot, or a selector) to a Locator. */
  readonly locate: (entry: Surface, target: string) => Effect.Effect<Locator, RefStale | InvalidArgument>
  /** Performs an action on a target (a modal control's ref answers it), records the step, answers with what changed. */
  readonly act: (options: ActOptions) => Effect.Effect<ToolResult, ToolError>
  /** Performs an element action without leaving it in flight (the driver's runAction); a web dialog it opens is returned. */
  readonly runAction: PageOpsShape["runAction"]
  /** Runs a playwright-core call that may open a web dialog (the modal room's race): the dialog is returned. */
  readonly race: (what: string, f: () => Promise<unknown>) => Effect.Effect<PendingDialog | undefined, PlaywrightError>
  /** Waits with playwright-core in slices of at most a second until an attempt succeeds or `timeoutMs` passes. */
  readonly waitSliced: PageOpsShape["waitSliced"]
  /** Runs a playwright-core call within the call's bounds. */
  readonly run: <A>(what: string, f: () => Promise<A>) => Effect.Effect<A, PlaywrightError>
  /** Evaluates a page function in a surface. */
  readonly evaluate: <R, A = undefined>(entry: Surface, what: string, fn: PageFunction<A, R>, arg?: A) => Effect.Effect<R, PlaywrightError>
  /** Runs `use` with a DevTools session of a surface's page, detached after. */
  readonly cdp: <A>(entry: Surface, what: string, use: (cdp: CDPSession) => Promise<A>) => Effect.Effect<A, PlaywrightError | SessionError>
  /** Records a step for test export. */
  readonly record: (step: StepRecord) => Effect.Effect<void>
  /**
   * The answer of an action as the agent reads it: the open modal states' rows first (nothing added while
   * none is open), read after the IPC invokes the action started have settled or opened a dialog (by event, 1 s at most);
   * `changesOf`: what the action changed in that surface's page, read after that wait (the replies of the
   * action's IPC are the page's to run first), at the end of the text.
   */
  readonly answer: (result: ToolResult, options?: { readonly changesOf?: Surface }) => Effect.Effect<ToolResult>

  // The app and its surfaces
  /** The running app session (APP_NOT_RUNNING when none is). */
  readonly session: Effect.Effect<AppSession, SessionError>
  /** The selected session, running or ended, or undefined when none was launched or attached. */
  readonly current: Effect.Effect<AppSession | undefined>
  /**
   * Every open surface. Gated (the default): the windows, refused at once with DIALOG_OPEN when a web
   * dialog blocks one of them; `gated: false`: every surface (windows, views, guests, frames), parents first.
   */
  readonly surfaces: (options?: { readonly gated?: boolean }) => Effect.Effect<ReadonlyArray<Surface>, SessionError | DialogOpen>
  /** The surface a selector (id, index, title, url) finds. */
  readonly findSurface: WindowsShape["findWindow"]
  /** Makes the surface a selector finds the active one. */
  readonly selectSurface: WindowsShape["selectWindow"]
  /** Waits for a window whose title / URL contain the text (one open counts), or the next new one. */
  readonly waitForSurface: WindowsShape["waitForWindow"]
  /** What a surface is (title, URL, its BrowserWindow's state). */
  readonly surfaceInfo: WindowsShape["windowInfo"]
  /** A surface's title, "(not responding)" after `ms`. */
  readonly title: WindowsShape["title"]

  // The page
  /** The surface's accessibility snapshot (refs recorded for locate). */
  readonly snapshot: SnapshotsShape["snapshot"]
  /** Marks a snapshot text as shown to the agent (what later answers' changes are relative to). */
  readonly markShown: SnapshotsShape["markShown"]
  /** Forgets the surface's snapshot (its refs go stale: the page was replaced). */
  readonly forgetSnapshot: SnapshotsShape["forgetSnapshot"]
  /** How many elements a Locator matches. */
  readonly count: PageOpsShape["count"]
  /** Repeats a check until it passes or `timeoutMs` passes. */
  readonly poll: PageOpsShape["poll"]

  // The main process
  /** Evaluates a function in the app's main process (NEEDS_MAIN_PROCESS when it cannot be reached). */
  readonly evaluateMain: MainProcessShape["evaluateMain"]
  /** Evaluates a function on a surface's BrowserWindow in the main process. */
  readonly evaluateWindow: MainProcessShape["evaluateWindow"]
  /** Pulls the main process's uncaught errors into the session's console record. */
  readonly pullMainErrors: MainProcessShape["pullMainErrors"]

  // Web dialogs (electron_web_dialog's policy verbs; a modal ref is answered through act / answerModal)
  /** Sets (or clears) the standing web-dialog policy. */
  readonly setDialogPolicy: DialogsShape["setDialogPolicy"]
  /** The oldest pending web dialog, taken off the room. */
  readonly takeDialog: DialogsShape["takeDialog"]
  /** Answers a pending web dialog. */
  readonly answerDialog: DialogsShape["answerDialog"]
}

/** The handle the pipeline provides to each call (a tool's calls share it: it holds none of their state). */
export class Call extends Context.Tag("stagewright/Call")<Call, CallHandle>() {}

export type HandleServices = DriverServices | ServerConfig | ProfileSelector

/** Makes the handle of the calls of the tool named `tool` over the driver's services (the pipeline makes one per tool; it must keep no call's state). */
export const makeHandle = (tool: string): Effect.Effect<CallHandle, never, HandleServices> =>
  Effect.gen(function* () {
    const context = yield* Effect.context<HandleServices>()
    const lifecycle = yield* AppLifecycle
    const windows = yield* Windows
    const snapshots = yield* Snapshots
    const pages = yield* PageOps
    const dialogs = yield* Dialogs
    const main = yield* MainProcess

    // A user's input does not reach a window its modal window disables (or the app did): refused as it would not land.
    const takesInput = (entry: Surface) =>
      Effect.flatMap(dialogs.inputBlocked(entry), (blocked) =>
        blocked === undefined ? Effect.succeed(entry) : Effect.flatMap(lifecycle.session, (s) => Effect.fail(inputRefused(blocked, s.activeId)))
      )
    const surface: CallHandle["surface"] = (id, options) => {
      const found =
        options?.gated === false
          ? Effect.flatMap(lifecycle.session, (s) => ((id ?? s.activeId) === undefined ? windows.window(id) : windows.findWindow({ id: id ?? s.activeId! })))
          : windows.window(id)
      return options?.input === true ? Effect.flatMap(found, takesInput) : found
    }

    const modalTarget: CallHandle["modalTarget"] = (target) => {
      const ref = target.trim()
      if (!MODAL_REF.test(ref)) return Effect.succeed(undefined)
      return Effect.flatMap(dialogs.modalControl(ref), (found) =>
        found !== undefined
          ? Effect.succeed(found)
          : Effect.fail(
              new RefStale({
                message: `${ref} is not a control of an open dialog or menu (it was answered or closed)`,
                hint: "electron_snapshot shows what is open now."
              })
            )
      )
    }

    // After an action: the main process's read waits for the IPC invokes the action started (a native dialog they open is shown).
    const answerAfter: CallHandle["answer"] = (given, options) =>
      Effect.gen(function* () {
        const { states, told } = yield* dialogs.modalStatesAfterAction
        // No snapshot of the page (or its window closed): no summary to give, and no Effect run for it.
        const change =
          options?.changesOf === undefined || !summarizes(options.changesOf) ? "" : yield* changeSummary(options.changesOf).pipe(Effect.provide(context))
        const result = change === "" ? given : amended(given, { after: change })
        const rows = modalRowsText(states, told)
        if (rows === "") return result
        return amended(result, { before: `${rows}\n`, structured: { modals: modalFacts(states) } })
      })

    const perform = (options: ActOptions) =>
      Effect.gen(function* () {
        const entry = yield* surface(undefined, { input: true })
        const locator = yield* snapshots.locate(entry, options.target)
        const code = yield* stepCode(entry, options.target, locator)
        // A value typed into a password field without a placeholder never reaches the recorded step (the export).
        const typed = options.typedInStep === false ? undefined : options.typed
        const step = Effect.flatMap(
          typed === undefined || typed === "" || options.notPassword === true ? Effect.succeed(false) : isPasswordField(locator),
          (secret) =>
            lifecycle.recordStep({
              tool,
              window: entry.id,
              code: secret ? redactInCode(options.step(`window.${code}`), typed!) : options.step(`window.${code}`)
            })
        )
        const ready =
          options.wait === "trial"
            ? (slice: number) => options.perform(locator, entry, { timeout: slice, trial: true })
            : options.wait === "attached"
              ? (slice: number) => locator.waitFor({ state: "attached", timeout: slice })
              : undefined
        // An action that ran but could not be confirmed still happened: the exported test must replay it.
        const outcome = yield* pages
          .runAction({
            what: options.describe,
            timeoutMs: options.timeoutMs,
            ready,
            tryFirst: ready !== undefined && options.tryFirst !== false,
            perform: (timeout) => options.perform(locator, entry, { timeout })
          })
          .pipe(
            Effect.tapError((error) => (error._tag === "OperationFailed" && error.details?.["performed"] === true ? step : Effect.void)),
            Effect.onExit((exit) => {
              const typed = options.typed
              if (typed === undefined) return Effect.void
              // The trace's record checks after the action even so (one count, observed calls only).
              return Exit.isInterrupted(exit) ? markSecret(typed) : markIfPasswordField(locator, typed)
            })
          )
        yield* step
        if (outcome !== undefined) return yield* dialogResult(outcome, yield* dialogs.modalStates)
        return yield* answerAfter(
          answer(`${options.describe[0]!.toUpperCase()}${options.describe.slice(1)} done (${code}).`, { window: entry.id, locator: code }),
          { changesOf: entry }
        )
      })

    const act: CallHandle["act"] = (options) =>
      Effect.flatMap(modalTarget(options.target), (modal): Effect.Effect<ToolResult, ToolError, HandleServices> => {
        if (modal === undefined) return perform(options)
        if (options.modal === undefined) {
          return Effect.fail(
            new InvalidArgument({
              message: `${options.target} is a control of an open ${modal.state.kind}`,
              hint: "electron_click, electron_fill or electron_press_key answer it."
            })
          )
        }
        return answerModal(tool, modal.state, modal.control, options.modal)
      }).pipe(Effect.provide(context))

    return {
      tool,
      surface,
      modals: dialogs.modalStates,
      untilNativeDialog: (who, evaluation) => untilNativeDialog({ current: lifecycle.current, modals: dialogs.modalStates }, who, evaluation),
      modalTarget,
      answerModal: (state, control, intent) => answerModal(tool, state, control, intent).pipe(Effect.provide(context)),
      locate: snapshots.locate,
      act,
      runAction: pages.runAction,
      race: dialogs.raceModal,
      waitSliced: pages.waitSliced,
      run: pages.run,
      evaluate: pages.evaluate,
      cdp: pages.withCdp,
      record: (step) => lifecycle.recordStep({ tool, ...step }),
      answer: answerAfter,
      session: lifecycle.session,
      current: lifecycle.current,
      surfaces: (options) => (options?.gated === false ? windows.surfaces : windows.every),
      findSurface: windows.findWindow,
      selectSurface: windows.selectWindow,
      waitForSurface: windows.waitForWindow,
      surfaceInfo: windows.windowInfo,
      title: windows.title,
      snapshot: snapshots.snapshot,
      markShown: snapshots.markShown,
      forgetSnapshot: snapshots.forgetSnapshot,
      count: pages.count,
      poll: pages.poll,
      evaluateMain: main.evaluateMain,
      evaluateWindow: main.evaluateWindow,
      pullMainErrors: main.pullMainErrors,
      setDialogPolicy: dialogs.setDialogPolicy,
      takeDialog: dialogs.takeDialog,
      answerDialog: dialogs.answerDialog
    }
  })

/** The call's handle: the pipeline's, or (a handler run on its own, in a unit test) a new one of no tool. */
export const callHandle: Effect.Effect<CallHandle, never, HandleServices> = Effect.withFiberRuntime((fiber) => {
  const given = Context.getOption(fiber.currentContext, Call)
  return Option.isSome(given) ? Effect.succeed(given.value) : makeHandle("")
})
