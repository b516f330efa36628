import { inject, injectable } from 'tsyringe';
import { apiError, validationError, type ValidationIssue } from '@cerebro/sdk';
import { HostTokens } from '../kernel/tokens.js';
import { type DirectoryRepository, DirectoryRepositoryToken } from '../storage/port/directory-repository.js';
import type { AccessDirectory, ApiConfigPatch, ApiConfigView, SpaceApiSettings } from './access-services.js';
import { parseIpEntry } from './api-settings.js';
import type { SpaceRecord } from './records.js';

/** Fields of a space that only the platform operator sets; a key sending them gets 403. */
export const PLATFORM_FIELDS = [
  'modulos',
  'prueba_hasta',
  'propietario',
  'cuenta',
  'creditos',
  'saldo',
  'suspendida',
  'impagada_desde',
  'solo_lectura',
] as const;

const MAX_LIMIT = 1_000_000_000;
const MAX_IPS = 200;

/** What the schema cannot say about new settings: the largest limits, the length of the list, real addresses. */
function settingsIssues(patch: ApiConfigPatch): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const field of ['limite_por_minuto', 'cuota_diaria'] as const) {
    const value = patch[field];
    if (typeof value === 'number' && value > MAX_LIMIT) {
      issues.push({
        loc: ['body', field],
        msg: 'Debe ser un entero mayor o igual que 1, o null para no limitar.',
        type: 'int_type',
      });
    }
  }
  const ips = patch.ips_permitidas;
  if (ips && ips.length > MAX_IPS) {
    issues.push({
      loc: ['body', 'ips_permitidas'],
      msg: 'Debe ser una lista de hasta 200 direcciones IP o rangos CIDR.',
      type: 'list_type',
    });
  } else {
    ips?.forEach((entry, i) => {
      const parsed = parseIpEntry(entry);
      if (typeof parsed === 'string')
        issues.push({ loc: ['body', 'ips_permitidas', i], msg: parsed, type: 'value_error' });
    });
  }
  return issues;
}

/** A space's API switch, per-minute limit, daily quota and IP list: what its owner reads and changes. */
@injectable()
export class SpaceApiConfig implements SpaceApiSettings {
  constructor(
    @inject(DirectoryRepositoryToken) private readonly repo: DirectoryRepository,
    @inject(HostTokens.Directory) private readonly directory: AccessDirectory,
  ) {}

  view(record: SpaceRecord): ApiConfigView {
    return {
      api_activa: record.row.api_enabled === 1,
      limite_por_minuto: record.settings.limite_por_minuto,
      cuota_diaria: record.settings.cuota_diaria,
      ips_permitidas: record.settings.ips_permitidas,
    };
  }

  /** Changes only what the patch sends; a platform field is a 403, a setting out of bounds a 422. */
  async update(record: SpaceRecord, patch: ApiConfigPatch): Promise<ApiConfigView> {
    const platform = PLATFORM_FIELDS.filter((f) => Object.hasOwn(patch, f));
    if (platform.length)
      throw apiError('platform_field', `Campo reservado a la administración de la plataforma: ${platform.join(', ')}.`);
    const issues = settingsIssues(patch);
    if (issues.length) throw validationError(issues);
    const current = record.settings;
    const next = {
      limite_por_minuto: patch.limite_por_minuto !== undefined ? patch.limite_por_minuto : current.limite_por_minuto,
      cuota_diaria: patch.cuota_diaria !== undefined ? patch.cuota_diaria : current.cuota_diaria,
      ips_permitidas: patch.ips_permitidas ?? current.ips_permitidas,
    };
    await this.repo.setSpaceApi(record.row.id, JSON.stringify(next), patch.api_activa ?? record.row.api_enabled === 1);
    await this.directory.invalidate();
    return this.view((await this.directory.space(record.row.id))!);
  }
}
