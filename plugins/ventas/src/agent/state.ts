// Conversation state: everything the agent needs between two messages. Plain JSON, so storage
// can keep it in one TEXT column per conversation; `version` lets a later shape migrate it.
import type { QuoteLine } from './quote.js';

export interface ConversationState {
  version: 1;
  /** `derivada`: handed to a person; the agent stays silent from then on. */
  estado: 'activa' | 'derivada';
  /** Why it was handed over: the customer asked, or the agent could not help. */
  motivoDerivacion: 'pedido' | 'sin_respuesta' | null;
  ciudad: string | null;
  cotizacion: QuoteLine[];
  /** Product the last catalog answer was about: "¿y cuánto cuesta?" refers to it. */
  ultimoProducto: string | null;
  /** What the last answer asked for, so a bare reply ("Cali") is understood. */
  esperando: 'ciudad' | 'producto' | null;
  /** Customer messages handled (silent ones included). */
  turno: number;
  saludado: boolean;
  /** Consecutive questions that neither the catalog nor the documents could answer. */
  fallosSeguidos: number;
  /** Rule 5 bookkeeping: folded combo names already suggested and when the last one was. */
  combosSugeridos: string[];
  ultimoComboTurno: number | null;
  /** Rule 6 bookkeeping: next closing question to use. */
  indiceCierre: number;
}

export function newConversationState(): ConversationState {
  return {
    version: 1,
    estado: 'activa',
    motivoDerivacion: null,
    ciudad: null,
    cotizacion: [],
    ultimoProducto: null,
    esperando: null,
    turno: 0,
    saludado: false,
    fallosSeguidos: 0,
    combosSugeridos: [],
    ultimoComboTurno: null,
    indiceCierre: 0,
  };
}

/** Reads a stored state back; anything unreadable starts a fresh conversation state. */
export function conversationStateFromStored(stored: unknown): ConversationState {
  const fresh = newConversationState();
  if (typeof stored !== 'object' || stored === null || (stored as { version?: unknown }).version !== 1) return fresh;
  return { ...fresh, ...(stored as Partial<ConversationState>) };
}
