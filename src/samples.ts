/**
 * The repository's sample apps (test/fixtures/apps/), for the tests, the demo (`npm start`) and the
 * benchmarks. They stay in the repository: the installed package has no test/ folder (package.json
 * `files`), so nothing the server runs may import this module (deps:check: only src/demo.ts and
 * src/bench/ do, besides the tests).
 */
import { join } from "node:path"
import { packageRoot } from "./layers/driver/electron-runtime.js"

export type SampleApp = "tasks" | "framework" | "hardened" | "insecure"

/** The folder of a sample app in this repository. */
export const sampleAppPath = (name: SampleApp): string => join(packageRoot(), "test", "fixtures", "apps", name)
