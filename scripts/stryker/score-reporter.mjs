// A StrykerJS reporter plugin (`score-markdown`): writes score.md next to the json report.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { commonTokens, declareClassPlugin, PluginKind, tokens } from '@stryker-mutator/api/plugin';
import { scoreMarkdown } from './score-markdown.mjs';

/** Writes the per-file score page when Stryker's report is ready. */
class ScoreMarkdownReporter {
  static inject = tokens(commonTokens.options, commonTokens.logger);
  /** @type {Promise<void> | undefined} */
  written;

  /** @param {any} options @param {any} log */
  constructor(options, log) {
    this.options = options;
    this.log = log;
  }

  /** @param {any} report */
  onMutationTestReportReady(report) {
    const file = path.join(path.dirname(this.options.jsonReporter.fileName), 'score.md');
    this.written = mkdir(path.dirname(file), { recursive: true })
      .then(() => writeFile(file, scoreMarkdown(report)))
      .then(() => this.log.info(`Scores per file: ${file}`));
  }

  wrapUp() {
    return this.written;
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, 'score-markdown', ScoreMarkdownReporter)];
