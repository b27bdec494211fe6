// Types of `groundgate/mcp` (lib/mcp.js): the MCP server over an Engine's instances.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Engine } from '../node/groundgate.js';

/** What `groundgate mcp` does, in one line (its `--help` summary). */
export declare const summary: string;

/**
 * `groundgate mcp` itself: parse `argv` (`--index FILE`…), load and verify the indexes, serve the
 * tools on stdio until stdin ends. Throws on a bad argument or an index that fails to load.
 */
export declare function run(argv: string[]): Promise<unknown>;

/**
 * An MCP SDK `Server` (not yet connected) answering from `engine`, an `Engine` with its instances
 * loaded: the tools search, grep, sources, read and links (input and output schemas from the
 * library), the prompts `rules` and `rebel`. Connect it to any SDK transport.
 */
export declare function createServer(engine: Engine, options?: { name?: string; version?: string }): Server;

/** The server's instructions for `engine`: what it serves and the delivery rules 3–4 (en, ko). */
export declare function instructions(gg: { Engine: typeof Engine }, engine: Engine): string;
