// `cerebro modelos lista` and `cerebro modelos instalar <nombre|archivo|directorio|url>`: puts a recommended
// multilingual embedding or reranker model where the configuration points, checked before it is used.
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { MODEL_CATALOGUE, catalogueModel, installModel, type ModelManifest } from '../cerebro/index.js';
import { wantsHelp } from './cli-output.js';
import type { CliIo } from './run-cli.js';

export const MODELS_USAGE = `Uso: cerebro modelos <acción>

  lista                                   Modelos recomendados (nombre, tipo, tamaño, licencia).
  instalar <nombre|archivo|directorio|url> [--tipo embeddings|reordenacion] [--destino DIR]
           [--prefijo-pregunta P] [--prefijo-pasaje P]
      Descarga (nombre del catálogo o URL de un .onnx, con tokenizer.json o vocab.txt a su lado) o copia
      (archivo .onnx o directorio) el modelo, lo carga y lo prueba con una frase, y lo instala en --destino,
      o en CEREBRO_EMBEDDING_MODEL_DIR / CEREBRO_RERANK_MODEL_DIR, o en CEREBRO_DATA_DIR/modelos/<nombre>.
      CEREBRO_MODELS_MIRROR sustituye a https://huggingface.co para los nombres del catálogo.
`;

const KINDS: readonly ModelManifest['kind'][] = ['embeddings', 'reordenacion'];

function list(io: CliIo): number {
  for (const m of MODEL_CATALOGUE) {
    io.stdout.write(
      `${m.name.padEnd(36)} ${m.kind.padEnd(13)} ~${String(m.sizeMb).padStart(4)} MB  ${m.licence.padEnd(13)} ${m.note}\n`,
    );
  }
  return 0;
}

async function install(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      tipo: { type: 'string' },
      destino: { type: 'string' },
      'prefijo-pregunta': { type: 'string' },
      'prefijo-pasaje': { type: 'string' },
    },
  });
  const [source] = positionals;
  if (!source || positionals.length > 1) {
    io.stderr.write(MODELS_USAGE);
    return 2;
  }
  const kind = (values.tipo ?? catalogueModel(source)?.kind ?? 'embeddings') as ModelManifest['kind'];
  if (!KINDS.includes(kind)) {
    io.stderr.write(`--tipo debe ser ${KINDS.join(' o ')}.\n`);
    return 2;
  }
  const configured = kind === 'embeddings' ? io.env.CEREBRO_EMBEDDING_MODEL_DIR : io.env.CEREBRO_RERANK_MODEL_DIR;
  const name =
    catalogueModel(source)?.name ??
    source
      .replace(/[/\\]+$/, '')
      .split(/[/\\]/)
      .pop()!
      .replace(/\.onnx$/, '');
  const destination = resolve(values.destino ?? configured ?? join(io.env.CEREBRO_DATA_DIR ?? 'data', 'modelos', name));
  try {
    const { manifest } = await installModel({
      source,
      destination,
      kind,
      ...(values['prefijo-pregunta'] !== undefined ? { queryPrefix: values['prefijo-pregunta'] } : {}),
      ...(values['prefijo-pasaje'] !== undefined ? { passagePrefix: values['prefijo-pasaje'] } : {}),
      ...(io.env.CEREBRO_MODELS_MIRROR ? { mirror: io.env.CEREBRO_MODELS_MIRROR } : {}),
      say: (line) => io.stderr.write(`${line}\n`),
    });
    const variable = kind === 'embeddings' ? 'CEREBRO_EMBEDDING_MODEL_DIR' : 'CEREBRO_RERANK_MODEL_DIR';
    io.stdout.write(
      `Instalado ${manifest.name} (${manifest.kind}${manifest.dimensions ? `, ${manifest.dimensions} dimensiones` : ''}) en ${destination}\n`,
    );
    if (configured === undefined || resolve(configured) !== destination)
      io.stdout.write(`Para usarlo: ${variable}=${destination}\n`);
    return 0;
  } catch (err) {
    io.stderr.write(`No se instaló el modelo: ${(err as Error).message}\n`);
    return 1;
  }
}

/** `cerebro modelos …`; returns the exit code. */
export async function runModels(args: string[], io: CliIo): Promise<number> {
  if (wantsHelp(args)) {
    io.stdout.write(MODELS_USAGE);
    return 0;
  }
  const [action, ...rest] = args;
  if (action === 'lista') return list(io);
  if (action === 'instalar') return install(rest, io);
  io.stderr.write(MODELS_USAGE);
  return action === undefined || action === 'help' ? 0 : 2;
}
