/**
 * The ring buffers every answer reads "what is new since cursor N" from (src/layers/driver/buffers.ts):
 * the entries after the cursor, in order, across overflow (the oldest dropped) and a clear.
 */
import { describe, expect, it } from "vitest"
import { RingBuffer } from "../../src/layers/driver/buffers.js"

const values = <T>(entries: ReadonlyArray<{ readonly value: T }>) => entries.map((e) => e.value)

describe("RingBuffer.since", () => {
  it("gives the entries after a cursor, all of them without one, none past the newest", () => {
    const buffer = new RingBuffer<string>(10)
    for (const v of ["a", "b", "c", "d"]) buffer.push(v)
    expect(values(buffer.since())).toEqual(["a", "b", "c", "d"])
    expect(values(buffer.since(2))).toEqual(["c", "d"])
    expect(values(buffer.since(buffer.cursor))).toEqual([])
    expect(values(buffer.since(99))).toEqual([])
    expect(buffer.since(1).map((e) => e.seq)).toEqual([2, 3, 4])
  })

  it("after overflow: a cursor older than the oldest kept entry gives every kept one", () => {
    const buffer = new RingBuffer<number>(3)
    for (let i = 1; i <= 7; i++) buffer.push(i)
    expect(buffer.dropped).toBe(4)
    expect(values(buffer.since(0))).toEqual([5, 6, 7])
    expect(values(buffer.since(2))).toEqual([5, 6, 7])
    expect(values(buffer.since(5))).toEqual([6, 7])
    expect(values(buffer.since(6))).toEqual([7])
  })

  it("after a clear: numbers go on, and only what came since is new", () => {
    const buffer = new RingBuffer<string>(5)
    buffer.push("old")
    buffer.push("older")
    const cursor = buffer.cursor
    buffer.clear()
    expect(buffer.since(cursor)).toEqual([])
    buffer.push("new")
    expect(buffer.since(cursor)).toEqual([{ seq: 3, value: "new" }])
    expect(values(buffer.since(0))).toEqual(["new"])
  })

  it("returns a copy: what a reader does with it leaves the buffer as it was", () => {
    const buffer = new RingBuffer<string>(5)
    buffer.push("a")
    const read = buffer.since() as Array<{ seq: number; value: string }>
    read.length = 0
    expect(values(buffer.since())).toEqual(["a"])
  })
})
