// The interface an owner's own spaces are reached by (the host's token is typed by it): the owners' routes, the
// operator's route and `cerebro admin owner spaces` depend on this shape, not on the class that implements it.
import type { OwnerCaller } from '../access/caller.js';

/** The highest allowance the operator may set. */
export const MAX_ALLOWANCE = 10_000;

/** An owner's space allowance as the owner reads it (`GET /api/cupo_espacios`). */
export interface SpaceAllowanceView {
  /** How many spaces the owner may hold and still create one (0: only the operator creates them). */
  max_espacios: number;
  /** How many the owner holds now, whoever created them. */
  espacios: number;
  /** How many more the owner may create now. */
  disponibles: number;
}

/** The same as the operator sets and reads it: also whether it is the owner's own value or the default. */
export interface OperatorAllowanceView extends SpaceAllowanceView {
  propietario: string;
  /** The owner's own allowance; null: the default (`CEREBRO_OWNER_MAX_SPACES`). */
  propio: number | null;
}

/** A space the owner just created, as `GET /api/companies` lists it. */
export interface CreatedSpaceView {
  id: string;
  nombre: string;
  modulos: string[];
  api_activa: boolean;
  prueba_hasta: string | null;
}

/** Spaces owners create and rename from Studio, within the allowance the operator sets per owner. */
export interface OwnSpaces {
  allowance(ownerId: string): Promise<SpaceAllowanceView>;
  /** The operator's view of an owner's allowance (404 no live owner). */
  operatorAllowance(ownerId: string): Promise<OperatorAllowanceView>;
  /** Sets an owner's own allowance (an integer ≥ 0, or null for the default); 404 no live owner, 422 bad value. */
  setAllowance(ownerId: unknown, max: unknown): Promise<OperatorAllowanceView>;
  /**
   * Creates a space for the calling owner under the operator's id rules (422), within the allowance (403
   * `space_allowance_reached`), with a free id (409), never for a read-only owner (403).
   */
  create(caller: OwnerCaller, input: { id: unknown; nombre?: unknown }): Promise<CreatedSpaceView>;
  /** Renames a space (1 to 120 characters, trimmed; 422 otherwise). Returns the name before and after. */
  rename(spaceId: string, name: unknown): Promise<{ antes: string; nombre: string }>;
}
