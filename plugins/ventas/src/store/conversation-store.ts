// Conversations (leads) in SQLite: the agent's state as one JSON document per conversation (read and
// written by the domain's ConversationRunner through load/save), the lead's contact, and the transcript.
import type { Clock, PluginDatabase } from '@cerebro/sdk';
import { conversationStateFromStored, type ConversationState, type ConversationStore } from '../agent/index.js';

export interface Contacto {
  nombre?: string;
  telefono?: string;
  email?: string;
}

export interface ConversationRecord {
  id: string;
  state: ConversationState;
  contacto: Contacto;
  mensajes: number;
  creada: string;
  actualizada: string;
}

export interface StoredMessage {
  /** `persona`: a reply written by someone of the shop into a conversation handed off to them. */
  rol: 'cliente' | 'agente' | 'persona';
  texto: string;
  tipo: string | null;
  fecha: string;
}

export interface TurnRecord {
  mensaje: string;
  /** Null when the agent stayed silent (conversation with a person). */
  respuesta: string | null;
  tipo: string | null;
  /** Fields sent replace the stored ones; fields not sent stay. */
  contacto?: Contacto;
}

interface Row {
  id: string;
  state: string;
  contacto: string | null;
  mensajes: number;
  created_at: string;
  updated_at: string;
}

const COLUMNS = 'id, state, contacto, mensajes, created_at, updated_at';

const SELECT_ONE = `SELECT ${COLUMNS} FROM ventas_conversations WHERE space_id = ? AND id = ?`;
const LAST_SEQ = 'SELECT MAX(seq) AS seq FROM ventas_messages WHERE space_id = ? AND conversation_id = ?';
const INSERT_MESSAGE =
  'INSERT INTO ventas_messages (space_id, conversation_id, seq, rol, texto, tipo, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)';
const TOUCH =
  'UPDATE ventas_conversations SET contacto = ?, mensajes = mensajes + ?, updated_at = ? WHERE space_id = ? AND id = ?';
/**
 * The first statement of a transaction that appends to a transcript: writing the conversation's row (changing
 * nothing) makes PostgreSQL lock it, so two appends to one conversation, from one process or several, take turns:
 * the second reads the last `seq` and the contact after the first committed, instead of the same ones (a duplicate
 * key, a contact lost). SQLite runs a plugin's transactions one at a time anyway.
 */
const CLAIM = 'UPDATE ventas_conversations SET updated_at = updated_at WHERE space_id = ? AND id = ?';

export class SqliteConversationStore implements ConversationStore {
  constructor(
    private readonly db: PluginDatabase,
    private readonly clock: Clock,
  ) {}

  async load(espacio: string, id: string): Promise<ConversationState | null> {
    const row = await this.db.queryOne<Row>(SELECT_ONE, [espacio, id]);
    return row ? conversationStateFromStored(JSON.parse(row.state)) : null;
  }

  async save(espacio: string, id: string, state: ConversationState): Promise<void> {
    const now = this.now();
    await this.db.execute(
      `INSERT INTO ventas_conversations (space_id, id, state, estado, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (space_id, id) DO UPDATE SET state = excluded.state, estado = excluded.estado, updated_at = excluded.updated_at`,
      [espacio, id, JSON.stringify(state), state.estado, now, now],
    );
  }

  async find(espacio: string, id: string): Promise<ConversationRecord | null> {
    const row = await this.db.queryOne<Row>(SELECT_ONE, [espacio, id]);
    return row ? toRecord(row) : null;
  }

  /** Most recently active first. */
  async list(
    espacio: string,
    filter: { estado?: string; limite: number; desde: number },
  ): Promise<{ records: ConversationRecord[]; total: number }> {
    const byState = filter.estado ? ' AND estado = ?' : '';
    const where = filter.estado ? [espacio, filter.estado] : [espacio];
    const rows = await this.db.query<Row>(
      `SELECT ${COLUMNS} FROM ventas_conversations WHERE space_id = ?${byState} ORDER BY updated_at DESC, rowid DESC LIMIT ? OFFSET ?`,
      [...where, filter.limite, filter.desde],
    );
    const count = await this.db.queryOne<{ n: number }>(
      `SELECT COUNT(*) AS n FROM ventas_conversations WHERE space_id = ?${byState}`,
      where,
    );
    return { records: rows.map(toRecord), total: count?.n ?? 0 };
  }

  /** Appends one customer message (and the agent's answer, unless it stayed silent) to the transcript. */
  async recordTurn(espacio: string, id: string, turn: TurnRecord): Promise<void> {
    await this.db.transaction(async (tx) => {
      if ((await tx.execute(CLAIM, [espacio, id])).changes === 0) return;
      const now = this.now();
      const current = await tx.queryOne<Row>(SELECT_ONE, [espacio, id]);
      if (!current) return;
      let seq = (await tx.queryOne<{ seq: number | null }>(LAST_SEQ, [espacio, id]))?.seq ?? 0;
      await tx.execute(INSERT_MESSAGE, [espacio, id, ++seq, 'cliente', turn.mensaje, null, now]);
      if (turn.respuesta !== null)
        await tx.execute(INSERT_MESSAGE, [espacio, id, ++seq, 'agente', turn.respuesta, turn.tipo, now]);
      const contacto = { ...parseContact(current.contacto), ...turn.contacto };
      await tx.execute(TOUCH, [JSON.stringify(contacto), turn.respuesta === null ? 1 : 2, now, espacio, id]);
    });
  }

  /**
   * Appends a person's reply to a conversation handed off to a person (`derivada`). `no_derivada` when the agent
   * is handling it, null when there is no such conversation. Checked and written in one transaction: a hand-back
   * racing the reply cannot slip between them.
   */
  recordPersonReply(espacio: string, id: string, texto: string): Promise<StoredMessage | 'no_derivada' | null> {
    return this.db.transaction(async (tx) => {
      if ((await tx.execute(CLAIM, [espacio, id])).changes === 0) return null;
      const current = await tx.queryOne<Row>(SELECT_ONE, [espacio, id]);
      if (!current) return null;
      if (conversationStateFromStored(JSON.parse(current.state)).estado !== 'derivada') return 'no_derivada';
      const now = this.now();
      const seq = ((await tx.queryOne<{ seq: number | null }>(LAST_SEQ, [espacio, id]))?.seq ?? 0) + 1;
      await tx.execute(INSERT_MESSAGE, [espacio, id, seq, 'persona', texto, null, now]);
      await tx.execute(TOUCH, [current.contacto, 1, now, espacio, id]);
      return { rol: 'persona' as const, texto, tipo: null, fecha: now };
    });
  }

  async messages(espacio: string, id: string): Promise<StoredMessage[]> {
    const rows = await this.db.query<{
      rol: StoredMessage['rol'];
      texto: string;
      tipo: string | null;
      created_at: string;
    }>(
      'SELECT rol, texto, tipo, created_at FROM ventas_messages WHERE space_id = ? AND conversation_id = ? ORDER BY seq',
      [espacio, id],
    );
    return rows.map((m) => ({ rol: m.rol, texto: m.texto, tipo: m.tipo, fecha: m.created_at }));
  }

  private now(): string {
    return new Date(this.clock.now()).toISOString();
  }
}

function parseContact(text: string | null): Contacto {
  return text ? (JSON.parse(text) as Contacto) : {};
}

function toRecord(row: Row): ConversationRecord {
  return {
    id: row.id,
    state: conversationStateFromStored(JSON.parse(row.state)),
    contacto: parseContact(row.contacto),
    mensajes: row.mensajes,
    creada: row.created_at,
    actualizada: row.updated_at,
  };
}
