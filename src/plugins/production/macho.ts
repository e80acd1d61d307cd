/**
 * The code signature of a Mach-O executable (thin, or a fat / universal one), read from its headers
 * with bounded reads: the LC_CODE_SIGNATURE load command, then the signature's SuperBlob (Apple's
 * embedded-signature format, big-endian): the CodeDirectory's flags (ad-hoc, linker-signed, hardened
 * runtime) and whether a CMS blob (a certificate signature) is there. What this cannot tell: whether the
 * hashes match the code, who the certificate belongs to, whether it is trusted or revoked (codesign does).
 */
import type { ByteSource } from "./bounded.js"

export interface MachOSlice {
  readonly arch: string
  /** none: no LC_CODE_SIGNATURE; adhoc: signed without a certificate (an empty or absent CMS blob); certificate: a CMS blob is there (not verified). */
  readonly signature: "none" | "adhoc" | "certificate"
  readonly linkerSigned: boolean
  readonly hardenedRuntime: boolean
}

export type MachOSignature = { readonly kind: "macho"; readonly slices: ReadonlyArray<MachOSlice> } | { readonly kind: "unreadable"; readonly reason: string }

const MH_MAGIC = 0xfeedface
const MH_MAGIC_64 = 0xfeedfacf
const FAT_MAGIC = 0xcafebabe
const FAT_MAGIC_64 = 0xcafebabf
const LC_CODE_SIGNATURE = 0x1d
const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0
const CSMAGIC_CODEDIRECTORY = 0xfade0c02
const CSMAGIC_BLOBWRAPPER = 0xfade0b01
const CSSLOT_CODEDIRECTORY = 0
const CSSLOT_SIGNATURESLOT = 0x10000
const CS_ADHOC = 0x2
const CS_RUNTIME = 0x10000
const CS_LINKER_SIGNED = 0x20000
/** Bounds on what a sane executable holds (Electron's main executable has about 30 load commands). */
const MAX_COMMANDS = 4096
const MAX_FAT_ARCHS = 20
const MAX_BLOBS = 64

/** A parse that cannot go on: the file is truncated, corrupt or not what it claims. */
export class Unreadable extends Error {}

/** `length` bytes at `offset`, or Unreadable naming what was being read. */
export const need = async (source: ByteSource, offset: number, length: number, what: string): Promise<Buffer> => {
  const bytes = await source.read(offset, length)
  if (bytes === undefined) throw new Unreadable(`${what} (${length} bytes at ${offset}) lies outside the file: truncated or corrupt`)
  return bytes
}

/** Runs a parse, turning Unreadable (and any out-of-range read of a corrupt header) into a reason. */
export const guarded = async <A>(parse: () => Promise<A>): Promise<A | { readonly kind: "unreadable"; readonly reason: string }> => {
  try {
    return await parse()
  } catch (error) {
    if (error instanceof Unreadable) return { kind: "unreadable", reason: error.message }
    if (error instanceof RangeError) return { kind: "unreadable", reason: `a header field is out of range: ${error.message}` }
    throw error
  }
}

const ARCHS: Readonly<Record<number, string>> = {
  7: "i386",
  16777223: "x86_64",
  12: "arm",
  16777228: "arm64",
  33554444: "arm64_32",
  18: "ppc",
  16777234: "ppc64"
}
const archName = (cputype: number) => ARCHS[cputype] ?? `cpu 0x${cputype.toString(16)}`

/** The signature facts of the thin Mach-O at `base`, `limit` bytes long. */
const thin = async (source: ByteSource, base: number, limit: number): Promise<MachOSlice> => {
  const magic = await need(source, base, 4, "the Mach-O magic")
  const little = magic.readUInt32LE(0) === MH_MAGIC || magic.readUInt32LE(0) === MH_MAGIC_64
  const big = magic.readUInt32BE(0) === MH_MAGIC || magic.readUInt32BE(0) === MH_MAGIC_64
  if (!little && !big) throw new Unreadable(`not a Mach-O file (magic 0x${magic.toString("hex")})`)
  const u32 = (b: Buffer, at: number) => (little ? b.readUInt32LE(at) : b.readUInt32BE(at))
  const headerSize = u32(magic, 0) === MH_MAGIC_64 ? 32 : 28
  const header = await need(source, base, headerSize, "the Mach-O header")
  const cputype = u32(header, 4)
  const ncmds = u32(header, 16)
  const sizeofcmds = u32(header, 20)
  if (ncmds > MAX_COMMANDS || headerSize + sizeofcmds > limit)
    throw new Unreadable(`the Mach-O header claims ${ncmds} load commands in ${sizeofcmds} bytes, beyond the file`)
  const commands = await need(source, base + headerSize, sizeofcmds, "the load commands")
  let signature: { offset: number; size: number } | undefined
  let at = 0
  for (let i = 0; i < ncmds; i++) {
    if (at + 8 > commands.length) throw new Unreadable(`load command ${i} lies past the ${sizeofcmds} bytes of load commands`)
    const cmd = u32(commands, at)
    const cmdsize = u32(commands, at + 4)
    if (cmdsize < 8 || at + cmdsize > commands.length) throw new Unreadable(`load command ${i} has an impossible size (${cmdsize})`)
    if (cmd === LC_CODE_SIGNATURE) {
      if (cmdsize < 16) throw new Unreadable("LC_CODE_SIGNATURE is too short")
      signature = { offset: u32(commands, at + 8), size: u32(commands, at + 12) }
    }
    at += cmdsize
  }
  const arch = archName(cputype)
  if (signature === undefined || signature.size === 0) return { arch, signature: "none", linkerSigned: false, hardenedRuntime: false }
  if (signature.offset + signature.size > limit || signature.size < 12)
    throw new Unreadable(`the code signature (${signature.size} bytes at ${signature.offset}) lies outside the ${arch} code`)
  // The signature is big-endian whatever the code's byte order.
  const start = base + signature.offset
  const superBlob = await need(source, start, 12, "the code signature's SuperBlob")
  if (superBlob.readUInt32BE(0) !== CSMAGIC_EMBEDDED_SIGNATURE)
    throw new Unreadable(`the code signature is not an embedded-signature SuperBlob (magic 0x${superBlob.subarray(0, 4).toString("hex")})`)
  const count = superBlob.readUInt32BE(8)
  if (count > MAX_BLOBS || 12 + count * 8 > signature.size) throw new Unreadable(`the code signature claims ${count} blobs, beyond its ${signature.size} bytes`)
  const index = await need(source, start + 12, count * 8, "the code signature's blob index")
  let flags: number | undefined
  let cms = false
  for (let i = 0; i < count; i++) {
    const type = index.readUInt32BE(i * 8)
    const offset = index.readUInt32BE(i * 8 + 4)
    if (type !== CSSLOT_CODEDIRECTORY && type !== CSSLOT_SIGNATURESLOT) continue
    // A CodeDirectory's flags are at 12; a CMS wrapper may be its 8-byte header alone.
    const length = type === CSSLOT_CODEDIRECTORY ? 16 : 8
    if (offset + length > signature.size) throw new Unreadable(`blob ${i} of the code signature lies outside it`)
    const blob = await need(source, start + offset, length, `blob ${i} of the code signature`)
    if (type === CSSLOT_CODEDIRECTORY) {
      if (blob.readUInt32BE(0) !== CSMAGIC_CODEDIRECTORY) throw new Unreadable("the CodeDirectory slot holds no CodeDirectory")
      flags = blob.readUInt32BE(12)
    } else {
      // An empty wrapper (8 bytes: magic and length) is what ad-hoc signers write in the CMS slot.
      cms = blob.readUInt32BE(0) === CSMAGIC_BLOBWRAPPER && blob.readUInt32BE(4) > 8
    }
  }
  if (flags === undefined) throw new Unreadable("the code signature has no CodeDirectory")
  return {
    arch,
    signature: cms && (flags & CS_ADHOC) === 0 ? "certificate" : "adhoc",
    linkerSigned: (flags & CS_LINKER_SIGNED) !== 0,
    hardenedRuntime: (flags & CS_RUNTIME) !== 0
  }
}

/** The signature facts of each architecture of a Mach-O file (fat or thin); "unreadable" with the reason for anything else. */
export const machoSignature = (source: ByteSource): Promise<MachOSignature> =>
  guarded(async () => {
    const head = await need(source, 0, 8, "the file's magic")
    const fat = head.readUInt32BE(0)
    if (fat !== FAT_MAGIC && fat !== FAT_MAGIC_64) return { kind: "macho" as const, slices: [await thin(source, 0, source.size)] }
    const count = head.readUInt32BE(4)
    // Java class files share the 0xcafebabe magic; their version numbers make a count far above 20.
    if (count === 0 || count > MAX_FAT_ARCHS) throw new Unreadable(`not a Mach-O file (a fat header with ${count} architectures)`)
    const entry = fat === FAT_MAGIC ? 20 : 32
    const table = await need(source, 8, count * entry, "the fat architecture table")
    const slices: Array<MachOSlice> = []
    for (let i = 0; i < count; i++) {
      const at = i * entry
      const offset = fat === FAT_MAGIC ? table.readUInt32BE(at + 8) : Number(table.readBigUInt64BE(at + 8))
      const size = fat === FAT_MAGIC ? table.readUInt32BE(at + 12) : Number(table.readBigUInt64BE(at + 16))
      if (!Number.isSafeInteger(offset + size) || offset + size > source.size) throw new Unreadable(`architecture ${i} of the fat file lies outside it`)
      slices.push(await thin(source, offset, size))
    }
    return { kind: "macho" as const, slices }
  })
