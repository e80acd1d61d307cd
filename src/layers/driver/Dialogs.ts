/**
 * Dialogs: the app's web dialogs (alert, confirm, prompt, beforeunload): a standing answer to them, the
 * queue of pending ones, a subscription to each that opens, and running a playwright-core call that may
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
  /** Sets (or clears) the standing answer to web dialogs. */
  readonly setDialogPolicy: (policy: DialogPolicy | undefined) => Effect.Effect<void, SessionError>
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
    takeDialog: store.serialized(Effect.flatMap(store.session, (s) => Effect.sync(() => s.takeDialog())))
  })
)

export class Dialogs extends Context.Tag("stagewright/Dialogs")<Dialogs, DialogsShape>() {
  static readonly layer = Layer.effect(Dialogs, make)
  /** A double answering the given operations (any other one is a defect naming it). */
  static readonly layerTest = (given: Partial<DialogsShape>) => Layer.succeed(Dialogs, testDouble("Dialogs", given, ["takeDialog"]))
}
