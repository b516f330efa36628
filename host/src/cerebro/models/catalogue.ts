// The models `cerebro modelos instalar <nombre>` knows: multilingual (Spanish first), ONNX exports in the
// Hugging Face layout (onnx/model_quantized.onnx + tokenizer.json), licences that allow use in a product unless
// the note says otherwise. Sizes are the quantized ONNX file.
import type { ModelManifest } from './model-manifest.js';

export interface CatalogueModel {
  name: string;
  kind: ModelManifest['kind'];
  /** Hugging Face repository holding the ONNX export. */
  repo: string;
  /** Files fetched, paths inside the repository; the first is the model. */
  files: string[];
  licence: string;
  sizeMb: number;
  /** Vector size the installed model must give (embeddings). */
  dimensions?: number;
  queryPrefix?: string;
  passagePrefix?: string;
  note: string;
}

export const MODEL_CATALOGUE: readonly CatalogueModel[] = [
  {
    name: 'multilingual-e5-small',
    kind: 'embeddings',
    repo: 'Xenova/multilingual-e5-small',
    files: ['onnx/model_quantized.onnx', 'tokenizer.json', 'tokenizer_config.json'],
    licence: 'MIT',
    sizeMb: 113,
    dimensions: 384,
    queryPrefix: 'query: ',
    passagePrefix: 'passage: ',
    note: 'recomendado: 100 idiomas, 384 dimensiones, rápido en CPU',
  },
  {
    name: 'paraphrase-multilingual-minilm',
    kind: 'embeddings',
    repo: 'Xenova/paraphrase-multilingual-MiniLM-L12-v2',
    files: ['onnx/model_quantized.onnx', 'tokenizer.json', 'tokenizer_config.json'],
    licence: 'Apache-2.0',
    sizeMb: 118,
    dimensions: 384,
    note: '50 idiomas, 384 dimensiones, sin prefijos',
  },
  {
    name: 'gte-multilingual-reranker-base',
    kind: 'reordenacion',
    repo: 'onnx-community/gte-multilingual-reranker-base',
    files: ['onnx/model_quantized.onnx', 'tokenizer.json', 'tokenizer_config.json'],
    licence: 'Apache-2.0',
    sizeMb: 341,
    note: 'recomendado para reordenar en local: 70 idiomas',
  },
  {
    name: 'jina-reranker-v2-base-multilingual',
    kind: 'reordenacion',
    repo: 'jinaai/jina-reranker-v2-base-multilingual',
    files: ['onnx/model_quantized.onnx', 'tokenizer.json', 'tokenizer_config.json'],
    licence: 'CC-BY-NC-4.0',
    sizeMb: 280,
    note: 'licencia NO comercial: solo para uso no comercial',
  },
];

export const catalogueModel = (name: string): CatalogueModel | undefined =>
  MODEL_CATALOGUE.find((m) => m.name === name);

/** Where a catalogue file is downloaded from; `base` replaces https://huggingface.co (a mirror, or a test server). */
export const catalogueFileUrl = (model: CatalogueModel, file: string, base = 'https://huggingface.co'): string =>
  `${base.replace(/\/+$/, '')}/${model.repo}/resolve/main/${file}`;
