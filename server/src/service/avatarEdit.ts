import { appendMembers, removeProperty, replaceNode, type OffsetEdit } from './json/edits';
import { child, property } from './json/nodes';
import type { ToolModel } from './model';

/**
 * Edits that make `metadata` hold `"avatar_type": "base64"` and `"avatar": <base64>`, replacing an
 * existing (flat or nested) avatar. Undefined when the file has no metadata object to hold them.
 */
export function setAvatarEdits(model: ToolModel, base64: string): OffsetEdit[] | undefined {
  const metadata = model.metadata;
  if (!metadata) return undefined;
  const value = JSON.stringify(base64);
  const avatar = property(metadata, 'avatar');
  const type = child(metadata, 'avatar_type');
  const edits: OffsetEdit[] = [];
  if (avatar?.children?.[1]?.type === 'object') {
    // A nested avatar becomes the flat form, and a separate avatar_type would then be stale.
    edits.push(replaceNode(avatar, `"avatar_type": "base64", "avatar": ${value}`));
    if (type) edits.push(removeProperty(type.parent!));
    return edits.sort((a, b) => a.offset - b.offset);
  }
  if (type) edits.push(replaceNode(type, '"base64"'));
  if (avatar?.children?.[1]) edits.push(replaceNode(avatar.children[1], value));
  const missing: [string, string][] = [];
  if (!type) missing.push(['avatar_type', '"base64"']);
  if (!avatar) missing.push(['avatar', value]);
  if (missing.length) edits.push(appendMembers(model.text, metadata, missing));
  return edits.sort((a, b) => a.offset - b.offset);
}
