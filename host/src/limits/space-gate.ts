// Per-space turns for questions. Each space has a few questions running at once and a bounded line of waiting
// ones; a question that finds the line full, or waits longer than allowed, is refused with 503 and Retry-After
// rather than queued without end. One space flooding questions (within its rate limit) then waits in its own line
// while another space's question goes straight to a free search thread.
import { apiError } from '@cerebro/sdk';
import type { SpaceGate, Turn } from './limit-services.js';

export interface SpaceGateOptions {
  /** Questions of one space answered at the same time. */
  concurrency: number;
  /** Questions of one space waiting for a turn; one more is refused at once. */
  queue: number;
  /** Longest wait for a turn, in milliseconds; past it the question is refused. */
  maxWaitMs: number;
}

export const DEFAULT_SPACE_GATE: SpaceGateOptions = { concurrency: 1, queue: 20, maxWaitMs: 10_000 };

interface Waiter {
  grant(): void;
}

interface Line {
  running: number;
  waiting: Waiter[];
}

export class InMemorySpaceGate implements SpaceGate {
  private readonly lines = new Map<string, Line>();

  constructor(private readonly options: SpaceGateOptions = DEFAULT_SPACE_GATE) {}

  /** Waits for a turn of `space`. Rejects with 503 `space_busy` when the line is full or the wait too long. */
  enter(space: string, signal?: AbortSignal): Promise<Turn> {
    const line = this.lines.get(space) ?? { running: 0, waiting: [] };
    this.lines.set(space, line);
    const since = performance.now();
    if (line.running < this.options.concurrency) {
      line.running++;
      return Promise.resolve(this.turn(space, line, 0));
    }
    if (line.waiting.length >= this.options.queue) {
      return Promise.reject(
        this.busy(`Este espacio ya tiene ${this.options.queue} preguntas esperando turno; reintenta en unos segundos.`),
      );
    }
    return new Promise<Turn>((resolve, reject) => {
      const leave = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const i = line.waiting.indexOf(waiter);
        if (i >= 0) line.waiting.splice(i, 1);
        this.forgetIfIdle(space, line);
      };
      const waiter: Waiter = {
        grant: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(this.turn(space, line, performance.now() - since));
        },
      };
      const timer = setTimeout(() => {
        leave();
        reject(
          this.busy(
            `La pregunta esperó más de ${Math.round(this.options.maxWaitMs / 1000)} s su turno en este espacio; reintenta en unos segundos.`,
          ),
        );
      }, this.options.maxWaitMs);
      // The client left while waiting: its turn is not taken, and the answer (which nobody reads) is a refusal rather
      // than an unexpected error in the logs.
      const onAbort = () => {
        leave();
        reject(this.busy('La pregunta dejó de esperar turno: el cliente cerró la conexión.'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      line.waiting.push(waiter);
    });
  }

  /** Questions running and waiting in a space (for metrics and tests). */
  load(space: string): { running: number; waiting: number } {
    const line = this.lines.get(space);
    return { running: line?.running ?? 0, waiting: line?.waiting.length ?? 0 };
  }

  private turn(space: string, line: Line, waitedMs: number): Turn {
    let released = false;
    return {
      waitedMs,
      release: () => {
        if (released) return;
        released = true;
        const next = line.waiting.shift();
        // The turn passes on directly, so `running` stays counted for the waiter it goes to.
        if (next) next.grant();
        else {
          line.running--;
          this.forgetIfIdle(space, line);
        }
      },
    };
  }

  private forgetIfIdle(space: string, line: Line): void {
    if (line.running === 0 && line.waiting.length === 0 && this.lines.get(space) === line) this.lines.delete(space);
  }

  private busy(detail: string) {
    // A turn frees when a question ends: a second or two is the usual wait at the gate's default size.
    return apiError('space_busy', detail, { 'Retry-After': '2' });
  }
}
