import type { MemberRole, SpaceRole } from '../api/types.js';
import { useStudio } from './session.js';

/** From the least to the most: each role may do what the ones before it may. The owner may do everything. */
const RANK: Record<SpaceRole, number> = { consulta: 0, edita: 1, administra: 2, propietario: 3 };

/** Whether `role` may do what `needed` may (the server decides anyway; this only hides what would be refused). */
export const roleAllows = (role: SpaceRole, needed: MemberRole): boolean => RANK[role] >= RANK[needed];

/** The signed-in person's role on a space (an owner's session lists `propietario`). */
export function useRole(space: string): SpaceRole {
  return useStudio().spaces.find((s) => s.id === space)?.rol ?? 'propietario';
}

/** Whether the signed-in person may do on `space` what `needed` may: buttons they cannot use are not shown. */
export function useCan(space: string, needed: MemberRole): boolean {
  return roleAllows(useRole(space), needed);
}

/** Whether the signed-in person is a member (not an owner): owner-level pages are not theirs. */
export function useIsMember(): boolean {
  return useStudio().session.tipo === 'miembro';
}

export const ROLE_LABEL: Record<SpaceRole, string> = {
  propietario: 'Propietario',
  administra: 'Administra',
  edita: 'Edita',
  consulta: 'Consulta',
};

export const ROLE_HINT: Record<MemberRole, string> = {
  administra: 'todo, también los miembros, las claves de la API, los webhooks y la actividad',
  edita: 'documentos, configuración, marca, catálogo, fuentes y landings',
  consulta: 'leer y preguntar',
};

/** Whether the signed-in person manages keys: the owner, or a member who administers at least one space. */
export function useManagesKeys(): boolean {
  const { session, spaces } = useStudio();
  return session.tipo !== 'miembro' || spaces.some((s) => s.rol === 'administra');
}
