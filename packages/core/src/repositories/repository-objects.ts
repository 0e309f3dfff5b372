/**
 * A small repository's objects read straight from its files — loose objects and version-2 pack
 * indexes with their packs, deltas resolved — for the connectivity check without git
 * (repository-reading.ts). Synchronous and bounded (1 MiB per object, a 256 KiB pack index, delta
 * chains of 50): anything beyond, or a layout only git should read (another index version, large
 * offsets, promisor packs, a pack its index does not describe), throws, which sends the check to git.
 *
 * One function of its modules, using nothing else, so that the file workers (file-work.ts) run the
 * same code from its source text.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as zlib from "node:zlib";

export type ObjectType = "commit" | "tree" | "blob" | "tag";

/** Limits of one reader: beyond them the repository is not "small" and git checks it. */
interface ReaderLimits {
  /** Bytes of one object, inflated (and of one compressed pack entry). */
  maxObjectBytes: number;
  /** Bytes of one pack index file. */
  maxIndexBytes: number;
  /** Delta chain length. */
  maxDeltaDepth: number;
}

interface PackIndex {
  pack: string;
  names: Buffer;
  offsets: number[];
  /** Entry extents: offset → the next entry's offset (or the trailer). */
  ends: Map<number, number>;
  count: number;
  fanout: Uint32Array;
  /** The pack's checksum as the index records it (compared with the pack's own trailer). */
  packChecksum: Buffer;
}

export interface ObjectReader {
  /** The object's type and content, or null when it is not in the repository. */
  read(id: string): { type: ObjectType; data: Buffer } | null;
  /**
   * Whether the object is in the repository, looked up the way `git rev-list --objects` checks a
   * blob: an entry in a pack index, or a loose object's file (a `stat`; its content is not read).
   */
  has(id: string): boolean;
  close(): void;
}

/** Opens a reader over a repository's objects; throws for layouts only git should read. */
export type ObjectReaderOf = (gitDir: string) => ObjectReader;

/** The modules the reader uses (the file workers pass their own). */
export interface ReadingModules {
  fs: typeof import("node:fs");
  path: typeof import("node:path");
  zlib: typeof import("node:zlib");
}

/** The object reader on the given modules (see the module comment). */
export function objectReading({ fs, path, zlib }: ReadingModules): ObjectReaderOf {
  const DEFAULT_READER_LIMITS: ReaderLimits = { maxObjectBytes: 1 << 20, maxIndexBytes: 256 << 10, maxDeltaDepth: 50 };
  const PACK_TYPES: Record<number, ObjectType> = { 1: "commit", 2: "tree", 3: "blob", 4: "tag" };
  const OFS_DELTA = 6;
  const REF_DELTA = 7;

  /** This reader cannot answer; git must. */
  class Unsupported extends Error {
    constructor(reason: string) {
      super(reason);
      this.name = "Unsupported";
    }
  }

  const present = (file: string): boolean => fs.statSync(file, { throwIfNoEntry: false }) !== undefined;

  /** A reader over `gitDir`'s objects. Throws {@link Unsupported} for layouts only git should read. */
  function objectReader(gitDir: string, limits: ReaderLimits = DEFAULT_READER_LIMITS): ObjectReader {
    const objects = path.join(gitDir, "objects");
    const packs = loadPackIndexes(path.join(objects, "pack"), limits);
    const fds = new Map<string, number>();
    const packFd = (pack: string) => {
      let fd = fds.get(pack);
      if (fd === undefined) {
        fd = fs.openSync(pack, "r");
        fds.set(pack, fd);
        checkPackFile(fd, packs.find((p) => p.pack === pack) as PackIndex);
      }
      return fd;
    };

    const loose = (id: string): { type: ObjectType; data: Buffer } | null => {
      let raw: Buffer;
      try {
        raw = fs.readFileSync(path.join(objects, id.slice(0, 2), id.slice(2)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
      if (raw.length > limits.maxObjectBytes) throw new Unsupported(`loose object ${id} is over the size limit`);
      const inflated = zlib.inflateSync(raw, { maxOutputLength: limits.maxObjectBytes + 64 });
      const nul = inflated.indexOf(0);
      const header = inflated.subarray(0, nul).toString("latin1");
      const match = /^(commit|tree|blob|tag) (\d+)$/.exec(header);
      if (nul < 0 || match === null) throw new Unsupported(`loose object ${id} has no valid header`);
      const data = inflated.subarray(nul + 1);
      if (data.length !== Number(match[2])) throw new Unsupported(`loose object ${id} is not as long as its header says`);
      return { type: match[1] as ObjectType, data };
    };

    const find = (id: string): { index: PackIndex; offset: number } | null => {
      const bytes = Buffer.from(id, "hex");
      for (const index of packs) {
        const first = bytes[0] ?? 0;
        let low = first === 0 ? 0 : (index.fanout[first - 1] ?? 0);
        let high = index.fanout[first] ?? 0;
        while (low < high) {
          const mid = (low + high) >>> 1;
          const cmp = index.names.compare(bytes, 0, 20, mid * 20, mid * 20 + 20);
          if (cmp === 0) return { index, offset: index.offsets[mid] ?? 0 };
          if (cmp > 0) high = mid;
          else low = mid + 1;
        }
      }
      return null;
    };

    const packed = (index: PackIndex, offset: number, depth: number): { type: ObjectType; data: Buffer } => {
      if (depth > limits.maxDeltaDepth) throw new Unsupported("delta chain too long");
      // Opening the pack (once) checks it against its index and records where each entry ends.
      const fd = packFd(index.pack);
      const end = index.ends.get(offset);
      if (end === undefined || end - offset > limits.maxObjectBytes) throw new Unsupported("pack entry over the size limit or unknown");
      const entry = Buffer.alloc(end - offset);
      fs.readSync(fd, entry, 0, entry.length, offset);
      let pos = 0;
      let byte = entry[pos++] ?? 0;
      const kind = (byte >> 4) & 7;
      let size = byte & 15;
      for (let shift = 4; byte & 0x80; shift += 7) {
        byte = entry[pos++] ?? 0;
        size += (byte & 0x7f) * 2 ** shift;
      }
      if (size > limits.maxObjectBytes) throw new Unsupported("pack object over the size limit");
      let base: { type: ObjectType; data: Buffer } | null = null;
      if (kind === OFS_DELTA) {
        byte = entry[pos++] ?? 0;
        let distance = byte & 0x7f;
        while (byte & 0x80) {
          byte = entry[pos++] ?? 0;
          distance = (distance + 1) * 128 + (byte & 0x7f);
        }
        base = packed(index, offset - distance, depth + 1);
      } else if (kind === REF_DELTA) {
        base = readObject(entry.subarray(pos, pos + 20).toString("hex"), depth + 1);
        pos += 20;
        if (base === null) throw new Unsupported("delta base outside the packs");
      }
      const data = zlib.inflateSync(entry.subarray(pos), { maxOutputLength: limits.maxObjectBytes + 64 });
      if (data.length !== size) throw new Unsupported("pack object is not as long as its header says");
      if (base !== null) return { type: base.type, data: applyDelta(base.data, data, limits) };
      const type = PACK_TYPES[kind];
      if (type === undefined) throw new Unsupported(`pack object of type ${kind}`);
      return { type, data };
    };

    const readObject = (id: string, depth: number): { type: ObjectType; data: Buffer } | null => {
      const found = find(id);
      if (found !== null) return packed(found.index, found.offset, depth);
      return loose(id);
    };

    return {
      read: (id) => readObject(id, 0),
      has: (id) => find(id) !== null || present(path.join(objects, id.slice(0, 2), id.slice(2))),
      close() {
        for (const fd of fds.values()) fs.closeSync(fd);
        fds.clear();
      },
    };
  }

  function loadPackIndexes(packDir: string, limits: ReaderLimits): PackIndex[] {
    let files: string[];
    try {
      files = fs.readdirSync(packDir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
    if (files.some((f) => f.endsWith(".promisor") || f.endsWith(".keep.tmp"))) throw new Unsupported("promisor or temporary packs");
    const indexes: PackIndex[] = [];
    for (const file of files) {
      if (!file.endsWith(".idx")) continue;
      const raw = fs.readFileSync(path.join(packDir, file));
      if (raw.length > limits.maxIndexBytes) throw new Unsupported("pack index over the size limit");
      if (raw.readUInt32BE(0) !== 0xff744f63 || raw.readUInt32BE(4) !== 2) throw new Unsupported("pack index is not version 2");
      const fanout = new Uint32Array(256);
      for (let i = 0; i < 256; i += 1) fanout[i] = raw.readUInt32BE(8 + i * 4);
      const count = fanout[255] ?? 0;
      const namesAt = 8 + 1024;
      const offsetsAt = namesAt + count * 20 + count * 4;
      if (raw.length !== offsetsAt + count * 4 + 40) throw new Unsupported("pack index with large offsets or of an unexpected length");
      const offsets: number[] = [];
      for (let i = 0; i < count; i += 1) {
        const offset = raw.readUInt32BE(offsetsAt + i * 4);
        if (offset & 0x80000000) throw new Unsupported("pack index with large offsets");
        offsets.push(offset);
      }
      const packChecksum = raw.subarray(raw.length - 40, raw.length - 20);
      indexes.push({ pack: path.join(packDir, `${file.slice(0, -4)}.pack`), names: raw.subarray(namesAt, namesAt + count * 20), offsets, ends: new Map(), count, fanout, packChecksum });
    }
    return indexes;
  }

  /** What git checks when it opens a pack: signature, version, object count and trailer as its index says. */
  function checkPackFile(fd: number, index: PackIndex): void {
    const size = fs.fstatSync(fd).size;
    const header = Buffer.alloc(12);
    const trailer = Buffer.alloc(20);
    fs.readSync(fd, header, 0, 12, 0);
    fs.readSync(fd, trailer, 0, 20, size - 20);
    if (header.toString("latin1", 0, 4) !== "PACK" || ![2, 3].includes(header.readUInt32BE(4))) throw new Unsupported("not a pack file of version 2 or 3");
    if (header.readUInt32BE(8) !== index.count) throw new Unsupported("pack and index disagree on the object count");
    if (!index.packChecksum.equals(trailer)) throw new Unsupported("pack checksum differs from its index's");
    const sorted = [...index.offsets].sort((a, b) => a - b);
    for (let i = 0; i < sorted.length; i += 1) index.ends.set(sorted[i] ?? 0, sorted[i + 1] ?? size - 20);
  }

  /** Git's delta format: source and target sizes, then copy (from the base) and insert instructions. */
  function applyDelta(base: Buffer, delta: Buffer, limits: ReaderLimits = DEFAULT_READER_LIMITS): Buffer {
    let pos = 0;
    const varint = () => {
      let value = 0;
      let shift = 0;
      let byte: number;
      do {
        byte = delta[pos++] ?? 0;
        value += (byte & 0x7f) * 2 ** shift;
        shift += 7;
      } while (byte & 0x80 && pos < delta.length);
      return value;
    };
    if (varint() !== base.length) throw new Unsupported("delta source size differs from its base");
    const size = varint();
    if (size > limits.maxObjectBytes) throw new Unsupported("delta target over the size limit");
    const out = Buffer.alloc(size);
    let at = 0;
    while (pos < delta.length) {
      const op = delta[pos++] ?? 0;
      if (op & 0x80) {
        let offset = 0;
        let length = 0;
        for (let bit = 0; bit < 4; bit += 1) if (op & (1 << bit)) offset += (delta[pos++] ?? 0) * 2 ** (8 * bit);
        for (let bit = 0; bit < 3; bit += 1) if (op & (16 << bit)) length += (delta[pos++] ?? 0) * 2 ** (8 * bit);
        if (length === 0) length = 0x10000;
        if (offset + length > base.length || at + length > size) throw new Unsupported("delta copies outside its base or target");
        base.copy(out, at, offset, offset + length);
        at += length;
      } else if (op !== 0) {
        if (pos + op > delta.length || at + op > size) throw new Unsupported("delta inserts past its end");
        delta.copy(out, at, pos, pos + op);
        pos += op;
        at += op;
      } else throw new Unsupported("delta instruction 0");
    }
    if (at !== size) throw new Unsupported("delta target shorter than its header says");
    return out;
  }

  return (gitDir) => objectReader(gitDir);
}

/** The object reader on this thread's modules. */
export const objectReaderOf: ObjectReaderOf = objectReading({ fs, path, zlib });
