// The sessions of the Streamable HTTP server (`serve --sessions`): each an MCP server and transport
// of its own, bounded in number (past the bound, the session idle longest of the opener's own, or
// of anyone's when it holds none, is closed: one caller opening sessions without end churns its
// own and locks no one out), closed after an idle time, and owned by the caller (bearer token, or
// OAuth subject and client) and the endpoint that opened it (any other caller gets a 404 for its id, so an id alone is worth nothing).
//
// Replicas: with shared session records (Redis, state/shared-state.ts), a session
// opened on one replica continues on any other. Opening one stores a record (its owner's token
// digest, its endpoint, and the client's initialize request); a replica that meets an id it does
// not hold reads the record and, for the same owner at the same endpoint, builds the session again
// by replaying that initialize request into a new server and transport with the same id. Every
// request to a shared session extends its record (one PEXPIRE), and a record gone means the
// session was ended elsewhere (DELETE) or expired: the copy here closes too. Only a client's
// DELETE removes the record; a replica that stops or idles a session out leaves it for the others.
// What stays with the replica holding the connection: a GET stream's notifications, and the
// cancelling of a call running there. A load balancer keeping sessions on their replica
// (deploy/haproxy/haproxy.cfg) keeps those too; the records carry a session over a replica's end.

import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server as McpServer } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Caller } from '../access/caller.js';
import type { SessionRecords } from '../state/shared-state.js';
import type { Endpoint } from './endpoints.js';
import { exchange } from './web-exchange.js';

/** Largest initialize request shared with the other replicas; a larger one keeps its session here only. */
const MAX_SHARED_RECORD_CHARS = 64 * 1024;

export interface SessionTableOptions {
  max: number;
  idleMs: number;
  /** Where replicas share session records; null: sessions live in this process only. */
  records: SessionRecords | null;
  /** A new MCP server for the endpoint (its tools, its list-change notifications). */
  newServer(endpoint: Endpoint, caller: Caller | undefined): McpServer;
  log(line: string): void;
}

interface Session {
  server: McpServer;
  transport: WebStandardStreamableHTTPServerTransport;
  /** Whose it is (admission.ts sessionOwner): the bearer token's SHA-256, or with OAuth the subject and client's. */
  owner: Buffer;
  /** The path of the endpoint that opened it. */
  endpoint: string;
  /** Whether its record is in the shared store (so its absence there means it ended). */
  shared: boolean;
  idle?: NodeJS.Timeout;
}

/** What a replica shares of a session. */
interface SessionRecord {
  owner: string;
  endpoint: string;
  /** The client's initialize message, as it sent it. */
  initialize: unknown;
}

/** A session's answer, or why there is none: `missing` is a 404 (unknown here, or not the caller's). */
export type Found = { session: Session } | 'missing';

export class SessionTable {
  /** In the order they were last used, the one idle longest first. */
  private readonly sessions = new Map<string, Session>();
  /** Takeovers under way, so that two requests for one id build it once. */
  private readonly adopting = new Map<string, Promise<Found>>();

  constructor(private readonly options: SessionTableOptions) {}

  /** Opens a session with the client's initialize request (`body`) and answers it. */
  async open(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    endpoint: Endpoint,
    owner: Buffer,
    caller: Caller | undefined,
  ): Promise<void> {
    const initialize: unknown = (Array.isArray(body) ? body : [body]).find((message) => isInitializeRequest(message));
    // The record is stored before the initialize answer leaves: once the client knows the id, every replica can find it.
    const session: Session = await this.create(endpoint, owner, caller, randomUUID, (id) =>
      this.share(id, session, initialize),
    );
    try {
      await exchange(session.transport, req, res, body);
    } finally {
      // An initialize the transport refused (no event stream accepted, two in a batch) opened no
      // session: its server has no id, no idle timer and no place in the table, so none would close it.
      if (session.transport.sessionId === undefined) await session.server.close().catch(() => undefined);
    }
  }

  /** Answers a request of the session `id` (found here or taken over), or says why it cannot. */
  async handle(
    id: string,
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    endpoint: Endpoint,
    owner: Buffer,
    caller: Caller | undefined,
  ): Promise<Exclude<Found, { session: Session }> | 'answered'> {
    const found = await this.find(id, endpoint, owner, caller);
    if (typeof found === 'string') return found;
    this.touch(found.session);
    await exchange(found.session.transport, req, res, body);
    return 'answered';
  }

  /** Closes every session of this process; shared records stay for the other replicas. */
  async close(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((session) => session.server.close().catch(() => undefined)));
  }

  private async find(id: string, endpoint: Endpoint, owner: Buffer, caller: Caller | undefined): Promise<Found> {
    const local = this.sessions.get(id);
    if (local) {
      if (local.endpoint !== endpoint.path || !sameIdentity(local.owner, owner)) return 'missing';
      if (local.shared && (await this.options.records?.touch(id, this.options.idleMs)) === 'gone') {
        // Ended at another replica (or expired there): so here too.
        await local.server.close().catch(() => undefined);
        return 'missing';
      }
      return { session: local };
    }
    if (!this.options.records) return 'missing';
    let adopting = this.adopting.get(id);
    if (!adopting) {
      adopting = this.adopt(id, endpoint, owner, caller).finally(() => this.adopting.delete(id));
      this.adopting.set(id, adopting);
    }
    return adopting;
  }

  /** Builds the session `id` again from its shared record, for its owner at its endpoint. */
  private async adopt(id: string, endpoint: Endpoint, owner: Buffer, caller: Caller | undefined): Promise<Found> {
    const record = parseRecord(await (this.options.records as SessionRecords).get(id));
    if (!record || record.endpoint !== endpoint.path || !sameIdentity(Buffer.from(record.owner, 'hex'), owner))
      return 'missing';
    const session = await this.create(
      endpoint,
      owner,
      caller,
      () => id,
      async () => undefined,
    );
    session.shared = true;
    // The initialize request as the client sent it to the replica that opened the session: the
    // server and transport are then where they were after it. Its answer went to the client then.
    const replay = new Request('http://localhost/', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    });
    const answer = await session.transport.handleRequest(replay, { parsedBody: record.initialize });
    await answer.text();
    if (!answer.ok || session.transport.sessionId !== id) {
      await session.server.close().catch(() => undefined);
      return 'missing';
    }
    return { session };
  }

  private async create(
    endpoint: Endpoint,
    owner: Buffer,
    caller: Caller | undefined,
    sessionId: () => string,
    opened: (id: string) => Promise<void>,
  ): Promise<Session> {
    const server = this.options.newServer(endpoint, caller);
    const session: Session = {
      server,
      owner,
      endpoint: endpoint.path,
      shared: false,
      transport: new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: sessionId,
        // Room is made only for an initialize the transport accepted: a refused one closes no one's session.
        onsessioninitialized: async (id) => {
          await this.makeRoom(owner);
          this.sessions.set(id, session);
          this.touch(session);
          await opened(id);
        },
        // The client ended it: for every replica.
        onsessionclosed: (id) => this.options.records?.drop(id),
      }),
    };
    session.transport.onclose = () => {
      if (session.idle) clearTimeout(session.idle);
      const id = session.transport.sessionId;
      if (id !== undefined && this.sessions.get(id) === session) this.sessions.delete(id);
    };
    await server.connect(session.transport);
    return session;
  }

  /** Stores the record by which other replicas can take the session over. */
  private async share(id: string, session: Session, initialize: unknown): Promise<void> {
    if (!this.options.records) return;
    const record = JSON.stringify({
      owner: session.owner.toString('hex'),
      endpoint: session.endpoint,
      initialize,
    } satisfies SessionRecord);
    if (record.length > MAX_SHARED_RECORD_CHARS) {
      this.options.log(
        `flowguard: http: session ${id} is kept by this replica only: its initialize request is over ${MAX_SHARED_RECORD_CHARS} characters`,
      );
      return;
    }
    session.shared = await this.options.records.put(id, record, this.options.idleMs);
  }

  /**
   * At the bound, closes the session idle longest of `owner`, or of anyone when `owner` holds none
   * (its client gets a 404 and initializes again).
   */
  private async makeRoom(owner: Buffer): Promise<void> {
    if (this.sessions.size < this.options.max) return;
    const held = [...this.sessions];
    const [id, session] = held.find(([, other]) => sameIdentity(other.owner, owner)) ?? held[0] ?? [];
    if (id === undefined || session === undefined) return;
    this.sessions.delete(id);
    await session.server.close().catch(() => undefined);
  }

  private touch(session: Session): void {
    // Last in the map: the map's order is the order of use.
    const id = session.transport.sessionId;
    if (id !== undefined && this.sessions.get(id) === session) {
      this.sessions.delete(id);
      this.sessions.set(id, session);
    }
    if (session.idle) clearTimeout(session.idle);
    session.idle = setTimeout(() => void session.server.close().catch(() => undefined), this.options.idleMs);
    session.idle.unref();
  }
}

function sameIdentity(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A record as stored by `share`, or null for anything else (none, or not one of ours). */
function parseRecord(text: string | null): SessionRecord | null {
  if (text === null) return null;
  try {
    const record = JSON.parse(text) as Partial<SessionRecord>;
    const valid =
      typeof record.owner === 'string' &&
      /^[0-9a-f]{64}$/.test(record.owner) &&
      typeof record.endpoint === 'string' &&
      isInitializeRequest(record.initialize);
    return valid ? (record as SessionRecord) : null;
  } catch {
    return null;
  }
}
