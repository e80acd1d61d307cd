/**
 * Reading a file that an agent or an app folder names (a package.json, a HAR, an Electron package's
 * path.txt): the type is checked first (a regular file only: a FIFO, a socket or a device is refused
 * without being opened, so nothing can block the event loop), then the file is opened non-blocking, its
 * type checked again on the open descriptor, and at most `maxBytes` read. Answers the text, or a reason.
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from "node:fs"

/** Why a file was not read (never quotes its content). */
export interface NotRead {
  readonly reason: string
}

/** The default bound on one such read: 4 MiB (a package.json or path.txt is far smaller). */
export const MAX_READ_BYTES = 4 * 1024 * 1024

export const readRegularFile = (path: string, maxBytes: number = MAX_READ_BYTES): string | NotRead => {
  let fd: number | undefined
  try {
    if (!statSync(path).isFile()) return { reason: `${path} is not a regular file` }
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
    const stat = fstatSync(fd)
    if (!stat.isFile()) return { reason: `${path} is not a regular file` }
    if (stat.size > maxBytes) return { reason: `${path} is larger than ${maxBytes} bytes` }
    const buffer = Buffer.alloc(Math.min(stat.size, maxBytes))
    let read = 0
    while (read < buffer.length) {
      const got = readSync(fd, buffer, read, buffer.length - read, read)
      if (got === 0) break
      read += got
    }
    return buffer.subarray(0, read).toString("utf8")
  } catch (error) {
    return { reason: `${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})` }
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/** The parsed JSON of such a file, or undefined when it cannot be read or is not JSON. */
export const readJsonFile = (path: string, maxBytes?: number): unknown => {
  const text = readRegularFile(path, maxBytes)
  if (typeof text !== "string") return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
