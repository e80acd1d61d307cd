/**
 * MCP test clients: the SDK Client over the in-memory linked pair (createServer) or over stdio to
 * the built dist/cli.js, and small helpers to read tool results.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js"
import { ResourceListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js"
import { Effect, Ref, Schedule } from "effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createServer, type CreateServerOptions } from "../../src/index.js"
import { CLI } from "./cli.js"

export interface ToolCallOutcome {
  readonly text: string
  readonly isError: boolean
  readonly code: string | undefined
  readonly structured: any
  readonly images: number
  readonly raw: any
}

export interface TestClient {
  readonly client: Client
  readonly call: (name: string, args?: Record<string, unknown>) => Promise<ToolCallOutcome>
  readonly close: () => Promise<void>
}

const outcome = (raw: any): ToolCallOutcome => ({
  text: (raw.content ?? [])
    .filter((c: any) => c.type === "text")
    .map((c: any) => c.text)
    .join("\n"),
  isError: raw.isError === true,
  code: raw.structuredContent?.error?.code,
  structured: raw.structuredContent,
  images: (raw.content ?? []).filter((c: any) => c.type === "image").length,
  raw
})

const wrap = (client: Client, close: () => Promise<void>): TestClient => ({
  client,
  call: async (name, args = {}) => outcome(await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })),
  close
})

/**
 * Tests exercise tools, not the default profile (essential, ADR 0001 A5): a test server lists the full profile
 * unless the test names a profile or a tool list. The default itself is checked where it is the subject
 * (manifest:check against the ADR, test/bench/docs.test.ts, test/cli/default-profile.test.ts).
 */
const FULL_UNLESS_NAMED = { toolProfile: "full" } as const

/** A server built with createServer() and an SDK client on the in-memory linked pair. */
export const inMemoryClient = async (options: CreateServerOptions = {}): Promise<TestClient> => {
  const profile = options.toolProfile === undefined && options.tools === undefined ? FULL_UNLESS_NAMED : {}
  const server = await createServer({ outputDir: mkdtempSync(join(tmpdir(), "stagewright-out-")), ...profile, ...options })
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair()
  await server.connect(serverTransport)
  const client = new Client({ name: "stagewright-tests", version: "1.0.0" })
  await client.connect(clientTransport)
  return wrap(client, async () => {
    await client.close()
    await server.close()
  })
}

/**
 * Calls `tool` until `done` holds for its result (every 100 ms, `timeoutMs` at most) and returns the last
 * result, so the caller's assertion shows what was seen. For effects that land after an IPC round trip, a
 * replayed key or a popped-up menu. Waiting is Effect: no Promise loop.
 */
export const callUntil = (
  client: TestClient,
  tool: string,
  args: Record<string, unknown>,
  done: (result: ToolCallOutcome) => boolean,
  timeoutMs = 10_000
): Effect.Effect<ToolCallOutcome> =>
  Effect.gen(function* () {
    const last = yield* Ref.make<ToolCallOutcome | undefined>(undefined)
    const held = yield* Effect.promise(() => client.call(tool, args)).pipe(
      Effect.tap((result) => Ref.set(last, result)),
      Effect.filterOrFail(done, () => "not yet" as const),
      Effect.retry(Schedule.spaced("100 millis")),
      Effect.timeout(timeoutMs),
      Effect.orElseSucceed(() => undefined)
    )
    return held ?? (yield* Ref.get(last))!
  })

/** STAGEWRIGHT_ELECTRON as the test run chose it (test/global-setup.ts), for children started with a narrow environment. */
export const electronChoice = (): Record<string, string> =>
  process.env.STAGEWRIGHT_ELECTRON !== undefined ? { STAGEWRIGHT_ELECTRON: process.env.STAGEWRIGHT_ELECTRON } : {}

/** The built server over stdio (dist/cli.js serve ...args; the full profile unless args name one, as inMemoryClient). */
export const stdioClient = async (
  args: ReadonlyArray<string> = [],
  env?: Record<string, string>
): Promise<TestClient & { readonly pid: number | undefined }> => {
  const named = args.some((a) => a === "--tool-profile" || a.startsWith("--tool-profile=") || a === "--tools" || a.startsWith("--tools="))
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "serve", ...(named ? [] : ["--tool-profile", FULL_UNLESS_NAMED.toolProfile]), ...args],
    stderr: "pipe",
    // The SDK passes a child only a few variables: the Electron the tests chose (STAGEWRIGHT_ELECTRON) goes too.
    env: { ...getDefaultEnvironment(), ...electronChoice(), ...(env ?? {}) }
  })
  const client = new Client({ name: "stagewright-tests", version: "1.0.0" })
  await client.connect(transport)
  return { ...wrap(client, () => client.close()), pid: transport.pid ?? undefined }
}

/** A fresh userData folder for the sample apps (they honour SAMPLE_APP_USER_DATA). */
export const freshUserData = () => mkdtempSync(join(tmpdir(), "stagewright-userdata-"))

/** Waits until `pid` no longer exists, up to `timeoutMs`; returns whether it is gone. */
export const waitForExit = async (pid: number, timeoutMs = 15_000): Promise<boolean> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      process.kill(pid, 0)
    } catch {
      return true
    }
    if (Date.now() > deadline) return false
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** Counts list_changed notifications; `next()` resolves on the next one. Set before connecting. */
export const listChanges = (client: Client) => {
  let count = 0
  let waiters: Array<() => void> = []
  client.setNotificationHandler(ResourceListChangedNotificationSchema, async () => {
    count++
    for (const w of waiters) w()
    waiters = []
  })
  return { count: () => count, next: () => new Promise<void>((resolve) => waiters.push(resolve)) }
}
