import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { eventRules } from '#lambdas/event-rules.ts';
import { secretEnvVars } from '#lambdas/grants.ts';
import { routes } from '#lambdas/routes.ts';

// The operator docs are followed to the letter by someone new: every AWS command says which region
// it talks to (the edge stack lives in us-east-1 whatever the stage's region), and every document
// they point at is in the repository.

const root = fileURLToPath(new URL('../../', import.meta.url));
const docs = [
  'README.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const decisions = readdirSync(path.join(root, 'docs/decisions'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/decisions/${f}`);
/** The folders whose README says what lives in each subfolder and what it may import. */
const describedFolders = ['lambdas', 'infra', 'local', 'web/src'];
const folderReadmes = describedFolders.map((folder) => `${folder}/README.md`);
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** Every file below `dir` (a path from the root), skipping dependencies and build outputs. */
function filesBelow(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory())
      return ['node_modules', 'dist', 'cdk.out'].includes(entry.name) ? [] : filesBelow(file);
    return [file];
  });
}

/** Those READMEs and the ones deeper down (web/src/app/README.md: how to write a page). */
const readmes = describedFolders.flatMap(filesBelow).filter((file) => file.endsWith('/README.md'));

/** Every `aws <service> <operation> ...` command of a document: code-block lines (with their `\` continuations) and inline code. */
function awsCommands(markdown: string): string[] {
  const commands: string[] = [];
  const lines = markdown.split('\n');
  let inBlock = false;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    if (/^\s*```/.test(line)) {
      inBlock = !inBlock;
      continue;
    }
    if (inBlock) {
      let command = line;
      while (command.trimEnd().endsWith('\\') && i + 1 < lines.length) {
        i += 1;
        command = `${command.trimEnd().slice(0, -1).trimEnd()} ${lines[i]?.trim() ?? ''}`;
      }
      for (const match of command.matchAll(/(?:^|[\s;&|(`$])(aws [a-z0-9-]+ [a-z0-9-]+.*)/g)) {
        commands.push((match[1] as string).trim());
      }
    } else {
      for (const match of line.matchAll(/`(aws [a-z0-9-]+ [a-z0-9-]+[^`]*)`/g))
        commands.push(match[1] as string);
    }
  }
  return commands;
}

describe('the docs', () => {
  it('name --region in every AWS command', () => {
    const missing = [...docs, ...decisions].flatMap((file) =>
      awsCommands(read(file))
        .filter((command) => !command.includes('--region'))
        .map((command) => `${file}: ${command}`),
    );
    expect(missing).toEqual([]);
    // The scan sees commands in blocks, continuations and inline code.
    expect(
      awsCommands('```sh\naws sqs receive-message \\\n  --region x\n```\nrun `aws s3 ls s3://b`'),
    ).toEqual(['aws sqs receive-message --region x', 'aws s3 ls s3://b']);
  });

  it('point only at files inside the repository, and those exist', () => {
    const outside = [...docs, ...decisions, ...readmes].flatMap((file) =>
      [...read(file).matchAll(/(?<![\w/.])(\.\.\/[\w./-]+|\/work\/[\w./-]+)/g)].map(
        (m) => `${file}: ${m[1]}`,
      ),
    );
    expect(outside).toEqual([]);
    // Decisions keep the paths of their day; the rest describes the tree as it is.
    const missing = [...docs, ...readmes].flatMap((file) =>
      [
        ...read(file).matchAll(
          /`((?:docs|infra|lambdas|scripts|local|web|tests)\/[\w./-]+\.(?:md|ts|cjs|json))`/g,
        ),
      ]
        .map((m) => m[1] as string)
        // Build outputs are not in the repository.
        .filter((target) => !target.startsWith('web/dist/') && !existsSync(path.join(root, target)))
        .map((target) => `${file}: ${target}`),
    );
    expect(missing).toEqual([]);
  });

  it('and the code comments cite only documents a reader of the repository can open', () => {
    // The design is docs/design.md; notes kept outside the repository are not cited.
    const unreachable = new RegExp(['\\bDESIGN\\b', 'CONVENTIONS\\.md', 'INTEGRATION-NOTES\\.md'].join('|'));
    const cited = [
      'README.md',
      ...['bin', 'docs', 'infra', 'lambdas', 'local', 'scripts', 'tests', 'web'].flatMap(filesBelow),
    ]
      .filter((file) => /\.(ts|tsx|cjs|mjs|md|css|html)$/.test(file))
      .flatMap((file) =>
        read(file)
          .split('\n')
          .flatMap((line, i) => (unreachable.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(cited).toEqual([]);
  });

  it('name only route keys the route registry has', async () => {
    // web/src/app/README.md says where the registry is; what the web's READMEs write as
    // `paths.<key>.getHref()` or `.path` must be one of its keys. The list itself lives only there.
    const registry = /`(web\/src\/[\w/-]+\/paths\.ts)`/.exec(read('web/src/app/README.md'))?.[1] ?? '';
    expect(existsSync(path.join(root, registry)), registry).toBe(true);
    const { paths } = (await import(path.join(root, registry))) as { paths: Record<string, unknown> };
    const named = readmes
      .filter((file) => file.startsWith('web/'))
      .flatMap((file) =>
        [...read(file).matchAll(/\bpaths\.(\w+)\.(?:getHref|path)\b/g)].map((m) => [file, m[1] as string]),
      );
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter(([, key]) => !Object.hasOwn(paths, key as string))).toEqual([]);
  });

  it('describe every folder of lambdas/, infra/, local/ and web/src/, and the root README links them', () => {
    const undescribed = describedFolders.flatMap((folder) => {
      if (!existsSync(path.join(root, folder, 'README.md'))) return [`${folder}/README.md`];
      const readme = read(`${folder}/README.md`);
      return readdirSync(path.join(root, folder), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => `${folder}/${entry.name}/`)
        .filter((subfolder) => !readme.includes(`\`${subfolder}\``));
    });
    expect(undescribed).toEqual([]);
    const layout = read('README.md');
    expect(folderReadmes.filter((readme) => !layout.includes(`](${readme})`))).toEqual([]);
  });

  it('run only npm scripts package.json has', () => {
    const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    const runs = docs.flatMap((file) =>
      [...read(file).matchAll(/\bnpm run ([\w:.-]+)/g)].map((m) => [file, m[1] as string]),
    );
    expect(runs.filter(([file]) => file === 'docs/deploying.md').length).toBeGreaterThan(0);
    expect(runs.filter(([file]) => file === 'docs/operating.md').length).toBeGreaterThan(0);
    expect(runs.filter(([, name]) => !Object.hasOwn(scripts, name as string))).toEqual([]);
    // Each script's own entry file exists (`tsx scripts/x.ts`, `vite build --config web/vite.config.ts`).
    const entries = Object.entries(scripts).flatMap(([name, command]) =>
      [...command.matchAll(/(?:^|\s)((?:scripts|local|web|bin)\/[\w./-]+\.ts)\b/g)].map((m) => [
        name,
        m[1] as string,
      ]),
    );
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.filter(([, file]) => !existsSync(path.join(root, file as string)))).toEqual([]);
  });

  it('name every dead-letter queue, one per event rule, where the DeadLetters alarm is explained', () => {
    const operating = read('docs/operating.md');
    const start = operating.indexOf('DeadLetters`:');
    const section = operating.slice(start, operating.indexOf('\n#', start));
    expect(section).toContain(`Each of the ${eventRules.length} event rules`);
    expect(eventRules.filter((rule) => !section.includes(`\`${rule.id}\``)).map((rule) => rule.id)).toEqual(
      [],
    );
  });

  it('count and name every secret the data stack creates where deploying says how to fill them', () => {
    const deploying = read('docs/deploying.md');
    const start = deploying.indexOf('## 4. ');
    const section = deploying.slice(start, deploying.indexOf('\n## ', start + 1));
    const keys = Object.keys(secretEnvVars);
    const words = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
    expect(section).toContain(`The data stack creates ${words[keys.length]} Secrets Manager secrets`);
    const pascal = (key: string) => `Secrets${key[0]?.toUpperCase()}${key.slice(1)}`;
    expect(keys.map(pascal).filter((id) => !section.includes(`\`${id}\``))).toEqual([]);
  });

  it('name every reserved concurrency the functions have, with its value, where throttles are explained', () => {
    const operating = read('docs/operating.md');
    const throttles = operating.slice(operating.indexOf('Throttles`:'), operating.indexOf('DeadLetters`:'));
    const reserved = [...routes, ...eventRules].filter((def) => def.reservedConcurrency);
    expect(reserved.length).toBeGreaterThan(0);
    for (const def of reserved) {
      const named = new RegExp(`\`${def.id}\` \\(${def.reservedConcurrency}[):]`);
      expect([def.id, named.test(throttles)]).toEqual([def.id, true]);
    }
  });
});
