/**
 * Grouping the processes found in /proc into apps (src/layers/driver/discovery.ts): /proc is listed in name order,
 * so once pids pass 9999 a renderer ("10031") comes before its app ("9925"); the app must still be the one listed.
 */
import { describe, expect, it } from "@effect/vitest"
import { appGroups, type Candidate, isChromiumHelper } from "../../src/layers/driver/discovery.js"

const node: Candidate = { pid: 9925, ppid: 9900, name: "electron", port: 26014 }
const browser: Candidate = { pid: 9932, ppid: 9925, name: "chromium", port: 26014 }
// A process of the same port whose parent carries no switch (a helper under Chromium's zygote, before helpers were
// left out): unrelated by ppid to the app.
const stray: Candidate = { pid: 10031, ppid: 9950, name: "chromium", port: 26014 }
const other: Candidate = { pid: 10016, ppid: 9900, name: "electron", port: undefined }
const otherBrowser: Candidate = { pid: 10020, ppid: 10016, name: "chromium", port: 41819 }

describe("appGroups", () => {
  it("names a port's app after its topmost process whatever order the candidates come in", () => {
    const inNameOrder = [other, stray, otherBrowser, node, browser].sort((a, b) => String(a.pid).localeCompare(String(b.pid)))
    expect(inNameOrder.map((c) => c.pid)).toEqual([10016, 10020, 10031, 9925, 9932])
    for (const order of [inNameOrder, [...inNameOrder].reverse(), [node, browser, stray, other, otherBrowser]]) {
      const groups = appGroups(order)
      expect(groups.get(26014)?.root.pid).toBe(9925)
      expect([...(groups.get(26014)?.pids ?? [])].sort()).toEqual([9925, 9932])
      // A port-0 app: its Chromium's port, under the app's own pid.
      expect(groups.get(41819)?.root.pid).toBe(10016)
      expect([...(groups.get(41819)?.pids ?? [])].sort()).toEqual([10016, 10020])
      expect(groups.size).toBe(2)
    }
  })
})

describe("isChromiumHelper", () => {
  it("tells Chromium's helpers from the app and its browser process, in both command line forms", () => {
    expect(isChromiumHelper("/usr/lib/chromium/chromium\0--type=renderer\0--remote-debugging-port=0\0")).toBe(true)
    expect(isChromiumHelper("/usr/lib/chromium/chromium --type=zygote --remote-debugging-port=0")).toBe(true)
    expect(isChromiumHelper("/usr/lib/chromium/chromium\0--headless=new\0--remote-debugging-port=0\0")).toBe(false)
    expect(isChromiumHelper("node\0/app/electron\0--remote-debugging-port=9222\0--app-type=x\0")).toBe(false)
  })
})
