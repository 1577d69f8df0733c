/** Paths shown relative to the session's working directory when inside it (one helper for every host). */
export { visiblePath as displayPath } from '@acp-kit/client';
