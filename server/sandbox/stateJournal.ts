import { constants, readFileSync, renameSync } from 'node:fs';
import { appendFile, type FileHandle, mkdir, open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Logger } from '../lib/logger.js';

/**
 * The sandbox PSP's state on disk: a snapshot file and a journal beside it
 * (`${file}.journal`) to which each change is appended, so that saving a change
 * never rewrites every charge ever made. The snapshot is rewritten from memory
 * at start and when the journal has grown; every step is crash-safe
 * (generation numbers, temporary names and renames).
 */

/** What is saved, under the same names in the snapshot and in the journal's lines. */
export type Kind = 'charges' | 'withdrawals' | 'recipients';
export const KINDS: readonly Kind[] = ['charges', 'withdrawals', 'recipients'];

/** The records the journal saves, by kind and id; `load` replaces each kind's object with what the files hold. */
export type JournalRecords = Record<Kind, Record<string, object>>;

/**
 * The snapshot is rewritten once the journal outgrows this many times the last
 * snapshot (and `journalCompactBytes`): the disk holds a few times the live state
 * however long the PSP runs, and each rewrite costs a fraction of what was appended.
 */
const COMPACT_RATIO = 2;
const JOURNAL_COMPACT_BYTES = 8 << 20;
/** The snapshot is written in pieces of about this many characters, so the event loop is never held for the whole state. */
const SNAPSHOT_PIECE_CHARS = 1 << 20;

export interface StateJournalOptions {
  /** The least size in bytes of a journal before the snapshot is rewritten (8 MiB); tests make it small. */
  journalCompactBytes?: number;
  /** What of a record is written (secrets stay in memory). */
  saved: (record: object) => object;
  logger?: Logger;
}

export class StateJournal {
  /** The write under way, and the records changed since it began. */
  private writing?: Promise<void>;
  private unsaved = unsavedNone();
  /** The snapshot's generation: a journal is replayed over the snapshot that names the same one in its first line. */
  private generation = 0;
  /** The journal on disk starts with this generation's header and ends with a whole line: changes may be appended to it. */
  private journalReady = false;
  private journalBytes = 0;
  private snapshotBytes = 0;

  constructor(
    private readonly file: string,
    private readonly records: JournalRecords,
    private readonly options: StateJournalOptions,
  ) {}

  /** Before the first change: a journal with changes in it (or none yet) becomes a new snapshot. */
  async open(): Promise<void> {
    if (this.journalReady) return;
    this.writing ??= this.flush(this.file);
    await this.writing;
  }

  /** Resolves once what was recorded so far is on disk (or its write failed, logged). */
  async settled(): Promise<void> {
    await this.writing;
  }

  /**
   * Reads the snapshot, then replays the journal over it (the last line of a
   * record wins). A line cut short at the end (a crash in the middle of an
   * append) is ignored; an unreadable line elsewhere is skipped with a warning.
   */
  load(): void {
    const file = this.file;
    const logger = this.options.logger;
    let saved: Partial<Record<Kind | 'generation', unknown>> = {};
    try {
      const snapshot = readFileSync(file);
      this.snapshotBytes = snapshot.length;
      const parsed: unknown = JSON.parse(snapshot.toString('utf8'));
      if (!parsed || typeof parsed !== 'object') throw new Error('the state file does not hold an object');
      saved = parsed;
    } catch (error) {
      // First start: nothing saved yet. Anything else is set aside rather than overwritten by the next snapshot.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') setAside(file, error, logger);
    }
    for (const kind of KINDS) if (saved[kind] && typeof saved[kind] === 'object') this.records[kind] = saved[kind] as never;
    // A state file from before the journal has no generation: it is generation 0, and no journal names it.
    this.generation = Number.isSafeInteger(saved.generation) ? (saved.generation as number) : 0;

    const journal = `${file}.journal`;
    let text: Buffer;
    try {
      text = readFileSync(journal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') setAside(journal, error, logger);
      return;
    }
    let lines = 0;
    let clean = true;
    for (let start = 0; start < text.length;) {
      const end = text.indexOf(0x0a, start);
      if (end < 0) {
        logger?.warn({ journal }, 'sandbox PSP ignored the last line of its journal, cut short by a crash while it was written');
        clean = false;
        break;
      }
      const line = parseLine(text.toString('utf8', start, end));
      start = end + 1;
      lines += 1;
      if (lines === 1) {
        const generation = (line as { generation?: unknown } | undefined)?.generation;
        if (generation === this.generation) continue;
        // An older generation: the process stopped between the two renames of a compaction, and the snapshot already holds it all.
        if (typeof generation === 'number' && generation < this.generation) return;
        setAside(journal, new Error(`journal of generation ${String(generation)} beside a snapshot of generation ${this.generation}`), logger);
        return;
      }
      if (!isJournalEntry(line)) {
        logger?.warn({ journal, line: lines }, 'sandbox PSP skipped an unreadable line of its journal');
        clean = false;
        continue;
      }
      (this.records[line.kind] as Record<string, unknown>)[line.id] = line.record;
    }
    this.journalReady = clean && lines === 1;
    this.journalBytes = text.length;
  }

  /**
   * Saves a changed record in the background: appended to the journal, one
   * append at a time, and records changed while one is under way go in the
   * next (the whole state is not rewritten per change: that cost grew with
   * the history, on the event loop the gateway shares).
   */
  record(kind: Kind, id: string): void {
    this.unsaved[kind].add(id);
    this.writing ??= this.flush(this.file);
  }

  private async flush(file: string): Promise<void> {
    try {
      await mkdir(dirname(file), { recursive: true });
      while (!this.journalReady || KINDS.some((kind) => this.unsaved[kind].size > 0)) {
        if (!this.journalReady || this.journalBytes > Math.max(COMPACT_RATIO * this.snapshotBytes, this.options.journalCompactBytes ?? JOURNAL_COMPACT_BYTES)) {
          this.journalReady = false;
          await this.compact(file);
          continue;
        }
        const batch = this.unsaved;
        this.unsaved = unsavedNone();
        let lines = '';
        for (const kind of KINDS)
          for (const id of batch[kind]) lines += `${JSON.stringify({ kind, id, record: this.options.saved(this.records[kind][id]!) })}\n`;
        try {
          // Never creates the journal: one that went missing is started again, with its header, by a compaction.
          await appendFile(`${file}.journal`, lines, { flag: constants.O_WRONLY | constants.O_APPEND });
        } catch (error) {
          // Part of it may be on disk: the next write rewrites the snapshot (and so these records) rather than append after a torn line.
          for (const kind of KINDS) for (const id of batch[kind]) this.unsaved[kind].add(id);
          this.journalReady = false;
          throw error;
        }
        this.journalBytes += Buffer.byteLength(lines);
      }
    } catch (error) {
      this.options.logger?.warn({ err: error }, 'sandbox PSP could not save its state');
    } finally {
      this.writing = undefined;
    }
  }

  /**
   * Rewrites the snapshot from memory and starts an empty journal. Each file is
   * written under a temporary name and renamed, so a crash leaves the old
   * snapshot with its whole journal, or the new snapshot, whose higher
   * generation makes the old journal ignored (everything in it was appended
   * before this began, so the snapshot holds it), with the new journal or none.
   * Records changed while the snapshot is written are still unsaved, and go in
   * the new journal; replaying them over the snapshot changes nothing or
   * brings it up to date.
   */
  private async compact(file: string): Promise<void> {
    const generation = this.generation + 1;
    let snapshotBytes = 0;
    await writeSynced(`${file}.tmp`, async (out) => {
      let piece = `{"generation":${generation}`;
      for (const kind of KINDS) {
        const items: Record<string, object> = this.records[kind];
        piece += `,"${kind}":{`;
        let separator = '\n';
        for (const id of Object.keys(items)) {
          piece += `${separator}${JSON.stringify(id)}:${JSON.stringify(this.options.saved(items[id]!))}`;
          separator = ',\n';
          if (piece.length >= SNAPSHOT_PIECE_CHARS) {
            snapshotBytes += await writeAll(out, piece);
            piece = '';
          }
        }
        piece += '}';
      }
      snapshotBytes += await writeAll(out, `${piece}}\n`);
    });
    const header = `${JSON.stringify({ generation })}\n`;
    await writeSynced(`${file}.journal.tmp`, (out) => writeAll(out, header));
    await rename(`${file}.tmp`, file);
    await rename(`${file}.journal.tmp`, `${file}.journal`);
    await syncDirectory(dirname(file));
    this.generation = generation;
    this.snapshotBytes = snapshotBytes;
    this.journalBytes = Buffer.byteLength(header);
    this.journalReady = true;
  }
}

const unsavedNone = (): Record<Kind, Set<string>> => ({ charges: new Set(), withdrawals: new Set(), recipients: new Set() });

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

function isJournalEntry(line: unknown): line is { kind: Kind; id: string; record: object } {
  const entry = line as { kind?: unknown; id?: unknown; record?: unknown } | undefined;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    KINDS.includes(entry.kind as Kind) &&
    typeof entry.id === 'string' &&
    typeof entry.record === 'object' &&
    entry.record !== null
  );
}

/** An unreadable state file is renamed, not overwritten by the next snapshot, so that what it holds can still be recovered by hand. */
function setAside(file: string, error: unknown, logger?: Logger): void {
  const aside = `${file}.unreadable-${Date.now()}`;
  try {
    renameSync(file, aside);
  } catch {
    // Nothing more to do: the warning below says what happened.
  }
  logger?.warn({ err: error, file, aside }, 'sandbox PSP could not read a state file and set it aside');
}

/** Writes a file through `write` and flushes it to the disk before it is closed, so that a rename after it never publishes a file the disk lost. */
async function writeSynced(file: string, write: (out: FileHandle) => Promise<unknown>): Promise<void> {
  const out = await open(file, 'w');
  try {
    await write(out);
    await out.sync();
  } finally {
    await out.close();
  }
}

async function writeAll(out: FileHandle, text: string): Promise<number> {
  const bytes = Buffer.from(text);
  for (let done = 0; done < bytes.length;) done += (await out.write(bytes, done)).bytesWritten;
  return bytes.length;
}

/** Makes the renames in a folder durable; where a folder cannot be synced (some platforms), the renames are still atomic. */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Best effort, as above.
  }
}
