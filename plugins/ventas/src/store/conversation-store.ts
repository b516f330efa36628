// Conversations (leads) in SQLite: the agent's state as one JSON document per conversation (read and
// written by the domain's ConversationRunner through load/save), the lead's contact, and the transcript.
import type { Clock, PluginStorage } from '@cerebro/sdk';
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

export class SqliteConversationStore implements ConversationStore {
  private readonly selectOne;
  private readonly upsertState;
  private readonly selectPage;
  private readonly selectPageByState;
  private readonly countAll;
  private readonly countByState;
  private readonly lastSeq;
  private readonly insertMessage;
  private readonly touch;
  private readonly selectMessages;
  private readonly recordTx;
  private readonly personTx;

  constructor(
    storage: PluginStorage,
    private readonly clock: Clock,
  ) {
    this.selectOne = storage.prepare<Row>(`SELECT ${COLUMNS} FROM ventas_conversations WHERE space_id = ? AND id = ?`);
    this.upsertState = storage.prepare(
      `INSERT INTO ventas_conversations (space_id, id, state, estado, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (space_id, id) DO UPDATE SET state = excluded.state, estado = excluded.estado, updated_at = excluded.updated_at`,
    );
    this.selectPage = storage.prepare<Row>(
      `SELECT ${COLUMNS} FROM ventas_conversations WHERE space_id = ? ORDER BY updated_at DESC, rowid DESC LIMIT ? OFFSET ?`,
    );
    this.selectPageByState = storage.prepare<Row>(
      `SELECT ${COLUMNS} FROM ventas_conversations WHERE space_id = ? AND estado = ? ORDER BY updated_at DESC, rowid DESC LIMIT ? OFFSET ?`,
    );
    this.countAll = storage.prepare<{ n: number }>('SELECT COUNT(*) AS n FROM ventas_conversations WHERE space_id = ?');
    this.countByState = storage.prepare<{ n: number }>(
      'SELECT COUNT(*) AS n FROM ventas_conversations WHERE space_id = ? AND estado = ?',
    );
    this.lastSeq = storage.prepare<{ seq: number | null }>(
      'SELECT MAX(seq) AS seq FROM ventas_messages WHERE space_id = ? AND conversation_id = ?',
    );
    this.insertMessage = storage.prepare(
      'INSERT INTO ventas_messages (space_id, conversation_id, seq, rol, texto, tipo, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.touch = storage.prepare(
      'UPDATE ventas_conversations SET contacto = ?, mensajes = mensajes + ?, updated_at = ? WHERE space_id = ? AND id = ?',
    );
    this.selectMessages = storage.prepare<{
      rol: StoredMessage['rol'];
      texto: string;
      tipo: string | null;
      created_at: string;
    }>(
      'SELECT rol, texto, tipo, created_at FROM ventas_messages WHERE space_id = ? AND conversation_id = ? ORDER BY seq',
    );
    this.recordTx = storage.transaction((espacio: string, id: string, turn: TurnRecord) => {
      const now = this.now();
      const current = this.selectOne.get(espacio, id);
      if (!current) return;
      let seq = this.lastSeq.get(espacio, id)?.seq ?? 0;
      this.insertMessage.run(espacio, id, ++seq, 'cliente', turn.mensaje, null, now);
      if (turn.respuesta !== null) this.insertMessage.run(espacio, id, ++seq, 'agente', turn.respuesta, turn.tipo, now);
      const contacto = { ...parseContact(current.contacto), ...turn.contacto };
      this.touch.run(JSON.stringify(contacto), turn.respuesta === null ? 1 : 2, now, espacio, id);
    });
    // Checked and written in one transaction: a hand-back racing the reply cannot slip between them.
    this.personTx = storage.transaction(
      (espacio: string, id: string, texto: string): StoredMessage | 'no_derivada' | null => {
        const current = this.selectOne.get(espacio, id);
        if (!current) return null;
        if (conversationStateFromStored(JSON.parse(current.state)).estado !== 'derivada') return 'no_derivada';
        const now = this.now();
        const seq = (this.lastSeq.get(espacio, id)?.seq ?? 0) + 1;
        this.insertMessage.run(espacio, id, seq, 'persona', texto, null, now);
        this.touch.run(current.contacto, 1, now, espacio, id);
        return { rol: 'persona', texto, tipo: null, fecha: now };
      },
    );
  }

  load(espacio: string, id: string): ConversationState | null {
    const row = this.selectOne.get(espacio, id);
    return row ? conversationStateFromStored(JSON.parse(row.state)) : null;
  }

  save(espacio: string, id: string, state: ConversationState): void {
    const now = this.now();
    this.upsertState.run(espacio, id, JSON.stringify(state), state.estado, now, now);
  }

  find(espacio: string, id: string): ConversationRecord | null {
    const row = this.selectOne.get(espacio, id);
    return row ? toRecord(row) : null;
  }

  /** Most recently active first. */
  list(
    espacio: string,
    filter: { estado?: string; limite: number; desde: number },
  ): { records: ConversationRecord[]; total: number } {
    const rows = filter.estado
      ? this.selectPageByState.all(espacio, filter.estado, filter.limite, filter.desde)
      : this.selectPage.all(espacio, filter.limite, filter.desde);
    const total = (filter.estado ? this.countByState.get(espacio, filter.estado) : this.countAll.get(espacio))?.n ?? 0;
    return { records: rows.map(toRecord), total };
  }

  /** Appends one customer message (and the agent's answer, unless it stayed silent) to the transcript. */
  recordTurn(espacio: string, id: string, turn: TurnRecord): void {
    this.recordTx(espacio, id, turn);
  }

  /**
   * Appends a person's reply to a conversation handed off to a person (`derivada`). `no_derivada` when the agent
   * is handling it, null when there is no such conversation.
   */
  recordPersonReply(espacio: string, id: string, texto: string): StoredMessage | 'no_derivada' | null {
    return this.personTx(espacio, id, texto);
  }

  messages(espacio: string, id: string): StoredMessage[] {
    return this.selectMessages
      .all(espacio, id)
      .map((m) => ({ rol: m.rol, texto: m.texto, tipo: m.tipo, fecha: m.created_at }));
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
