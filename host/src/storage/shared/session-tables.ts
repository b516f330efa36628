// The two tables of Studio sessions, owners' and members', which the SQLite and PostgreSQL session repositories
// read alike (one shape: id, person, secret digest, expiries, where it was opened).

/** Where one kind of Studio session is stored: its table, the column naming its person, and that person's table. */
export interface SessionTable {
  table: 'console_sessions' | 'member_sessions';
  person: 'owner_id' | 'member_id';
  /** The person's table and its read-only flag (members have none: `0`). */
  people: 'owners' | 'members';
  readOnly: 'p.read_only' | '0';
}

export const OWNER_SESSIONS: SessionTable = {
  table: 'console_sessions',
  person: 'owner_id',
  people: 'owners',
  readOnly: 'p.read_only',
};
export const MEMBER_SESSIONS: SessionTable = {
  table: 'member_sessions',
  person: 'member_id',
  people: 'members',
  readOnly: '0',
};
