/**
 * Bounded, confined reads of a build's files for the release checks: a path is read only when its real
 * path (symlinks resolved) lies inside the folder it belongs to (the build, or the folder the agent
 * gave), and never more than MAX_READ bytes at once. A ByteSource is a file (or, in tests, a buffer)
 * read at offsets, so a parser asks only for the few header bytes it needs, whatever the file's size.
 */
import { open, realpath, stat } from "node:fs/promises"
import { isAbsolute, relative } from "node:path"

/** The most a parser may ask for in one read. */
export const MAX_READ = 1 << 20

export interface ByteSource {
  readonly size: number
  /** `length` bytes at `offset`; undefined when they are not all inside the source, or exceed MAX_READ. */
  readonly read: (offset: number, length: number) => Promise<Buffer | undefined>
}

const inBounds = (size: number, offset: number, length: number) =>
  Number.isSafeInteger(offset) && Number.isSafeInteger(length) && offset >= 0 && length >= 0 && length <= MAX_READ && offset + length <= size

export const bufferSource = (data: Buffer): ByteSource => ({
  size: data.length,
  read: async (offset, length) => (inBounds(data.length, offset, length) ? data.subarray(offset, offset + length) : undefined)
})

/** Where a path leads, seen from `folder`. */
export type Located =
  | { readonly kind: "file"; readonly real: string; readonly size: number }
  | { readonly kind: "missing" }
  | { readonly kind: "outside"; readonly real: string }
  | { readonly kind: "not-a-file"; readonly real: string }

const inside = (folder: string, path: string) => {
  const rel = relative(folder, path)
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel))
}

/** Resolves `path` (symlinks too) and says whether it is a regular file inside `folder` (symlinks resolved). */
export const locate = async (folder: string, path: string): Promise<Located> => {
  let real: string
  try {
    real = await realpath(path)
  } catch {
    return { kind: "missing" }
  }
  const realFolder = await realpath(folder).catch(() => folder)
  if (!inside(realFolder, real)) return { kind: "outside", real }
  const stats = await stat(real).catch(() => undefined)
  if (stats === undefined) return { kind: "missing" }
  if (!stats.isFile()) return { kind: "not-a-file", real }
  return { kind: "file", real, size: stats.size }
}

/** Why a located path cannot be read, in words (undefined for a file). */
export const unreadableReason = (located: Located, shown: string): string | undefined =>
  located.kind === "missing"
    ? `${shown} does not exist`
    : located.kind === "outside"
      ? `${shown} is a link that leads outside the build (${located.real}), which Stagewright does not follow`
      : located.kind === "not-a-file"
        ? `${shown} is not a regular file`
        : undefined

/** Runs `use` on the confined file at `path` as a ByteSource, closing it afterwards. */
export const withSource = async <A>(located: Located & { kind: "file" }, use: (source: ByteSource) => Promise<A>): Promise<A> => {
  const handle = await open(located.real, "r")
  try {
    const size = located.size
    return await use({
      size,
      read: async (offset, length) => {
        if (!inBounds(size, offset, length)) return undefined
        const buffer = Buffer.alloc(length)
        const { bytesRead } = await handle.read(buffer, 0, length, offset)
        // The file shrank under us: what was not read does not exist.
        return bytesRead === length ? buffer : undefined
      }
    })
  } finally {
    await handle.close()
  }
}

/** The whole content of a small confined file, or why there is none (missing, a link outside, larger than `max`). */
export const readSmall = async (
  folder: string,
  path: string,
  shown: string,
  max: number
): Promise<{ readonly data: Buffer } | { readonly missing: true } | { readonly error: string }> => {
  const located = await locate(folder, path)
  if (located.kind === "missing") return { missing: true }
  if (located.kind !== "file") return { error: unreadableReason(located, shown)! }
  if (located.size > max) return { error: `${shown} is ${located.size} bytes, more than the ${max} Stagewright reads` }
  const data = await withSource(located, async (source) => source.read(0, located.size))
  return data === undefined ? { error: `${shown} could not be read (it changed while being read)` } : { data }
}
