/**
 * One-line descriptions of content that is not text: images, audio, resources and links.
 * A terminal cannot show them inline, so they appear as labelled attachments.
 */
import type { Annotations, ContentBlock } from '@acp-kit/protocol';
import { isUnknownVariant } from '@acp-kit/protocol';
import { sanitizeInline } from '../sanitize/sanitize-text.js';
import { base64ByteLength, formatBytes } from '../text/format.js';

/** An attachment line: an icon, a label and details. */
export interface AttachmentLabel {
  readonly icon: string;
  readonly label: string;
  readonly details: readonly string[];
}

/** The file name of a URI, decoded (`Screen%20Shot.png` → `Screen Shot.png`); callers sanitise it. */
function lastSegment(uri: string): string {
  const trimmed = uri.replace(/[?#].*$/, '').replace(/\/+$/, '');
  const slash = trimmed.lastIndexOf('/');
  const segment = slash >= 0 ? trimmed.slice(slash + 1) || trimmed : trimmed;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // not valid percent-encoding: shown as it is
  }
}

function compact(values: readonly (string | null | undefined)[]): string[] {
  return values.filter((v): v is string => typeof v === 'string' && v !== '').map(sanitizeInline);
}

function unsupported(type: unknown): AttachmentLabel {
  return { icon: '?', label: `unsupported content (${sanitizeInline(String(type))})`, details: [] };
}

/** Describes a non-text content block; undefined for text. Unknown types are labelled as such. */
export function describeAttachment(block: ContentBlock): AttachmentLabel | undefined {
  if (isUnknownVariant(block)) return unsupported(block.type);
  switch (block.type) {
    case 'text':
      return undefined;
    case 'image':
      return {
        icon: '▣',
        label: block.uri ? sanitizeInline(lastSegment(block.uri)) : 'image',
        details: compact([block.mimeType, formatBytes(base64ByteLength(block.data)), block.uri]),
      };
    case 'audio':
      return {
        icon: '♪',
        label: 'audio',
        details: compact([block.mimeType, formatBytes(base64ByteLength(block.data))]),
      };
    case 'resource_link':
      return {
        icon: '⎘',
        label: sanitizeInline(block.title || block.name),
        details: compact([
          block.title && block.title !== block.name ? block.name : undefined,
          block.uri,
          block.mimeType,
          typeof block.size === 'number' ? formatBytes(block.size) : undefined,
          block.description,
        ]),
      };
    case 'resource': {
      const resource = block.resource;
      const size =
        'text' in resource
          ? `${resource.text.split('\n').length} lines`
          : formatBytes(base64ByteLength(resource.blob));
      return {
        icon: '▤',
        label: sanitizeInline(lastSegment(resource.uri)),
        details: compact([resource.uri, resource.mimeType, size]),
      };
    }
  }
  // Not marked unknown but not a known type either (built without the validator): still shown.
  return unsupported((block as { type?: unknown }).type);
}

/** Annotations as short badges: audience, priority, last modified. */
export function annotationBadges(annotations: Annotations | null | undefined): string[] {
  if (!annotations) return [];
  const badges: string[] = [];
  if (annotations.audience && annotations.audience.length > 0) {
    badges.push(`for ${annotations.audience.map((a) => sanitizeInline(String(a))).join(', ')}`);
  }
  if (typeof annotations.priority === 'number') badges.push(`priority ${annotations.priority}`);
  if (annotations.lastModified) badges.push(`modified ${sanitizeInline(annotations.lastModified)}`);
  return badges;
}
