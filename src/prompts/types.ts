// What a skill, prompt or group prompt is once read: the data an MCP prompt is made of. Skill and
// prompt files (FlowMCP 3.x and 4.x, SPEC-NOTES-v3-v4 §4) and the Markdown prompts of groups
// (chapter 12) all end up in this one form; src/mcp/prompts.ts serves it.

/** Where a prompt came from. */
export type PromptKind = 'skill' | 'prompt' | 'group';

/** One entry of `input[]`: an argument of the MCP prompt. */
export interface PromptInput {
  /** The name `{{input:name}}` refers to (`key` in the corpus files, `name` accepted too). */
  name: string;
  type: string;
  description: string;
  required: boolean;
  /** An enum input's values, said in the argument's description. */
  values?: string[];
}

/**
 * Content a prompt carries besides its text (flowguard's extension, README "Prompts"): an image
 * (base64 data) or an embedded text resource, each sent as a message of its own. `uri` and `text`
 * may hold `{{input:x}}`.
 */
export type PromptAttachment =
  { type: 'image'; mimeType: string; data: string } | { type: 'resource'; uri: string; mimeType: string; text: string };

export interface PromptDefinition {
  kind: PromptKind;
  /** The name the file gives (`name`; a group prompt's key). */
  name: string;
  /** A group prompt's `# Title`; skill and prompt files have none. */
  title?: string;
  description: string;
  /** Markdown with `{{input:x}}` and `{{tool:namespace/name}}` placeholders. */
  content: string;
  inputs: PromptInput[];
  /** `provider` of a prompt file: the namespace its tools belong to. */
  provider?: string;
  attachments?: PromptAttachment[];
}
