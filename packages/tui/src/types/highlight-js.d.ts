// highlight.js ships types for its main entry only; its `lib/common` entry has the same API.
declare module 'highlight.js/lib/common' {
  import type { HLJSApi } from 'highlight.js';
  const hljs: HLJSApi;
  export default hljs;
}
