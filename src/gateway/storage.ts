/**
 * Where the reference gateway keeps uploaded files: on disk, under a folder of its own
 * (a temporary one unless given), one file per object, with an index in memory by
 * object key and by storageUri. An upload streams into a temporary file while its
 * SHA-256 and size are computed; only an accepted upload is committed (renamed into
 * place and indexed), so a refused upload stores nothing and memory holds no file
 * bytes unless they are asked for ({@link GatewayStorage.read}).
 * @module
 */
import { createHash, randomBytes, type Hash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rename, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One stored object. */
export interface StoredObject {
  /** The object key (the `key` form field). */
  readonly key: string;
  /** The storageUri issued with the credentials (§2.4). */
  readonly storageUri: string;
  readonly bucket: string;
  readonly uploadNo: string;
  /** The file name the file part carried. */
  readonly filename: string;
  /** The content type the file part carried, as busboy reports it. */
  readonly contentType: string;
  /** Size in bytes. */
  readonly size: number;
  /** SHA-256 of the bytes, lower-case hex. */
  readonly sha256: string;
  /** The gateway clock when it was stored, milliseconds. */
  readonly storedAt: number;
  /** The file holding the bytes. */
  readonly path: string;
}

/** What describes an object when it is committed (size, hash and path come from the bytes). */
export type ObjectMeta = Omit<StoredObject, 'size' | 'sha256' | 'path'>;

/** An upload being written: bytes go to a temporary file, hashed and counted on the way. */
export interface IncomingObject {
  /** Bytes written so far. */
  readonly size: number;
  /**
   * Writes a chunk.
   * @returns false when the caller should wait for {@link onDrain} before writing more
   */
  write(chunk: Uint8Array): boolean;
  /** Calls back once when the file can take more. */
  onDrain(callback: () => void): void;
  /** Ends the file and indexes it under its key and storageUri (replacing an earlier object of that key). */
  commit(meta: ObjectMeta): Promise<StoredObject>;
  /** Ends and deletes the file: nothing is stored. */
  discard(): Promise<void>;
}

/**
 * The gateway's storage.
 * @example
 * const storage = await GatewayStorage.open();
 * await storage.read('s3://pgv2kit-evidence/evidence/a.pdf') // undefined — nothing stored yet
 * await storage.close();
 */
export class GatewayStorage {
  readonly #byKey = new Map<string, StoredObject>();
  readonly #keyByUri = new Map<string, string>();
  readonly #owned: boolean;

  private constructor(
    /** The folder the objects are kept in. */
    readonly dir: string,
    owned: boolean,
  ) {
    this.#owned = owned;
  }

  /**
   * Opens a storage folder.
   * @param dir - the folder (created if missing, kept on {@link close}); default a new temporary folder, removed on
   * close
   * @returns the storage
   * @example const storage = await GatewayStorage.open(); await storage.close();
   */
  static async open(dir?: string): Promise<GatewayStorage> {
    if (dir !== undefined) {
      await mkdir(dir, { recursive: true });
      return new GatewayStorage(dir, false);
    }
    return new GatewayStorage(await mkdtemp(join(tmpdir(), 'pgv2kit-storage-')), true);
  }

  /**
   * Starts writing an upload.
   * @returns the incoming object
   * @example
   * const incoming = storage.begin();
   * incoming.write(utf8('%PDF'));
   * (
   *   await incoming.commit({
   *     key: 'evidence/b.pdf',
   *     storageUri: 's3://pgv2kit-evidence/evidence/b.pdf',
   *     bucket: 'pgv2kit-evidence',
   *     uploadNo: 'U2',
   *     filename: 'b.pdf',
   *     contentType: 'application/pdf',
   *     storedAt: 0,
   *   })
   * ).size // 4
   */
  begin(): IncomingObject {
    const name = randomBytes(12).toString('hex');
    const temp = join(this.dir, `.incoming-${name}`);
    return new Incoming(temp, join(this.dir, name), (o) => this.#index(o));
  }

  /**
   * An object by key or storageUri.
   * @param keyOrUri - the object key or the storageUri
   * @returns the object, or undefined
   * @example storage.get(storageUri)?.sha256
   */
  get(keyOrUri: string): StoredObject | undefined {
    return this.#byKey.get(this.#keyByUri.get(keyOrUri) ?? keyOrUri);
  }

  /**
   * The bytes of an object, read from disk.
   * @param keyOrUri - the object key or the storageUri
   * @returns the bytes, or undefined when nothing is stored there
   * @example await storage.read(storageUri)
   */
  async read(keyOrUri: string): Promise<Uint8Array | undefined> {
    const o = this.get(keyOrUri);
    if (!o) return undefined;
    const b = await readFile(o.path);
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  }

  /**
   * Every stored object, in the order stored.
   * @returns the objects
   * @example storage.list().length
   */
  list(): StoredObject[] {
    return [...this.#byKey.values()];
  }

  /**
   * The names of the files in the folder (stored objects and uploads in progress): for
   * tests that check a refused upload left nothing behind.
   * @returns the file names
   * @example await storage.files()
   */
  async files(): Promise<string[]> {
    return (await readdir(this.dir)).sort();
  }

  /**
   * Removes the folder when the storage created it; keeps a folder it was given.
   * @example await storage.close()
   */
  async close(): Promise<void> {
    if (this.#owned) await rm(this.dir, { recursive: true, force: true });
  }

  #index(o: StoredObject): void {
    const before = this.#byKey.get(o.key);
    if (before) {
      this.#keyByUri.delete(before.storageUri);
      this.#byKey.delete(o.key);
      void unlink(before.path).catch(() => undefined);
    }
    this.#byKey.set(o.key, o);
    this.#keyByUri.set(o.storageUri, o.key);
  }
}

// --- internal ---

class Incoming implements IncomingObject {
  size = 0;
  readonly #hash: Hash = createHash('sha256');
  readonly #out: WriteStream;
  readonly #closed: Promise<void>;
  /** The file could not be written: bytes are still counted, and commit rejects. */
  #failed = false;

  constructor(
    private readonly temp: string,
    private readonly final: string,
    private readonly index: (o: StoredObject) => void,
  ) {
    this.#out = createWriteStream(temp);
    this.#closed = new Promise((resolve, reject) => {
      this.#out.on('close', resolve);
      this.#out.on('error', (e) => {
        this.#failed = true;
        this.#out.emit('drain');
        reject(e);
      });
    });
    this.#closed.catch(() => undefined);
  }

  write(chunk: Uint8Array): boolean {
    this.size += chunk.byteLength;
    this.#hash.update(chunk);
    return this.#failed || this.#out.write(chunk);
  }

  onDrain(callback: () => void): void {
    if (this.#failed) callback();
    else this.#out.once('drain', callback);
  }

  async commit(meta: ObjectMeta): Promise<StoredObject> {
    this.#out.end();
    await this.#closed;
    await rename(this.temp, this.final);
    const o: StoredObject = { ...meta, size: this.size, sha256: this.#hash.digest('hex'), path: this.final };
    this.index(o);
    return o;
  }

  async discard(): Promise<void> {
    this.#out.end();
    await this.#closed.catch(() => undefined);
    await rm(this.temp, { force: true });
  }
}
