/**
 * `npm start`'s demo (dist/demo.js) runs end to end from a plain environment: it chooses the stand-in by
 * name itself and passes that choice to the server it starts (a narrow child environment loses it otherwise).
 */
import { describe, expect, it } from "@effect/vitest"
import { join } from "node:path"
import { packageRoot } from "../../src/layers/driver/electron-runtime.js"
import { runNode } from "../support/cli.js"

describe("the demo", () => {
  it("passes every step with no STAGEWRIGHT_ELECTRON in its environment", async () => {
    const { STAGEWRIGHT_ELECTRON: _chosen, ...env } = process.env
    const run = await runNode([join(packageRoot(), "dist", "demo.js")], { env, timeoutMs: 150_000 })
    expect(run.stdout, run.stderr).toContain("All steps passed")
    expect(run.stdout).toContain("runtime: standin")
    expect(run.status).toBe(0)
  }, 180_000)
})
