/**
 * Dialogs: the modal room's service (./modal-room.ts). Every modal state of the session in one list (web
 * dialogs, file choosers, native dialogs held in the main process, a popped-up menu), a ref for each of
 * their controls, and answering them; the web dialogs' prepared answers (standing by type, or one-shot),
 * their queue, answering one (recorded in the session's history), a subscription to each that opens, and
 * the one race of a playwright-core call against them (the dialog ends the wait and is the call's result).
 */
import { Context, Duration, Effect, Layer } from "effect"
import type { PlaywrightError } from "./errors.js"
import { closePopup, closeWindowById, QUIET_MS, readHeld, settleHeld } from "./main-modals.js"
import { READ_INSTALLED } from "./held-read.js"
import { raceModal } from "./modal-gate.js"
import type { ModalControl, ModalState, NativeRead } from "./modal-room.js"
import type { AppSession, DialogPolicy, PendingDialog } from "./session.js"
import type { Surface } from "./surface.js"
import { SessionStore } from "./SessionStore.js"
import type { MainError, MainValue, SessionError } from "./shape.js"
import { testDouble } from "./test-double.js"

export interface DialogsShape {
  /** Prepares an answer to web dialogs (standing by type, or one-shot: session.ts's DialogPolicy); undefined clears them all. */
  readonly setDialogPolicy: (policy: DialogPolicy | undefined) => Effect.Effect<void, SessionError>
  /** Answers a pending dialog (one taken with takeDialog, or a modal state's) and records the answer in the session's dialog history. */
  readonly answerDialog: (dialog: PendingDialog, action: "accept" | "dismiss", promptText?: string) => Effect.Effect<void, PlaywrightError | SessionError>
  /**
   * Calls `listener` with each web dialog that opens in the current app from now on; returns the unsubscribe
   * (without an app, nothing). A `late` listener is called after the others (a race's claim is made by then).
   */
  readonly onModal: (listener: (dialog: PendingDialog) => void, late?: boolean) => Effect.Effect<() => void>
  /**
   * Runs a playwright-core call that may open a web dialog: a dialog that opens ends the wait (the call
   * is blocked until it is answered) and is returned; otherwise undefined when the call succeeded.
   */
  readonly raceModal: (what: string, f: () => Promise<unknown>) => Effect.Effect<PendingDialog | undefined, PlaywrightError>
  /** Takes the oldest pending web dialog off the queue. */
  readonly takeDialog: Effect.Effect<PendingDialog | undefined, SessionError>
  /**
   * Every open modal state (the main process read once, bounded; without an app, none), and what the main
   * process answered on its own since the last read (told once).
   */
  readonly modalStates: Effect.Effect<{ readonly states: ReadonlyArray<ModalState>; readonly told: ReadonlyArray<string> }>
  /**
   * The open modal states after an action: the main process's read first waits (by event, QUIET_MS at most)
   * until the IPC invokes started since its previous read have settled or a dialog was asked for, so a native
   * dialog the action's IPC opens is in the action's answer.
   */
  readonly modalStatesAfterAction: Effect.Effect<{ readonly states: ReadonlyArray<ModalState>; readonly told: ReadonlyArray<string> }>
  /** The open state and control of a modal ref (`d3`), as last listed. */
  readonly modalControl: (ref: string) => Effect.Effect<{ readonly state: ModalState; readonly control: ModalControl } | undefined>
  /** Answers a held native dialog (false when it no longer waits); the state leaves the room. */
  readonly settleNative: (state: ModalState, answer: Record<string, unknown>) => Effect.Effect<boolean, MainError>
  /** Closes the popped-up menu; the state leaves the room. */
  readonly closeMenu: (state: ModalState) => Effect.Effect<void, MainError>
  /** A state answered by other means (a file chooser's files set, a menu item clicked) leaves the room. */
  readonly settled: (state: ModalState) => Effect.Effect<void>
  /**
   * Whether the window a surface is shown in takes no input now (a user's clicks and keys would not reach it): its
   * id, and the modal window state that disables it (none: the app disabled it). The main process is read only when
   * it said something changed. Undefined: input reaches it.
   */
  readonly inputBlocked: (entry: Surface) => Effect.Effect<{ readonly window: string; readonly by: ModalState | undefined } | undefined>
  /** Closes a modal window as its close button does (its close handlers may keep it); whether it closed within a second. */
  readonly closeWindow: (state: ModalState) => Effect.Effect<boolean, MainError>
}

/**
 * A main-process read of modal states never holds a call up for long: past this it is skipped. It is made
 * only when the room needs it (the main process said something changed, or something is held: ModalRoom's
 * nativeReadNeeded); a read that did not answer leaves the room stale, so the next answer reads again.
 */
const NATIVE_READ_MS = 2_000

/**
 * The most an action's answer waits for the session to register the page of a window the action made (or see the
 * page of one it closed go): paid only when the main process said such a window exists, and ended by the event.
 */
const WINDOW_PAGE_MS = 3_000

const READ_STATES = "read the modal states"

const make = Effect.map(SessionStore, (store) => {
  // The sessions whose main process lacks the installed read (its install failed): each read sends readHeld whole.
  const uninstalled = new WeakSet<AppSession>()
  // A read before an answer: after an action always (it waits for the IPC invokes the action started: they may open
  // a dialog after work of their own), otherwise only when the main process said something changed or something is
  // held (MODALS_CHANGED, ./main-modals.ts).
  const readNative = (afterAction: boolean) =>
    Effect.flatMap(store.current, (s) => {
      if (s === undefined || s.exit !== undefined || !s.hasMainProcess) return Effect.void
      if (!afterAction && !s.modals.nativeReadNeeded) return Effect.void
      // Before the first read the action's mark is the start: every invoke in flight counts (once, QUIET_MS at most).
      const after = afterAction ? { marks: s.modals.marks ?? { dialogs: 0, invokes: 0 }, ms: QUIET_MS } : undefined
      // After an action, over the driver's own line (./main-lane.ts). Any other read keeps playwright-core's connection:
      // one that races an evaluation on it (untilNativeDialog) must come back after that evaluation's answer when the
      // function returned before the dialog it opened was read (the main process answers in order on one connection).
      const readVia = afterAction ? store.readMain : store.evaluateIn
      return Effect.zipRight(
        Effect.sync(() => s.modals.nativeReading()),
        (uninstalled.has(s)
          ? readVia(s, READ_STATES, readHeld, after, NATIVE_READ_MS)
          : Effect.flatMap(readVia<NativeRead | null, typeof after>(s, READ_STATES, READ_INSTALLED, after, NATIVE_READ_MS), (found) => {
              if (found !== null) return Effect.succeed(found)
              uninstalled.add(s)
              return readVia(s, READ_STATES, readHeld, after, NATIVE_READ_MS)
            })
        ).pipe(
          Effect.tap((read: NativeRead) => Effect.sync(() => s.modals.nativeRead(read))),
          Effect.onExit((exit) => (exit._tag === "Success" ? Effect.void : Effect.sync(() => s.modals.nativeChanged()))),
          Effect.ignore
        )
      )
    })
  const statesAfter = (afterAction: boolean) =>
    Effect.zipRight(
      readNative(afterAction),
      Effect.flatMap(store.current, (s) =>
        s === undefined ? Effect.succeed({ states: [], told: [] }) : Effect.map(listed(s, afterAction), (states) => ({ states, told: s.modals.takeTold() }))
      )
    )
  // A modal window whose page is not registered yet, or (after an action) a window the action made whose page is not,
  // or one it closed whose page the session still has open.
  const pageOf = (s: AppSession, contents: number) => s.surfaces.some((surface) => surface.facts?.webContentsId === contents && !surface.closed)
  const pageless = (s: AppSession, states: ReadonlyArray<ModalState>) =>
    states.some((state) => "window" in state.origin && state.page === undefined && state.origin.window.by.contents !== undefined) ||
    s.modals.made.some((contents) => !pageOf(s, contents)) ||
    s.modals.gone.some((contents) => pageOf(s, contents))
  // A modal window shown over the active window takes the user's focus: its page becomes the active surface when it is
  // first listed. After an action, the pages of the windows it made (a modal one among them) are registered first, so
  // its answer can name them: by event, WINDOW_PAGE_MS at most.
  const listed = (s: AppSession, afterAction: boolean) =>
    Effect.gen(function* () {
      let states = s.modals.list(s.surfaces)
      if (afterAction && pageless(s, states)) {
        yield* Effect.async<void>((resume) => {
          // A page registered, or a closed window's page seen closing (after the session's own listener: it has moved on).
          const closing = s.surfaces.filter((surface) => s.modals.gone.includes(surface.facts?.webContentsId ?? -1)).map((surface) => surface.page)
          const check = () => {
            if (pageless(s, s.modals.list(s.surfaces))) return
            off()
            resume(Effect.void)
          }
          const offAdded = s.onWindowAdded(check)
          for (const page of closing) page.once("close", check)
          const off = () => {
            offAdded()
            for (const page of closing) page.off("close", check)
          }
          return Effect.sync(off)
        }).pipe(Effect.timeout(Duration.millis(WINDOW_PAGE_MS)), Effect.ignore)
        states = s.modals.list(s.surfaces)
      }
      for (const state of states) {
        if (!("window" in state.origin) || state.page === undefined) continue
        // The main process reports only a shown modal window: its page's facts (read when it registered, often before
        // its show) say so now, so the default active surface does not give way to a shown window.
        const page = s.surface(state.page)
        if (page?.facts !== undefined && page.facts.visible !== true) page.facts = { ...page.facts, visible: true }
        // Once, when it is first listed with its page: the agent may select its parent again afterwards (to read it).
        if (state.pageActive === undefined && s.activeId === state.surface) s.setActive(state.page)
        state.pageActive = s.activeId === state.page
      }
      return states
    })
  const windowOfSurface = (s: AppSession, entry: Surface): number | undefined => {
    const owner = entry.frame === undefined ? entry : (s.windowOf(entry.page) ?? entry)
    const facts = owner.kind === "guest" ? (s.surfaces.find((host) => host.facts?.webContentsId === owner.facts?.hostId)?.facts ?? owner.facts) : owner.facts
    return facts?.windowId
  }
  return Dialogs.of({
    setDialogPolicy: (policy) => store.serialized(Effect.flatMap(store.session, (s) => Effect.sync(() => s.setDialogPolicy(policy)))),
    onModal: (listener, late) => Effect.map(store.current, (s) => (s === undefined ? () => undefined : s.modals.onModal(listener, late))),
    raceModal: (what, f) => Effect.flatMap(store.current, (s) => raceModal(store.run, s?.modals, what, f)),
    answerDialog: (dialog, action, promptText) =>
      Effect.flatMap(store.session, (s) =>
        store
          .run(`${action} the ${dialog.type}`, () => (action === "accept" ? dialog.dialog.accept(promptText) : dialog.dialog.dismiss()))
          .pipe(Effect.tap(() => Effect.sync(() => s.noteDialogAnswer(dialog, action))))
      ),
    takeDialog: store.serialized(Effect.flatMap(store.session, (s) => Effect.sync(() => s.takeDialog()))),
    modalStates: statesAfter(false),
    modalStatesAfterAction: statesAfter(true),
    modalControl: (ref) => Effect.map(store.current, (s) => s?.modals.control(ref)),
    settleNative: (state, answer) =>
      Effect.flatMap(store.session, (s) => {
        const origin = state.origin
        if (!("native" in origin)) return Effect.succeed(false)
        return store
          .evaluateIn(s, "answer the native dialog", settleHeld, { id: origin.native.id, answer: answer as MainValue })
          .pipe(Effect.tap(() => Effect.sync(() => s.modals.settled(state))))
      }).pipe(Effect.catchTag("AppNotRunning", () => Effect.succeed(false))),
    closeMenu: (state) =>
      Effect.flatMap(store.session, (s) =>
        store.evaluateIn(s, "close the context menu", closePopup, undefined).pipe(Effect.tap(() => Effect.sync(() => s.modals.settled(state))))
      ).pipe(
        Effect.catchTag("AppNotRunning", () => Effect.void),
        Effect.asVoid
      ),
    settled: (state) => Effect.flatMap(store.current, (s) => Effect.sync(() => s?.modals.settled(state))),
    inputBlocked: (entry) =>
      Effect.zipRight(
        readNative(false),
        Effect.flatMap(store.current, (s) => {
          const blocked = s === undefined ? undefined : s.modals.blockedWindow(windowOfSurface(s, entry))
          if (s === undefined || blocked === undefined) return Effect.succeed(undefined)
          const window = entry.frame === undefined ? entry : (s.windowOf(entry.page) ?? entry)
          return Effect.map(listed(s, false), (states) => ({
            window: window.kind === "window" ? window.id : (window.parentId ?? window.id),
            by: states.find((state) => "window" in state.origin && state.origin.window.window === blocked.window)
          }))
        })
      ),
    closeWindow: (state) =>
      Effect.flatMap(store.session, (s) => {
        const origin = state.origin
        if (!("window" in origin)) return Effect.succeed(false)
        // Once closed, its page's close is awaited too (by event, bounded): the session has moved the active surface by then.
        const page = state.page === undefined ? undefined : s.surface(state.page)?.page
        const pageGone =
          page === undefined || page.isClosed()
            ? Effect.void
            : Effect.async<void>((resume) => {
                const closed = () => resume(Effect.void)
                page.once("close", closed)
                return Effect.sync(() => void page.off("close", closed))
              }).pipe(Effect.timeout(Duration.millis(WINDOW_PAGE_MS)), Effect.ignore)
        return store
          .evaluateIn(s, "close the modal window", closeWindowById, { id: origin.window.by.window, ms: QUIET_MS })
          .pipe(Effect.tap((closed) => (closed ? pageGone : Effect.void)))
      }).pipe(Effect.catchTag("AppNotRunning", () => Effect.succeed(true)))
  })
})

export class Dialogs extends Context.Tag("stagewright/Dialogs")<Dialogs, DialogsShape>() {
  static readonly layer = Layer.effect(Dialogs, make)
  /** A double answering the given operations (any other one is a defect naming it). */
  static readonly layerTest = (given: Partial<DialogsShape>) =>
    Layer.succeed(Dialogs, testDouble("Dialogs", given, ["takeDialog", "modalStates", "modalStatesAfterAction"]))
}
