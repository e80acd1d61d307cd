/**
 * The stdio line limiter: lines up to the limit pass whole and unchanged, however the input is cut;
 * a longer line is discarded up to its newline and reported once, with its id when readable.
 */
import { describe, expect, it } from "@effect/vitest"
import { LineLimiter, type OversizedMessage } from "../../src/server/stdio-limit.js"

/** Feeds `chunks` through a limiter of `max` bytes; resolves with what passed and what was reported. */
const run = (max: number, chunks: ReadonlyArray<string>) =>
  new Promise<{ passed: string; reported: Array<OversizedMessage> }>((resolve, reject) => {
    const reported: Array<OversizedMessage> = []
    const limiter = new LineLimiter(max, (m) => reported.push(m))
    let passed = ""
    limiter.on("data", (chunk: Buffer) => (passed += chunk.toString("utf8")))
    limiter.once("end", () => resolve({ passed, reported }))
    limiter.once("error", reject)
    for (const chunk of chunks) limiter.write(Buffer.from(chunk))
    limiter.end()
  })

/** Every way of cutting `text` in two, and byte by byte. */
const cuts = (text: string): ReadonlyArray<ReadonlyArray<string>> => [
  [text],
  [...text].map((c) => c),
  ...Array.from({ length: text.length - 1 }, (_, i) => [text.slice(0, i + 1), text.slice(i + 1)])
]

describe("LineLimiter", () => {
  it("passes lines up to the limit unchanged and drops a longer one up to its newline, however the input is cut", async () => {
    const ok1 = '{"jsonrpc":"2.0","id":1}'
    const big = `{"method":"m","params":{"s":"${"y".repeat(40)}"},"jsonrpc":"2.0","id":"req-9"}`
    const ok2 = '{"id":2}\r'
    const text = `${ok1}\n${big}\n${ok2}\n`
    for (const chunks of cuts(text)) {
      const { passed, reported } = await run(30, chunks)
      expect(passed).toBe(`${ok1}\n${ok2}\n`)
      expect(reported).toEqual([{ bytes: big.length, id: "req-9" }])
    }
  })

  it("reads the id at the start, or reports none when it cannot be read; a line exactly at the limit passes", async () => {
    const first = `{"jsonrpc":"2.0","id":42,"method":"m","params":{"s":"${"z".repeat(50)}"}}\n`
    const nested = `{"method":"m","params":{"s":"${"z".repeat(50)}","id":5}}\n`
    const unterminated = `{"id":7,"s":"${"z".repeat(50)}"`
    const exact = `${"a".repeat(20)}\n`
    const { passed, reported } = await run(20, [first, nested, exact, unterminated])
    expect(passed).toBe(exact)
    expect(reported).toEqual([
      { bytes: first.length - 1, id: 42 },
      { bytes: nested.length - 1, id: undefined },
      { bytes: unterminated.length, id: 7 }
    ])
  })

  it("passes a last line without a newline when it is within the limit", async () => {
    const { passed, reported } = await run(100, ['{"id":1}\n{"id"', ":2}"])
    expect(passed).toBe('{"id":1}\n{"id":2}')
    expect(reported).toEqual([])
  })
})
