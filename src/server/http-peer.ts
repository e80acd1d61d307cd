/**
 * Which local process holds the other end of a loopback connection (Linux): the client socket is found in
 * /proc/net/tcp{,6} by its port pair, its owner's uid read there, and the process holding that socket's
 * inode among /proc/<pid>/fd (only the server's own user's processes are readable) named by pid and start
 * time (a reused pid is another process). Two MCP clients on the same host with the same token are two
 * processes: a session bound to its creator's process (./http-session.ts) cannot be used by the other.
 * Read asynchronously and once per TCP connection; "" when the peer is not local or /proc has no answer.
 */
import { readdir, readFile, readlink } from "node:fs/promises"
import type { Socket } from "node:net"

const cache = new WeakMap<Socket, Promise<string>>()

const hexPort = (port: number) => port.toString(16).toUpperCase().padStart(4, "0")

/** The uid and inode of the socket whose local port is `local` and remote port is `remote`. */
const findSocket = async (local: number, remote: number): Promise<{ uid: string; inode: string } | undefined> => {
  const l = `:${hexPort(local)}`
  const r = `:${hexPort(remote)}`
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    const text = await readFile(table, "utf8").catch(() => "")
    for (const line of text.split("\n")) {
      const f = line.trim().split(/\s+/)
      if (f[1]?.endsWith(l) && f[2]?.endsWith(r) && f[9] !== undefined && f[9] !== "0") return { uid: f[7]!, inode: f[9] }
    }
  }
  return undefined
}

const startOf = async (pid: string) => {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "")
  // The start time is field 22; fields after the command (in parentheses, which may hold spaces).
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? ""
}

/** The process holding the socket: this user's processes, newest (highest pid) first, each one's fds read at once. */
const holder = async (inode: string): Promise<string | undefined> => {
  const wanted = `socket:[${inode}]`
  const pids = (await readdir("/proc").catch(() => [] as Array<string>)).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a))
  for (const pid of pids) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as Array<string>)
    const links = await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => "")))
    if (links.includes(wanted)) return `${pid}@${await startOf(pid)}`
  }
  return undefined
}

const isLoopbackAddress = (address: string | undefined) => address !== undefined && (/^(::ffff:)?127\./i.test(address) || address === "::1")

const identify = async (socket: Socket): Promise<string> => {
  if (process.platform !== "linux" || !isLoopbackAddress(socket.remoteAddress) || socket.remotePort === undefined || socket.localPort === undefined) return ""
  const found = await findSocket(socket.remotePort, socket.localPort)
  if (found === undefined) return ""
  return `uid ${found.uid} process ${(await holder(found.inode)) ?? "?"}`
}

/** The local process at the other end of `socket` ("" when not known), looked up once per connection. */
export const peerProcess = (socket: Socket): Promise<string> => {
  let known = cache.get(socket)
  if (known === undefined) cache.set(socket, (known = identify(socket).catch(() => "")))
  return known
}
