import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

// oidc-provider's storage for sessions, grants, refresh tokens, codes and interactions, one JSON
// file per model under the identity provider's state directory (ADR 0039): a restart of the
// provider keeps every signed-in user signed in, as Auth0's own restarts do.

interface Stored {
  payload: Record<string, unknown>;
  /** Epoch milliseconds; absent for what never expires. */
  expiresAt?: number;
}

/** One model's file: read once, kept in memory, rewritten atomically after each change. */
class ModelFile {
  private readonly entries = new Map<string, Stored>();
  private writing: Promise<void> = Promise.resolve();
  private next: Promise<void> | undefined;

  constructor(private readonly file: string) {
    if (!existsSync(file)) return;
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Stored>;
    for (const [id, stored] of Object.entries(saved)) this.entries.set(id, stored);
  }

  get(id: string): Stored | undefined {
    const stored = this.entries.get(id);
    if (stored?.expiresAt !== undefined && stored.expiresAt <= Date.now()) {
      this.entries.delete(id);
      return undefined;
    }
    return stored;
  }

  find(predicate: (payload: Record<string, unknown>) => boolean): string | undefined {
    for (const [id, stored] of this.entries) if (this.get(id) && predicate(stored.payload)) return id;
    return undefined;
  }

  ids(predicate: (payload: Record<string, unknown>) => boolean): string[] {
    return [...this.entries].filter(([, stored]) => predicate(stored.payload)).map(([id]) => id);
  }

  set(id: string, stored: Stored | undefined): Promise<void> {
    if (stored) this.entries.set(id, stored);
    else this.entries.delete(id);
    return this.save();
  }

  /**
   * Resolves once a write that includes this change is on disk. Changes that arrive while a write
   * is under way share the one write after it: a burst of sign-ins costs two writes, not one each.
   */
  private save(): Promise<void> {
    if (!this.next) {
      this.next = this.writing
        .catch(() => undefined)
        .then(() => {
          this.next = undefined;
          this.writing = this.write();
          return this.writing;
        });
    }
    return this.next;
  }

  private async write(): Promise<void> {
    const now = Date.now();
    const live: Record<string, Stored> = {};
    for (const [id, stored] of this.entries) {
      if (stored.expiresAt === undefined || stored.expiresAt > now) live[id] = stored;
      else this.entries.delete(id);
    }
    const tmp = `${this.file}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(tmp, JSON.stringify(live), { mode: 0o600 });
    await rename(tmp, this.file);
  }

  /** Every write asked for so far is on disk. */
  async flushed(): Promise<void> {
    await this.next;
    await this.writing;
  }
}

/** The adapter class oidc-provider instantiates once per model name (`adapter` in its configuration). */
export function fileAdapter(dir: string) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const files = new Map<string, ModelFile>();
  const fileFor = (model: string) => {
    let file = files.get(model);
    if (!file) {
      file = new ModelFile(join(dir, `${model.replace(/\W/g, '')}.json`));
      files.set(model, file);
    }
    return file;
  };

  class FileAdapter {
    private readonly file: ModelFile;

    constructor(model: string) {
      this.file = fileFor(model);
    }

    async upsert(id: string, payload: Record<string, unknown>, expiresIn?: number): Promise<void> {
      await this.file.set(id, {
        payload,
        ...(expiresIn ? { expiresAt: Date.now() + expiresIn * 1000 } : {}),
      });
    }

    async find(id: string): Promise<Record<string, unknown> | undefined> {
      return this.file.get(id)?.payload;
    }

    async findByUid(uid: string): Promise<Record<string, unknown> | undefined> {
      const id = this.file.find((payload) => payload.uid === uid);
      return id === undefined ? undefined : this.find(id);
    }

    async findByUserCode(userCode: string): Promise<Record<string, unknown> | undefined> {
      const id = this.file.find((payload) => payload.userCode === userCode);
      return id === undefined ? undefined : this.find(id);
    }

    async consume(id: string): Promise<void> {
      const stored = this.file.get(id);
      if (!stored) return;
      await this.file.set(id, {
        ...stored,
        payload: { ...stored.payload, consumed: Math.floor(Date.now() / 1000) },
      });
    }

    async destroy(id: string): Promise<void> {
      await this.file.set(id, undefined);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await Promise.all(
        this.file.ids((payload) => payload.grantId === grantId).map((id) => this.file.set(id, undefined)),
      );
    }
  }

  return {
    Adapter: FileAdapter,
    /** Resolves once every change made so far is on disk (before the provider stops). */
    flushed: () => Promise.all([...files.values()].map((file) => file.flushed())).then(() => undefined),
  };
}

/** The keys that sign the provider's cookies, kept so a restart does not void every session cookie. */
export async function loadOrCreateCookieKeys(dir: string): Promise<string[]> {
  const file = join(dir, 'cookie-keys.json');
  if (existsSync(file)) {
    const keys = JSON.parse(await readFile(file, 'utf8')) as unknown;
    if (Array.isArray(keys) && keys.length > 0 && keys.every((key) => typeof key === 'string')) return keys;
  }
  const keys = [randomBytes(32).toString('base64url')];
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(tmp, JSON.stringify(keys), { mode: 0o600 });
  await rename(tmp, file);
  return keys;
}
