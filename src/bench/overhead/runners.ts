/** The three runners of the overhead benchmark (playwright-core directly, in-memory MCP, stdio MCP) and their timing. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js"
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { CallToolRequestSchema } from "@modelcontextprotocol/sdk/types.js"
import { Chunk, Effect, Random } from "effect"

import { existsSync, mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

import { _electron, type ElectronApplication, type Page } from "playwright-core"
import { createServer, PLAIN_FIELD_SELECTOR, resolveElectronRuntime } from "../../index.js"
import { sampleAppPath } from "../../samples.js"
import { repoRoot } from "../repo-root.js"
import { CALL_TYPES, type CallKind, type CallType } from "./sequence.js"

const root = repoRoot()
const temp = (prefix: string) => mkdtempSync(join(tmpdir(), prefix))

/** The runner whose actions are each followed by the page's aria snapshot (directRunner(true)). */
export const DIRECT_THEN_SNAPSHOT = "direct, then a snapshot"

export interface Runner {
  readonly name: string
  readonly setup: () => Promise<void>
  readonly call: (type: CallType, i: number) => Promise<void>
  readonly teardown: () => Promise<void>
  /** Direct only: the cost of the playwright-core calls Stagewright adds, measured alone. */
  readonly probe?: (rounds: number) => Promise<Record<string, number>>
  readonly page?: () => Page
  readonly app?: () => ElectronApplication
  /** The kinds of call it makes (all when absent): the others are skipped in its turn. */
  readonly kinds?: ReadonlySet<CallKind>
  /** A same-page reference (./same-page.ts): the runner whose app it calls directly. */
  readonly reference?: string
  /** A Stagewright runner's MCP client (after setup). */
  readonly client?: () => Client
}

/**
 * The playwright-core calls the tools add around the call an author would make (see the round-trip
 * table), each timed alone on the same page: what a tool would save by dropping or deferring it.
 * `stage` names the pipeline stage that makes the call (the per-stage table, ./stages.ts).
 */
export const PROBES: ReadonlyArray<{
  readonly name: string
  readonly stage: string
  readonly run: (page: Page, app: ElectronApplication) => Promise<unknown>
  /** Done before each timed run, untimed: the state the stage meets in a tool call (an action just made). */
  readonly before?: (page: Page, round: number) => Promise<unknown>
}> = [
  {
    name: "locator.normalize() (locatorCode: the step's code)",
    stage: "step code",
    run: (page) => page.locator("[data-testid=toggle-theme-button]").normalize()
  },
  { name: "locator.count() (ambiguity check)", stage: "ambiguity check", run: (page) => page.locator("[data-testid=notice]").count() },
  { name: 'page.ariaSnapshot({ mode: "ai" }) (change summary)', stage: "change summary: snapshot", run: (page) => page.ariaSnapshot({ mode: "ai" }) },
  { name: "page.title() (window header)", stage: "window header", run: (page) => page.title() },
  {
    name: "electronApplication.evaluate() (held native dialogs read)",
    stage: "held native dialogs read",
    run: (_page, app) => app.evaluate(() => (globalThis as { __stagewrightModals?: unknown }).__stagewrightModals ?? null)
  },
  {
    name: "locator.evaluate() (editor detection, password check)",
    stage: "editor detection",
    run: (page) => page.locator("[data-testid=task-title-input]").evaluate((el) => el.tagName)
  },
  {
    name: "locator.locator(plain field).count() (editor detection, plain field)",
    stage: "editor detection (plain field)",
    run: (page) => page.locator("[data-testid=task-title-input]").locator(PLAIN_FIELD_SELECTOR).count()
  },
  {
    // The check after an action reads every element's visibility and every field's value of a page the action
    // just changed (its style and layout not computed yet): timed after a fill, as a tool call meets it.
    name: "page.evaluate() of every element's visibility and value, after a fill (page-changes check)",
    stage: "change summary: page check",
    before: (page, round) => page.locator("[data-testid=task-title-input]").fill(`Probe ${round}`),
    run: (page) =>
      page.evaluate(() =>
        Array.from(document.querySelectorAll("*")).reduce(
          (n, e) => n + (e.checkVisibility() ? 1 : 0) + (e instanceof HTMLInputElement || e instanceof HTMLTextAreaElement ? e.value.length : 0),
          0
        )
      )
  },
  { name: "frame.evaluate() (password values of a snapshot)", stage: "change summary: password masking", run: (page) => page.mainFrame().evaluate("[]") }
]

/**
 * The direct calls; with `snapshotAfterActions`, each action is followed by the page's AI-mode aria snapshot:
 * what showing an agent the page after an action costs through playwright-core alone (a server that answers
 * every action with the page's snapshot pays this), the reference for what a change summary costs.
 */
export const directRunner = (snapshotAfterActions = false): Runner => {
  let app: ElectronApplication | undefined
  let page: Page | undefined
  // The added calls timed alone: once, by the plain direct runner.
  const probe = async (rounds: number) => {
    const result: Record<string, number> = {}
    for (const probe of PROBES) {
      await probe.run(page!, app!)
      const times: Array<number> = []
      for (let i = 0; i < rounds; i++) {
        await probe.before?.(page!, i)
        const t0 = performance.now()
        await probe.run(page!, app!)
        times.push(performance.now() - t0)
      }
      result[probe.name] = round2(median(times))
    }
    return result
  }
  return {
    name: snapshotAfterActions ? DIRECT_THEN_SNAPSHOT : "direct",
    setup: async () => {
      app = await _electron.launch({
        executablePath: resolveElectronRuntime().executablePath,
        args: [sampleAppPath("tasks")],
        env: { ...(process.env as Record<string, string>), SAMPLE_APP_USER_DATA: temp("stagewright-overhead-ud-") }
      })
      page = await app.firstWindow()
      await page.locator("[data-testid=board-name]").waitFor({ timeout: 30_000 })
    },
    call: async (type, i) => {
      await type.direct(page!, i)
      if (snapshotAfterActions && type.kind === "action") await page!.ariaSnapshot({ mode: "ai", timeout: 5_000 })
    },
    teardown: async () => {
      await app?.close()
    },
    page: () => page!,
    app: () => app!,
    ...(snapshotAfterActions ? {} : { probe })
  }
}

/** A bare MCP SDK server with one handler: the named call type's direct call on `page()`. */
export const floorServer = (page: () => Page): Server => {
  const server = new Server({ name: "overhead-floor", version: "1" }, { capabilities: { tools: {} } })
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const type = CALL_TYPES.find((t) => t.name === request.params.name)
    if (type === undefined) return { content: [{ type: "text", text: `no call type ${request.params.name}` }], isError: true }
    await type.direct(page(), Number(request.params.arguments?.["i"] ?? 0))
    return { content: [{ type: "text", text: "done" }] }
  })
  return server
}

/**
 * The floor of the MCP hop: a bare SDK server on the in-memory pair whose one handler makes the direct
 * playwright-core call (on an app of its own). What it adds over direct is the SDK's cost on both ends,
 * which no MCP server avoids; what Stagewright adds over it is its own.
 */
export const sdkFloorRunner = (): Runner => {
  const direct = directRunner()
  let client: Client | undefined
  let server: Server | undefined
  return {
    name: "bare SDK handler",
    setup: async () => {
      await direct.setup()
      server = floorServer(direct.page!)
      const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair()
      await server.connect(serverTransport)
      client = new Client({ name: "overhead-bench", version: "1" })
      await client.connect(clientTransport)
    },
    call: async (type, i) => {
      await toolCaller(client!)(type.name, { i })
    },
    teardown: async () => {
      await client?.close()
      await server?.close()
      await direct.teardown()
    }
  }
}

/** The same floor over stdio: a child process running src/bench/overhead/stdio-floor.ts. */
export const stdioFloorRunner = (): Runner => {
  let client: Client | undefined
  return {
    name: "bare SDK handler, stdio",
    setup: async () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: ["--import", "tsx", join(root, "src", "bench", "overhead", "stdio-floor.ts")],
        cwd: root,
        env: { ...getDefaultEnvironment(), STAGEWRIGHT_ELECTRON: process.env.STAGEWRIGHT_ELECTRON ?? "standin" },
        stderr: "ignore"
      })
      client = new Client({ name: "overhead-bench", version: "1" })
      await client.connect(transport)
    },
    call: async (type, i) => {
      await toolCaller(client!)(type.name, { i })
    },
    teardown: async () => {
      await client?.close()
    }
  }
}

export const toolCaller = (client: Client) => async (name: string, args: Record<string, unknown>) => {
  const result = (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as {
    isError?: boolean
    content?: Array<{ text?: string }>
  }
  if (result.isError === true) throw new Error(`${name} ${JSON.stringify(args)} failed: ${result.content?.map((c) => c.text).join(" ")}`)
}

export const launchThroughTools = async (call: ReturnType<typeof toolCaller>, snapshot: boolean) => {
  await call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: temp("stagewright-overhead-ud-") } })
  await call("electron_wait_for", { target: "[data-testid=board-name]" })
  if (snapshot) await call("electron_snapshot", {})
}

export const inMemoryRunner = (snapshot: boolean): Runner => {
  let client: Client | undefined
  let close: (() => Promise<void>) | undefined
  return {
    name: snapshot ? "in-memory" : "in-memory, no snapshot",
    setup: async () => {
      const server = await createServer({ toolProfile: "full", outputDir: temp("stagewright-overhead-out-") })
      const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair()
      await server.connect(serverTransport)
      client = new Client({ name: "overhead-bench", version: "1" })
      await client.connect(clientTransport)
      close = async () => {
        await client!.close()
        await server.close()
      }
      await launchThroughTools(toolCaller(client), snapshot)
    },
    client: () => client!,
    call: async (type, i) => {
      const { name, arguments: args } = type.tool(i)
      await toolCaller(client!)(name, args)
    },
    teardown: async () => {
      await toolCaller(client!)("electron_close", {}).catch(() => undefined)
      await close?.()
    }
  }
}

export const stdioRunner = (): Runner => {
  let client: Client | undefined
  return {
    name: "stdio",
    setup: async () => {
      const cli = join(root, "dist", "cli.js")
      if (!existsSync(cli)) throw new Error(`${cli} is missing: run npm run build first`)
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [cli, "serve", "--tool-profile", "full", "--output-dir", temp("stagewright-overhead-out-")],
        env: { ...getDefaultEnvironment(), STAGEWRIGHT_ELECTRON: process.env.STAGEWRIGHT_ELECTRON ?? "standin" },
        stderr: "ignore"
      })
      client = new Client({ name: "overhead-bench", version: "1" })
      await client.connect(transport)
      await launchThroughTools(toolCaller(client), true)
    },
    client: () => client!,
    call: async (type, i) => {
      const { name, arguments: args } = type.tool(i)
      await toolCaller(client!)(name, args)
    },
    teardown: async () => {
      await toolCaller(client!)("electron_close", {}).catch(() => undefined)
      await client?.close()
    }
  }
}

/** Whether `runner` makes calls of `type`'s kind (a same-page reference makes reads only). */
export const makesCall = (runner: Runner, type: CallType): boolean => runner.kinds === undefined || runner.kinds.has(type.kind)

/**
 * The order in which `count` runners make one call type in one round: a permutation drawn from a generator
 * seeded with the round and the call type (the same run after run). A rotation kept each runner behind the same
 * one every time, and what a call leaves running once it has answered (a stdio server's own process, an app still
 * re-rendering) is paid by whoever comes next: in a rotation always the same runner.
 */
export const turnOrder = (count: number, round: number, typeIndex: number): ReadonlyArray<number> =>
  Chunk.toReadonlyArray(Effect.runSync(Random.make(`overhead:${round}:${typeIndex}`).shuffle(Array.from({ length: count }, (_, i) => i))))

/**
 * Sets every runner up (each with its own app), runs the warm-up round, then `rounds` timed rounds in
 * which each call type is made by every runner in turn, in an order drawn for that turn (`turnOrder`).
 * Interleaving puts the runners under the same load at the same moment: on a shared machine the load
 * drifts over the minutes a runner-after-runner pass takes, and the ratios drifted with it.
 */
export const timeInterleaved = async (runners: ReadonlyArray<Runner>, rounds: number, log: (line: string) => void, probes: Record<string, number>) => {
  const times = new Map(runners.map((r) => [r.name, new Map<string, Array<number>>(CALL_TYPES.map((t) => [t.name, []]))]))
  const ready: Array<Runner> = []
  try {
    for (const runner of runners) {
      await runner.setup()
      ready.push(runner)
    }
    for (const runner of runners) for (const type of CALL_TYPES) if (makesCall(runner, type)) await runner.call(type, 0)
    for (let round = 1; round <= rounds; round++) {
      for (const [typeIndex, type] of CALL_TYPES.entries()) {
        for (const index of turnOrder(runners.length, round, typeIndex)) {
          const runner = runners[index]!
          if (!makesCall(runner, type)) continue
          const t0 = performance.now()
          await runner.call(type, round)
          times
            .get(runner.name)!
            .get(type.name)!
            .push(performance.now() - t0)
        }
      }
    }
    for (const runner of runners) if (runner.probe) Object.assign(probes, await runner.probe(rounds))
  } finally {
    for (const runner of ready) await runner.teardown()
  }
  for (const runner of runners) {
    const made = [...times.get(runner.name)!.values()].flat()
    log(`  ${runner.name}: ${made.length} calls in ${(made.reduce((a, b) => a + b, 0) / 1000).toFixed(1)} s`)
  }
  return times
}

export const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}
export const round2 = (n: number) => Math.round(n * 100) / 100
