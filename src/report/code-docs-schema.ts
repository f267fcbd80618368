// The why and fix of the codes about what a schema file holds: its code, main, routes, parameters,
// output, what a listing can afford, shared-list references, preload, older styles and route tests.

import type { CodeSection } from './code-docs.js';

export const SCHEMA_CODE_SECTIONS: readonly CodeSection[] = [
  {
    title: 'The file and its code',
    codes: {
      SEC001: {
        why: "a schema is data; an import would run someone else's code inside the server",
        fix: "remove it; libraries come through `requiredLibraries` and the factory's `libraries`",
      },
      SEC002: {
        why: "`require`, `module` and `exports` reach the host's module system",
        fix: 'remove it, as for imports',
      },
      SEC003: { why: 'text turned into code escapes every check', fix: 'compute without `eval`' },
      SEC004: { why: 'the same as `eval`, spelled differently', fix: 'compute without it' },
      SEC005: {
        why: "a schema never reads the server's files",
        fix: 'remove it; pass what you need as data or a shared list',
      },
      SEC006: {
        why: "`process` holds the server's environment and secrets",
        fix: 'declare keys in `requiredServerParams` and place them ([API keys](../authors/keys.md))',
      },
      SEC007: { why: 'a schema must not start programs', fix: 'remove it' },
      SEC008: { why: '`globalThis` is a way around every other rule', fix: "use the handler's arguments" },
      SEC009: { why: "`__dirname` and `__filename` reveal the server's layout", fix: 'remove them' },
      SEC010: { why: 'code from text, like `eval`', fix: 'compute without it' },
      SEC011: { why: 'a handler is one short computation; timers outlive it', fix: 'remove `setTimeout` and the like' },
      SEC013: {
        why: 'only libraries the operator allows may run in handlers',
        fix: 'use an allowlisted library, or ask the operator to allow it (`security.allowedLibraries`)',
      },
      SEC014: {
        why: 'handlers reach the network only through flowguard',
        fix: 'use `fetch` in an `executeRequest` ([Handlers](../authors/handlers.md))',
      },
      SEC015: { why: 'it would run while the file is read', fix: 'move it into a handler' },
      SEC016: { why: 'a file that does not parse cannot be read', fix: 'fix the syntax at the position given' },
      SEC017: {
        why: '`main` is read without running it, so it holds only literals',
        fix: 'write the value out; move computed values into a handler',
      },
      SEC019: {
        why: 'top-level statements would run when the file is loaded',
        fix: 'keep only `export const main` and `export const handlers`',
      },
      SEC020: {
        why: 'files are bounded before they are read',
        fix: 'split the file, or the operator raises `limits.maxFileBytes`',
      },
      SEC021: { why: 'says which routes send requests of their own (through flowguard)', fix: 'nothing to fix' },
      SEC023: {
        why: "a handler's requests go only to origins a reader of the file can see; an https origin no URL can name (`https://1.2.3.4.5`), or one whose `${...}` label stands where the registrable domain must be (`https://${user}.github.io`), could not be judged, so it is left out",
        fix: 'write the origin out, with a `${...}` label only below a fixed domain (`https://${chain}.rpc.example.com`)',
      },
    },
  },
  {
    title: 'main: the API',
    codes: {
      VAL001: {
        why: 'the schema is `export const main`',
        fix: 'add `export const main = { namespace, name, description, version, root, routes }`, or run `flowguard init`',
      },
      VAL002: { why: 'everything else is read from its fields', fix: 'write `main` as `{ ... }`' },
      VAL003: {
        why: 'a misspelt field would otherwise be ignored silently',
        fix: 'fix the spelling (the hint suggests the closest known field) or remove it',
      },
      VAL004: {
        why: 'handlers are built by a function that receives lists and libraries',
        fix: '`export const handlers = ({ sharedLists, libraries }) => ({ ... })`',
      },
      VAL005: { why: 'the handler would never run', fix: 'name a route of the file, or remove it' },
      VAL006: { why: 'the old format is not served', fix: 'convert it with `flowguard migrate`' },
      VAL007: { why: '3.x calls them `tools`; `routes` is read as an alias', fix: 'rename `routes` to `tools`' },
      VAL008: {
        why: '2.x uses `routes`, 4.x uses `tools`; both at once is ambiguous',
        fix: 'use the key of your version',
      },
      VAL009: { why: 'nothing can be checked', fix: 'name a readable `.mjs` file' },
      VAL010: { why: 'it starts every tool name', fix: "`namespace: 'provider'`" },
      VAL011: { why: 'tool names must be stable and portable', fix: 'lowercase letters (4.x also digits and `-`)' },
      VAL012: { why: 'people identify the schema by it', fix: "`name: 'ProviderApi'`" },
      VAL013: {
        why: 'clients and people read it to choose the schema',
        fix: 'a sentence or two on what the API offers',
      },
      VAL014: { why: 'the format version decides how the file is read', fix: "`'2.0.0'`, `'3.x.y'` or `'4.x.y'`" },
      VAL015: { why: 'every request is built on it', fix: 'an absolute `https://` URL without query or fragment' },
      VAL016: { why: 'a schema without routes serves nothing', fix: 'add at least one route' },
      VAL017: { why: 'keys and answers must not travel in clear text', fix: 'use `https://`' },
      VAL018: { why: 'every path starts with `/`, so the slash would double', fix: 'remove the trailing slash' },
      VAL019: {
        why: 'consistent names read well in tool lists',
        fix: 'PascalCase `name`; camelCase keys of insert parameters (a query or body key is the name the API reads, so `per_page` stays); lowercase tags or `cacheTtl*`; UPPER_SNAKE key names',
      },
      VAL020: { why: 'a list of links', fix: "`docs: ['https://...']`" },
      VAL021: { why: 'a list of words', fix: "`tags: ['weather']`" },
      VAL022: { why: 'a list of distinct key names', fix: "`requiredServerParams: ['PROVIDER_API_KEY']`" },
      VAL023: { why: 'header names mapped to text', fix: "`headers: { accept: 'application/json' }`" },
      VAL024: { why: 'a list of `{ ref, version }`', fix: 'see [Shared lists](../authors/shared-lists.md)' },
      VAL025: { why: 'a list of package names', fix: "`requiredLibraries: ['ethers']`" },
      VAL026: {
        why: 'only exact package names can be allowlisted',
        fix: "write the package's name, without version or path",
      },
      VAL027: {
        why: 'a `--marker--` may choose a label under a fixed domain, never the domain, or a handler could send the request anywhere',
        fix: 'write the registrable domain out: `https://--chain--.rpc.example.com`',
      },
      VAL028: { why: 'flowguard serves tools', fix: 'nothing to fix' },
      VAL029: { why: 'not a schema, so not checked as one', fix: 'nothing to fix' },
    },
  },
  {
    title: 'Routes',
    codes: {
      VAL030: { why: 'the tool name is built from it', fix: 'camelCase: `getPlace`' },
      VAL031: { why: 'keeps files small enough to review', fix: 'split the file' },
      VAL032: { why: 'the four methods flowguard sends', fix: '`GET`, `POST`, `PUT` or `DELETE`' },
      VAL033: { why: 'it is appended to `root`', fix: 'start it with `/`' },
      VAL034: { why: 'the AI client chooses tools by it', fix: 'say what the tool does and returns' },
      VAL035: { why: 'the list the input schema is built from', fix: '`parameters: []` when there are none' },
      VAL036: {
        why: "clients and `flowguard test` cannot know the answer's shape",
        fix: 'add `output` ([Tests and output](../authors/tests-and-output.md))',
      },
      VAL037: { why: 'reserved for a later version', fix: 'nothing to fix' },
      VAL038: { why: 'the 4.x tool hints come as one complete block', fix: 'give all six fields, or none' },
      VAL039: { why: 'informational fields are text', fix: 'write text, or leave it out' },
      VAL058: {
        why: '`{id}` with one brace is sent as the literal text `{id}` (`%7Bid%7D`), so the API looks up a thing named "{id}"',
        fix: 'write `{{id}}`, with an insert parameter `id`',
      },
      VAL098: {
        why: 'as VAL058, but a `preRequest` or `executeRequest` of the route might replace it',
        fix: 'write `{{id}}` unless the handler really does',
      },
    },
  },
  {
    title: 'Parameters',
    codes: {
      VAL040: {
        why: 'each parameter is `position` plus `z`',
        fix: '`{ position: { key, value, location }, z: { primitive, options } }`',
      },
      VAL041: { why: 'the argument needs a name', fix: "`key: 'city'`" },
      VAL042: { why: 'it says who supplies the value', fix: "`'{{USER_PARAM}}'` or a fixed text" },
      VAL043: { why: 'where the value goes', fix: '`insert`, `query` or `body`; headers go in `main.headers`' },
      VAL044: {
        why: 'the type decides how arguments are checked',
        fix: '`string()`, `number()`, `boolean()`, `enum(a,b)`, `array()`, `object()`',
      },
      VAL045: {
        why: 'an ignored option would leave arguments unchecked',
        fix: 'fix the spelling (the hint suggests one)',
      },
      VAL046: { why: 'a choice of nothing accepts nothing', fix: 'list the values' },
      VAL047: {
        why: "a list's values become choices, which only an enum has",
        fix: 'move `{{list:field}}` into `enum(...)`',
      },
      VAL048: { why: 'the list must be pinned to a version first', fix: 'add it to `main.sharedLists`' },
      VAL049: { why: 'the enum would have no values', fix: 'use one of the fields the hint lists' },
      VAL050: {
        why: 'the slot would be sent empty or as text',
        fix: 'add an insert parameter with that key (the hint names it, or the close key you meant)',
      },
      VAL051: {
        why: 'such a request carries no body, so the value goes in the query',
        fix: 'use `query`, or make the route POST or PUT',
      },
      VAL052: {
        why: 'flowguard has no value for a key that is not declared',
        fix: 'add the key to `requiredServerParams`',
      },
      VAL053: { why: 'a value the route refuses would go out on every call', fix: 'fix the value or its `z`' },
      VAL054: { why: '`min(one)` or a broken pattern cannot be applied', fix: 'write the argument as the hint shows' },
      VAL055: { why: 'two arguments with one name cannot both be passed', fix: 'rename one' },
      VAL056: { why: 'the default would be refused by its own parameter', fix: 'choose a default that passes' },
      VAL057: {
        why: 'e.g. `length()` on a number; the author expected a check that does not happen',
        fix: 'remove it, or use the option that does what you meant',
      },
      VAL059: {
        why: 'read as meant (`optional(x)`, options in one string, `enum(a,b,)`)',
        fix: 'write it as the hint shows',
      },
    },
  },
  {
    title: 'Output',
    codes: {
      VAL060: {
        why: 'decides how the answer is read',
        fix: '`application/json`, `text/plain`, `image/png` (and the text types listed in the hint)',
      },
      VAL061: { why: 'only a small subset of JSON Schema is understood', fix: 'use the keywords the hint lists' },
      VAL062: {
        why: 'JSON is an object or array, text a string, an image base64',
        fix: 'match the root type to the mimeType',
      },
      VAL063: {
        why: 'clients handle shallow schemas best',
        fix: 'describe deeper data as a plain `object` or `array`',
      },
      VAL064: { why: 'properties describe objects only', fix: "set `type: 'object'` or remove `properties`" },
      VAL065: { why: 'items describe arrays only', fix: "set `type: 'array'` or remove `items`" },
    },
  },
  {
    title: 'What a listing can afford',
    codes: {
      VAL100: {
        why: "a tool's definition (description, input and output schema) over 8,000 tokens crowds a model's context; `serve` lists it cut (long enums as examples, the output schema to its top level or left out, then nested arguments and the description), `describe_tool` gives it whole, and arguments are still checked against the whole",
        fix: 'an enum of hundreds of values as a free string or a shared list; an output schema of the fields callers read',
      },
    },
  },
  {
    title: 'Shared-list references',
    codes: {
      VAL070: { why: 'a list is named by its `meta.name`, never a path', fix: "`ref: 'evmChains'`" },
      VAL071: { why: 'a pin says which data the schema was written against', fix: "`version: '2.0.0'`" },
      VAL072: {
        why: 'the schema cannot run without its data',
        fix: 'put the list in `shared-lists/` and fix its own findings',
      },
      VAL073: {
        why: 'the list changed since the schema was written',
        fix: 'check the change, then pin the loaded version',
      },
      VAL074: {
        why: 'a filter that matches nothing by mistake empties the enum',
        fix: '`{ key, exists: true }`, `{ key, value }` or `{ key, in: [...] }` on a field of the list',
      },
      VAL075: { why: 'it costs loading and says nothing', fix: 'use it in an enum or handler, or remove it' },
    },
  },
  {
    title: 'Preload',
    codes: {
      VAL080: {
        why: 'it says whether answers may be reused, and for how long',
        fix: '`preload: { enabled: true, ttl: 3600 }`',
      },
      VAL081: { why: 'it switches reuse on or off', fix: '`true` or `false`' },
      VAL082: { why: 'the time an answer may be reused', fix: 'a whole number of seconds' },
      VAL083: { why: 'it tells people why the answer may be reused', fix: 'text, or leave it out' },
      VAL084: {
        why: 'a route without parameters always answers alike',
        fix: 'consider `preload` if its data changes slowly',
      },
      VAL085: {
        why: 'one stored answer cannot serve every argument',
        fix: 'drop `preload`, or make the parameters optional',
      },
    },
  },
  {
    title: 'Older and looser styles, read as meant',
    codes: {
      VAL091: { why: 'flowguard reads `/:id` as `/{{id}}`', fix: 'nothing to fix' },
      VAL093: { why: 'flowguard reads the values of an empty `enum()`', fix: 'nothing to fix' },
      VAL094: { why: 'flowguard reads an insert parameter without a slot, read by handlers', fix: 'nothing to fix' },
      VAL095: { why: 'flowguard reads `%{{USER_PARAM}}%`: the argument sent inside that text', fix: 'nothing to fix' },
      VAL096: { why: 'flowguard reads parameters follow with `&`', fix: 'nothing to fix' },
      VAL097: { why: 'flowguard reads a `--marker--` a `preRequest` fills in', fix: 'nothing to fix' },
      VAL099: {
        why: "flowguard reads `{{LATITUDE}}` for the key `latitude` as the caller's input",
        fix: "write `'{{USER_PARAM}}'`",
      },
    },
  },
  {
    title: 'Route tests',
    codes: {
      TST001: { why: 'an untested route cannot be checked or tried', fix: 'add a test' },
      TST002: { why: 'a failing test must say what it was about', fix: "`_description: '...'`" },
      TST003: { why: 'the call the test stands for cannot be made', fix: 'add the argument' },
      TST004: { why: 'the tool would refuse its own test', fix: 'write a value the parameter accepts' },
      TST005: { why: 'tests are stored as JSON', fix: 'text, numbers, booleans, null, arrays, objects' },
      TST006: { why: 'a misspelt argument would test something else', fix: "use the route's user parameter keys" },
      TST007: { why: 'two tests of one choice cover one case', fix: 'vary the value' },
      TST008: { why: 'readers see how it is used', fix: 'add a test that sets it' },
    },
  },
];
