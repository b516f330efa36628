import { open } from 'node:fs/promises';

/** The first `length` bytes of a file (fewer when it is shorter), without reading the rest. */
export async function readStart(path: string, length: number): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(length);
    const { bytesRead } = await file.read(head, 0, length, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}
