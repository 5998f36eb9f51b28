import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Imports run one way. Every rule the folder READMEs state about what a folder may import
// (lambdas/, infra/, local/, web/src/ and the table in web/src/README.md) is one row below, and
// one loop checks every import of every source file against every row. A rule names folders, not
// features: a new feature folder is covered the day it is created, with no new row.

const root = fileURLToPath(new URL('../', import.meta.url));
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** Every source file below `dir` (a path from the root), skipping dependencies and build outputs. */
function sourcesBelow(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory())
      return ['node_modules', 'dist', 'cdk.out', '.local'].includes(entry.name) ? [] : sourcesBelow(file);
    return /\.(ts|tsx|mts|cts|mjs|cjs)$/.test(entry.name) ? [file] : [];
  });
}

/** package.json's `imports` (`#lambdas/*` -> `lambdas/`, ...), as prefixes. */
const aliases = Object.entries(JSON.parse(read('package.json')).imports as Record<string, string>).map(
  ([alias, target]) => [alias.replace(/\*$/, ''), target.replace(/^\.\//, '').replace(/\*$/, '')] as const,
);

/** An import as written, and the repository file it reaches (none for a package). */
interface Import {
  specifier: string;
  path?: string;
  /** `import type` / `export type`: erased, nothing of it reaches a bundle. */
  typeOnly?: boolean;
}

/** Static imports and re-exports (type-only ones too), side-effect imports, `import()` and `require()`. */
const importPattern =
  /^\s*(?:import|export)\b[^'";]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)|\brequire\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** What the source of `file` imports. Comment lines are skipped: a JSDoc may quote an import. */
function importsOf(file: string, source: string): Import[] {
  const code = source
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
    .join('\n');
  return [...code.matchAll(importPattern)].map((match) => {
    const specifier = (match[1] ?? match[2] ?? match[3] ?? match[4]) as string;
    const typeOnly = /^\s*(?:import|export)\s+type\b/.test(match[0]) ? { typeOnly: true } : {};
    const bare = specifier.replace(/\?.*$/, '');
    if (bare.startsWith('.'))
      return {
        specifier,
        ...typeOnly,
        path: path.posix.normalize(path.posix.join(path.posix.dirname(file), bare)),
      };
    const alias = aliases.find(([prefix]) => bare.startsWith(prefix));
    return alias
      ? { specifier, ...typeOnly, path: `${alias[1]}${bare.slice(alias[0].length)}` }
      : { specifier, ...typeOnly };
  });
}

const under = (file: string | undefined, ...folders: string[]) =>
  file !== undefined && folders.some((folder) => file.startsWith(`${folder}/`));
const isPackage = (imp: Import, ...names: string[]) =>
  imp.path === undefined &&
  names.some((name) => imp.specifier === name || imp.specifier.startsWith(`${name}/`));

/** The feature a file of web/src/features/ belongs to. */
const featureOf = (file: string | undefined) => /^web\/src\/features\/([^/]+)\//.exec(file ?? '')?.[1];
/** The folder of web/src a file is in; the entry modules beside the folders (main.tsx, ...) count as `app`. */
function webFolderOf(file: string | undefined): string | undefined {
  if (!file?.startsWith('web/src/')) return undefined;
  const rest = file.slice('web/src/'.length);
  return rest.includes('/') ? rest.slice(0, rest.indexOf('/')) : 'app';
}

/**
 * What each folder of web/src may import from web/src: the table of web/src/README.md. `features`
 * in a feature's own row means its own folder only; elsewhere, any feature through its index.ts.
 * `#contracts/*` and npm packages are governed by the rows of `rules`.
 */
const webImports: Record<string, string[]> = {
  app: ['app', 'pages', 'features', 'components', 'lib', 'content', 'config', 'styles'],
  pages: ['pages', 'features', 'components', 'lib', 'content', 'config', 'app'],
  features: ['features', 'components', 'lib', 'content', 'config', 'styles'],
  components: ['components', 'lib', 'content', 'config'],
  lib: ['lib', 'config'],
  content: ['content', 'config'],
  config: ['config'],
  styles: [],
};

/** What a feature folder may hold (ADR 0052): its public face and, as needed, these folders. */
const featureShape = { index: 'index.ts', folders: ['components', 'api', 'screens', 'lib'] };

interface Rule {
  /** The rule, as a failure names it. */
  says: string;
  /** Whether the rule governs this file (a path from the root). */
  governs: (file: string) => boolean;
  /** Whether this import of a governed file breaks the rule. */
  breaks: (imp: Import, file: string) => boolean;
  /** Imports that break it (`[file, source]`), so the test proves that the rule bites. */
  examples: [file: string, source: string][];
}

const rules: Rule[] = [
  // The backend (lambdas/README.md).
  {
    says: 'lambdas/ imports nothing from infra/, local/, web/, scripts/ or tests/',
    governs: (file) => under(file, 'lambdas'),
    breaks: (imp) => under(imp.path, 'infra', 'local', 'web', 'scripts', 'tests'),
    examples: [
      ['lambdas/http/auth.ts', "import { claimsPrefix } from '#infra/auth0/actions/post-login.cjs';"],
      ['lambdas/handlers/x.ts', "import { freePort } from '../../tests/helpers/free-port.ts';"],
    ],
  },
  {
    says: 'lambdas/contracts/ imports zod and itself only',
    governs: (file) => under(file, 'lambdas/contracts'),
    breaks: (imp) =>
      imp.path === undefined ? !isPackage(imp, 'zod') : !under(imp.path, 'lambdas/contracts'),
    examples: [['lambdas/contracts/api.ts', "import type { RouteDef } from '#lambdas/routes.ts';"]],
  },
  {
    says: "lambdas/runtime/ imports npm packages, itself and the environment's names only",
    governs: (file) => under(file, 'lambdas/runtime'),
    breaks: (imp) =>
      imp.path !== undefined && !under(imp.path, 'lambdas/runtime') && imp.path !== 'lambdas/environment.ts',
    examples: [['lambdas/runtime/logger.ts', "import { config } from '../config.ts';"]],
  },
  {
    says: 'lambdas/domain/ imports no AWS, Auth0, jose or Powertools SDK',
    governs: (file) => under(file, 'lambdas/domain'),
    breaks: (imp) =>
      imp.path === undefined && /^(@aws-sdk\/|auth0|jose|@aws-lambda-powertools\/)/.test(imp.specifier),
    examples: [['lambdas/domain/x.ts', "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';"]],
  },
  {
    says: 'lambdas/domain/ imports neither lambdas/http/, lambdas/adapters/ nor lambdas/handlers/',
    governs: (file) => under(file, 'lambdas/domain'),
    breaks: (imp) => under(imp.path, 'lambdas/http', 'lambdas/adapters', 'lambdas/handlers'),
    examples: [
      ['lambdas/domain/openapi/generate.ts', "import { problemTable } from '#lambdas/http/problems.ts';"],
      ['lambdas/domain/kyc/x.ts', "import type { X } from '../../adapters/dynamodb-kyc-store.ts';"],
    ],
  },
  {
    says: "a function's code imports its own contract row, never every route's (lambdas/routes.ts, lambdas/contracts/api.ts): its bundle holds no other route's schemas (ADR 0066)",
    // get-openapi describes every route; type-only imports add nothing to a bundle.
    governs: (file) =>
      under(
        file,
        'lambdas/handlers',
        'lambdas/http',
        'lambdas/adapters',
        'lambdas/domain',
        'lambdas/runtime',
      ) &&
      file !== 'lambdas/handlers/get-openapi.ts' &&
      file !== 'lambdas/http/openapi.ts',
    breaks: (imp) =>
      !imp.typeOnly && (imp.path === 'lambdas/routes.ts' || imp.path === 'lambdas/contracts/api.ts'),
    examples: [
      [
        'lambdas/http/http-handler.ts',
        "import { maxBodyBytesOf, type RouteDef, routes } from '#lambdas/routes.ts';",
      ],
      ['lambdas/handlers/get-health.ts', "import { apiRoutes } from '#contracts/api.ts';"],
    ],
  },
  {
    says: "lambdas/auth0-actions/ imports nothing but Node's built-ins: Auth0 runs each file on its own",
    governs: (file) => under(file, 'lambdas/auth0-actions'),
    breaks: (imp) => !imp.specifier.startsWith('node:'),
    examples: [['lambdas/auth0-actions/post-login.cjs', "const { routes } = require('../routes.ts');"]],
  },
  // Across the top-level folders.
  {
    says: 'only tests/ imports tests/: what scripts/ shares with the tests lives in scripts/lib/',
    governs: (file) => !under(file, 'tests'),
    breaks: (imp) => under(imp.path, 'tests'),
    examples: [
      ['scripts/bench/api.ts', "import { enrolledUsers } from '#tests/helpers/persona-webhooks.ts';"],
      ['local/stack.ts', "import { freePort } from '../tests/helpers/free-port.ts';"],
    ],
  },
  {
    says: 'infra/ and web/src/ never import local/',
    governs: (file) => under(file, 'infra', 'web/src'),
    breaks: (imp) => under(imp.path, 'local'),
    examples: [['infra/site/site.ts', "import { serveDist } from '#local/web/index.ts';"]],
  },
  {
    says: 'outside web/, only the route registry (web/src/config/) is read from web/src/',
    governs: (file) => under(file, 'bin', 'infra', 'lambdas', 'local', 'scripts'),
    breaks: (imp) => under(imp.path, 'web/src') && !under(imp.path, 'web/src/config'),
    examples: [
      ['infra/site/path-mapping.ts', "import { appPaths } from '#web/app/paths.ts';"],
      ['scripts/bench/web.ts', "import { publicPaths } from '#web/app/paths.ts';"],
    ],
  },
  // The web app (web/src/README.md).
  {
    says: 'web/src/ imports from the rest of the repository only lambdas/contracts/ (#contracts/*)',
    governs: (file) => under(file, 'web/src'),
    breaks: (imp) => imp.path !== undefined && !under(imp.path, 'web/src', 'lambdas/contracts'),
    examples: [
      ['web/src/lib/api-client.ts', "import { routes } from '#lambdas/routes.ts';"],
      [
        'web/src/app/routes.tsx',
        "import { sampleRegistrationRequest } from '#scripts/lib/sample-registration-request.ts';",
      ],
    ],
  },
  {
    says: 'inside web/src/, imports use the #web/* alias, never ../',
    governs: (file) => under(file, 'web/src'),
    breaks: (imp) => imp.specifier.startsWith('../'),
    examples: [
      ['web/src/features/kyc/screens/kyc-start.tsx', "import { api } from '../api/consent-api.ts';"],
    ],
  },
  {
    says: 'web/src/ never imports @auth0/auth0-spa-js: @auth0/auth0-react carries its own, and both would ship',
    governs: (file) => under(file, 'web/src'),
    breaks: (imp) => isPackage(imp, '@auth0/auth0-spa-js'),
    examples: [['web/src/lib/auth/auth0.tsx', "import { Auth0Client } from '@auth0/auth0-spa-js';"]],
  },
  {
    says: 'only web/src/lib/auth/auth0.tsx imports @auth0/auth0-react (loaded lazily: never on a public page)',
    governs: (file) => under(file, 'web/src') && file !== 'web/src/lib/auth/auth0.tsx',
    breaks: (imp) => isPackage(imp, '@auth0/auth0-react'),
    examples: [['web/src/components/site-nav.tsx', "import { useAuth0 } from '@auth0/auth0-react';"]],
  },
  {
    says: 'only the kyc feature (its /kyc/persona screen) imports the persona SDK',
    governs: (file) => under(file, 'web/src') && featureOf(file) !== 'kyc',
    breaks: (imp) => isPackage(imp, 'persona'),
    examples: [['web/src/features/account/screens/user-account.tsx', "import { Client } from 'persona';"]],
  },
  {
    says: 'a folder of web/src/ imports only the folders its row in web/src/README.md names (a feature: no other feature)',
    governs: (file) => under(file, 'web/src'),
    breaks: (imp, file) => {
      const from = webFolderOf(file) as string;
      const to = webFolderOf(imp.path);
      if (to === undefined) return false;
      if (from === 'features' && to === 'features') return featureOf(file) !== featureOf(imp.path);
      return !(webImports[from] ?? []).includes(to);
    },
    examples: [
      ['web/src/components/site-nav.tsx', "import { paths } from '#web/app/paths.ts';"],
      ['web/src/lib/journey.ts', "import { kycScreens } from '#web/features/kyc/index.ts';"],
      ['web/src/content/kyc.ts', "import { api } from '#web/lib/api-client.ts';"],
      ['web/src/features/kyc/components/x.tsx', "import { Layout } from '#web/app/layout.tsx';"],
      ['web/src/features/kyc/components/x.tsx', "const page = () => import('#web/pages/home.tsx');"],
      [
        'web/src/features/kyc/components/x.tsx',
        "import { useSession } from '#web/features/session/index.ts';",
      ],
    ],
  },
  {
    says: "outside a feature, only the feature's index.ts is imported (web/src/features/<feature>/index.ts)",
    governs: (file) => under(file, 'web/src'),
    breaks: (imp, file) => {
      const feature = featureOf(imp.path);
      return (
        feature !== undefined &&
        featureOf(file) !== feature &&
        imp.path !== `web/src/features/${feature}/${featureShape.index}`
      );
    },
    examples: [
      ['web/src/app/routes.tsx', "import { KycStart } from '#web/features/kyc/screens/kyc-start.tsx';"],
    ],
  },
];

/** Each import of `file` that breaks a rule, with the rule. */
function breaches(file: string, source: string): { imp: Import; rule: Rule }[] {
  const governing = rules.filter((rule) => rule.governs(file));
  return importsOf(file, source).flatMap((imp) =>
    governing.filter((rule) => rule.breaks(imp, file)).map((rule) => ({ imp, rule })),
  );
}
const violationsOf = (file: string, source: string) =>
  breaches(file, source).map(({ imp, rule }) => `${file} -> '${imp.specifier}': ${rule.says}`);

const sources = ['bin', 'infra', 'lambdas', 'local', 'scripts', 'tests', 'web'].flatMap(sourcesBelow);
const features = readdirSync(path.join(root, 'web/src/features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

describe('imports run one way', () => {
  it('in every source file, by every rule', () => {
    expect(sources.length).toBeGreaterThan(500);
    expect(sources.flatMap((file) => violationsOf(file, read(file)))).toEqual([]);
  });

  it('by rules that each refuse the imports they exist to stop', () => {
    for (const rule of rules) {
      expect(rule.examples.length, rule.says).toBeGreaterThan(0);
      for (const [file, source] of rule.examples) {
        const broken = breaches(file, source).map((breach) => breach.rule.says);
        expect([file, source, broken]).toEqual([file, source, expect.arrayContaining([rule.says])]);
      }
    }
    // The scan reads what the formatter writes: multi-line and type-only imports, re-exports,
    // side-effect imports, import() and require(); quoted imports in comments are not imports.
    const scanned = importsOf(
      'web/src/app/x.ts',
      [
        "import {\n  a,\n  type B,\n} from '#web/lib/a.ts';",
        "import type { C } from './c.ts';",
        "export * from '../d.ts';",
        "import '#web/styles/index.css';",
        "const e = () => import('#web/features/e/index.ts');",
        "const f = require('f/g');",
        "// import { h } from '#tests/h.ts';",
        " * `import('#tests/i.ts')`",
      ].join('\n'),
    );
    expect(scanned).toEqual([
      { specifier: '#web/lib/a.ts', path: 'web/src/lib/a.ts' },
      { specifier: './c.ts', typeOnly: true, path: 'web/src/app/c.ts' },
      { specifier: '../d.ts', path: 'web/src/d.ts' },
      { specifier: '#web/styles/index.css', path: 'web/src/styles/index.css' },
      { specifier: '#web/features/e/index.ts', path: 'web/src/features/e/index.ts' },
      { specifier: 'f/g' },
    ]);
  });

  it('for every feature folder as it is created: its own files, no other feature', () => {
    expect(features.length).toBeGreaterThan(10);
    for (const feature of features) {
      const inside = `web/src/features/${feature}/components/x.tsx`;
      const others = features.filter((other) => other !== feature);
      expect(violationsOf(inside, `import { a } from '#web/features/${feature}/lib/a.ts';`)).toEqual([]);
      for (const other of others) {
        expect(violationsOf(inside, `import { a } from '#web/features/${other}/index.ts';`)).toHaveLength(1);
      }
      expect(
        violationsOf('web/src/pages/x.tsx', `import { a } from '#web/features/${feature}/index.ts';`),
      ).toEqual([]);
      expect(
        violationsOf('web/src/pages/x.tsx', `import { a } from '#web/features/${feature}/lib/a.ts';`),
      ).toHaveLength(1);
    }
  });

  it('through a web/src/ whose every folder has a row, and whose features have one shape', () => {
    const folders = readdirSync(path.join(root, 'web/src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((folder) => !(folder in webImports))).toEqual([]);
    const misshapen = features.flatMap((feature) => {
      const dir = path.join(root, 'web/src/features', feature);
      const extra = readdirSync(dir)
        .filter((name) =>
          statSync(path.join(dir, name)).isDirectory()
            ? !featureShape.folders.includes(name)
            : name !== featureShape.index,
        )
        .map((name) => `web/src/features/${feature}/${name}`);
      return existsSync(path.join(dir, featureShape.index))
        ? extra
        : [...extra, `web/src/features/${feature}/${featureShape.index} is missing`];
    });
    expect(misshapen).toEqual([]);
  });
});
