/**
 * Output paths: screenshots, traces, exports and oversized responses are written under one folder,
 * and a caller-chosen name can never leave it.
 */
import { mkdirSync } from "node:fs"
import { basename, extname, join, relative, resolve, isAbsolute } from "node:path"
import { PathNotAllowed } from "../tools/errors.js"

/** Resolves `name` inside `dir`; fails when it would land outside. Creates `dir` when missing. */
export const outputPath = (dir: string, name: string, defaultExt: string): string | PathNotAllowed => {
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
