/**
 * The dispatcher's observer seam (src/server/observers.ts): a plugin's observer sees every call with its
 * arguments redacted, its outcome and size; an observer that throws, dies or hangs never breaks the call;
 * a refusal before the call maps to CALL_REFUSED and the handler never runs; a note reaches the answer.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Queue, Schema } from "effect"
import { definePlugin, type CallRecord, type CallObserver, CallRefused, type CallSettled, type Plugin } from "../../src/plugins/Plugin.js"
import { PluginLoader } from "../../src/plugins/PluginLoader.js"
import { Dispatcher } from "../../src/server/Dispatcher.js"
import { coreLayer } from "../../src/server/Stagewright.js"
import { markSecret } from "../../src/tools/policy/call-secrets.js"

const records = Effect.runSync(Queue.unbounded<CallRecord>())
let handled = 0

const echo = {
  name: "electron_watch_echo",
  description: "Echoes its note; marks `typed` as a secret, as a tool that typed into a password field does.",
  input: Schema.Struct({
    note: Schema.optional(Schema.String),
    typed: Schema.optional(Schema.String),
    env: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String })),
    headers: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String }))
  }),
  type: "read" as const,
  touchesPage: false,
  errors: [],
  handler: (input: { readonly note?: string | undefined; readonly typed?: string | undefined }) =>
    Effect.gen(function* () {
      handled++
      if (input.typed !== undefined) yield* markSecret(input.typed)
      return { text: `echo ${input.note ?? ""}` }
    })
}

const recording: CallObserver = { name: "recording", make: Effect.succeed({ after: (record) => Queue.offer(records, record) }) }

const throwing: CallObserver = {
  name: "throwing",
  make: Effect.succeed({
    before: () =>
      Effect.sync(() => {
        throw new Error("before blew up")
      }),
    after: () =>
      Effect.sync(() => {
        throw new Error("after blew up")
      })
  })
}

const hanging: CallObserver = { name: "hanging", make: Effect.succeed({ before: () => Effect.never, after: () => Effect.never }) }

const noting: CallObserver = { name: "noting", make: Effect.succeed({ before: () => Effect.succeed("mind the budget") }) }

const refusing: CallObserver = {
  name: "refusing",
  make: Effect.succeed({
    before: (call) =>
      call.tool === "electron_watch_echo"
        ? Effect.fail(
            new CallRefused({
              message: "electron_watch_echo refused: no more echoes",
              hint: "Stop echoing.",
              tool: call.tool,
              by: "watch",
              details: { limit: 0 }
            })
          )
        : Effect.succeed(undefined)
  })
}

const settled = Effect.runSync(Queue.unbounded<CallSettled>())

/** Says, before the answer goes, what it saw of the call that ran (as the video plugin links a clip). */
const settling: CallObserver = {
  name: "settling",
  make: Effect.succeed({ settle: (call) => Effect.as(Queue.offer(settled, call), `settled ${call.tool} ${call.outcome}`) })
}

const pluginWith = (observers: ReadonlyArray<CallObserver>): Plugin =>
  definePlugin({ name: "watch", purpose: "Observers for the seam's tests.", stagewright: ">=0.1.0 <1", observers, tools: [echo] })

const callWith = (observers: ReadonlyArray<CallObserver>, args: Record<string, unknown>) =>
  Effect.scoped(
    Effect.flatMap(Dispatcher, (d) => d.call("electron_watch_echo", args)).pipe(
      Effect.provide(coreLayer({ plugins: ["watch"] }, PluginLoader.layerRegistry({ watch: async () => pluginWith(observers) })))
    )
  )

const textOf = (result: { readonly content: ReadonlyArray<{ readonly type: string }> }) => (result.content[0] as unknown as { text: string }).text

describe("the observer seam", () => {
  it.live("an observer that throws, or never answers, does not break the call, and the others still see it", () =>
    Effect.gen(function* () {
      const result = yield* callWith([throwing, hanging, recording], { note: "hi" })
      expect(result.isError).toBeUndefined()
      expect(textOf(result)).toBe("echo hi")
      const record = yield* Queue.take(records)
      expect(record).toMatchObject({ tool: "electron_watch_echo", outcome: "ok", args: { note: "hi" }, redacted: false })
      expect(record.chars).toBeGreaterThan(0)
      expect(record.approxTokens).toBe(Math.ceil(record.chars / 4))
      expect(record.durationMs).toBeGreaterThanOrEqual(0)
    })
  )

  it.live("a refusal before the call answers CALL_REFUSED with its hint and figures, and the handler never runs", () =>
    Effect.gen(function* () {
      const before = handled
      const result = yield* callWith([refusing, recording], { note: "again" })
      expect(result.isError).toBe(true)
      expect(textOf(result)).toBe("CALL_REFUSED: electron_watch_echo refused: no more echoes\nHint: Stop echoing.")
      expect(result.structuredContent?.["error"]).toMatchObject({ code: "CALL_REFUSED", by: "watch", tool: "electron_watch_echo", limit: 0 })
      expect(handled).toBe(before)
      const record = yield* Queue.take(records)
      expect(record).toMatchObject({ outcome: "error", code: "CALL_REFUSED" })
    })
  )

  it.live("a note from before reaches the answer's text and structured content", () =>
    Effect.gen(function* () {
      const result = yield* callWith([noting], { note: "x" })
      expect(textOf(result)).toBe("echo x\nNote: mind the budget")
    })
  )

  it.live("the record's arguments have env values, credentials, Bearer tokens and typed secrets redacted", () =>
    Effect.gen(function* () {
      const args = {
        note: "call with Bearer abcdef1234567890 please",
        typed: "hunter2-secret",
        env: { API_KEY: "env-value-9876" },
        headers: { Authorization: "Basic dXNlcjpwYXNz", accept: "text/plain" }
      }
      const result = yield* callWith([recording], args)
      expect(result.isError).toBeUndefined()
      const record = yield* Queue.take(records)
      const written = JSON.stringify(record.args)
      for (const secret of ["abcdef1234567890", "hunter2-secret", "env-value-9876", "dXNlcjpwYXNz"]) expect(written).not.toContain(secret)
      expect(record.redacted).toBe(true)
      expect(record.args).toMatchObject({ env: { API_KEY: "«redacted»" }, headers: { Authorization: "«redacted»", accept: "text/plain" }, typed: "«redacted»" })
      expect((record.args as { note: string }).note).toBe("call with Bearer «redacted» please")
    })
  )

  it.live("calls that fail before running (an unknown tool) are observed too", () =>
    Effect.gen(function* () {
      const result = yield* Effect.scoped(
        Effect.flatMap(Dispatcher, (d) => d.call("electron_no_such_tool", {})).pipe(
          Effect.provide(coreLayer({ plugins: ["watch"] }, PluginLoader.layerRegistry({ watch: async () => pluginWith([recording]) })))
        )
      )
      expect(result.isError).toBe(true)
      const record = yield* Queue.take(records)
      expect(record).toMatchObject({ tool: "electron_no_such_tool", outcome: "error", code: "UNKNOWN_TOOL" })
    })
  )

  it.live("settle sees the call that ran, before its answer goes, and its note is in the answer; a refused call is not settled", () =>
    Effect.gen(function* () {
      const result = yield* callWith([settling], { note: "s" })
      expect(textOf(result)).toBe("echo s\nNote: settled electron_watch_echo ok")
      const call = yield* Queue.take(settled)
      expect(call).toMatchObject({ tool: "electron_watch_echo", outcome: "ok", args: { note: "s" } })
      expect(call.durationMs).toBeGreaterThanOrEqual(0)
      const refused = yield* callWith([refusing, settling], { note: "again" })
      expect(refused.structuredContent?.["error"]).toMatchObject({ code: "CALL_REFUSED" })
      expect(textOf(refused)).not.toContain("settled")
      expect(yield* Queue.size(settled)).toBe(0)
    })
  )
})
