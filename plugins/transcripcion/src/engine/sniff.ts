/**
 * Recognises the leading bytes of the audio/video containers ffmpeg reads. Used only to tell a damaged audio
 * (a known container ffmpeg cannot open: `audio_invalido`) from a file that is not audio at all (`no_soportado`).
 */
export type ContainerKind = 'wav' | 'ogg' | 'mp3' | 'mp4' | 'flac' | 'matroska' | 'aiff' | 'amr' | 'caf';

function ascii(bytes: Uint8Array, offset: number, text: string): boolean {
  if (bytes.length < offset + text.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[offset + i] !== text.charCodeAt(i)) return false;
  return true;
}

export function sniffContainer(head: Uint8Array): ContainerKind | null {
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WAVE')) return 'wav';
  if (ascii(head, 0, 'RIFF')) return 'wav'; // header cut before the form type: still a damaged RIFF file
  if (ascii(head, 0, 'OggS')) return 'ogg';
  if (ascii(head, 0, 'fLaC')) return 'flac';
  if (ascii(head, 0, 'ID3')) return 'mp3';
  if (ascii(head, 4, 'ftyp')) return 'mp4';
  if (ascii(head, 0, 'FORM') && (ascii(head, 8, 'AIFF') || ascii(head, 8, 'AIFC'))) return 'aiff';
  if (ascii(head, 0, '#!AMR')) return 'amr';
  if (ascii(head, 0, 'caff')) return 'caf';
  if (head.length >= 4 && head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3)
    return 'matroska';
  // MPEG audio frame sync (11 set bits) with a valid layer; ADTS AAC shares the sync pattern.
  if (head.length >= 2 && head[0] === 0xff && (head[1]! & 0xe0) === 0xe0 && (head[1]! & 0x06) !== 0) return 'mp3';
  if (head.length >= 2 && head[0] === 0xff && (head[1]! & 0xf6) === 0xf0) return 'mp3';
  return null;
}

/**
 * For a RIFF/WAVE file, whether the sizes its header declares run past the end of the file (a cut-off upload).
 * Streaming writers put 0 or 0xFFFFFFFF in the size fields; those are not a claim and are ignored.
 */
export function wavDeclaresMoreThan(head: Uint8Array, fileSize: number): boolean {
  if (head.length < 12 || !ascii(head, 0, 'RIFF')) return false;
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const riffSize = view.getUint32(4, true);
  if (riffSize === 0 || riffSize === 0xffffffff) return false;
  if (riffSize + 8 > fileSize) return true;
  // Walk the chunks present in the head to find `data`, whose declared length is the real claim.
  let offset = 12;
  while (offset + 8 <= head.length) {
    const size = view.getUint32(offset + 4, true);
    if (ascii(head, offset, 'data')) {
      return size !== 0 && size !== 0xffffffff && offset + 8 + size > fileSize;
    }
    offset += 8 + size + (size % 2);
  }
  return false;
}
