// The one table of finding codes (decision R1): each code's fixed severity, one-line meaning and,
// for an error that stops a command, its exit code. The finding model (findings.ts) reports by these
// codes; the why and fix of each is in code-docs.ts.

import type { Severity } from './findings.js';

interface CodeEntry {
  severity: Severity;
  meaning: string;
  /** The exit code of a command stopped by an error of this code (src/errors/); 1 where none is given. */
  exit?: number;
}

/**
 * Every code flowguard can emit, with its fixed severity and one-line meaning. A code never
 * changes meaning; new checks take free numbers in the ranges of decision R1. The page
 * docs/reference/findings.md is generated from this table and code-docs.ts (the why and fix).
 */
export const CODES = {
  // Static scan of schema files (spec chapter 05 numbering, extended in free numbers).
  SEC001: { severity: 'error', meaning: 'import declaration, dynamic import() or import.meta' },
  SEC002: { severity: 'error', meaning: 'CommonJS access: require, module or exports' },
  SEC003: { severity: 'error', meaning: 'eval' },
  SEC004: { severity: 'error', meaning: 'Function constructor reached or called' },
  SEC005: { severity: 'error', meaning: 'file-system module named (fs, node:fs, fs/promises)' },
  SEC006: { severity: 'error', meaning: 'process' },
  SEC007: { severity: 'error', meaning: 'child_process module named' },
  SEC008: { severity: 'error', meaning: 'globalThis or global' },
  SEC009: { severity: 'error', meaning: '__dirname or __filename' },
  SEC010: { severity: 'error', meaning: 'new Function' },
  SEC011: { severity: 'error', meaning: 'timer: setTimeout, setInterval or setImmediate' },
  SEC013: { severity: 'error', meaning: 'required library is not on the allowlist' },
  SEC014: { severity: 'error', meaning: 'network global: XMLHttpRequest or WebSocket' },
  SEC015: { severity: 'error', meaning: 'top-level await' },
  SEC016: { severity: 'error', meaning: 'file cannot be parsed as an ES module' },
  SEC017: { severity: 'error', meaning: '`main` is not literal data' },
  SEC019: { severity: 'error', meaning: 'code outside `export const main` and `export const handlers`' },
  SEC020: { severity: 'error', meaning: 'schema file larger than limits.maxFileBytes, not parsed' },
  SEC021: {
    severity: 'info',
    meaning:
      "handler code calls fetch: its requests go through the core, within the schema's reach (executeRequest only)",
  },
  SEC022: {
    severity: 'error',
    meaning: 'skill or prompt file holds code: a value that is not literal data, or a statement besides its consts',
  },
  SEC023: {
    severity: 'warning',
    meaning:
      'https origin written in the file or a list it references cannot be in the executeRequest reach (no valid host and port, or a `${...}` label makes up its registrable domain): left out',
  },

  // Handler code at run time, in the sandbox (spec chapter 05 numbering, extended).
  SEC100: { severity: 'error', meaning: 'handler code tried to reach the network' },
  SEC101: { severity: 'error', meaning: 'handlers factory or handler returned the wrong shape' },
  SEC102: { severity: 'error', meaning: 'handler code tried to change frozen data (a shared list or library)' },
  SEC103: { severity: 'error', meaning: 'an allowlisted library is not installed or failed to load' },
  SEC104: { severity: 'error', meaning: 'the handlers factory threw' },
  SEC105: { severity: 'error', meaning: 'handlers factory or handler missed its deadline' },
  SEC106: { severity: 'error', meaning: 'handler code exceeded the sandbox memory limit' },
  SEC107: { severity: 'error', meaning: 'a handler threw or its sandbox worker stopped' },

  // Shared-list files: the stricter list scan (spec chapter 05 numbering, extended in free numbers).
  SEC200: { severity: 'error', meaning: 'function syntax in a list file (function, method, getter or setter)' },
  SEC201: { severity: 'error', meaning: 'arrow function in a list file' },
  SEC202: { severity: 'error', meaning: 'async or await in a list file' },
  SEC203: { severity: 'error', meaning: 'template literal with expressions in a list file' },
  SEC204: { severity: 'error', meaning: 'schema forbidden pattern in a list file' },
  SEC205: { severity: 'error', meaning: 'code outside `export const list` in a list file' },
  SEC206: { severity: 'error', meaning: '`list` is not literal data' },
  SEC207: { severity: 'error', meaning: 'list file larger than limits.maxFileBytes, not parsed' },

  // The key lock, `.flowmcp/keys.lock.json` (src/keylock/): where the operator let each key go.
  SEC300: {
    severity: 'error',
    meaning:
      'a key would go to a schema file, namespace or origin the key lock does not record for it: held back, its tools hidden, until `flowguard keys accept`',
  },
  SEC301: {
    severity: 'error',
    meaning:
      'the key lock file cannot be used (unreadable, too large, not JSON, or not its shape): every key is held back',
  },

  // Structure of the file and of `main` (spec chapter 09 numbering, extended in free numbers).
  VAL001: { severity: 'error', meaning: 'no `export const main`' },
  VAL002: { severity: 'error', meaning: '`main` is not an object' },
  VAL003: { severity: 'error', meaning: 'unknown field' },
  VAL004: { severity: 'error', meaning: '`handlers` is not a factory function' },
  VAL005: { severity: 'warning', meaning: 'handler key names no route' },
  VAL006: { severity: 'error', meaning: 'legacy v1.2.0 schema format, not served' },
  VAL007: { severity: 'warning', meaning: '`routes` in a 3.x file, read as `tools`' },
  VAL008: {
    severity: 'error',
    meaning: 'tool map under the wrong key for the version (`tools` in 2.x, `routes` in 4.x), or under both',
  },
  VAL009: { severity: 'error', meaning: 'file cannot be read' },
  VAL010: { severity: 'error', meaning: '`namespace` missing or not a string' },
  VAL011: {
    severity: 'error',
    meaning: "`namespace` breaks its version's pattern (2.x, 3.x: lowercase letters; 4.x: ^[a-z][a-z0-9-]*$)",
  },
  VAL012: { severity: 'error', meaning: '`name` missing or not a non-empty string' },
  VAL013: { severity: 'error', meaning: '`description` missing or not a non-empty string' },
  VAL014: { severity: 'error', meaning: '`version` missing or not 2.x.y, 3.x.y or 4.x.y' },
  VAL015: { severity: 'error', meaning: '`root` missing or not a valid URL' },
  VAL016: { severity: 'error', meaning: 'tool map (`routes`, `tools`) missing, not an object, or empty' },
  VAL017: { severity: 'error', meaning: '`root` does not use https' },
  VAL018: { severity: 'warning', meaning: '`root` ends with a slash (removed)' },
  VAL019: {
    severity: 'warning',
    meaning: 'name breaks the naming convention (PascalCase name, camelCase insert key, tag pattern)',
  },
  VAL020: { severity: 'error', meaning: '`docs` is not an array of strings' },
  VAL021: { severity: 'error', meaning: '`tags` is not an array of strings' },
  VAL022: { severity: 'error', meaning: '`requiredServerParams` is not an array of unique key names' },
  VAL023: { severity: 'error', meaning: '`headers` is not an object of string values' },
  VAL024: { severity: 'error', meaning: '`sharedLists` is not an array of list references' },
  VAL025: { severity: 'error', meaning: '`requiredLibraries` is not an array of strings' },
  VAL026: { severity: 'error', meaning: 'library entry is not an exact package name' },
  VAL027: { severity: 'error', meaning: '`root` host is made of markers, or markers make up its registrable domain' },
  VAL028: {
    severity: 'info',
    meaning: '`resources` declared in `main` are not served (skill and prompt files are, as MCP prompts)',
  },
  VAL029: { severity: 'info', meaning: 'skill, prompt or agent file: not a schema, skipped' },
  VAL030: { severity: 'warning', meaning: 'route name is not camelCase' },
  VAL031: { severity: 'error', meaning: 'more than 8 routes' },
  VAL032: { severity: 'error', meaning: 'route `method` is not GET, POST, PUT or DELETE' },
  VAL033: { severity: 'error', meaning: 'route `path` missing or not starting with /' },
  VAL034: { severity: 'error', meaning: 'route `description` missing or empty' },
  VAL035: { severity: 'error', meaning: 'route `parameters` missing or not an array' },
  VAL036: { severity: 'warning', meaning: 'route has no `output`' },
  VAL037: { severity: 'info', meaning: 'route `async` is reserved for 2.1.0 and ignored' },
  VAL038: { severity: 'error', meaning: 'tool `meta` is not an object of its six fields' },
  VAL039: {
    severity: 'error',
    meaning:
      'descriptive field is not a string (terms of service, licence, schemaVersion, schemaHash, a parameter or output description)',
  },
  VAL040: { severity: 'error', meaning: 'parameter lacks `position` or `z`' },
  VAL041: { severity: 'error', meaning: 'parameter `key` missing or empty' },
  VAL042: { severity: 'error', meaning: 'parameter `value` missing or not a string' },
  VAL043: { severity: 'error', meaning: 'parameter `location` is not insert, query or body' },
  VAL044: { severity: 'error', meaning: 'unknown `z.primitive`' },
  VAL045: { severity: 'error', meaning: '`z.options` is not an array of known options' },
  VAL046: { severity: 'error', meaning: 'enum has no values' },
  VAL047: { severity: 'error', meaning: 'list interpolation outside enum()' },
  VAL048: { severity: 'error', meaning: 'interpolated list not declared in `sharedLists`' },
  VAL049: { severity: 'error', meaning: 'interpolated field is not a field of the list' },
  VAL050: { severity: 'error', meaning: 'path placeholder filled by no insert parameter' },
  VAL051: { severity: 'warning', meaning: 'body parameter on a GET or DELETE route (sent in the query string)' },
  VAL052: { severity: 'error', meaning: 'server placeholder names a key not in `requiredServerParams`' },
  VAL053: { severity: 'error', meaning: 'fixed parameter value fails its own z' },
  VAL054: { severity: 'error', meaning: 'option argument is malformed' },
  VAL055: { severity: 'error', meaning: 'two user parameters share one key' },
  VAL056: { severity: 'error', meaning: 'default value fails its own z' },
  VAL057: { severity: 'warning', meaning: 'option has no effect on this primitive' },
  VAL058: {
    severity: 'error',
    meaning: 'single-brace {key} in path can never match: no handler of the route rewrites the URL',
  },
  VAL059: {
    severity: 'warning',
    meaning: 'z written loosely, read as meant (an argument to optional(), options in one string, an empty enum value)',
  },
  VAL060: { severity: 'error', meaning: 'output `mimeType` is not supported' },
  VAL061: { severity: 'error', meaning: 'output `schema` is malformed' },
  VAL062: { severity: 'error', meaning: 'output schema type does not fit the mimeType' },
  VAL063: { severity: 'warning', meaning: 'output schema nested deeper than 4 levels' },
  VAL064: { severity: 'error', meaning: '`properties` on a non-object output node' },
  VAL065: { severity: 'error', meaning: '`items` on a non-array output node' },
  VAL070: { severity: 'error', meaning: 'list `ref` missing or not a plain identifier' },
  VAL071: { severity: 'error', meaning: 'list `version` missing or not semver' },
  VAL072: { severity: 'error', meaning: 'declared list is not in the list registry' },
  VAL073: { severity: 'error', meaning: 'pinned list version differs from the loaded list' },
  VAL074: { severity: 'error', meaning: 'list `filter` malformed, or its key is no field of the list' },
  VAL075: { severity: 'warning', meaning: 'declared list is used neither in an enum nor by handlers' },
  VAL080: { severity: 'error', meaning: '`preload` is not an object' },
  VAL081: { severity: 'error', meaning: '`preload.enabled` is not a boolean' },
  VAL082: { severity: 'error', meaning: '`preload.ttl` is not a positive integer' },
  VAL083: { severity: 'warning', meaning: '`preload.description` is not a string' },
  VAL084: { severity: 'info', meaning: 'route without parameters could be preloaded' },
  VAL085: { severity: 'warning', meaning: 'preloaded route has required parameters' },

  // Corpus idioms, accepted and normalised (decisions R4, R6): information only.
  VAL091: { severity: 'info', meaning: ':key path placeholder' },
  VAL093: { severity: 'info', meaning: 'values() option fills an empty enum()' },
  VAL094: { severity: 'info', meaning: 'insert parameter read only by handlers' },
  VAL095: { severity: 'info', meaning: '{{USER_PARAM}} inside a value: the argument is sent inside that text' },
  VAL096: { severity: 'info', meaning: 'path carries a literal query string' },
  VAL097: { severity: 'info', meaning: '--marker-- label in root' },
  VAL098: { severity: 'warning', meaning: 'single-brace {key} in path is sent literally' },
  VAL099: { severity: 'warning', meaning: 'bare {{NAME}} value naming its own parameter, read as that user input' },
  VAL100: { severity: 'warning', meaning: 'tool definition over 8,000 tokens, listed cut' },

  // Shared-list files (spec chapter 09 numbering, extended in free numbers).
  LST001: { severity: 'error', meaning: '`list` export, `meta` or `entries` missing or malformed' },
  LST002: { severity: 'error', meaning: '`meta.name` missing, not camelCase, or not unique' },
  LST003: { severity: 'error', meaning: '`meta.version` missing or not semver' },
  LST004: { severity: 'error', meaning: '`meta.fields` is not a non-empty array of field definitions' },
  LST005: { severity: 'warning', meaning: 'list field has no `description`' },
  LST006: { severity: 'error', meaning: '`entries` is empty or holds a non-object' },
  LST007: { severity: 'error', meaning: 'entry lacks a required field' },
  LST008: { severity: 'error', meaning: 'entry value does not match its field type' },
  LST009: { severity: 'error', meaning: '`dependsOn` entry malformed or unresolved (ref, version pin, condition)' },
  LST010: { severity: 'error', meaning: 'dependency cycle between lists' },
  LST011: { severity: 'error', meaning: 'list dependencies nested deeper than 3 levels' },
  LST012: { severity: 'error', meaning: 'entry has a key that is no field of the list' },
  LST013: { severity: 'warning', meaning: 'file name is not the kebab-case of `meta.name`' },

  // Groups, `.flowmcp/groups.json` (spec chapter 09 numbering, extended in free numbers).
  GRP001: { severity: 'error', meaning: 'group name does not match ^[a-z][a-z0-9-]*$' },
  GRP002: { severity: 'error', meaning: 'group has more than 50 tools' },
  GRP003: { severity: 'error', meaning: 'tool reference is not `namespace/file.mjs::route`' },
  GRP004: { severity: 'error', meaning: 'tool reference resolves to no single loaded tool, or no group has that name' },
  GRP005: { severity: 'error', meaning: 'tool listed twice in one group' },
  GRP006: { severity: 'error', meaning: 'group hash does not match its tools (a tool changed)' },
  GRP007: {
    severity: 'error',
    meaning: '`groups.json` unreadable, not JSON, or a field missing, unknown or of the wrong type',
  },
  GRP008: {
    severity: 'error',
    meaning: 'a schema file, shared list or library of the group differs from its content record, or cannot be read',
  },
  GRP009: { severity: 'error', meaning: 'group has tools but no content record (recorded by an older flowguard)' },
  // 4.x selections (`selections/` beside the schema folder), served as endpoints beside the groups (spec chapter 17 numbering).
  SEL001: {
    severity: 'error',
    meaning:
      'selection file is not `export const selection` of literal data with its fields, selects no tool, or its name is taken',
  },
  SEL003: { severity: 'error', meaning: 'selection tool id resolves to no single loaded tool' },

  // Route tests (spec chapter 13).
  TST001: { severity: 'error', meaning: 'route has no tests' },
  TST002: { severity: 'error', meaning: 'test `_description` missing or not a string' },
  TST003: { severity: 'error', meaning: 'test lacks a required parameter' },
  TST004: { severity: 'error', meaning: 'test value fails its parameter z' },
  TST005: { severity: 'error', meaning: 'test is not JSON-serialisable' },
  TST006: { severity: 'error', meaning: 'test names a key that is no user parameter' },
  TST007: { severity: 'warning', meaning: 'tests never vary an enum parameter' },
  TST008: { severity: 'info', meaning: 'tests never show an optional parameter' },

  // `flowguard migrate`: what converting a 1.2.0 file left for a person (decision R10).
  MIG001: { severity: 'error', meaning: 'legacy code that cannot be carried over mechanically, left in a comment' },
  MIG002: { severity: 'error', meaning: 'legacy value is not literal data, written to the new file as it was' },
  MIG003: { severity: 'error', meaning: 'modifier names no handler or no phase of pre, execute and post; dropped' },
  MIG004: { severity: 'warning', meaning: 'body parameter of a GET route becomes an input only handlers read' },
  MIG005: { severity: 'warning', meaning: 'field that is no 1.2.0 field, carried over as written' },
  MIG006: { severity: 'info', meaning: 'legacy handler or module-level code that nothing uses, left out' },
  MIG007: { severity: 'error', meaning: 'the new file already exists and was not overwritten' },
  MIG008: {
    severity: 'warning',
    meaning: 'pattern written as regex(/p/), which 1.2.0 matched with its slashes; written as regex(p)',
  },

  // Skills, prompts and group prompts served as MCP prompts (chapter 12 numbering, extended).
  PRM001: { severity: 'error', meaning: 'skill or prompt `name` missing or not ^[a-z][a-z0-9_-]{0,63}$' },
  PRM002: {
    severity: 'error',
    meaning: 'a prompt file a group names is missing, outside the project folder, or no skill or prompt',
  },
  PRM003: {
    severity: 'error',
    meaning: 'skill or prompt lacks `description` or `content` (a Markdown prompt its `# Title` line)',
  },
  PRM004: { severity: 'error', meaning: '`input` entry malformed: key, type, description, required' },
  PRM005: { severity: 'warning', meaning: '`{{tool:...}}` names no tool of the catalog' },
  PRM006: { severity: 'error', meaning: '`{{input:x}}` names no input' },
  PRM007: {
    severity: 'error',
    meaning: '`attachments` entry malformed (an image with base64 data, or a resource with uri and text)',
  },

  // `.flowmcp/config.json`, the operator's settings (src/config/): any of these stops the command (ERR002).
  CFG001: { severity: 'error', meaning: '`.flowmcp/config.json` cannot be read or is not JSON' },
  CFG002: { severity: 'error', meaning: 'unknown key in `.flowmcp/config.json` (a misspelt key gets a did-you-mean)' },
  CFG003: {
    severity: 'error',
    meaning: 'value in `.flowmcp/config.json` of the wrong type, out of range, or not one of the allowed values',
  },

  // Errors that stop a command or refuse a request (src/errors/): no finding of a file, each with its exit code.
  ERR001: {
    severity: 'error',
    meaning: 'the command was called wrongly: a flag, value or path it names cannot be used',
    exit: 2,
  },
  ERR002: { severity: 'error', meaning: '`.flowmcp/config.json` cannot be used; its CFG findings say where', exit: 2 },
  ERR003: {
    severity: 'error',
    meaning: 'an upstream override (`--upstream`, `upstreams`) is not ORIGIN=BASEURL with http(s) URLs',
    exit: 2,
  },
  ERR004: {
    severity: 'error',
    meaning: 'the HTTP access settings (bearer tokens, allowed hosts) cannot be used',
    exit: 2,
  },
  ERR005: {
    severity: 'error',
    meaning: 'an origin pattern (`--allow-origin`) is not scheme://host[:port] or scheme://host:*',
    exit: 2,
  },
  ERR006: {
    severity: 'error',
    meaning: '`import`: the OpenAPI document cannot be read as one (syntax, version, a reference to nothing)',
    exit: 2,
  },
  ERR007: {
    severity: 'error',
    meaning:
      '`import`: the OpenAPI document is past a bound of the import (size, depth, references); nothing is written',
  },
  ERR008: {
    severity: 'error',
    meaning: 'a request to an upstream API failed (timeout, connection, size or depth bound, redirect, decoding)',
  },
  ERR009: { severity: 'error', meaning: 'a `tools/list` cursor is not one this server gave' },
  ERR010: {
    severity: 'error',
    meaning:
      'the arguments of a discovery meta-tool (search_tools, describe_tool, call_tool) do not fit its input schema',
  },
  ERR011: {
    severity: 'error',
    meaning:
      "the OAuth settings (`oauth`, `--oauth-issuer`, `--resource`) cannot be used: the issuer's metadata or key set cannot be read or names another issuer, or a setting is wrong",
    exit: 2,
  },
  ERR012: {
    severity: 'error',
    meaning: 'the `identities` of the config cannot be used: a setting is wrong or names a group that does not verify',
    exit: 2,
  },
  ERR013: {
    severity: 'error',
    meaning:
      'a file of `.flowmcp/` a command writes (the key lock, `groups.json`) cannot be written: its folder or the disk refused, or the key lock would pass its size bound; the file on disk is unchanged',
  },
  ERR099: {
    severity: 'error',
    meaning:
      'an unexpected error inside flowguard (a bug): one line, no stack unless FLOWGUARD_DEBUG=1; please report it',
    exit: 70,
  },
} as const satisfies Record<string, CodeEntry>;

export type Code = keyof typeof CODES;
