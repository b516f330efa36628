// Shapes of the API answers the console reads, taken from the OpenAPI document (see wire.ts): each name is the
// answer of the route it comes from, so the pages keep their short names and the service stays their one source.
import type { Item, Ok } from './wire.js';

export type SessionInfo = Ok<'/sesion', 'get'>;
export type Owner = SessionInfo['propietario'];
/** The signed-in person's own profile (an owner's or a member's: `tipo`). */
export type Profile = Ok<'/perfil', 'get'>;

export type Space = Item<Ok<'/companies', 'get'>['espacios']>;

export type Account = Ok<'/companies/{espacio}/cuenta', 'get'>['cuenta'];

/** How many spaces the owner may hold and still create one from Studio. */
export type SpaceAllowance = Ok<'/cupo_espacios', 'get'>;
export type CreatedSpace = Ok<'/companies', 'post', 201>['espacio'];
export type RenamedSpace = Ok<'/companies/{espacio}', 'patch'>;

export type Permission = 'lee' | 'escribe';

/** A key as listed, or as created (then with its `token`, shown once). */
export type KeyRecord = Item<Ok<'/tokens', 'get'>['tokens']> & { token?: string };

export type DocumentRecord = Item<Ok<'/rag/{espacio}/documents', 'get'>['documentos']>;
/** One file of an upload: its document record, or `rechazado` with the reason (a text). */
export type UploadOutcome = Item<Ok<'/rag/{espacio}/load_documents', 'post', 202>['documentos']>;
export type DocumentState = UploadOutcome['estado'];

export type IndexingStatus = Ok<'/rag/{espacio}/indexing_status', 'get'>;

export type ModelsView = Ok<'/modelos', 'get'>;

export type SearchHit = Item<Ok<'/rag/{espacio}/buscar', 'post'>['pasajes']>;

/** A page of the document viewer: the document and its passages as indexed, in order. */
export type DocumentPassagePage = Ok<'/rag/{espacio}/documents/{archivo}/pasajes', 'get'>;
export type DocumentPassage = Item<DocumentPassagePage['pasajes']>;

export type Answer = Ok<'/rag/{espacio}/conversations', 'post'>;
export type Source = Item<Answer['fuentes']>;
/** A recorded Q&A conversation in the list, one with its turns, and the questions the documents did not answer. */
export type QaConversationPage = Ok<'/rag/{espacio}/conversations', 'get'>;
export type QaConversation = Ok<'/rag/{espacio}/conversations/{conversacion}', 'get'>;
export type QaTurn = Item<QaConversation['turnos']>;
export type UnansweredPage = Ok<'/rag/{espacio}/preguntas_sin_respuesta', 'get'>;

export type CerebroConfig = Ok<'/rag/{espacio}/config', 'get'>;

export type ApiConfig = Ok<'/companies/{espacio}/api-config', 'get'>;

export type Pool = Ok<'/cuentas/{cuenta}/bolsa', 'get'>;
export type Movement = Item<Pool['movimientos']>;

export type Brand = Ok<'/mod/marca/{espacio}/config', 'get'>;

export type SalesConversation = Ok<'/mod/ventas/{espacio}/conversaciones/{conversacion}', 'get'>;

export type Product = Item<Ok<'/mod/ventas/{espacio}/productos', 'get'>['productos']>;

export type Transcription = Ok<'/mod/transcripcion/{espacio}/transcripciones', 'post'>;
/** Whether the engine can transcribe now, asked before an upload. */
export type TranscriptionReadiness = Ok<'/mod/transcripcion/{espacio}/estado', 'get'>;

export type Webhook = Item<Ok<'/companies/{espacio}/webhooks', 'get'>['webhooks']>;
export type WebhookCreated = Ok<'/companies/{espacio}/webhooks', 'post', 201>;
export type WebhookEvent = Item<Webhook['eventos']>;
export type WebhookDeliveryPage = Ok<'/companies/{espacio}/webhooks/{webhook}/entregas', 'get'>;
export type WebhookDelivery = Item<WebhookDeliveryPage['entregas']>;

export type AuditPage = Ok<'/companies/{espacio}/auditoria', 'get'>;
export type AuditEvent = Item<AuditPage['eventos']>;

export type MemberRecord = Item<Ok<'/companies/{espacio}/miembros', 'get'>['miembros']>;
export type MemberRole = MemberRecord['rol'];
export type Invitation = Item<Ok<'/companies/{espacio}/invitaciones', 'get'>['invitaciones']>;
export type CreatedInvitation = Ok<'/companies/{espacio}/miembros', 'post', 201>;
export type InvitationPreview = Ok<'/invitaciones/consultar', 'post'>;
/** The signed-in person's role on a space: the owner's, or a member's. */
export type SpaceRole = NonNullable<Space['rol']>;
