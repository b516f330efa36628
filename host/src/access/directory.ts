import { inject, injectable } from 'tsyringe';
import {
  type ChangeVersionRepository,
  ChangeVersionRepositoryToken,
} from '../storage/port/change-version-repository.js';
import {
  type DirectoryRepository,
  DirectoryRepositoryToken,
  type SpaceWithModules,
} from '../storage/port/directory-repository.js';
import { parseApiSettings, type ApiSettings } from './api-settings.js';
import type { AccessDirectory, ValueOrPromise } from './access-services.js';
import type { SessionWithOwner } from '../studio/studio-services.js';
import type { AccountRow, AccountStanding, CredentialRow, KeyCredential, KeyRow, SpaceRecord } from './records.js';

/** The shared change version of owners, spaces, modules and credentials. */
const DIRECTORY_VERSION = 'directorio';

/**
 * Read access to owners, spaces, accounts and credentials through the directory repository, with key credentials
 * and space records memoised but never served stale: every writer calls `invalidate()`, which bumps the shared
 * `directorio` change version (storage/port/change-version-repository.ts), and reads compare that version with the
 * one the memo was filled at before trusting it. Any change, by this process, by another API process or by the
 * `cerebro admin` CLI, empties the memo.
 *
 * The version is read once per event-loop turn (until the next `setImmediate`), not once per read: the server handles
 * the requests a turn read from its sockets together, in that turn's check phase (http/check-phase.ts), after all of
 * them were read, so a revocation acknowledged to anyone before such a request was sent is already committed when the
 * turn's version is read: revocation stays immediate for every request that follows it. Once the turn's version is
 * read, a memo hit is answered synchronously (no promise: the authenticated hot path stays as fast as before the
 * port). A change made by this process empties the memo at once.
 *
 * On a database outside the process (PostgreSQL) the version read is a round trip, and a request's reads (its key,
 * then its space, then its account) come in different turns, each after the previous one's await: by turns, one
 * request read the version three times. A read that says when its request arrived (`since`, `performance.now()`)
 * instead accepts any check that started after that moment, by the same reasoning (everything acknowledged before
 * the request was sent is committed before the check began): one round trip per request, shared by every request
 * that arrived before it started.
 */
@injectable()
export class MemoisedAccessDirectory implements AccessDirectory {
  private settingsCache = new Map<string, ApiSettings>();
  private seenVersion = -1;
  private dirty = true;
  /** Moves on every emptying: a load that started before one must not refill the memo with what it read. */
  private generation = 0;
  /** The version check of the current event-loop turn, shared by every read in it. */
  private check: Promise<void> | null = null;
  /** Whether this turn's check has completed: memo hits are then answered synchronously. */
  private fresh = false;
  /** Moves when a turn ends, so a check that completes after its turn does not mark the next one fresh. */
  private turn = 0;
  /** The latest version check started (by turn or for a request), with when it started. */
  private latest: { startedAt: number; done: Promise<void>; settled: boolean } | null = null;
  private readonly endTurn = () => {
    this.check = null;
    this.fresh = false;
    this.turn++;
  };
  private keyMemo = new Map<string, KeyCredential | undefined>();
  private spaceMemo = new Map<string, SpaceRecord | undefined>();
  private ownerSpacesMemo = new Map<string, SpaceRecord[]>();
  private sessionMemo = new Map<string, SessionWithOwner | undefined>();
  private standingMemo = new Map<string, AccountStanding | undefined>();

  constructor(
    @inject(DirectoryRepositoryToken) private readonly repo: DirectoryRepository,
    @inject(ChangeVersionRepositoryToken) private readonly versions: ChangeVersionRepository,
  ) {}

  key(id: string): Promise<KeyRow | undefined> {
    return this.repo.key(id);
  }

  keyCredential(id: string, since?: number): ValueOrPromise<KeyCredential | undefined> {
    return this.memo(
      this.keyMemo,
      id,
      async () => {
        const row = await this.repo.keyCredential(id);
        return row && { ...row, spaces: Object.freeze(JSON.parse(row.spaces) as string[]) };
      },
      since,
    );
  }

  /** Every write to owners, spaces, modules or keys calls this: this process's memo and every other's go stale. */
  async invalidate(): Promise<void> {
    this.dirty = true;
    await this.versions.bump(DIRECTORY_VERSION);
  }

  operator(id: string): Promise<CredentialRow | undefined> {
    return this.repo.operator(id);
  }

  account(id: string): Promise<AccountRow | undefined> {
    return this.repo.account(id);
  }

  accountStanding(id: string, since?: number): ValueOrPromise<AccountStanding | undefined> {
    return this.memo(
      this.standingMemo,
      id,
      async () => {
        const row = await this.repo.account(id);
        return row && { id: row.id, unpaid_since: row.unpaid_since, suspended: row.suspended };
      },
      since,
    );
  }

  space(id: string, since?: number): ValueOrPromise<SpaceRecord | undefined> {
    return this.memo(
      this.spaceMemo,
      id,
      async () => {
        const row = await this.repo.space(id);
        return row && this.record(row);
      },
      since,
    );
  }

  ownerSpaces(ownerId: string, since?: number): ValueOrPromise<SpaceRecord[]> {
    return this.memo(
      this.ownerSpacesMemo,
      ownerId,
      async () => (await this.repo.ownerSpaces(ownerId)).map((row) => this.record(row)),
      since,
    );
  }

  consoleSession(
    id: string,
    load: () => Promise<SessionWithOwner | undefined>,
  ): ValueOrPromise<SessionWithOwner | undefined> {
    return this.memo(this.sessionMemo, id, load);
  }

  /**
   * A memo hit once a fresh enough version check completed (this turn's, or with `since` one started after the
   * request arrived) is answered synchronously; anything else reads storage.
   */
  private memo<V>(map: Map<string, V>, key: string, load: () => Promise<V>, since?: number): ValueOrPromise<V> {
    if (this.versions.readNow) {
      // In the process (SQLite) the turn's check is synchronous and costs nothing: `since` adds nothing to it.
      if (!this.fresh && this.check === null) this.checkNow(this.versions.readNow(DIRECTORY_VERSION));
      if (this.fresh && !this.dirty && map.has(key)) return map.get(key)!;
      return this.remember(map, key, load, this.turnCheck());
    }
    if (since === undefined) {
      if (this.fresh && !this.dirty && map.has(key)) return map.get(key)!;
      return this.remember(map, key, load, this.turnCheck());
    }
    const latest = this.latest;
    if (latest !== null && latest.startedAt > since) {
      if (latest.settled && !this.dirty && map.has(key)) return map.get(key)!;
      return this.remember(map, key, load, latest.done);
    }
    return this.remember(map, key, load, this.startCheck(false).done);
  }

  /** This turn's version check, started by the turn's first read. */
  private turnCheck(): Promise<void> {
    if (!this.check) {
      this.check = this.startCheck(true).done;
      setImmediate(this.endTurn);
    }
    return this.check;
  }

  /** A version check; `forTurn`: this turn's (it marks the turn fresh if it completes within it). */
  private startCheck(forTurn: boolean): { startedAt: number; done: Promise<void>; settled: boolean } {
    const check = { startedAt: performance.now(), done: Promise.resolve(), settled: false };
    check.done = this.compareVersion(forTurn).then(() => {
      check.settled = true;
    });
    this.latest = check;
    return check;
  }

  private async remember<V>(
    map: Map<string, V>,
    key: string,
    load: () => Promise<V>,
    check: Promise<void>,
  ): Promise<V> {
    await check;
    if (this.dirty) {
      this.keyMemo.clear();
      this.spaceMemo.clear();
      this.ownerSpacesMemo.clear();
      this.sessionMemo.clear();
      this.standingMemo.clear();
      this.generation++;
      this.dirty = false;
    }
    if (map.has(key)) return map.get(key)!;
    const generation = this.generation;
    const value = await load();
    if (generation === this.generation && !this.dirty) {
      if (map.size > 10_000) map.clear();
      map.set(key, value);
    }
    return value;
  }

  /** This turn's check, done at once with a version read synchronously (a backend in the process: SQLite). */
  private checkNow(version: number): void {
    if (version !== this.seenVersion) {
      this.seenVersion = version;
      this.dirty = true;
    }
    this.fresh = true;
    this.check = Promise.resolve();
    setImmediate(this.endTurn);
  }

  private async compareVersion(forTurn: boolean): Promise<void> {
    const turn = this.turn;
    const version = await this.versions.read(DIRECTORY_VERSION);
    if (version !== this.seenVersion) {
      this.seenVersion = version;
      this.dirty = true;
    }
    if (forTurn && turn === this.turn) this.fresh = true;
  }

  private record({ row, modules }: SpaceWithModules): SpaceRecord {
    // Parsing is memoised by the JSON text itself, so a changed setting is never served stale.
    let settings = this.settingsCache.get(row.api_settings);
    if (!settings) {
      settings = parseApiSettings(row.api_settings);
      if (this.settingsCache.size > 1000) this.settingsCache.clear();
      this.settingsCache.set(row.api_settings, settings);
    }
    return { row, modules, settings };
  }
}
