/**
 * Writes docs/TOOLS.md from the documentation manifest and the README's profile block from the named
 * lists: `npm run docs:tools`.
 */
import { NodeRuntime } from "@effect/platform-node"
import { Console, Data, Effect } from "effect"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { repoRoot } from "../repo-root.js"
import { PROFILES_BEGIN, PROFILES_END, renderReadmeProfiles, spliceProfiles } from "./readme-profiles.js"
import { loadReferenceInput, renderToolsReference } from "./tools-reference.js"

export const TOOLS_MD = join(repoRoot(), "docs", "TOOLS.md")
export const README_MD = join(repoRoot(), "README.md")

class ReadFailed extends Data.TaggedError("ReadFailed")<{ readonly path: string; readonly cause: unknown }> {}
class WriteFailed extends Data.TaggedError("WriteFailed")<{ readonly path: string; readonly cause: unknown }> {}
class MarkersMissing extends Data.TaggedError("MarkersMissing")<{ readonly path: string; readonly message: string }> {}

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

  const readme = yield* Effect.try({ try: () => readFileSync(README_MD, "utf8"), catch: (cause) => new ReadFailed({ path: README_MD, cause }) })
  const spliced = spliceProfiles(readme, renderReadmeProfiles())
  if (spliced === undefined) {
    return yield* new MarkersMissing({ path: README_MD, message: `README.md needs the lines ${PROFILES_BEGIN} and ${PROFILES_END}, once each, in that order` })
  }
  if (spliced !== readme) {
    yield* Effect.try({ try: () => writeFileSync(README_MD, spliced), catch: (cause) => new WriteFailed({ path: README_MD, cause }) })
  }
  yield* Console.log(`README.md: the profile block ${spliced === readme ? "is up to date" : "was rewritten"}`)
}).pipe(NodeRuntime.runMain)
