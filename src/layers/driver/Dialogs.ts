/**
 * Dialogs: the app's web dialogs (alert, confirm, prompt, beforeunload): prepared answers to them (standing
 * by type, or one-shot), the queue of pending ones, answering one (recorded in the session's history), a subscription to each that opens, and running a playwright-core call that may
 * open one (the dialog ends the wait and is the call's result, claimed as its own: call-context.ts).
 */
import { Context, Effect, FiberRef, Layer } from "effect"
import { DialogClaims } from "./call-context.js"
import type { PlaywrightError } from "./errors.js"
import type { DialogPolicy, PendingDialog } from "./session.js"
import { SessionStore } from "./SessionStore.js"
import type { SessionError } from "./shape.js"
import { testDouble } from "./test-double.js"

export interface DialogsShape {
  /** Prepares an answer to web dialogs (standing by type, or one-shot: session.ts's DialogPolicy); undefined clears them all. */
  readonly setDialogPolicy: (policy: DialogPolicy | undefined) => Effect.Effect<void, SessionError>
  /** Answers a pending dialog (one taken with takeDialog) and records the answer in the session's dialog history. */
  readonly answerDialog: (dialog: PendingDialog, action: "accept" | "dismiss", promptText?: string) => Effect.Effect<void, PlaywrightError | SessionError>
  /** Calls `listener` with each web dialog that opens in the current app from now on; returns the unsubscribe (without an app, nothing). */
  readonly onDialog: (listener: (dialog: PendingDialog) => void) => Effect.Effect<() => void>
  /**
   * Runs a playwright-core call that may open a web dialog: a dialog that opens ends the wait (the call
   * is blocked until it is answered) and is returned; otherwise undefined when the call succeeded.
   */
  readonly runUntilDialog: (what: string, f: () => Promise<unknown>) => Effect.Effect<PendingDialog | undefined, PlaywrightError>
  /** Takes the oldest pending web dialog off the queue. */
  readonly takeDialog: Effect.Effect<PendingDialog | undefined, SessionError>
}

/** The one way a call waits for a dialog or its own end (used by Dialogs and by PageOps' actions). */
export const makeRunUntilDialog = (store: typeof SessionStore.Service): DialogsShape["runUntilDialog"] => (what, f) =>
  Effect.flatMap(Effect.zip(store.current, FiberRef.get(DialogClaims)), ([s, claims]) =>
    s === undefined
      ? Effect.as(store.run(what, f), undefined)
      : store.run(
          what,
          () =>
            new Promise<PendingDialog | undefined>((resolve, reject) => {
              const off = s.onDialog((dialog) => {
                off()
                claims?.add(dialog)
                resolve(dialog)
              })
              f().then(
                () => {
                  off()
                  resolve(undefined)
                },
                (error) => {
                  off()
                  reject(error)
                }
              )
            })
        )
  )

const make = Effect.map(SessionStore, (store) =>
  Dialogs.of({
    setDialogPolicy: (policy) => store.serialized(Effect.flatMap(store.session, (s) => Effect.sync(() => s.setDialogPolicy(policy)))),
    onDialog: (listener) => Effect.map(store.current, (s) => (s === undefined ? () => undefined : s.onDialog(listener))),
    runUntilDialog: makeRunUntilDialog(store),
    answerDialog: (dialog, action, promptText) =>
      Effect.flatMap(store.session, (s) =>
        store.run(`${action} the ${dialog.type}`, () => (action === "accept" ? dialog.dialog.accept(promptText) : dialog.dialog.dismiss())).pipe(
          Effect.tap(() => Effect.sync(() => s.noteDialogAnswer(dialog, action)))
        )
      ),
    takeDialog: store.serialized(Effect.flatMap(store.session, (s) => Effect.sync(() => s.takeDialog())))
  })
)

export class Dialogs extends Context.Tag("stagewright/Dialogs")<Dialogs, DialogsShape>() {
  static readonly layer = Layer.effect(Dialogs, make)
  /** A double answering the given operations (any other one is a defect naming it). */
  static readonly layerTest = (given: Partial<DialogsShape>) => Layer.succeed(Dialogs, testDouble("Dialogs", given, ["takeDialog"]))
}
