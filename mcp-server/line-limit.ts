import { Transform, type TransformCallback } from 'node:stream';

/** What is known of a message that was too long: its size and, when it could be found, its JSON-RPC id. */
export interface DroppedLine {
  bytes: number;
  id?: string | number;
}

const EDGE_BYTES = 512;

/**
 * Passes stdin through one complete line (one JSON-RPC message) at a time and drops any line longer
 * than `maxBytes`, reporting it instead. The SDK's stdio transport closes itself on such a line
 * (its read buffer overflows) and the server then exits 0 without a word; this keeps it serving.
 */
export class LineLimit extends Transform {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Set while the rest of a too-long line is skipped. */
  private skipped: { bytes: number; head: Buffer; tail: Buffer } | undefined;

  constructor(
    private readonly maxBytes: number,
    private readonly onDropped: (line: DroppedLine) => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline + 1;
      this.accept(chunk.subarray(start, end));
      if (newline !== -1) this.endLine();
      start = end;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.skipped) this.endLine();
    else if (this.pendingBytes > 0) this.push(Buffer.concat(this.pending));
    done();
  }

  private accept(piece: Buffer): void {
    if (!this.skipped && this.pendingBytes + piece.length <= this.maxBytes) {
      this.pending.push(piece);
      this.pendingBytes += piece.length;
      return;
    }
    if (!this.skipped) {
      const head = Buffer.concat([...this.pending, piece.subarray(0, EDGE_BYTES)]).subarray(0, EDGE_BYTES);
      this.skipped = { bytes: this.pendingBytes, head, tail: Buffer.alloc(0) };
      this.pending = [];
      this.pendingBytes = 0;
    }
    this.skipped.bytes += piece.length;
    this.skipped.tail = Buffer.concat([this.skipped.tail, piece]).subarray(-EDGE_BYTES);
  }

  private endLine(): void {
    if (this.skipped) {
      const { bytes, head, tail } = this.skipped;
      this.skipped = undefined;
      const id = requestIdOf(head.toString('utf8'), tail.toString('utf8'));
      this.onDropped({ bytes, ...(id !== undefined && { id }) });
      return;
    }
    this.push(Buffer.concat(this.pending));
    this.pending = [];
    this.pendingBytes = 0;
  }
}

const ID_VALUE = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
/** `{"jsonrpc":"2.0","id":7,...`: the id before any nested value opens. */
const ID_AT_HEAD = new RegExp(String.raw`^\s*\{[^{}\[\]]*?"id"\s*:\s*${ID_VALUE}`);
/** `...,"jsonrpc":"2.0","id":7}`: where the SDK client puts it. */
const ID_AT_TAIL = new RegExp(String.raw`"id"\s*:\s*${ID_VALUE}\s*\}\s*$`);

/** The id of a message seen only by its first and last bytes, when it sits at the top level of either end. */
export function requestIdOf(head: string, tail: string): string | number | undefined {
  const raw = ID_AT_HEAD.exec(head)?.[1] ?? ID_AT_TAIL.exec(tail)?.[1];
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw) as string | number;
  } catch {
    return undefined;
  }
}
