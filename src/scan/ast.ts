// The syntax tree flowguard reads: ESTree, as meriyah builds it. Files are parsed with the `start`
// and `end` ranges, so every node carries its `start` and `end` offsets into the text; the types
// leave them optional because meriyah can be asked to omit them, so they are read through these
// helpers.

import type { ESTree } from 'meriyah';

export type AnyNode = ESTree.Node;
export type Expression = ESTree.Expression;
export type MemberExpression = ESTree.MemberExpression;
export type ModuleDeclaration = ESTree.ModuleDeclaration;
export type ObjectExpression = ESTree.ObjectExpression;
export type Program = ESTree.Program;
export type Property = ESTree.Property;
export type SpreadElement = ESTree.SpreadElement;
export type Statement = ESTree.Statement;
export type TemplateLiteral = ESTree.TemplateLiteral;
export type VariableDeclaration = ESTree.VariableDeclaration;

/** Offset of the node's first character in the file text. */
export const startOf = (node: AnyNode): number => node.start as number;
/** Offset just past the node's last character. */
export const endOf = (node: AnyNode): number => node.end as number;
