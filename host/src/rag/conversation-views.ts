import type { ConversationSummary, RecordedConversation, TurnRating, UnansweredQuestion } from './conversation-log.js';

/** Wire views (Spanish names) of the conversation log; schemas in `conversation-schemas.ts`. */

export const ratingView = (rating: TurnRating) => ({
  valoracion: rating.rating,
  comentario: rating.comment,
  fecha: rating.at,
});

export const conversationSummaryView = (c: ConversationSummary) => ({
  id: c.id,
  creada: c.createdAt,
  actualizada: c.updatedAt,
  turnos: c.turns,
  primera_pregunta: c.firstQuestion,
  sin_respuesta: c.unanswered,
  valoraciones: { positivas: c.positive, negativas: c.negative },
});

export const conversationView = (c: RecordedConversation) => ({
  id: c.id,
  creada: c.createdAt,
  actualizada: c.updatedAt,
  turnos: c.turns.map((t) => ({
    turno: t.turn,
    pregunta: t.question,
    fecha: t.askedAt,
    respuesta: {
      texto: t.answer,
      encontrada: t.found,
      relevancia: t.relevance,
      cache: t.cached,
      fuentes: t.sources,
    },
    valoracion: t.rating && ratingView(t.rating),
  })),
});

export const unansweredView = (q: UnansweredQuestion) => ({
  pregunta: q.question,
  veces: q.times,
  ultima: q.lastAt,
  conversacion: q.lastConversation,
});
