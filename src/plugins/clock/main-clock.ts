/**
 * The main process's fake clock: a virtual now and a queue of timers, installed over the main process's
 * global `Date`, `setTimeout`, `setInterval`, `clearTimeout` and `clearInterval`. `mainClock` is sent to the
 * main process whole (MainProcess.evaluateMain), so it is self-contained: no imports, no outer names.
 *
 * Time is kept as ticks (monotonic ms since install, what timers are scheduled on) and a wall time
 * (Date.now = wall base + ticks, or a fixed value). A running clock follows real time (performance.now)
 * and fires due timers through one real timer; a paused one moves only when told. advance jumps ahead
 * firing each due timer once (intervals once), run fires every timer on the way; between two callbacks a
 * real setImmediate turn lets the promises they started settle. Uninstall (or the app's quit) restores the
 * originals and moves the timers still pending to real timers with what is left of their delay.
 */
import type { ElectronModule, MainValue } from "../../layers/driver/ElectronDriver.js"

export type MainClockAction = "install" | "set" | "advance" | "run" | "pause" | "resume" | "status" | "uninstall"

export interface MainClockCommand {
  readonly action: MainClockAction
  /** Epoch ms: install's start, set's new time, pause's stop. */
  readonly time?: number
  /** ms: how far advance or run go. */
  readonly by?: number
  /** set: Date stays at `time` while timers keep running. */
  readonly fixed?: boolean
  /** The most timer callbacks one advance or run fires before it stops. */
  readonly maxFire: number
}

export interface MainClockState {
  readonly installed: boolean
  /** Epoch ms the main process's Date reports. */
  readonly now: number
  readonly paused: boolean
  readonly fixed: boolean
  /** Fake timers waiting. */
  readonly pending: number
  /** Callbacks this call fired. */
  readonly fired: number
  /** Callbacks of this call that threw (each is rethrown in the app, as a real timer's would be). */
  readonly errors: ReadonlyArray<string>
  /** advance or run stopped at maxFire callbacks, before the end of the jump. */
  readonly stoppedEarly: boolean
  /** Why the command was refused: not installed, a time in the past. */
  readonly refused?: "not-installed" | "past"
  /** uninstall: fake timers still pending, now on real timers. */
  readonly moved?: number
  /** The clock was removed when the app began to quit (before-quit). */
  readonly removedAtQuit?: boolean
}

/* The main process's globals and timer handles are untyped here: MainValue (the driver's declared untyped main-process value). */
export const mainClock = (electron: ElectronModule, command: MainClockCommand): Promise<MainClockState> => {
  const g = globalThis as MainValue
  const KEY = "__stagewright_clock"
  const ID_START = 1e12 // far above Node's own timer ids, which numbers of real timers use
  const MAX_DELAY = 2 ** 31 - 1

  const make = (startAt: number) => {
    const orig = {
      Date: g.Date,
      setTimeout: g.setTimeout,
      clearTimeout: g.clearTimeout,
      setInterval: g.setInterval,
      clearInterval: g.clearInterval,
      setImmediate: g.setImmediate
    }
    const perfNow = () => g.performance.now() as number
    const s: MainValue = {
      ticks: 0,
      wallBase: startAt,
      fixedAt: undefined,
      paused: false,
      anchor: perfNow(),
      timers: new Map(),
      moved: new Map(),
      nextId: ID_START,
      armed: undefined,
      chain: Promise.resolve(),
      installed: true
    }
    const sync = () => {
      if (s.paused) return
      const p = perfNow()
      s.ticks += Math.max(0, p - s.anchor)
      s.anchor = p
    }
    const wallNow = () => {
      sync()
      return s.fixedAt ?? Math.floor(s.wallBase + s.ticks)
    }
    const rethrow = (error: unknown) =>
      orig.setImmediate(() => {
        throw error
      })

    class FakeTimeout {
      readonly id: number
      refed = true
      constructor(id: number) {
        this.id = id
      }
      ref() {
        this.refed = true
        s.moved.get(this.id)?.ref?.()
        return this
      }
      unref() {
        this.refed = false
        s.moved.get(this.id)?.unref?.()
        return this
      }
      hasRef() {
        return this.refed
      }
      refresh() {
        const t = s.timers.get(this.id)
        if (t !== undefined) {
          sync()
          t.callAt = s.ticks + t.delay
          arm()
        }
        s.moved.get(this.id)?.refresh?.()
        return this
      }
      close() {
        clear(this)
        return this
      }
      [Symbol.toPrimitive]() {
        return this.id
      }
    }

    const add = (fn: unknown, delay: unknown, args: Array<unknown>, interval: boolean) => {
      if (typeof fn !== "function") throw new TypeError(`The "callback" argument must be of type function. Received ${typeof fn}`)
      let d = Number(delay)
      if (!(d >= 1 && d <= MAX_DELAY)) d = 1 // as Node: below 1, above the maximum or not a number is 1 ms
      sync()
      const id = s.nextId++
      const handle = new FakeTimeout(id)
      s.timers.set(id, { id, callAt: s.ticks + d, createdAt: s.ticks, delay: d, interval, fn, args, handle })
      arm()
      return handle
    }
    const idOf = (h: unknown) => (h instanceof FakeTimeout ? h.id : typeof h === "number" || typeof h === "string" ? Number(h) : undefined)
    const clear = (h: unknown) => {
      const id = idOf(h)
      if (id !== undefined && s.timers.delete(id)) return arm()
      if (id !== undefined && s.moved.has(id)) {
        orig.clearTimeout(s.moved.get(id))
        s.moved.delete(id)
        return restoreClears()
      }
      if (!(h instanceof FakeTimeout)) orig.clearTimeout(h) // a real timer (set before install): the original clears it
    }

    const first = (upTo: number) => {
      let best: MainValue
      for (const t of s.timers.values()) {
        if (t.callAt > upTo) continue
        if (
          best === undefined ||
          t.callAt < best.callAt ||
          (t.callAt === best.callAt && (t.createdAt < best.createdAt || (t.createdAt === best.createdAt && t.id < best.id)))
        )
          best = t
      }
      return best
    }
    const disarm = () => {
      if (s.armed !== undefined) orig.clearTimeout(s.armed)
      s.armed = undefined
    }
    function arm() {
      disarm()
      if (s.paused || !s.installed || s.busy) return
      const next = first(Infinity)
      if (next === undefined) return
      sync()
      s.armed = orig.setTimeout(
        () => {
          s.armed = undefined
          void serial(() => runTo(s.ticks + Math.max(0, perfNow() - s.anchor), Infinity, false)).then((r: MainValue) => r.errors.forEach(rethrow))
        },
        Math.min(MAX_DELAY, Math.max(0, Math.ceil(next.callAt - s.ticks)))
      )
    }
    const serial = (op: () => Promise<unknown>) => {
      const run = s.chain.then(op)
      s.chain = run.catch(() => undefined)
      return run
    }

    /** Fires the timers due up to `to` (ticks) in order, time frozen meanwhile; then stands at `to`. */
    const runTo = async (to: number, maxFire: number, collect: boolean) => {
      sync()
      const wasPaused = s.paused
      s.paused = true
      s.busy = true
      disarm()
      const errors: Array<unknown> = []
      let fired = 0
      let stoppedEarly = false
      try {
        for (;;) {
          const t = first(to)
          if (t === undefined) break
          if (fired >= maxFire) {
            stoppedEarly = true
            break
          }
          s.ticks = Math.max(s.ticks, t.callAt)
          if (t.interval) t.callAt = s.ticks + t.delay
          else s.timers.delete(t.id)
          fired++
          try {
            t.fn.apply(t.handle, t.args)
          } catch (error) {
            errors.push(error)
          }
          await new Promise((resolve) => orig.setImmediate(resolve))
        }
        if (!stoppedEarly) s.ticks = Math.max(s.ticks, to)
      } finally {
        s.busy = false
        s.paused = wasPaused
        s.anchor = perfNow()
        arm()
      }
      if (!collect) return { fired, errors, stoppedEarly }
      errors.forEach(rethrow)
      return {
        fired,
        errors: errors.map((e) =>
          String((e as MainValue)?.stack ?? e)
            .split("\n")[0]!
            .slice(0, 300)
        ),
        stoppedEarly
      }
    }

    function FakeDate(this: unknown, ...args: Array<unknown>) {
      if (new.target === undefined) return new orig.Date(wallNow()).toString()
      return Reflect.construct(orig.Date, args.length === 0 ? [wallNow()] : args, new.target)
    }
    FakeDate.prototype = orig.Date.prototype
    FakeDate.now = () => wallNow()
    FakeDate.parse = orig.Date.parse
    FakeDate.UTC = orig.Date.UTC

    const fakes = {
      Date: FakeDate,
      setTimeout: (fn: unknown, delay?: unknown, ...args: Array<unknown>) => add(fn, delay, args, false),
      setInterval: (fn: unknown, delay?: unknown, ...args: Array<unknown>) => add(fn, delay, args, true),
      clearTimeout: (h: unknown) => clear(h),
      clearInterval: (h: unknown) => clear(h)
    }
    const restoreClears = () => {
      if (s.moved.size > 0 || s.installed) return
      if (g.clearTimeout === fakes.clearTimeout) g.clearTimeout = orig.clearTimeout
      if (g.clearInterval === fakes.clearInterval) g.clearInterval = orig.clearInterval
    }
    const onQuit = () => {
      uninstall()
      s.removedAtQuit = true
    }
    const uninstall = () => {
      if (!s.installed) return
      sync()
      disarm()
      s.installed = false
      for (const key of ["Date", "setTimeout", "setInterval"] as const) if (g[key] === fakes[key]) g[key] = orig[key]
      // Timers still pending go on real timers with what is left of their delay; clearTimeout keeps
      // knowing their handles until the last of them is done.
      for (const t of s.timers.values()) {
        const left = Math.min(MAX_DELAY, Math.max(1, Math.ceil(t.callAt - s.ticks)))
        const fire = () => {
          if (!t.interval) s.moved.delete(t.id)
          try {
            t.fn.apply(t.handle, t.args)
          } finally {
            restoreClears()
          }
        }
        const real = t.interval
          ? orig.setTimeout(() => {
              s.moved.set(t.id, orig.setInterval(fire, t.delay))
              fire()
            }, left)
          : orig.setTimeout(fire, left)
        if (!t.handle.refed) real.unref?.()
        s.moved.set(t.id, real)
      }
      s.timers.clear()
      electron.app?.removeListener?.("before-quit", onQuit)
      restoreClears()
    }
    Object.assign(g, fakes)
    // A quitting app must not wait on a paused clock (shutdown code often bounds its waits with timers).
    electron.app?.once?.("before-quit", onQuit)
    return { s, wallNow, sync, runTo, serial, arm, disarm, uninstall }
  }

  let clock = g[KEY]
  const state = (extra: Partial<MainClockState> = {}): MainClockState => {
    const installed = clock?.s.installed === true
    return {
      installed,
      now: installed ? clock.wallNow() : Date.now(),
      paused: installed && clock.s.paused === true,
      fixed: installed && clock.s.fixedAt !== undefined,
      pending: installed ? clock.s.timers.size : 0,
      fired: 0,
      errors: [],
      stoppedEarly: false,
      ...(clock?.s.removedAtQuit === true ? { removedAtQuit: true } : {}),
      ...extra
    }
  }
  const { action } = command
  const installed = clock?.s.installed === true
  if (action === "status") return Promise.resolve(state())
  if (action === "install") {
    if (!installed) {
      clock = make(command.time ?? Date.now())
      g[KEY] = clock
    } else {
      clock.sync()
      clock.s.fixedAt = undefined
      clock.s.wallBase = (command.time ?? Date.now()) - clock.s.ticks
    }
    return Promise.resolve(state())
  }
  if (!installed) return Promise.resolve(state(action === "uninstall" ? {} : { refused: "not-installed" }))
  const s = clock.s
  if (action === "uninstall") {
    const moved = s.timers.size
    clock.uninstall()
    return Promise.resolve(state({ moved }))
  }
  if (action === "set") {
    clock.sync()
    s.wallBase = command.time! - s.ticks
    s.fixedAt = command.fixed === true ? command.time : undefined
    return Promise.resolve(state())
  }
  if (action === "resume") {
    if (s.paused) {
      s.paused = false
      s.anchor = g.performance.now()
      clock.arm()
    }
    return Promise.resolve(state())
  }
  /** Jumps `ms` ahead: each timer due before the end fires once, at the end (as playwright's fastForward). */
  const jump = (ms: number) =>
    clock.serial(() => {
      clock.sync()
      const to = s.ticks + ms
      for (const t of s.timers.values()) if (t.callAt < to) t.callAt = to
      return clock.runTo(to, command.maxFire, true)
    })
  if (action === "pause") {
    clock.sync()
    const wall = Math.floor(s.wallBase + s.ticks)
    const at = command.time ?? wall
    if (at < wall) return Promise.resolve(state({ refused: "past" }))
    s.paused = true
    clock.disarm()
    return jump(at - wall).then((r: MainValue) => state(r))
  }
  if (action === "advance") return jump(command.by ?? 0).then((r: MainValue) => state(r))
  // run: every timer due on the way fires at its own time, intervals repeatedly.
  return clock
    .serial(() => {
      clock.sync()
      return clock.runTo(s.ticks + (command.by ?? 0), command.maxFire, true)
    })
    .then((r: MainValue) => state(r))
}
/* eslint-enable @typescript-eslint/no-explicit-any */
