/**
 * `stagewright replay` takes serve's launch policy: a trace cannot name a program the operator did not
 * allow. A recorded executablePath is never run (--executable-path chooses it), --app-root confines every
 * launch path of the trace, and code switches need replay's own --allow-eval main.
 */
import { describe, expect, it } from "@effect/vitest"
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runCli } from "../support/cli.js"

const temp = (prefix: string) => mkdtempSync(join(tmpdir(), prefix))

const header = { type: "header", schema: 1, stagewright: "0.1.0", startedAt: "2026-01-01T00:00:00.000Z", plugins: [], allowEval: [], tokens: "approx" }
const launch = (index: number, args: Record<string, unknown>) => ({
  type: "call",
  index,
  tool: "electron_launch",
  args,
  redacted: false,
  startedAt: "2026-01-01T00:00:00.000Z",
  durationMs: 1,
  outcome: "ok",
  chars: 1,
  approxTokens: 1
})

describe("replay's launch policy", () => {
  it("never runs a recorded executablePath, confines the trace's launches to --app-root and gates code switches", async () => {
    const home = temp("sw-replay-policy-")
    const marker = join(home, "ran")
    const evil = join(home, "evil.sh")
    writeFileSync(evil, `#!/bin/sh\necho ran > ${JSON.stringify(marker)}\n`)
    chmodSync(evil, 0o755)
    const root = join(home, "root")
    mkdirSync(join(root, "app"), { recursive: true })
    writeFileSync(join(root, "app", "package.json"), JSON.stringify({ name: "app", main: "main.js" }))
    writeFileSync(join(root, "app", "main.js"), "")
    const trace = join(home, "trace.jsonl")
    const calls = [
      launch(1, { app: join(root, "missing"), executablePath: evil, timeoutMs: 2_000 }),
      launch(2, { app: join(home, "elsewhere"), timeoutMs: 2_000 }),
      launch(3, { app: join(root, "app"), args: [`--app=${home}`], timeoutMs: 2_000 }),
      launch(4, { app: join(root, "app"), args: [`--require=${evil}`], timeoutMs: 2_000 })
    ]
    writeFileSync(trace, [header, ...calls].map((line) => JSON.stringify(line)).join("\n") + "\n")
    const run = await runCli(["replay", "--app-root", root, "--output-dir", temp("sw-replay-out-"), trace])
    expect(existsSync(marker), run.stdout).toBe(false)
    expect(run.stdout).toContain("the recorded executablePath was not run")
    expect(run.stdout).toMatch(/FAIL\s+2 electron_launch: was ok, now .*outside the app root/)
    expect(run.stdout).toMatch(/FAIL\s+3 electron_launch: was ok, now .*outside the app root/)
    expect(run.stdout).toMatch(/FAIL\s+4 electron_launch: was ok, now EVAL_NOT_AUTHORIZED/)
  })
})
