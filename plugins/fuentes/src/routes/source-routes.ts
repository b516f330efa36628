import { randomUUID } from 'node:crypto';
import { apiError, Reply, type DocumentsService, type ModuleRequest } from '@cerebro/sdk';
import type { RunManager } from '../crawl/run-manager.js';
import type { PageStore } from '../store/page-store.js';
import type { RunStore } from '../store/run-store.js';
import type { SourceRecord } from '../store/source-model.js';
import type { SourceStore } from '../store/source-store.js';
import { sourceSettingsOf, type SourceInput } from './source-input.js';
import { runView, sourceView } from './source-views.js';

export interface SourceRouteDeps {
  sources: SourceStore;
  runs: RunStore;
  pages: PageStore;
  manager: RunManager;
  documents: DocumentsService;
  caps: { maxPages: number; pauseMs: number };
}

/** Handlers of the source routes (contract table E). */
export function sourceHandlers(deps: SourceRouteDeps) {
  const { sources, runs, pages, manager, documents } = deps;
  const found = (req: ModuleRequest): SourceRecord => {
    const source = sources.get(req.space.id, req.params.fuente!);
    if (!source) throw apiError('not_found', 'Fuente no encontrada en este espacio.');
    return source;
  };
  const view = (source: SourceRecord) =>
    sourceView(source, runs.last(source.spaceId, source.id), pages.documents(source.spaceId, source.id));

  return {
    createSource: (req: ModuleRequest<SourceInput>) => {
      const { nombre, settings } = sourceSettingsOf(req.body, deps.caps);
      const source = sources.create({
        spaceId: req.space.id,
        id: randomUUID(),
        nombre,
        tipo: req.body.tipo,
        settings,
        cadaHoras: req.body.cada_horas ?? null,
      });
      if (req.body.lanzar) manager.launch(source, 'creacion');
      req.log.info({ fuente: source.id, tipo: source.tipo }, 'fuente creada');
      return Reply.json(201, view(sources.get(source.spaceId, source.id)!));
    },
    listSources: (req: ModuleRequest) => {
      const limite = req.query.limite as number;
      const desde = req.query.desde as number;
      const { total, sources: list } = sources.page(req.space.id, limite, desde);
      return { fuentes: list.map(view), total, limite, desde };
    },
    getSource: (req: ModuleRequest) => view(found(req)),
    launchSource: (req: ModuleRequest) => {
      const run = manager.launch(found(req), 'manual');
      return Reply.json(202, runView(runs.get(run.spaceId, run.id) ?? run));
    },
    cancelSource: async (req: ModuleRequest) => {
      const source = found(req);
      const run = await manager.cancel(source.spaceId, source.id);
      if (!run) throw apiError('conflict', 'La fuente no tiene ninguna ejecución en curso.');
      return runView(run);
    },
    deleteSource: async (req: ModuleRequest) => {
      const source = found(req);
      await manager.cancel(source.spaceId, source.id, 'delete');
      const own = documents.listOwn(source.spaceId, { fuente: source.id });
      let removed = 0;
      if (!req.query.conservar_documentos)
        for (const doc of own) if (await documents.remove(source.spaceId, doc.nombre)) removed++;
      pages.deleteOfSource(source.spaceId, source.id);
      runs.deleteOfSource(source.spaceId, source.id);
      sources.delete(source.spaceId, source.id);
      req.log.info({ fuente: source.id, documentos_eliminados: removed }, 'fuente eliminada');
      return { eliminada: source.id, documentos_eliminados: removed, documentos_conservados: own.length - removed };
    },
  };
}
