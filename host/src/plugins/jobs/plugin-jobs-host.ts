import type { Clock, JobsService } from '@cerebro/sdk';
import type { Logger as PinoLogger } from 'pino';
import type { PluginJobRepository } from '../../storage/port/plugin-job-repository.js';
import { ownerIsGone, PROCESS_OWNER } from '../../storage/shared/process-owner.js';
import { PluginJobs, type PluginJobsOptions } from './plugin-jobs.js';

/** Defaults: a cancel asked in another process is seen within half a second; a claim holds 30 s unrenewed. */
export const PLUGIN_JOB_DEFAULTS = { pollMs: 500, leaseMs: 30_000, keepFinishedMs: 86_400_000 } as const;

/** The `HostServices.Jobs` of every plugin of this process, stopped together before the plugins are disposed. */
export class PluginJobsHost {
  private readonly services = new Map<string, PluginJobs>();
  private readonly options: PluginJobsOptions;

  constructor(
    private readonly repo: PluginJobRepository,
    options: { runsJobs: boolean; clock: Clock } & Partial<PluginJobsOptions>,
    private readonly log: PinoLogger,
  ) {
    this.options = { ...PLUGIN_JOB_DEFAULTS, owner: PROCESS_OWNER, ownerIsGone, ...options };
  }

  of(pluginId: string): JobsService {
    let service = this.services.get(pluginId);
    if (!service) {
      service = new PluginJobs(pluginId, this.repo, this.options, this.log.child({ plugin: pluginId }));
      this.services.set(pluginId, service);
    }
    return service;
  }

  /** Aborts every running handler and waits for them (their jobs go back to the queue or end). */
  async stopAll(): Promise<void> {
    await Promise.all([...this.services.values()].map((s) => s.stop()));
  }
}
