/**
 * The modal room's two checks on page calls (./modal-room.ts holds the states): the one gate that refuses a page an
 * unanswered web dialog blocks, and the one race of a playwright-core call against web dialogs (a dialog the call's
 * own action opened is its result, claimed in `ModalClaims`; any other one blocks the call).
 */
import { Effect, FiberRef } from "effect"
import { globalValue } from "effect/GlobalValue"
import { dialogOpen, type DialogOpen, type PlaywrightError } from "./errors.js"
import type { ModalRoom } from "./modal-room.js"
import type { PendingDialog } from "./session-types.js"
import type { Surface } from "./surface.js"

/**
 * The web dialogs the running call's own action opened and reports in its result (`raceModal` adds
 * them): a dialog not in this set that opens during the call blocks it, and ends it with DIALOG_OPEN.
 */
export const ModalClaims = globalValue("stagewright/ModalClaims", () => FiberRef.unsafeMake<Set<PendingDialog> | undefined>(undefined))

/**
 * The one gate every page-touching call passes (through `window()`): a page with an unanswered web
 * dialog runs no script, so any call on it would hang until its timeout. Fail at once instead.
 */
export const modalGate = (
  pending: ReadonlyArray<PendingDialog>,
  windowOf: (entry: Surface) => string | undefined,
  entry: Surface
): Effect.Effect<Surface, DialogOpen> => {
  // A dialog blocks its page, and so every frame of it.
  const page = windowOf(entry)
  const blocking = pending.find((d) => d.window === page)
  return blocking === undefined ? Effect.succeed(entry) : Effect.fail(dialogOpen(blocking))
}

type Run = <A>(what: string, f: () => Promise<A>) => Effect.Effect<A, PlaywrightError>

/**
 * The one race of a playwright-core call against web dialogs: a dialog that opens ends the wait (the
 * call is blocked until it is answered), is claimed as the call's own, and is returned; otherwise
 * undefined when the call succeeded. Without a session (`room` undefined) the call just runs.
 */
export const raceModal = (
  run: Run,
  room: ModalRoom | undefined,
  what: string,
  f: () => Promise<unknown>
): Effect.Effect<PendingDialog | undefined, PlaywrightError> =>
  room === undefined
    ? Effect.as(run(what, f), undefined)
    : Effect.flatMap(FiberRef.get(ModalClaims), (claims) =>
        run(
          what,
          () =>
            new Promise<PendingDialog | undefined>((resolve, reject) => {
              const off = room.onModal((dialog) => {
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
