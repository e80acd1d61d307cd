/**
 * Output paths: screenshots, traces, exports and oversized responses are written under one folder,
 * and a caller-chosen name can never leave it.
 */
import { existsSync, lstatSync, mkdirSync, readlinkSync, realpathSync, statSync } from "node:fs"
import { basename, dirname, join, relative, resolve, isAbsolute } from "node:path"
import { PathNotAllowed } from "./errors.js"

/**
 * Resolves the file `name` inside `dir`; fails when it would land outside. Creates `dir` when missing.
 * A name is one path segment without control characters; it always ends in `defaultExt` (a name with
 * another extension gets it appended: an artifact is never written as a page or a script). The check is
 * made on the real paths (symlinks resolved), so a link planted inside the folder cannot lead a write
 * or a read out of it.
 */
export const outputPath = (dir: string, name: string, defaultExt: string): string | PathNotAllowed => {
  const plain = `Give a plain file name such as "${
    basename(name)
      .replace(/[^\w.-]/g, "_")
      .replace(/^\.+/, "") || "output"
  }${defaultExt}".`
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return new PathNotAllowed({ message: "the file name contains a control character", hint: plain })
  if (/[/\\]/.test(name) || name === "." || name === ".." || name.trim() === "") {
    return new PathNotAllowed({ message: `"${name}" is not a single file name (no folders, no "..")`, hint: plain })
  }
  const root = resolve(dir)
  const withExt = name.toLowerCase().endsWith(defaultExt.toLowerCase()) ? name : `${name}${defaultExt}`
  const candidate = join(root, withExt)
  mkdirSync(root, { recursive: true })
  const realRoot = realpathSync(root)
  const real = realPathOf(candidate)
  if (!inside(realRoot, real) || real === realRoot) {
    return new PathNotAllowed({ message: `"${name}" resolves outside the output folder ${root}${real !== candidate ? ` (really ${real})` : ""}`, hint: plain })
  }
  return candidate
}

/** A file name that is unique enough for artifacts: prefix-YYYYMMDD-HHMMSS-mmm.ext */
export const timestampedName = (prefix: string, ext: string): string => {
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace("T", "-").replace(/\..*$/, "")
  return `${prefix}-${stamp}-${String(Date.now() % 1000).padStart(3, "0")}${ext}`
}

export const joinPath = join

/** The real path of `path`, resolving symlinks of its nearest existing ancestor when it does not exist yet. */
export const realPathOf = (path: string, hops = 0): string => {
  const absolute = resolve(path)
  if (existsSync(absolute)) return realpathSync(absolute)
  // A dangling symlink: writing to it would create its target, so its target is where the path leads.
  const link = danglingLink(absolute)
  if (link !== undefined && hops < 40) return realPathOf(resolve(dirname(absolute), link), hops + 1)
  const parent = dirname(absolute)
  return parent === absolute ? absolute : join(realPathOf(parent, hops), basename(absolute))
}

const danglingLink = (path: string): string | undefined => {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined
  } catch {
    return undefined
  }
}

const inside = (root: string, path: string) => {
  const rel = relative(root, path)
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel))
}

/** Kernel pseudo-filesystems: reading them hands out the server's environment, memory maps and devices. */
const SPECIAL_ROOTS = ["/proc", "/sys", "/dev"]

/**
 * What makes a real path one no tool may take (undefined: it may): a path under procfs, sysfs or /dev
 * (`/proc/self/environ` holds the server's environment even after a variable was deleted), or an
 * existing file that is neither a regular file nor a folder (a FIFO blocks its reader, a device streams).
 */
export const specialFile = (real: string): string | undefined => {
  const under = SPECIAL_ROOTS.find((root) => inside(root, real))
  if (under !== undefined) return `under ${under}`
  try {
    const stat = statSync(real)
    if (stat.isFile() || stat.isDirectory()) return undefined
    return stat.isFIFO() ? "a FIFO" : stat.isSocket() ? "a socket" : "a device file"
  } catch {
    return undefined
  }
}

/**
 * Confines a caller-given path to `--app-root` (after resolving symlinks): returns the resolved path,
 * or PathNotAllowed naming the argument. Without an app root every path is allowed but special files
 * (procfs, sysfs, devices, FIFOs, sockets: `specialFile`), which are refused with or without one.
 */
export const confinePath = (appRoot: string | undefined, path: string, argument: string, base?: string): string | PathNotAllowed => {
  const resolved = resolve(base ?? ".", path)
  const real = realPathOf(resolved)
  const special = specialFile(real)
  if (special !== undefined) {
    return new PathNotAllowed({
      message: `${argument}: ${resolved}${real !== resolved ? ` (really ${real})` : ""} is ${special}, which no tool reads or runs`,
      hint: "Give a regular file or folder (procfs, sysfs and device files, FIFOs and sockets are refused)."
    })
  }
  if (appRoot === undefined) return resolved
  const root = realPathOf(appRoot)
  if (inside(root, real)) return resolved
  return new PathNotAllowed({
    message: `${argument}: ${resolved}${real !== resolved ? ` (really ${real})` : ""} is outside the app root ${root}`,
    hint: `Use a path inside ${root}; the server was started with --app-root.`
  })
}
