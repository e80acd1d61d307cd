/**
 * Release signatures of Windows and Linux packages, read from their headers with bounded reads:
 * - a PE (.exe): the optional header's IMAGE_DIRECTORY_ENTRY_SECURITY data directory (a file offset and
 *   size) and the WIN_CERTIFICATE entries it holds; WIN_CERT_TYPE_PKCS_SIGNED_DATA is an Authenticode
 *   signature. Whether it is valid (the file's hash, the certificate chain, revocation) needs Windows.
 * - an ELF (an AppImage's runtime): the section headers, the named sections' size and whether they hold
 *   anything but zeros (the AppImage runtime reserves `.sha256_sig` and `.sig_key` zero-filled; signing
 *   writes the signature and the public key into them), and the AppImage type from its magic bytes.
 */
import type { ByteSource } from "./bounded.js"
import { guarded, need, Unreadable } from "./macho.js"

export interface PeCertificate {
  readonly length: number
  readonly revision: number
  /** 1 X.509, 2 PKCS#7 SignedData (Authenticode), 4 TS stack signed. */
  readonly type: number
}

export type PeSignature =
  | { readonly kind: "pe"; readonly machine: string; readonly certificates: ReadonlyArray<PeCertificate>; readonly authenticode: boolean }
  | { readonly kind: "unreadable"; readonly reason: string }

const WIN_CERT_TYPE_PKCS_SIGNED_DATA = 2
const IMAGE_DIRECTORY_ENTRY_SECURITY = 4
const MAX_CERTIFICATES = 16
const MACHINES: Readonly<Record<number, string>> = { 332: "x86", 34404: "x64", 43620: "arm64", 452: "arm" }

/** The Authenticode facts of a PE file; "unreadable" with the reason when it is not one or is corrupt. */
export const peSignature = (source: ByteSource): Promise<PeSignature> =>
  guarded(async () => {
    const dos = await need(source, 0, 64, "the DOS header")
    if (dos.toString("latin1", 0, 2) !== "MZ") throw new Unreadable("not a PE file (no MZ header)")
    const pe = dos.readUInt32LE(0x3c)
    const coff = await need(source, pe, 24, "the PE header")
    if (coff.readUInt32BE(0) !== 0x50450000) throw new Unreadable("not a PE file (no PE signature where the DOS header points)")
    const machine = coff.readUInt16LE(4)
    const optionalSize = coff.readUInt16LE(20)
    const optional = await need(source, pe + 24, optionalSize, "the optional header")
    if (optional.length < 2) throw new Unreadable("the optional header is empty")
    const magic = optional.readUInt16LE(0)
    if (magic !== 0x10b && magic !== 0x20b) throw new Unreadable(`unknown optional header magic 0x${magic.toString(16)}`)
    const countAt = magic === 0x10b ? 92 : 108
    const directories = countAt + 4
    const count = optional.readUInt32LE(countAt)
    const entry = directories + IMAGE_DIRECTORY_ENTRY_SECURITY * 8
    const base = { kind: "pe" as const, machine: MACHINES[machine] ?? `machine 0x${machine.toString(16)}` }
    if (count <= IMAGE_DIRECTORY_ENTRY_SECURITY || entry + 8 > optional.length) return { ...base, certificates: [], authenticode: false }
    // This directory's address is a file offset, not an RVA.
    const offset = optional.readUInt32LE(entry)
    const size = optional.readUInt32LE(entry + 4)
    if (offset === 0 || size === 0) return { ...base, certificates: [], authenticode: false }
    if (offset + size > source.size) throw new Unreadable(`the certificate table (${size} bytes at ${offset}) lies outside the file: truncated`)
    const certificates: Array<PeCertificate> = []
    let authenticode = false
    let at = offset
    while (at + 8 <= offset + size && certificates.length < MAX_CERTIFICATES) {
      const head = await need(source, at, 8, "a certificate table entry")
      const length = head.readUInt32LE(0)
      if (length < 8 || at + length > offset + size) throw new Unreadable(`a certificate table entry has an impossible length (${length})`)
      const certificate = { length, revision: head.readUInt16LE(4), type: head.readUInt16LE(6) }
      certificates.push(certificate)
      // PKCS#7 SignedData is DER: it starts with a SEQUENCE (0x30).
      if (certificate.type === WIN_CERT_TYPE_PKCS_SIGNED_DATA && length > 8 && (await need(source, at + 8, 1, "a certificate"))[0] === 0x30) authenticode = true
      at += (length + 7) & ~7
    }
    return { ...base, certificates, authenticode }
  })

export interface ElfSection {
  readonly size: number
  /** Holds no byte but zero (or has no file content, SHT_NOBITS). */
  readonly empty: boolean
  /** Its start as text when it is printable (zeros trimmed), at most 200 characters. */
  readonly text: string | undefined
}

export type ElfSections =
  | { readonly kind: "elf"; readonly appImageType: number | undefined; readonly sections: Readonly<Record<string, ElfSection>> }
  | { readonly kind: "unreadable"; readonly reason: string }

const MAX_SECTIONS = 4096
const MAX_NAMES = 1 << 16
const SECTION_READ = 1 << 16
const SHT_NOBITS = 8

/** The ELF sections called `wanted` (those present), read with bounded reads. */
export const elfSections = (source: ByteSource, wanted: ReadonlyArray<string>): Promise<ElfSections> =>
  guarded(async () => {
    const ident = await need(source, 0, 16, "the ELF identification")
    if (ident.toString("latin1", 0, 4) !== "\x7fELF") throw new Unreadable("not an ELF file")
    const wide = ident[4] === 2
    const little = ident[5] === 1
    if ((ident[4] !== 1 && !wide) || (ident[5] !== 1 && ident[5] !== 2)) throw new Unreadable("unknown ELF class or byte order")
    // An AppImage marks itself in the padding of the identification: "AI" and its type.
    const appImageType = ident.toString("latin1", 8, 10) === "AI" ? ident[10] : undefined
    const header = await need(source, 0, wide ? 64 : 52, "the ELF header")
    const u16 = (b: Buffer, at: number) => (little ? b.readUInt16LE(at) : b.readUInt16BE(at))
    const u32 = (b: Buffer, at: number) => (little ? b.readUInt32LE(at) : b.readUInt32BE(at))
    const word = (b: Buffer, at: number) => (wide ? Number(little ? b.readBigUInt64LE(at) : b.readBigUInt64BE(at)) : u32(b, at))
    const shoff = word(header, wide ? 0x28 : 0x20)
    const shentsize = u16(header, wide ? 0x3a : 0x2e)
    let shnum = u16(header, wide ? 0x3c : 0x30)
    let shstrndx = u16(header, wide ? 0x3e : 0x32)
    if (shoff === 0) return { kind: "elf" as const, appImageType, sections: {} }
    if (shentsize < (wide ? 64 : 40) || shentsize > 256) throw new Unreadable(`section headers of ${shentsize} bytes are not ELF's`)
    const sectionAt = async (i: number) => {
      const h = await need(source, shoff + i * shentsize, shentsize, `section header ${i}`)
      return { name: u32(h, 0), type: u32(h, 4), offset: word(h, wide ? 24 : 16), size: word(h, wide ? 32 : 20), link: u32(h, wide ? 40 : 24) }
    }
    // With more than 0xff00 sections the real count and name-table index live in section 0.
    if (shnum === 0 || shstrndx === 0xffff) {
      const zero = await sectionAt(0)
      if (shnum === 0) shnum = zero.size
      if (shstrndx === 0xffff) shstrndx = zero.link
    }
    if (shnum > MAX_SECTIONS) throw new Unreadable(`the ELF header claims ${shnum} sections`)
    if (shstrndx >= shnum) throw new Unreadable("the section name table index is out of range")
    const names = await sectionAt(shstrndx)
    if (names.size > MAX_NAMES) throw new Unreadable(`the section name table is ${names.size} bytes`)
    const table = await need(source, names.offset, names.size, "the section name table")
    const sections: Record<string, ElfSection> = {}
    for (let i = 0; i < shnum; i++) {
      const s = await sectionAt(i)
      if (s.name >= table.length) continue
      const end = table.indexOf(0, s.name)
      const name = table.toString("latin1", s.name, end === -1 ? table.length : end)
      if (!wanted.includes(name) || name in sections) continue
      if (s.type === SHT_NOBITS || s.size === 0) {
        sections[name] = { size: s.size, empty: true, text: undefined }
        continue
      }
      if (s.offset + s.size > source.size) throw new Unreadable(`section ${name} lies outside the file: truncated`)
      const content = await need(source, s.offset, Math.min(s.size, SECTION_READ), `section ${name}`)
      const empty = content.every((byte) => byte === 0)
      const trimmed = content.toString("latin1").replace(/\0+$/, "").replace(/^\0+/, "")
      const text = !empty && /^[\x20-\x7e\r\n\t]+$/.test(trimmed) ? trimmed.slice(0, 200) : undefined
      sections[name] = { size: s.size, empty, text }
    }
    return { kind: "elf" as const, appImageType, sections }
  })
