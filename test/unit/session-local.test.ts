/**
 * Session-scoped state (sessionLocal): the plugins' per-session state is held by the session, made once
 * per session at its first use, and never shared between two sessions (a relaunch starts from nothing).
 */
import { describe, expect, it } from "vitest"
import { sessionLocal } from "../../src/layers/driver/ElectronDriver.js"
import { AppSession } from "../../src/layers/driver/session.js"

const newSession = () => new AppSession({ kind: "launched", context: undefined as never })

describe("sessionLocal", () => {
  it("makes the state once per session and keeps it there", () => {
    let made = 0
    const routes = sessionLocal<Array<string>>("test/routes", () => {
      made++
      return []
    })
    const first = newSession()
    routes.of(first).push("**/api")
    expect(routes.of(first)).toEqual(["**/api"])
    expect(made).toBe(1)
  })

  it("gives another session its own state", () => {
    const routes = sessionLocal<Array<string>>("test/routes", () => [])
    const before = newSession()
    routes.of(before).push("**/api")
    const after = newSession()
    expect(routes.of(after)).toEqual([])
    expect(routes.of(before)).toEqual(["**/api"])
  })

  it("keeps two declarations apart, even with the same name", () => {
    const a = sessionLocal("same", () => ({ n: 1 }))
    const b = sessionLocal("same", () => ({ n: 2 }))
    const session = newSession()
    a.of(session).n = 10
    expect(b.of(session).n).toBe(2)
    expect(a.of(session).n).toBe(10)
  })

  it("gives init the session it is made for", () => {
    const seen = sessionLocal("test/owner", (session) => session)
    const session = newSession()
    expect(seen.of(session)).toBe(session)
  })
})
