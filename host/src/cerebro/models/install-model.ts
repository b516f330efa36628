// Installs an embedding or reranker model where the configuration points: fetched by catalogue name (its files
// from Hugging Face or a mirror), downloaded from a URL (an .onnx file and the tokenizer files beside it), or
// copied from a local file or directory. The model is assembled in a temporary directory next to the destination,
// loaded and run once (vector size checked against the catalogue), and only then moved into place: a download
// that breaks or a model that does not work never replaces the one in use.
import { createWriteStream, existsSync } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { OnnxReranker } from '../index/rerank-onnx.js';
import { MODEL_FILES, OnnxEmbedder } from '../vector/onnx-embedder.js';
import { catalogueFileUrl, catalogueModel, type CatalogueModel } from './catalogue.js';
import { MANIFEST_FILE, type ModelManifest } from './model-manifest.js';

/** Tokenizer files a model directory may hold (at least tokenizer.json or vocab.txt is needed). */
const TOKENIZER_FILES = ['tokenizer.json', 'tokenizer_config.json', 'vocab.txt'];

export interface InstallRequest {
  /** Catalogue name, http(s) URL of an .onnx file, local .onnx file or model directory. */
  source: string;
  destination: string;
  /** Needed when the source is not a catalogue name. */
  kind?: ModelManifest['kind'];
  queryPrefix?: string;
  passagePrefix?: string;
  /** Replaces https://huggingface.co for catalogue names (a mirror). */
  mirror?: string;
  /** Progress lines, in Spanish. */
  say?: (line: string) => void;
}

export interface InstalledModel {
  manifest: ModelManifest;
  destination: string;
}

async function download(url: string, to: string): Promise<boolean> {
  const res = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(60 * 60_000) });
  if (res.status === 404) {
    await res.body?.cancel();
    return false;
  }
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    throw new Error(`${url} respondió ${res.status}`);
  }
  await mkdir(dirname(to), { recursive: true });
  await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), createWriteStream(to));
  return true;
}

async function fromCatalogue(
  model: CatalogueModel,
  work: string,
  mirror: string | undefined,
  say: (l: string) => void,
): Promise<void> {
  say(`Descargando ${model.name} (${model.repo}, ~${model.sizeMb} MB, licencia ${model.licence})…`);
  for (const file of model.files) {
    const url = catalogueFileUrl(model, file, mirror);
    if (!(await download(url, join(work, file)))) throw new Error(`no existe ${url}`);
  }
}

async function fromUrl(url: string, work: string, say: (l: string) => void): Promise<void> {
  if (extname(new URL(url).pathname) !== '.onnx')
    throw new Error('la URL debe apuntar a un archivo .onnx (los archivos del tokenizador se buscan a su lado)');
  say(`Descargando ${url}…`);
  if (!(await download(url, join(work, 'model.onnx')))) throw new Error(`no existe ${url}`);
  for (const file of TOKENIZER_FILES) await download(new URL(file, url).href, join(work, file));
}

async function fromPath(path: string, work: string): Promise<void> {
  const info = await stat(path).catch(() => null);
  if (!info) throw new Error(`no existe ${path}`);
  const dir = info.isDirectory() ? path : dirname(path);
  const model = info.isDirectory() ? MODEL_FILES.map((f) => join(dir, f)).find((p) => existsSync(p)) : path;
  if (!model) throw new Error(`no hay un modelo ONNX en ${dir} (se busca ${MODEL_FILES.join(', ')})`);
  if (extname(model) !== '.onnx') throw new Error(`${basename(model)} no es un archivo .onnx`);
  await mkdir(work, { recursive: true });
  await copyFile(model, join(work, 'model.onnx'));
  for (const file of TOKENIZER_FILES) {
    if (existsSync(join(dir, file))) await copyFile(join(dir, file), join(work, file));
  }
}

/** Loads the assembled model and runs it once; returns the vector size for embeddings. */
async function check(work: string, manifest: ModelManifest, expected: number | undefined): Promise<number | undefined> {
  if (manifest.kind === 'reordenacion') {
    const reranker = await OnnxReranker.load(work);
    const scores = await reranker.score(
      '¿Cuál es el horario?',
      ['Abrimos de nueve a dos.', 'El envío es gratuito.'],
      AbortSignal.timeout(120_000),
    );
    if (!scores.every(Number.isFinite)) throw new Error('el modelo de reordenación no da puntuaciones numéricas');
    return undefined;
  }
  const embedder = await OnnxEmbedder.load(work, {
    queryPrefix: manifest.queryPrefix ?? '',
    passagePrefix: manifest.passagePrefix ?? '',
  });
  const [vector] = await embedder.embed(['Una frase de prueba para el modelo.'], 'passage');
  if (!vector || !vector.every(Number.isFinite)) throw new Error('el modelo de embeddings no da un vector numérico');
  if (expected !== undefined && embedder.dimensions !== expected) {
    throw new Error(`el modelo da vectores de ${embedder.dimensions} dimensiones; se esperaban ${expected}`);
  }
  return embedder.dimensions;
}

export async function installModel(request: InstallRequest): Promise<InstalledModel> {
  const say = request.say ?? (() => {});
  const known = catalogueModel(request.source);
  const kind = known?.kind ?? request.kind;
  if (!kind) throw new Error('indica --tipo embeddings o --tipo reordenacion (no es un modelo del catálogo)');
  const manifest: ModelManifest = {
    kind,
    name: known?.name ?? basename(request.source).replace(/\.onnx$/, ''),
    source: request.source,
  };
  const queryPrefix = request.queryPrefix ?? known?.queryPrefix;
  const passagePrefix = request.passagePrefix ?? known?.passagePrefix;
  if (queryPrefix) manifest.queryPrefix = queryPrefix;
  if (passagePrefix) manifest.passagePrefix = passagePrefix;

  const destination = request.destination.replace(/\/+$/, '');
  await mkdir(dirname(destination), { recursive: true });
  const work = `${destination}.instalando-${process.pid}`;
  await rm(work, { recursive: true, force: true });
  try {
    if (known) await fromCatalogue(known, work, request.mirror, say);
    else if (/^https?:\/\//i.test(request.source)) await fromUrl(request.source, work, say);
    else await fromPath(request.source, work);
    say('Comprobando el modelo (se carga y se prueba con una frase)…');
    const dimensions = await check(work, manifest, known?.dimensions);
    if (dimensions !== undefined) manifest.dimensions = dimensions;
    await writeFile(join(work, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    // Swap in: the old model is moved aside first so the destination is never half-written.
    const old = `${destination}.anterior-${process.pid}`;
    const hadOld = existsSync(destination);
    if (hadOld) await rename(destination, old);
    await rename(work, destination);
    if (hadOld) await rm(old, { recursive: true, force: true });
    return { manifest, destination };
  } catch (err) {
    await rm(work, { recursive: true, force: true });
    throw err;
  }
}
