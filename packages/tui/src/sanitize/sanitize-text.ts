/**
 * The text sanitizer lives in `@acp-kit/client` (one sanitizer for every host); re-exported here,
 * from the client's small entry, so that what the UI draws before it loads needs no more.
 */
export { TextSanitizer, sanitizeInline, sanitizeText } from '@acp-kit/client/launch';
