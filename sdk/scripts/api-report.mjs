#!/usr/bin/env node
// The sdk's API report (API Extractor): `sdk/api/sdk.api.md` and `sdk/api/sdk-testing.api.md` record the public
// surface of `@cerebro/sdk` and `@cerebro/sdk/testing`. `npm run api-report -w sdk` rewrites them
// after an intended change (run `tsc -b` first); test/src/sdk-api-report.test.ts fails while they differ.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CompilerState, Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const SDK = fileURLToPath(new URL('../', import.meta.url));
const ENTRY_POINTS = [
  { entry: 'dist/index.d.ts', report: 'sdk' },
  { entry: 'dist/testing/index.d.ts', report: 'sdk-testing' },
];

/** Compares (or, with `update`, rewrites) each report; returns the entry points whose surface changed. */
export function runApiReport({ update = false } = {}) {
  const scratch = mkdtempSync(join(tmpdir(), 'cerebro-api-report-'));
  mkdirSync(join(SDK, 'api'), { recursive: true });
  let compilerState; // one TypeScript analysis for both entry points
  try {
    return ENTRY_POINTS.flatMap(({ entry, report }) => {
      const config = ExtractorConfig.prepare({
        configObject: {
          projectFolder: SDK,
          mainEntryPointFilePath: `<projectFolder>/${entry}`,
          compiler: { tsconfigFilePath: '<projectFolder>/tsconfig.json' },
          apiReport: {
            enabled: true,
            reportFileName: report,
            reportFolder: '<projectFolder>/api/',
            reportTempFolder: scratch,
          },
          docModel: { enabled: false },
          dtsRollup: { enabled: false },
          tsdocMetadata: { enabled: false },
          // Only the report matters here; release tags and TSDoc style are not part of this project's rules.
          messages: {
            compilerMessageReporting: { default: { logLevel: 'none' } },
            extractorMessageReporting: { default: { logLevel: 'none' } },
            tsdocMessageReporting: { default: { logLevel: 'none' } },
          },
        },
        configObjectFullPath: join(SDK, 'api-extractor.json'),
        packageJsonFullPath: join(SDK, 'package.json'),
      });
      compilerState ??= CompilerState.create(config, {
        additionalEntryPoints: ENTRY_POINTS.map((e) => join(SDK, e.entry)),
      });
      const result = Extractor.invoke(config, {
        localBuild: update,
        compilerState,
        messageCallback: (m) => {
          m.handled = true;
        },
      });
      return result.apiReportChanged && !update ? [`${report}.api.md`] : [];
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const changed = runApiReport({ update: process.argv.includes('--update') });
  if (changed.length) {
    console.error(
      `La superficie pública del sdk cambió: ${changed.join(', ')}. Revisa el cambio, actualiza CHANGELOG.md y ejecuta con --update.`,
    );
    process.exit(1);
  }
}
