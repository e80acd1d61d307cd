/**
 * A window's buffers take what the page emitted before Stagewright listened (playwright-core's per-page
 * history) and what comes while that history is fetched, each exactly once and in order.
 */
import { describe, expect, it } from "@effect/vitest"
import { EventEmitter } from "node:events"
import type { Page } from "playwright-core"
import { backfill } from "../../src/layers/driver/backfill.js"

/** A page stand-in: emits "console" events and answers its history when the test says so. */
const fakePage = () => {
  const emitter = new EventEmitter()
  let answer: (items: ReadonlyArray<string>) => void = () => undefined
  let fail: (error: Error) => void = () => undefined
  const history = () =>
    new Promise<ReadonlyArray<string>>((resolve, reject) => {
      answer = resolve
      fail = reject
    })
  return {
    page: emitter as unknown as Page,
    emit: (text: string) => emitter.emit("console", text),
    history,
    answer: (items: ReadonlyArray<string>) => answer(items),
    fail: (e: Error) => fail(e)
  }
}

const settle = () => new Promise((r) => setTimeout(r, 0))

describe("backfill", () => {
  it("records the history, drops the held events the history already holds, and keeps the newer ones", async () => {
    const fake = fakePage()
    const recorded: Array<string> = []
    backfill(
      fake.page,
      "console",
      fake.history,
      (item: string) => recorded.push(item),
      (item) => item
    )
    fake.emit("b")
    fake.emit("c")
    expect(recorded).toEqual([])
    fake.answer(["early", "b"])
    await settle()
    fake.emit("d")
    expect(recorded).toEqual(["early", "b", "c", "d"])
  })

  it("keeps repeated messages that are really new (no overlap with the history's tail)", async () => {
    const fake = fakePage()
    const recorded: Array<string> = []
    backfill(
      fake.page,
      "console",
      fake.history,
      (item: string) => recorded.push(item),
      (item) => item
    )
    fake.emit("tick")
    fake.answer(["tick", "tock"])
    await settle()
    expect(recorded).toEqual(["tick", "tock", "tick"])
  })

  it("records the held events when the history cannot be read", async () => {
    const fake = fakePage()
    const recorded: Array<string> = []
    backfill(
      fake.page,
      "console",
      fake.history,
      (item: string) => recorded.push(item),
      (item) => item
    )
    fake.emit("x")
    fake.fail(new Error("page closed"))
    await settle()
    fake.emit("y")
    expect(recorded).toEqual(["x", "y"])
  })
})
