/** The text sanitizer lives in `@acp-kit/client` (one sanitizer for every host); re-exported here. */
export { TextSanitizer, sanitizeInline, sanitizeText } from '@acp-kit/client';
