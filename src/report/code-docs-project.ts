// The why and fix of the codes about everything around schema files: shared-list files, skills and
// prompts, handler code at run time, the key lock, groups, the configuration, errors that stop a
// command, and `flowguard migrate`.

import type { CodeSection } from './code-docs.js';

export const PROJECT_CODE_SECTIONS: readonly CodeSection[] = [
  {
    title: 'Shared-list files',
    codes: {
      LST001: { why: 'a list file is `export const list = { meta, entries }`', fix: 'write that shape' },
      LST002: { why: 'schemas find lists by a unique camelCase name', fix: 'rename, so no two lists share it' },
      LST003: { why: 'schemas pin it', fix: '`major.minor.patch`' },
      LST004: { why: 'entries are checked against them', fix: '`{ key, type, description, optional? }` each' },
      LST005: { why: 'schema authors choose fields by it', fix: 'say what the value means' },
      LST006: { why: 'a list without data helps nobody', fix: 'at least one object' },
      LST007: {
        why: 'interpolated enums would silently lose a value',
        fix: 'give the value, or make the field optional',
      },
      LST008: {
        why: "`'1'` is no number; enums and handlers rely on types",
        fix: "write the value in its field's type",
      },
      LST009: {
        why: 'a parent list must be loaded, pinned and match its condition',
        fix: 'fix the reference the message names',
      },
      LST010: { why: 'lists that need each other can never load', fix: 'break the cycle' },
      LST011: { why: 'keeps lists understandable', fix: 'at most 3 levels' },
      LST012: { why: 'data no schema can reach', fix: 'declare the field, or remove the key' },
      LST013: { why: 'lists are found by their file name first', fix: 'name the file in kebab-case after `meta.name`' },
    },
  },
  {
    title: 'Skills and prompts',
    codes: {
      SEC022: {
        why: 'skill and prompt files are read as data, never run',
        fix: 'write only literal `const`s: text, numbers, arrays, objects',
      },
      PRM001: {
        why: 'a client asks for a prompt by its name',
        fix: 'a lowercase name of letters, digits, `_` and `-`, at most 64 characters',
      },
      PRM002: {
        why: 'a group serves exactly the prompt files it names',
        fix: 'name an existing skill or prompt file inside the project folder',
      },
      PRM003: {
        why: 'a client shows the description and sends the content',
        fix: 'add `description` and `content` (a Markdown prompt: a `# Title` line)',
      },
      PRM004: {
        why: "clients build the prompt's form from its inputs",
        fix: 'each entry `{ key, type, description, required }`',
      },
      PRM005: {
        why: 'the prompt points the model at a tool it will not find',
        fix: 'name a tool of the catalog, or remove the reference',
      },
      PRM006: { why: 'the placeholder would stay in the text', fix: 'declare the input, or fix the name' },
      PRM007: {
        why: 'an attachment is sent to the client as MCP content',
        fix: 'an image with base64 `data` and a `mimeType`, or a resource with `uri` and `text`',
      },
    },
  },
  {
    title: 'Handler code at run time',
    codes: {
      SEC100: {
        why: 'handlers reach the network only through the core, from `executeRequest`',
        fix: "move the request into an `executeRequest` handler, or let the route's request do it",
      },
      SEC101: {
        why: "the core reads a handler's answer by its shape",
        fix: "return what the handler's phase expects (see [Handlers](../authors/handlers.md))",
      },
      SEC102: {
        why: 'shared lists and libraries are shared by every schema and frozen',
        fix: 'copy the data before changing it',
      },
      SEC103: {
        why: 'a handler cannot run without the library it names',
        fix: 'the operator installs it in the project folder (`npm install <name>`); `flowguard doctor` names it',
      },
      SEC104: {
        why: 'a schema whose factory fails has no handlers to run',
        fix: 'fix the error in the factory the message names',
      },
      SEC105: {
        why: 'a handler is a short computation; a slow one would hold the worker',
        fix: 'do less work, or the operator raises `sandbox.deadlineMs`',
      },
      SEC106: {
        why: 'one schema must not exhaust the memory of the sandbox',
        fix: 'work on less data and keep less of it between calls, or the operator raises `sandbox.memoryMb`',
      },
      SEC107: { why: 'a failing handler fails its own call, nothing more', fix: 'fix the error the message names' },
    },
  },
  {
    title: 'Code in shared-list files',
    codes: {
      SEC200: { why: 'a list is data, read without running it', fix: 'write the values out' },
      SEC201: { why: 'a list is data, read without running it', fix: 'write the values out' },
      SEC202: { why: 'a list is data, read without running it', fix: 'write the values out' },
      SEC203: { why: 'an expression would need running', fix: 'write the text out, or use a plain string' },
      SEC204: { why: 'what a schema may not hold, a list may not either', fix: 'remove it' },
      SEC205: { why: 'statements would run when the file is loaded', fix: 'keep only `export const list`' },
      SEC206: { why: '`list` is read without running it, so it holds only literals', fix: 'write the value out' },
      SEC207: {
        why: 'files are bounded before they are read',
        fix: 'split the list, or the operator raises `limits.maxFileBytes`',
      },
    },
  },
  {
    title: 'The key lock',
    codes: {
      SEC300: {
        why: 'a key goes only where the operator let it go; a changed file must not take it elsewhere',
        fix: 'check the change, then `flowguard keys accept` (see [Access](../operators/access.md))',
      },
      SEC301: {
        why: 'without a usable lock, nothing says where a key may go',
        fix: 'repair or remove `.flowmcp/keys.lock.json`, then `flowguard keys accept`',
      },
    },
  },
  {
    title: 'Groups',
    codes: {
      GRP001: {
        why: "a group's name is part of its endpoint and of `serve --group`",
        fix: 'lowercase letters, digits and `-`, starting with a letter',
      },
      GRP002: { why: 'a client is given every tool of a group at once', fix: 'split the group' },
      GRP003: { why: 'a reference names one route of one file', fix: '`namespace/file.mjs::route`' },
      GRP004: {
        why: 'a group serves exactly the tools it names',
        fix: 'name a loaded tool (`flowguard list` shows the references) or an existing group',
      },
      GRP005: { why: 'a tool is served once', fix: 'remove the second entry' },
      GRP006: {
        why: 'a group serves the tools it was made with, or none',
        fix: 'check the change, then `flowguard group create <name> --force`',
      },
      GRP007: {
        why: 'the groups file is read as it is written, never guessed',
        fix: 'fix the field the message names',
      },
      GRP008: {
        why: 'what a tool does depends on its file, lists and libraries too',
        fix: 'check the change, then `flowguard group create <name> --force`',
      },
      GRP009: {
        why: 'without a content record a change in a file would pass unseen',
        fix: '`flowguard group create <name> --force` records its content',
      },
      SEL001: {
        why: 'a 4.x selection is read as literal data and served under its own name, so its form and name must be exact',
        fix: 'write `export const selection = { name, description, tools: [...] }` with literal values and a name no group or other selection has',
      },
      SEL003: {
        why: 'a selection serves exactly the tools it names',
        fix: 'name a loaded tool as `namespace/tool/name` or `namespace/file.mjs::route` (`flowguard list` shows the references)',
      },
    },
  },
  {
    title: 'The configuration file',
    codes: {
      CFG001: {
        why: "the operator's settings are read as written, never guessed",
        fix: 'make `.flowmcp/config.json` readable JSON (the message gives the position)',
      },
      CFG002: {
        why: 'a misspelt key would silently leave its default in force',
        fix: 'use the key the hint suggests, or remove it ([configuration](configuration.md))',
      },
      CFG003: {
        why: 'a value out of its range or type cannot mean what was meant',
        fix: 'give a value the message allows',
      },
    },
  },
  {
    title: 'Errors that stop a command',
    codes: {
      ERR001: {
        why: 'a command does only what its flags say',
        fix: 'correct the flag, value or path the message names (`flowguard <command> --help`)',
      },
      ERR002: { why: 'a server never starts on settings it cannot read', fix: 'fix the CFG findings listed above it' },
      ERR003: {
        why: 'an override reroutes requests that carry keys, so it must be exact',
        fix: 'write `ORIGIN=BASEURL` with two http(s) URLs',
      },
      ERR004: {
        why: 'a weak token or an unknown host would open the server to others',
        fix: 'use a token of at least the length given (`openssl rand -hex 32`), digests as `sha256:<hex>`, host names without scheme or port',
      },
      ERR005: { why: 'a browser origin is matched exactly', fix: 'write `scheme://host[:port]` or `scheme://host:*`' },
      ERR006: {
        why: 'the import reads only documents it understands',
        fix: 'give an OpenAPI 3.x or Swagger 2.0 document whose references resolve',
      },
      ERR007: {
        why: "a document past the import's bounds could exhaust the machine",
        fix: 'split the document, or import the part you need',
      },
      ERR008: {
        why: "the upstream's failure is reported, not hidden",
        fix: 'read the reason given; retry, or check the API and the override',
      },
      ERR009: { why: 'a cursor is only valid from the server that gave it', fix: 'list again from the start' },
      ERR010: {
        why: 'meta-tools take exactly their input schema',
        fix: 'call them with the arguments `tools/list` describes',
      },
      ERR011: {
        why: 'a server that cannot verify tokens must not start as if it could',
        fix: 'fix the OAuth setting the message names ([remote access](../operators/remote-access.md#oauth-setup))',
      },
      ERR012: {
        why: 'an identity decides what a caller sees; a wrong one must not be guessed',
        fix: 'fix the identity the message names ([identities](../operators/remote-access.md#identities))',
      },
      ERR013: {
        why: "the key lock and `groups.json` are the operator's records: each is written whole or not at all",
        fix: 'make `.flowmcp/` and the file writable (or free disk space), then run the command again',
      },
      ERR099: {
        why: 'something flowguard did not expect happened: a bug',
        fix: 'report it with the command you ran; `FLOWGUARD_DEBUG=1` prints the stack',
      },
    },
  },
  {
    title: 'flowguard migrate',
    codes: {
      MIG001: { why: 'some 1.2.0 code has no mechanical equivalent', fix: 'rewrite the commented code as a handler' },
      MIG002: { why: 'the new `main` must be literal data', fix: 'write the value out' },
      MIG003: {
        why: 'the new format has the phases pre, execute and post only',
        fix: 'write the handler the modifier meant',
      },
      MIG004: {
        why: 'a GET request has no body',
        fix: 'check that a handler uses the input, or make it a query parameter',
      },
      MIG005: {
        why: 'the field may mean nothing in the new format',
        fix: 'remove it, or move it where the format has it',
      },
      MIG006: { why: 'code nothing calls would only be read', fix: 'nothing to fix' },
      MIG007: {
        why: 'migrate never overwrites a file',
        fix: 'remove or rename the existing file, or name another output',
      },
      MIG008: {
        why: '`regex(p)` takes the pattern without slashes',
        fix: 'check that the pattern still matches what it should',
      },
    },
  },
];
