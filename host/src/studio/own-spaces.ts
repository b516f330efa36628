import { inject, injectable } from 'tsyringe';
import { apiError, validationError, type Clock } from '@cerebro/sdk';
import type { OwnerCaller } from '../access/caller.js';
import type { AccessDirectory } from '../access/access-services.js';
import { spaceIdIssue, spaceNameIssue } from '../admin/space-id.js';
import type { HostConfig } from '../config/host-config.js';
import { HostTokens } from '../kernel/tokens.js';
import {
  OperatorDirectoryRepositoryToken,
  type OperatorDirectoryRepository,
} from '../storage/port/operator-directory-repository.js';
import {
  OwnerSpaceRepositoryToken,
  type OwnerSpaceRepository,
  type SpaceAllowance,
} from '../storage/port/owner-space-repository.js';
import {
  MAX_ALLOWANCE,
  type CreatedSpaceView,
  type OperatorAllowanceView,
  type OwnSpaces,
  type SpaceAllowanceView,
} from './own-space-services.js';

/** The modules a space an owner creates starts with: the API; the operator enables the others. */
export const OWN_SPACE_MODULES = ['api'] as const;

/** Spaces owners create and rename from Studio, within the allowance the operator sets per owner. */
@injectable()
export class OwnSpaceService implements OwnSpaces {
  constructor(
    @inject(OwnerSpaceRepositoryToken) private readonly store: OwnerSpaceRepository,
    @inject(OperatorDirectoryRepositoryToken) private readonly operatorStore: OperatorDirectoryRepository,
    @inject(HostTokens.Directory) private readonly directory: AccessDirectory,
    @inject(HostTokens.Config) private readonly config: HostConfig,
    @inject(HostTokens.Clock) private readonly clock: Clock,
  ) {}

  private view(stored: SpaceAllowance): SpaceAllowanceView {
    const max = stored.own ?? this.config.ownerMaxSpaces;
    return { max_espacios: max, espacios: stored.spaces, disponibles: Math.max(0, max - stored.spaces) };
  }

  private async stored(ownerId: string): Promise<SpaceAllowance> {
    const stored = await this.store.allowance(ownerId);
    if (!stored) throw apiError('not_found', 'Propietario no encontrado.');
    return stored;
  }

  async allowance(ownerId: string): Promise<SpaceAllowanceView> {
    return this.view(await this.stored(ownerId));
  }

  async operatorAllowance(ownerId: string): Promise<OperatorAllowanceView> {
    const stored = await this.stored(ownerId);
    return { propietario: ownerId, propio: stored.own, ...this.view(stored) };
  }

  async setAllowance(ownerId: unknown, max: unknown): Promise<OperatorAllowanceView> {
    if (max !== null && !(typeof max === 'number' && Number.isSafeInteger(max) && max >= 0 && max <= MAX_ALLOWANCE))
      throw validationError([
        {
          loc: ['body', 'max_espacios'],
          msg: `Debe ser un entero de 0 a ${MAX_ALLOWANCE} (0: solo el operador crea sus espacios) o null (el valor por defecto).`,
          type: 'int_range',
        },
      ]);
    const id = typeof ownerId === 'string' ? ownerId : '';
    if (!(await this.store.setAllowance(id, max))) throw apiError('not_found', 'Propietario no encontrado.');
    return this.operatorAllowance(id);
  }

  async create(caller: OwnerCaller, input: { id: unknown; nombre?: unknown }): Promise<CreatedSpaceView> {
    const issues = [spaceIdIssue(input.id), input.nombre === undefined ? null : spaceNameIssue(input.nombre)];
    const problems = issues.filter((issue) => issue !== null);
    if (problems.length) throw validationError(problems);
    if (caller.ownerReadOnly) throw apiError('read_only', 'Tu cuenta es de solo lectura: no puede crear espacios.');
    const id = input.id as string;
    const name = typeof input.nombre === 'string' ? input.nombre.trim() : id;
    const account = await this.operatorStore.accountOf(caller.ownerId);
    if (!account)
      throw apiError(
        'not_found',
        'No hay cuenta de créditos a la que cargar el espacio; avisa al operador de la plataforma.',
      );
    const outcome = await this.store.createWithin(
      {
        id,
        name,
        ownerId: caller.ownerId,
        accountId: account,
        trialEndsAt: null,
        modules: [...OWN_SPACE_MODULES],
        createdAt: new Date(this.clock.now()).toISOString(),
      },
      this.config.ownerMaxSpaces,
    );
    if (outcome === 'over_allowance') throw await this.allowanceReached(caller.ownerId);
    if (outcome === 'taken') throw apiError('conflict', `Ya existe un espacio con el id "${id}"; elige otro.`);
    if (outcome === 'no_owner') throw apiError('not_found', 'Propietario no encontrado.');
    await this.directory.invalidate();
    return { id, nombre: name, modulos: [...OWN_SPACE_MODULES], api_activa: true, prueba_hasta: null };
  }

  /** The refusal past the allowance, saying what the allowance is. */
  private async allowanceReached(ownerId: string) {
    const { max_espacios: max } = await this.allowance(ownerId);
    return apiError(
      'space_allowance_reached',
      max === 0
        ? 'En tu cuenta solo el operador de la plataforma crea espacios; pídele uno o que te permita crearlos.'
        : `Tu cuenta ya tiene ${max === 1 ? 'el único espacio' : `los ${max} espacios`} que puedes crear; pide al operador de la plataforma que amplíe el cupo.`,
    );
  }

  async rename(spaceId: string, name: unknown): Promise<{ antes: string; nombre: string }> {
    const issue = spaceNameIssue(name);
    if (issue) throw validationError([issue]);
    const before = (await this.directory.space(spaceId))?.row.name;
    const trimmed = (name as string).trim();
    if (before === undefined || !(await this.store.rename(spaceId, trimmed)))
      throw apiError('not_found', 'Espacio no encontrado.');
    await this.directory.invalidate();
    return { antes: before, nombre: trimmed };
  }
}
