/**
 * Tiny synthetic executables for the release-signature checks, built in memory by the tests (nothing
 * binary is committed): a Mach-O (thin or fat) with or without LC_CODE_SIGNATURE and its SuperBlob, a PE
 * with or without a certificate table, an ELF (an AppImage runtime) with named sections. Each holds only
 * the headers the parsers read, laid out as the formats define them.
 */

const CPU = { x86_64: 0x01000007, arm64: 0x0100000c } as const

export interface MachOOptions {
  readonly arch?: keyof typeof CPU
  /** none: no LC_CODE_SIGNATURE; adhoc: CS_ADHOC | CS_LINKER_SIGNED and an empty CMS wrapper; certificate: a CMS blob. */
  readonly signature: "none" | "adhoc" | "certificate"
  readonly hardenedRuntime?: boolean
}

const be32 = (...values: ReadonlyArray<number>) => {
  const b = Buffer.alloc(values.length * 4)
  values.forEach((v, i) => b.writeUInt32BE(v >>> 0, i * 4))
  return b
}

const le32 = (...values: ReadonlyArray<number>) => {
  const b = Buffer.alloc(values.length * 4)
  values.forEach((v, i) => b.writeUInt32LE(v >>> 0, i * 4))
  return b
}

/** The embedded signature: a SuperBlob with a CodeDirectory (flags) and a CMS wrapper (empty for ad-hoc). */
const superBlob = (options: MachOOptions) => {
  const flags = (options.signature === "adhoc" ? 0x2 | 0x20000 : 0) | (options.hardenedRuntime ? 0x10000 : 0)
  const codeDirectory = Buffer.concat([be32(0xfade0c02, 44, 0x20400, flags), Buffer.alloc(28)])
  const cmsBody = options.signature === "certificate" ? Buffer.from([0x30, 0x82, 0x01, 0x00, ...Buffer.alloc(60)]) : Buffer.alloc(0)
  const cms = Buffer.concat([be32(0xfade0b01, 8 + cmsBody.length), cmsBody])
  const headerSize = 12 + 2 * 8
  const index = be32(0, headerSize, 0x10000, headerSize + codeDirectory.length)
  const total = headerSize + codeDirectory.length + cms.length
  return Buffer.concat([be32(0xfade0cc0, total, 2), index, codeDirectory, cms])
}

/** A thin 64-bit little-endian Mach-O executable. */
export const machO = (options: MachOOptions): Buffer => {
  const code = Buffer.alloc(4096, 0x90)
  const uuid = Buffer.concat([le32(0x1b, 24), Buffer.alloc(16, 7)])
  const signature = options.signature === "none" ? Buffer.alloc(0) : superBlob(options)
  const commands = options.signature === "none" ? [uuid] : [uuid, le32(0x1d, 16, 4096, signature.length)]
  const sizeofcmds = commands.reduce((n, c) => n + c.length, 0)
  const header = le32(0xfeedfacf, CPU[options.arch ?? "arm64"], 0, 2, commands.length, sizeofcmds, 0x200085, 0)
  const head = Buffer.concat([header, ...commands])
  head.copy(code, 0)
  return Buffer.concat([code, signature])
}

/** A fat (universal) Mach-O of the given thin slices, each aligned to 4096 bytes. */
export const fatMachO = (slices: ReadonlyArray<Buffer>): Buffer => {
  const parts: Array<Buffer> = []
  const table: Array<Buffer> = []
  let offset = 4096
  for (const slice of slices) {
    const cputype = slice.readUInt32LE(4)
    table.push(be32(cputype, 0, offset, slice.length, 12))
    const padded = Buffer.alloc(Math.ceil(slice.length / 4096) * 4096)
    slice.copy(padded)
    parts.push(padded)
    offset += padded.length
  }
  const head = Buffer.alloc(4096)
  Buffer.concat([be32(0xcafebabe, slices.length), ...table]).copy(head)
  return Buffer.concat([head, ...parts])
}

/** A PE32+ executable; `certificate` adds a certificate table of that WIN_CERTIFICATE type (2: Authenticode). */
export const pe = (certificate?: 1 | 2): Buffer => {
  const dos = Buffer.alloc(64)
  dos.write("MZ", 0, "latin1")
  dos.writeUInt32LE(64, 0x3c)
  const coff = Buffer.alloc(24)
  coff.write("PE\0\0", 0, "latin1")
  coff.writeUInt16LE(0x8664, 4)
  coff.writeUInt16LE(240, 20)
  coff.writeUInt16LE(0x22, 22)
  const optional = Buffer.alloc(240)
  optional.writeUInt16LE(0x20b, 0)
  optional.writeUInt32LE(16, 108)
  const body = Buffer.alloc(1024, 0xcc)
  const headers = Buffer.concat([dos, coff, optional])
  if (certificate === undefined) return Buffer.concat([headers, body])
  const der = Buffer.from([0x30, 0x82, 0x02, 0x00, ...Buffer.alloc(36, 1)])
  const entry = Buffer.concat([le32(8 + der.length), Buffer.from([0x00, 0x02, certificate, 0x00]), der])
  const table = Buffer.alloc(Math.ceil(entry.length / 8) * 8)
  entry.copy(table)
  const offset = headers.length + body.length
  optional.writeUInt32LE(offset, 112 + 4 * 8)
  optional.writeUInt32LE(table.length, 112 + 4 * 8 + 4)
  return Buffer.concat([dos, coff, optional, body, table])
}

/** An ELF64 little-endian file (an AppImage of type `appImage` when given) holding the named sections. */
export const elf = (sections: Readonly<Record<string, Buffer>>, appImage: number | null = 2): Buffer => {
  const names = Object.keys(sections)
  const header = Buffer.alloc(64)
  Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]).copy(header)
  if (appImage !== null) Buffer.from([0x41, 0x49, appImage]).copy(header, 8)
  header.writeUInt16LE(2, 16)
  header.writeUInt16LE(0x3e, 18)
  header.writeUInt32LE(1, 20)
  header.writeUInt16LE(64, 0x34)
  const contents: Array<Buffer> = []
  let offset = 64
  const placed = names.map((name) => {
    const data = sections[name]!
    const at = offset
    contents.push(data)
    offset += data.length
    return { name, at, size: data.length }
  })
  const strtab = Buffer.from(`\0${names.join("\0")}\0.shstrtab\0`, "latin1")
  const strtabAt = offset
  offset += strtab.length
  const shoff = offset
  const sectionHeader = (name: number, type: number, at: number, size: number) => {
    const h = Buffer.alloc(64)
    h.writeUInt32LE(name, 0)
    h.writeUInt32LE(type, 4)
    h.writeBigUInt64LE(BigInt(at), 24)
    h.writeBigUInt64LE(BigInt(size), 32)
    return h
  }
  let nameAt = 1
  const headers = [sectionHeader(0, 0, 0, 0)]
  for (const p of placed) {
    headers.push(sectionHeader(nameAt, 1, p.at, p.size))
    nameAt += p.name.length + 1
  }
  headers.push(sectionHeader(nameAt, 3, strtabAt, strtab.length))
  header.writeBigUInt64LE(BigInt(shoff), 0x28)
  header.writeUInt16LE(64, 0x3a)
  header.writeUInt16LE(headers.length, 0x3c)
  header.writeUInt16LE(headers.length - 1, 0x3e)
  return Buffer.concat([header, ...contents, strtab, ...headers])
}

/** The AppImage runtime's signature sections: zero-filled when unsigned, as the runtime reserves them. */
export const appImageSections = (signed: boolean): Record<string, Buffer> => {
  const sig = Buffer.alloc(1024)
  const key = Buffer.alloc(8192)
  if (signed) {
    sig.write("-----BEGIN PGP SIGNATURE-----\n\niQEzBAABCAAdFiEE\n-----END PGP SIGNATURE-----\n", "latin1")
    key.write("-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQENBF\n-----END PGP PUBLIC KEY BLOCK-----\n", "latin1")
  }
  return {
    ".sha256_sig": sig,
    ".sig_key": key,
    ".upd_info": Buffer.concat([Buffer.from("gh-releases-zsync|acme|app|latest|App-*.AppImage.zsync"), Buffer.alloc(400)])
  }
}
