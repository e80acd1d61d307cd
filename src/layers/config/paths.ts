/**
 * Output paths: screenshots, traces, exports and oversized responses are written under one folder,
 * and a caller-chosen name can never leave it.
 */
import { existsSync, mkdirSync, realpathSync } from "node:fs"
import { basename, dirname, extname, join, relative, resolve, isAbsolute } from "node:path"
import { PathNotAllowed } from "./errors.js"

/** Resolves `name` inside `dir`; fails when it would land outside. Creates `dir` when missing. */
export const outputPath = (dir: string, name: string, defaultExt: string): string | PathNotAllowed => {
  if (name.includes("\0")) return new PathNotAllowed({ message: "the file name contains a NUL character", hint: `Give a plain file name such as "output${defaultExt}".` })
  const root = resolve(dir)
  const candidate = resolve(root, extname(name) === "" ? `${name}${defaultExt}` : name)
  const rel = relative(root, candidate)
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) {
    return new PathNotAllowed({
      message: `"${name}" resolves outside the output folder ${root}`,
      hint: `Give a plain file name such as "${basename(name).replace(/[^\w.-]/g, "_") || "output" + defaultExt}".`
    })
  }
  mkdirSync(resolve(candidate, ".."), { recursive: true })
  return candidate
}

/** A file name that is unique enough for artifacts: prefix-YYYYMMDD-HHMMSS-mmm.ext */
export const timestampedName = (prefix: string, ext: string): string => {
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace("T", "-").replace(/\..*$/, "")
  return `${prefix}-${stamp}-${String(Date.now() % 1000).padStart(3, "0")}${ext}`
}

export const joinPath = join

/** The real path of `path`, resolving symlinks of its nearest existing ancestor when it does not exist yet. */
export const realPathOf = (path: string): string => {
  const absolute = resolve(path)
  if (existsSync(absolute)) return realpathSync(absolute)
  const parent = dirname(absolute)
  return parent === absolute ? absolute : join(realPathOf(parent), basename(absolute))
}

const inside = (root: string, path: string) => {
  const rel = relative(root, path)
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel))
}

/**
 * Confines a caller-given path to `--app-root` (after resolving symlinks): returns the resolved path,
 * or PathNotAllowed naming the argument. Without an app root every path is allowed.
 */
export const confinePath = (appRoot: string | undefined, path: string, argument: string, base?: string): string | PathNotAllowed => {
  const resolved = resolve(base ?? ".", path)
  if (appRoot === undefined) return resolved
  const root = realPathOf(appRoot)
  const real = realPathOf(resolved)
  if (inside(root, real)) return resolved
  return new PathNotAllowed({
    message: `${argument}: ${resolved}${real !== resolved ? ` (really ${real})` : ""} is outside the app root ${root}`,
    hint: `Use a path inside ${root}; the server was started with --app-root.`
  })
}
