#!/usr/bin/env node
/**
 * The `stagewright` bin (built to dist/cli.js): runs the bundled command line, dist/bin/stagewright.cjs,
 * compiled with V8's code cache (src/cli/compile-cache.ts).
 */
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { registerImporter } from "../dynamic-import.js"
import { runWithCompileCache } from "./compile-cache.js"

// import() from this module, a real one: the bundle's own is lost when it runs from the code cache.
registerImporter((specifier) => import(specifier))
runWithCompileCache(join(dirname(fileURLToPath(import.meta.url)), "bin", "stagewright.cjs"))
