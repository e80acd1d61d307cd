/**
 * Writes docs/TOOLS.md from the documentation manifest: `npm run docs:tools`.
 */
import { NodeRuntime } from "@effect/platform-node"
import { Console, Data, Effect } from "effect"
import { mkdirSync, writeFileSync } from "node:fs"
import { dirname, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { loadReferenceInput, renderToolsReference } from "./tools-reference.js"

export const TOOLS_MD = resolve(fileURLToPath(new URL("../../../", import.meta.url)), "docs", "TOOLS.md")

class WriteFailed extends Data.TaggedError("WriteFailed")<{ readonly path: string; readonly cause: unknown }> {}

Effect.gen(function* () {
  const input = yield* loadReferenceInput
  const text = renderToolsReference(input)
  yield* Effect.try({
    try: () => {
      mkdirSync(dirname(TOOLS_MD), { recursive: true })
      writeFileSync(TOOLS_MD, text)
    },
    catch: (cause) => new WriteFailed({ path: TOOLS_MD, cause })
  })
  yield* Console.log(`docs/TOOLS.md: ${input.tools.length} tools`)
}).pipe(NodeRuntime.runMain)
