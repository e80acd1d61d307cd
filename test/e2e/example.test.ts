/** The examples/ program composes Stagewright's layers into a larger Effect program; run it. */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ExampleLive, program } from "../../examples/drive-tasks.js"

describe("examples/drive-tasks.ts", () => {
  it("drives the tasks app without MCP and recovers from a typed error by its tag", async () => {
    const outcome = await Effect.runPromise(program.pipe(Effect.provide(ExampleLive), Effect.scoped))
    expect(outcome.firstTitles[0]).toBe(outcome.added)
    expect(outcome.recovered).toMatch(/^recovered from RefStale: e9999/)
  })
})
