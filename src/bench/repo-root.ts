/**
 * The repository the benchmarks run in. They run from source (tsx, vite-node) and are never built or
 * published, so this file always sits two folders below the root: no search for package.json, and
 * nothing of the library's internals.
 */
import { dirname, resolve } from "node:path"
import { fileURLToPath } from "node:url"

export const repoRoot = (): string => resolve(dirname(fileURLToPath(import.meta.url)), "..", "..")
