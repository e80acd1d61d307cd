/**
 * The windows' fake clock: playwright-core's clock of the app's browser context (`context.clock`), which
 * installs in every open page and, through an init script, in every page opened later (new windows,
 * reloads). playwright-core does not say whether it is paused or fixed, nor can it remove its clock:
 * this session remembers what was asked, and "uninstall" sets the clock back to the real time and lets it
 * run (the fake stays in the pages, following real time, until the app restarts).
 */
import { Effect } from "effect"
import { sessionLocal } from "../../layers/driver/ElectronDriver.js"
import type { MainClockAction } from "./main-clock.js"
import { callHandle } from "../../tools/contract/handle.js"

export interface RendererClock {
  installed: boolean
  paused: boolean
  fixed: boolean
}

const rendererState = sessionLocal<RendererClock>("clock/renderer", () => ({ installed: false, paused: false, fixed: false }))

export interface RendererCommand {
  readonly action: MainClockAction
  readonly time?: number
  readonly by?: number
  readonly fixed?: boolean
}

/** What the session remembers of the windows' clock. */
export const rendererClock = Effect.map(
  Effect.flatMap(callHandle, (call) => call.session),
  (session) => rendererState.of(session)
)

/** Applies a command to the windows' clock (already checked: installed unless install or status). */
export const applyRenderer = (command: RendererCommand) =>
  Effect.gen(function* () {
    const call = yield* callHandle
    const session = yield* call.session
    const state = rendererState.of(session)
    const clock = session.context.clock
    switch (command.action) {
      case "install":
        yield* call.run("install the windows' clock", () => clock.install(command.time !== undefined ? { time: command.time } : {}))
        Object.assign(state, { installed: true, fixed: false })
        break
      case "set":
        yield* call.run("set the windows' time", () => (command.fixed === true ? clock.setFixedTime(command.time!) : clock.setSystemTime(command.time!)))
        state.fixed = command.fixed === true
        break
      case "advance":
        yield* call.run("advance the windows' clock", () => clock.fastForward(command.by!))
        break
      case "run":
        yield* call.run("run the windows' clock", () => clock.runFor(command.by!))
        break
      case "pause":
        yield* call.run("pause the windows' clock", () => clock.pauseAt(command.time!))
        state.paused = true
        break
      case "resume":
        yield* call.run("resume the windows' clock", () => clock.resume())
        state.paused = false
        break
      case "uninstall":
        yield* call.run("give the windows the real time", async () => {
          await clock.setSystemTime(Date.now())
          await clock.resume()
        })
        Object.assign(state, { installed: false, paused: false, fixed: false })
        break
      case "status":
        break
    }
    return state
  })

export interface WindowTime {
  readonly window: string
  /** Epoch ms the page's Date reports. */
  readonly now: number
  /** The page's Date is playwright-core's fake. */
  readonly faked: boolean
}

/** The time each open window's page reports now. */
export const windowTimes = Effect.gen(function* () {
  const call = yield* callHandle
  return yield* Effect.forEach(
    yield* (yield* callHandle).surfaces(),
    (w) =>
      call
        .evaluate(w, "read the page's time", () => ({ now: Date.now(), faked: (Date as unknown as { isFake?: boolean }).isFake === true }))
        .pipe(Effect.map((t): WindowTime => ({ window: w.id, ...t }))),
    { concurrency: "unbounded" }
  )
})
