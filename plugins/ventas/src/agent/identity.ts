// Who the agent says it is, with one shop name. The brand's name wins when the brand applies and was given one (a
// never-named brand carries the space id, which is no shop name); otherwise the sales setting `nombre_tienda`;
// otherwise no name at all rather than the space id ("asesora de ventas de demo"). A role that already names the
// shop is not followed by the name again.
import { brandIdentitySentence, roleAtShop } from '@cerebro/sdk';
import type { AgentBrand } from './brand.js';

/** The shop's name as the agent says it, or null when neither the brand nor the sales settings name it. */
export function shopName(espacio: string, nombreTienda: string, brand: AgentBrand | null): string | null {
  const branded = brand?.name.trim() ?? '';
  if (branded !== '' && branded !== espacio) return branded;
  const own = nombreTienda.trim();
  return own === '' ? null : own;
}

/** The sentence the agent introduces itself with: "Soy Sofía, asesora de ventas en Deportes Ruiz." */
export function presentation(brand: AgentBrand | null, shop: string | null): string {
  if (brand) return `Soy ${brand.identidad.nombre_agente.trim()}, ${roleAtShop(brand.identidad.rol, shop, 'en')}.`;
  return shop === null ? 'Soy el asistente de ventas de la tienda.' : `Soy el asistente de ventas de ${shop}.`;
}

/**
 * The brand's persona with its first sentence naming `shop`: marca writes the brand's `name` there, which is the
 * space id until the owner names the brand; the sales module's shop name is then the better one.
 */
export function brandDescription(brand: AgentBrand, shop: string | null): string {
  const written = brandIdentitySentence(brand);
  const wanted = brandIdentitySentence(brand, shop);
  if (written === wanted || !brand.persona.startsWith(written)) return brand.persona;
  return wanted + brand.persona.slice(written.length);
}
