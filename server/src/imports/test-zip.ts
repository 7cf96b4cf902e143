// Writes small zip files for the readers' tests: real exports arrive as zips, and the hostile
// ones (paths that climb out with `..`, bombs) cannot be made with an ordinary zip tool. Used
// by tests only.
import { writeFile } from 'node:fs/promises';
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipItem {
  /** The name as stored, unchecked: `../evil.txt` is written as it is. */
  name: string;
  data: Buffer | string;
  /** Deflate it (the default) or store it as it is. */
  deflate?: boolean;
  /** The unpacked size the zip's headers declare, when it is to lie about it. */
  declaredSize?: number;
}

export function zipBytes(items: ZipItem[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const item of items) {
    const data = Buffer.isBuffer(item.data) ? item.data : Buffer.from(item.data, 'utf8');
    const deflate = item.deflate ?? true;
    const stored = deflate ? deflateRawSync(data) : data;
    const name = Buffer.from(item.name, 'utf8');
    const crc = crc32(data);
    const declared = item.declaredSize ?? data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // names are UTF-8
    local.writeUInt16LE(deflate ? 8 : 0, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(stored.length, 18);
    local.writeUInt32LE(declared, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(deflate ? 8 : 0, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(stored.length, 20);
    central.writeUInt32LE(declared, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, stored);
    centrals.push(central, name);
    offset += local.length + name.length + stored.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(items.length, 8);
  end.writeUInt16LE(items.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

export async function writeZip(path: string, items: ZipItem[]): Promise<void> {
  await writeFile(path, zipBytes(items));
}
