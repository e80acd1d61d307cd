/**
 * The clock plugin without an app: its time and duration parsing, and the main-process clock run in a
 * `vm` context standing for the main process (its globals are the context's, so the test process keeps its
 * own). The clock is paused in each case, so nothing depends on how fast this machine is.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { EventEmitter } from "node:events"
import vm from "node:vm"
import { defaultServerConfig, ServerConfig } from "../../src/layers/config/ServerConfig.js"
import { AppLifecycle, Dialogs, MainProcess, PageOps, Snapshots, Windows } from "../../src/layers/driver/ElectronDriver.js"
import { ProfileSelector } from "../../src/profile/ProfileSelector.js"
import { mainSource } from "../../src/layers/driver/selectors.js"
import { NeedsMainProcess } from "../../src/tools/contract/errors.js"
import { clockControl } from "../../src/plugins/clock/tool.js"
import { mainClock, type MainClockCommand, type MainClockState } from "../../src/plugins/clock/main-clock.js"
import { formatDuration, parseDuration, parseTime } from "../../src/plugins/clock/time.js"

const T = Date.parse("2030-01-15T12:00:00Z")

/** A main process of its own: a context with Node's timers, an `app` to quit, and what its code logged. */
const mainProcess = () => {
  const app = new EventEmitter()
  const thrown: Array<unknown> = []
  const log: Array<string> = []
  const context = vm.createContext({
    setTimeout,
    clearTimeout,
    setInterval,
    clearInterval,
    // What a callback throws is rethrown on setImmediate, as a real timer's would be: caught here.
    setImmediate: (fn: (...args: Array<unknown>) => void, ...args: Array<unknown>) =>
      setImmediate(() => {
        try {
          fn(...args)
        } catch (error) {
          thrown.push(error)
        }
      }),
    performance,
    Date,
    log
  })
  const fn = vm.runInContext(`(${mainSource(mainClock)})`, context) as (electron: unknown, command: MainClockCommand) => Promise<MainClockState>
  const call = (command: Omit<MainClockCommand, "maxFire"> & { maxFire?: number }) => fn({ app }, { maxFire: 10_000, ...command })
  const run = <A = unknown>(code: string): A => vm.runInContext(code, context) as A
  /** Installs at T, paused there. */
  // Paused at exactly T: the installed clock runs until it is paused (a loaded machine lets ms pass between the
  // two calls), so the time is set again once it is paused (set jumps without firing).
  const installPaused = async () => {
    await call({ action: "install", time: T })
    await call({ action: "pause" })
    await call({ action: "set", time: T })
  }
  return { app, thrown, log, context, call, run, installPaused }
}

describe("clock: time and duration input", () => {
  it("reads durations in ms, s, m, h, d (and plain ms); refuses anything else", () => {
    expect(parseDuration("1d")).toBe(86_400_000)
    expect(parseDuration("2h30m")).toBe(9_000_000)
    expect(parseDuration("90s")).toBe(90_000)
    expect(parseDuration("500ms")).toBe(500)
    expect(parseDuration("1500")).toBe(1_500)
    expect(parseDuration("1.5h")).toBe(5_400_000)
    for (const bad of ["soon", "1x", "", "h", "-1d", "1d-2h"]) expect(parseDuration(bad), bad).toBeUndefined()
    expect(formatDuration(90_000_000)).toBe("1d1h")
    expect(formatDuration(61_500)).toBe("1m1s500ms")
  })

  it("reads ISO 8601 times and epoch ms; refuses the rest", () => {
    expect(parseTime("2030-01-15T12:00:00Z")).toBe(T)
    expect(parseTime(String(T))).toBe(T)
    expect(parseTime("2030-01-15T13:00:00+01:00")).toBe(T)
    expect(parseTime("2030-01-15")).toBe(Date.UTC(2030, 0, 15))
    for (const bad of ["next tuesday", "", "99999-01-01", "-5", "2030-13-45", "Jan 15 2030"]) expect(parseTime(bad), bad).toBeUndefined()
  })
})

describe("clock: the main-process clock", () => {
  it("fakes Date: now, new Date(), Date(), while dates built from values stay real", async () => {
    const main = mainProcess()
    await main.installPaused()
    expect(main.run("Date.now()")).toBe(T)
    expect(main.run("new Date().getTime()")).toBe(T)
    expect(main.run("new Date(0).getTime()")).toBe(0)
    expect(main.run("typeof Date()")).toBe("string")
    expect(main.run("new Date() instanceof Date")).toBe(true)
    expect(main.run("Date.UTC(2030, 0, 1)")).toBe(Date.UTC(2030, 0, 1))
  })

  it("run fires every timer on the way, in time order, intervals repeatedly", async () => {
    const main = mainProcess()
    await main.installPaused()
    main.run(`
      const at = (name) => () => log.push(name + "@" + (Date.now() - ${T}))
      setTimeout(at("a"), 300); setTimeout(at("b"), 100); setInterval(at("c"), 100)`)
    const ran = await main.call({ action: "run", by: 350 })
    expect(main.log).toEqual(["b@100", "c@100", "c@200", "a@300", "c@300"])
    expect(ran).toMatchObject({ fired: 5, pending: 1, now: T + 350, paused: true, stoppedEarly: false })
  })

  it("advance fires each due timer once, at the end of the jump", async () => {
    const main = mainProcess()
    await main.installPaused()
    main.run(`
      const at = (name) => () => log.push(name + "@" + (Date.now() - ${T}))
      setTimeout(at("a"), 300); setTimeout(at("b"), 100); setInterval(at("c"), 100); setTimeout(at("later"), 1000)`)
    const jumped = await main.call({ action: "advance", by: 350 })
    expect(main.log).toEqual(["a@350", "b@350", "c@350"])
    expect(jumped).toMatchObject({ fired: 3, pending: 2, now: T + 350 })
    await main.call({ action: "advance", by: 100 })
    expect(main.log.slice(3)).toEqual(["c@450"])
  })

  it("clearTimeout and clearInterval take the handle or its number; set jumps without firing", async () => {
    const main = mainProcess()
    await main.installPaused()
    main.run(`
      const one = setTimeout(() => log.push("one"), 10); clearTimeout(one)
      const two = setTimeout(() => log.push("two"), 10); clearTimeout(Number(two))
      const three = setInterval(() => { log.push("three"); clearInterval(three) }, 10)
      setTimeout(() => log.push("four"), 10).unref()`)
    const set = await main.call({ action: "set", time: T + 86_400_000 })
    expect(set).toMatchObject({ now: T + 86_400_000, fired: 0, pending: 2 })
    await main.call({ action: "run", by: 100 })
    expect(main.log).toEqual(["three", "four"])
  })

  it("lets the promises a callback starts settle before the next timer", async () => {
    const main = mainProcess()
    await main.installPaused()
    main.run(`
      setTimeout(() => Promise.resolve().then(() => log.push("then")), 10)
      setTimeout(() => log.push("second"), 20)`)
    await main.call({ action: "run", by: 30 })
    expect(main.log).toEqual(["then", "second"])
  })

  it("set fixed keeps Date at the time while timers run", async () => {
    const main = mainProcess()
    await main.installPaused()
    await main.call({ action: "set", time: T, fixed: true })
    main.run(`setTimeout(() => log.push(String(Date.now() - ${T})), 100)`)
    expect(await main.call({ action: "run", by: 200 })).toMatchObject({ fixed: true, now: T, fired: 1 })
    expect(main.log).toEqual(["0"])
  })

  it("reports a callback that throws and rethrows it in the app; stops after maxFire callbacks", async () => {
    const main = mainProcess()
    await main.installPaused()
    main.run(`setTimeout(() => { throw new Error("boom") }, 5); setInterval(() => {}, 1)`)
    const ran = await main.call({ action: "run", by: 1_000, maxFire: 50 })
    expect(ran).toMatchObject({ fired: 50, stoppedEarly: true })
    expect(ran.errors).toEqual(["Error: boom"])
    await new Promise((resolve) => setImmediate(resolve))
    expect(main.thrown.map((e) => (e as Error).message)).toEqual(["boom"])
  })

  it("refuses what it cannot do: any action but install before install, a pause in the past", async () => {
    const main = mainProcess()
    expect(await main.call({ action: "advance", by: 10 })).toMatchObject({ installed: false, refused: "not-installed" })
    expect(await main.call({ action: "status" })).toMatchObject({ installed: false })
    await main.installPaused()
    expect(await main.call({ action: "pause", time: T - 1 })).toMatchObject({ refused: "past" })
  })

  it("uninstall restores the originals and moves pending timers to real ones, which still fire", async () => {
    const main = mainProcess()
    const original = main.run<typeof setTimeout>("setTimeout")
    await main.installPaused()
    const fired = new Promise<string>((resolve) => Object.assign(main.context, { done: resolve }))
    main.run(`setTimeout(() => done("fired"), 5); globalThis.cleared = setTimeout(() => log.push("cleared"), 5); clearTimeout(cleared)`)
    main.run(`globalThis.gone = setTimeout(() => log.push("gone"), 5)`)
    const removed = await main.call({ action: "uninstall" })
    expect(removed).toMatchObject({ installed: false, moved: 2 })
    expect(main.run("setTimeout")).toBe(original)
    expect(main.run("Date")).toBe(Date)
    // clearTimeout still knows a moved timer's handle until the moved timers are done.
    main.run("clearTimeout(gone)")
    expect(await fired).toBe("fired")
    expect(main.run("clearTimeout")).toBe(clearTimeout)
    expect(main.log).toEqual([])
  })

  it("is removed when the app begins to quit, so shutdown code waiting on timers is not stalled", async () => {
    const main = mainProcess()
    await main.installPaused()
    main.app.emit("before-quit")
    expect(await main.call({ action: "status" })).toMatchObject({ installed: false, removedAtQuit: true })
    expect(main.run("Date")).toBe(Date)
  })
})

describe("clock: the tool without a main process", () => {
  const noMain = Layer.mergeAll(
    MainProcess.layerTest({
      evaluateMain: () => Effect.fail(new NeedsMainProcess({ message: "status the main-process clock needs the Electron main process" }))
    }),
    AppLifecycle.layerTest({}),
    Windows.layerTest({}),
    PageOps.layerTest({}),
    // The handler reaches the app through the call's handle, made over the driver's services.
    Snapshots.layerTest({}),
    Dialogs.layerTest({}),
    ServerConfig.layer(defaultServerConfig),
    ProfileSelector.layer(defaultServerConfig)
  )

  it.effect("answers NEEDS_MAIN_PROCESS and points at target renderer", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(clockControl.handler({ action: "status", target: "main" }))
      expect(error._tag).toBe("NeedsMainProcess")
      expect(error.hint).toContain('target "renderer"')
    }).pipe(Effect.provide(noMain))
  )

  it.effect("refuses a bad duration before it touches the app", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(clockControl.handler({ action: "advance", by: "a while" }))
      expect(error._tag).toBe("InvalidArgument")
      expect(error.message).toContain("by")
    }).pipe(Effect.provide(noMain))
  )
})
