/**
 * The Node, V8 and NODE_MODULE_VERSION of an Electron binary, read by running it as Node
 * (`ELECTRON_RUN_AS_NODE=1`) on one fixed script that prints `process.versions` as JSON. The child gets
 * a narrow environment (not the server's), a time bound (killed, with its process group, when it does not
 * answer) and an output cap (more is an error).
 */
import { spawn, type ChildProcess } from "node:child_process"
import { Data, Effect, Either, Schema } from "effect"
import { killGroupLeftovers, killProcessGroup } from "../layers/driver/process.js"

export const BinaryVersions = Schema.Struct({
  node: Schema.String,
  v8: Schema.String,
  modules: Schema.String,
  electron: Schema.optional(Schema.String),
  chrome: Schema.optional(Schema.String)
})
export type BinaryVersions = typeof BinaryVersions.Type

export class ProbeFailed extends Data.TaggedError("ProbeFailed")<{ readonly reason: string }> {
  override get message() {
    return this.reason
  }
}

/** The one script run: no input reaches it. */
const SCRIPT = "const v=process.versions;process.stdout.write(JSON.stringify({node:v.node,v8:v.v8,modules:v.modules,electron:v.electron,chrome:v.chrome}))"

/** Variables the child keeps from ours: what starting a program needs, nothing that changes what it runs. */
const KEPT = ["PATH", "HOME", "TMPDIR", "TMP", "TEMP", "SYSTEMROOT", "SystemRoot", "WINDIR"]

export const probeEnv = (env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(KEPT.flatMap((key) => (env[key] !== undefined ? [[key, env[key]]] : []))),
  ELECTRON_RUN_AS_NODE: "1",
  ELECTRON_NO_ATTACH_CONSOLE: "1"
})

export interface ProbeOptions {
  readonly timeoutMs?: number
  readonly maxOutputBytes?: number
  readonly env?: NodeJS.ProcessEnv
}

const decode = Schema.decodeUnknownEither(Schema.parseJson(BinaryVersions))

/** Collects the child's output (stdout up to the cap, a little stderr for the reason) until it closes. */
const outcomeOf = (child: ChildProcess, maxOutputBytes: number) =>
  Effect.async<{ readonly code: number | null; readonly signal: NodeJS.Signals | null; readonly stdout: string; readonly stderr: string }, ProbeFailed>(
    (resume) => {
      const stdout: Array<Buffer> = []
      let stdoutBytes = 0
      let stderr = ""
      const onStdout = (chunk: Buffer) => {
        stdoutBytes += chunk.length
        if (stdoutBytes > maxOutputBytes) {
          resume(Effect.fail(new ProbeFailed({ reason: `printed more than ${maxOutputBytes} bytes on stdout (a version report is a few hundred): killed` })))
          return
        }
        stdout.push(chunk)
      }
      const onStderr = (chunk: Buffer) => {
        if (stderr.length < 2_000) stderr += chunk.toString("utf8")
      }
      const onError = (error: Error) => resume(Effect.fail(new ProbeFailed({ reason: `could not start: ${error.message}` })))
      const onClose = (code: number | null, signal: NodeJS.Signals | null) =>
        resume(Effect.succeed({ code, signal, stdout: Buffer.concat(stdout).toString("utf8"), stderr: stderr.slice(0, 2_000) }))
      child.stdout?.on("data", onStdout)
      child.stderr?.on("data", onStderr)
      child.once("error", onError)
      child.once("close", onClose)
      return Effect.sync(() => {
        child.stdout?.off("data", onStdout)
        child.stderr?.off("data", onStderr)
        child.off("error", onError)
        child.off("close", onClose)
      })
    }
  )

/** Runs `binary` as Node on the fixed version script. */
export const probeVersions = (binary: string, options: ProbeOptions = {}): Effect.Effect<BinaryVersions, ProbeFailed> => {
  const timeoutMs = options.timeoutMs ?? 5_000
  const maxOutputBytes = options.maxOutputBytes ?? 64 * 1024
  return Effect.scoped(
    Effect.gen(function* () {
      const child = yield* Effect.acquireRelease(
        Effect.try({
          try: () =>
            spawn(binary, ["-e", SCRIPT], {
              env: probeEnv(options.env),
              stdio: ["ignore", "pipe", "pipe"],
              // Its own process group, so a script wrapper's children are killed with it.
              detached: process.platform !== "win32",
              windowsHide: true
            }),
          catch: (cause) => new ProbeFailed({ reason: `could not start: ${cause instanceof Error ? cause.message : String(cause)}` })
        }),
        // The whole group goes, also when the binary itself already exited: a child it left running
        // (a wrapper's background process) must not outlive the probe.
        (child) => (child.pid === undefined ? Effect.void : Effect.zipRight(killProcessGroup(child), killGroupLeftovers(child)))
      )
      const outcome = yield* outcomeOf(child, maxOutputBytes).pipe(
        Effect.timeoutFail({ duration: timeoutMs, onTimeout: () => new ProbeFailed({ reason: `did not answer within ${timeoutMs} ms: killed` }) })
      )
      const stderr = outcome.stderr.trim() === "" ? "" : `; stderr: ${outcome.stderr.trim().split("\n").slice(0, 3).join(" | ")}`
      if (outcome.code !== 0) {
        return yield* new ProbeFailed({ reason: `exited with ${outcome.signal ?? `code ${outcome.code}`} instead of printing its versions${stderr}` })
      }
      const versions = decode(outcome.stdout.trim())
      if (Either.isLeft(versions)) return yield* new ProbeFailed({ reason: `did not print its versions as JSON (ELECTRON_RUN_AS_NODE not honoured?)${stderr}` })
      return versions.right
    })
  )
}
