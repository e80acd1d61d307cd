/**
 * Composing Stagewright's layers into a larger Effect program, without MCP: launch the `tasks` sample
 * app with the driver's services, add a task through the same Dispatcher the MCP server uses, read the
 * list directly through the driver, and recover from a typed error by its tag.
 *
 *   npx tsx examples/drive-tasks.ts
 */
import { Effect, Layer } from "effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { AppLifecycle, Dispatcher, PageOps, Snapshots, Windows, coreLayer, type DriverServices, type StartError } from "../src/index.js"
import { sampleAppPath } from "../src/samples.js"

// The example runs on the project's Electron stand-in unless STAGEWRIGHT_ELECTRON names a real Electron.
process.env.STAGEWRIGHT_ELECTRON ||= "standin"

export interface Outcome {
  readonly added: string
  readonly firstTitles: ReadonlyArray<string>
  readonly recovered: string
}

export const program = Effect.gen(function* () {
  const lifecycle = yield* AppLifecycle
  const windows = yield* Windows
  const pages = yield* PageOps
  const snapshots = yield* Snapshots
  const dispatcher = yield* Dispatcher

  yield* lifecycle.launch({ app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: mkdtempSync(join(tmpdir(), "stagewright-example-")) } })
  const board = yield* windows.window()
  yield* pages.run("wait for the board", () => board.page.getByTestId("late-panel").waitFor())

  // The same tool contract an agent uses over MCP, called in-process.
  const title = "Written by an Effect program"
  yield* dispatcher.call("electron_fill", { target: "testid=task-title-input", value: title })
  const click = yield* dispatcher.call("electron_click", { target: 'role=button[name="Add task"]' })
  if (click.isError) return yield* Effect.dieMessage(`click failed: ${JSON.stringify(click.content)}`)

  // Or straight through the driver, with playwright-core's Page.
  const firstTitles = yield* pages.run("read the titles", () => board.page.getByTestId("task-title").allInnerTexts())

  // A ref that no snapshot produced fails with the typed RefStale error: recover by its tag.
  const recovered = yield* snapshots.locate(board, "e9999").pipe(
    Effect.as("unexpected: the ref resolved"),
    Effect.catchTag("RefStale", (error) => Effect.succeed(`recovered from ${error._tag}: ${error.message}`))
  )
  yield* lifecycle.close()
  return { added: title, firstTitles: firstTitles.slice(0, 3), recovered } satisfies Outcome
})

/** The layer the program needs: Stagewright's core services, built once; it can fail only with a start-up error. */
export const ExampleLive: Layer.Layer<DriverServices | Dispatcher, StartError> = coreLayer({ toolProfile: "essential" })

if (import.meta.url === `file://${process.argv[1]}`) {
  Effect.runPromise(program.pipe(Effect.provide(ExampleLive), Effect.scoped)).then(
    (outcome) => process.stdout.write(`${JSON.stringify(outcome, null, 2)}\n`),
    (error) => {
      process.stderr.write(`${String(error)}\n`)
      process.exitCode = 1
    }
  )
}
