// Leads other modules collect (a published landing's contact form), filed as conversations handed to a person: the
// agent never answers them, the shop sees them with the others in `GET /conversaciones` and hears of each through
// the same `ventas.conversacion_derivada` event as any hand-off.
import { randomBytes } from 'node:crypto';
import type { EventPublisher, LeadInbox, LeadInput } from '@cerebro/sdk';
import { newConversationState } from '../agent/index.js';
import { conversationView } from '../views.js';
import type { CatalogStore } from './catalog-store.js';
import type { Contacto, SqliteConversationStore } from './conversation-store.js';

export interface LeadInboxDeps {
  conversations: SqliteConversationStore;
  catalog: CatalogStore;
  events: EventPublisher;
}

/** An email or a phone, as the conversation's contact keeps them. */
const contactOf = (lead: LeadInput): Contacto => ({
  nombre: lead.nombre,
  ...(lead.contacto.includes('@') ? { email: lead.contacto } : { telefono: lead.contacto }),
});

export function leadInbox(deps: LeadInboxDeps): LeadInbox {
  return {
    async receive(spaceId, lead) {
      const id = `conv_${randomBytes(12).toString('base64url')}`;
      // The person asked to be contacted: handed over from the start (`pedido`), the agent stays silent.
      await deps.conversations.save(spaceId, id, {
        ...newConversationState(),
        estado: 'derivada',
        motivoDerivacion: 'pedido',
      });
      const texto = lead.mensaje === '' ? 'sin mensaje' : lead.mensaje;
      await deps.conversations.recordTurn(spaceId, id, {
        mensaje: `Contacto desde ${lead.origen}: ${texto}`,
        respuesta: null,
        tipo: null,
        contacto: contactOf(lead),
      });
      const record = await deps.conversations.find(spaceId, id);
      if (record) {
        const { conversacion, ...view } = conversationView(record, await deps.catalog.products(spaceId));
        deps.events.publish(spaceId, 'ventas.conversacion_derivada', { conversacion, ...view });
      }
      return { conversacion: id };
    },
  };
}
