/**
 * The code of README.md, read from the file itself (no copy kept): fenced blocks of a language,
 * and the commands of its `bash` blocks, indented or not, one command per logical line (a line
 * ending in a backslash goes on), without its trailing comment.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

export const ROOT = path.join(__dirname, '../..');

export interface ReadmeCommand {
  /** 1-based line of README.md where the command starts. */
  line: number;
  /** Index of its fenced block, from 0. */
  block: number;
  text: string;
}

/** The line without a comment that starts outside quotes. */
function withoutComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"') i++;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '\\') i++;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]))) return line.slice(0, i).trimEnd();
  }
  return line.trimEnd();
}

/** A fenced code block of a Markdown file: its lines, unindented by its fence's indentation. */
export interface FencedBlock {
  /** 1-based line of its first line. */
  line: number;
  lines: string[];
}

/** The fenced blocks of one language, or of every language (and none) when it is undefined. */
export function fencedBlocks(file: string, language?: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  let open: (FencedBlock & { indent: string }) | undefined;
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((raw, index) => {
      const fence = /^(\s*)```(\w*)\s*$/.exec(raw);
      if (!open) {
        if (fence && (language === undefined || fence[2] === language))
          open = { indent: fence[1], line: index + 2, lines: [] };
      } else if (fence && fence[2] === '') {
        blocks.push({ line: open.line, lines: open.lines });
        open = undefined;
      } else open.lines.push(raw.startsWith(open.indent) ? raw.slice(open.indent.length) : raw);
    });
  return blocks;
}

export function readmeCommands(file = path.join(ROOT, 'README.md')): ReadmeCommand[] {
  const commands: ReadmeCommand[] = [];
  fencedBlocks(file, 'bash').forEach(({ line, lines }, block) => {
    let pending: ReadmeCommand | undefined;
    lines.forEach((raw, index) => {
      const text = withoutComment(raw.trim());
      const continued = text.endsWith('\\');
      const part = continued ? text.slice(0, -1).trimEnd() : text;
      if (pending) pending.text += ' ' + part;
      else if (part !== '') pending = { line: line + index, block, text: part };
      if (!continued && pending) {
        commands.push(pending);
        pending = undefined;
      }
    });
  });
  return commands;
}

/**
 * The program names npx (or another "fetch and run" launcher) may fetch from the registry in a
 * text: all it launches, except with npx's --no (or --no-install), which refuses to fetch.
 */
export function fetchablePackages(text: string): string[] {
  const launcher =
    /(?:^|[\s;&|(])(npx|npm\s+exec|pnpm\s+dlx|yarn\s+dlx|bunx)\s+((?:-\S+\s+)*)(\S+)/g;
  return [...text.matchAll(launcher)]
    .filter(([, , flags]) => !/(^|\s)--no(-install)?(\s|$)/.test(flags))
    .map((match) => match[3]);
}

/** The scripts `npm run X` names in a command. */
export function npmScripts(command: string): string[] {
  const run = /(?:^|[\s;&|(])npm\s+(?:run|run-script)\s+(?:-\S+\s+)*([^\s-]\S*)/g;
  return [...command.matchAll(run)].map((match) => match[1]);
}

/**
 * The bins `npm ci` links into node_modules/.bin that run this repository's files: those of the
 * packages package-lock.json pins (fetched by npm ci with their integrity), and those of its
 * workspaces whose file is committed (a bin pointing into an unbuilt dist/ is not linked).
 */
export function binsLinkedByNpmCi(): Set<string> {
  const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { bin?: Record<string, string>; link?: boolean }>;
  };
  const tracked = new Set(
    execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n'),
  );
  const bins = new Set<string>();
  for (const [where, entry] of Object.entries(lock.packages)) {
    if (where === '' || entry.link || !entry.bin) continue;
    const workspace = !where.includes('node_modules/');
    for (const [name, file] of Object.entries(entry.bin)) {
      if (!workspace || tracked.has(path.posix.join(where, file))) bins.add(name);
    }
  }
  return bins;
}
