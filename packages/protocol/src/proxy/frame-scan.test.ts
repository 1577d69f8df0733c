import { describe, expect, it } from 'vitest';
import { buildMessage, buildResponse, innerFrame, scanFrame, spanText } from './frame-scan.js';

describe('scanFrame', () => {
  it('finds the routing fields and where the payload sits, without decoding it', () => {
    const text =
      ' {"jsonrpc":"2.0", "id" : "a\\"b", "method":"x\\/y","params":{"s":"}\\\\","n":[1.50,-2e3,true,null]},"_meta":{}} ';
    const frame = scanFrame(text);
    expect(frame).toMatchObject({ method: 'x/y', idText: '"a\\"b"', jsonrpcText: '"2.0"', otherKeys: true });
    expect(spanText(frame!, frame!.params!)).toBe('{"s":"}\\\\","n":[1.50,-2e3,true,null]}');
    expect(buildMessage('7', '"x/y"', spanText(frame!, frame!.params!))).toBe(
      '{"jsonrpc":"2.0","id":7,"method":"x/y","params":{"s":"}\\\\","n":[1.50,-2e3,true,null]}}',
    );
    const answer = scanFrame('{"id":3,"jsonrpc":"2.0","error":{"code":-1,"message":"no"}}');
    expect(buildResponse('"q"', answer!)).toBe(
      '{"jsonrpc":"2.0","id":"q","error":{"code":-1,"message":"no"}}',
    );
  });

  it('reads escaped keys and methods as JSON.parse does, and writes such a method plainly', () => {
    const frame = scanFrame('{"jsonr\\u0070c":"2.0","\\u0069d":1,"meth\\u006fd":"a\\/b","p\\u0061rams":[2]}');
    expect(frame).toMatchObject({ method: 'a/b', methodText: '"a/b"', idText: '1', jsonrpcText: '"2.0"' });
    expect(frame).toMatchObject({ otherKeys: false });
    expect(spanText(frame!, frame!.params!)).toBe('[2]');
    // Written without escapes, a method is copied as it came.
    expect(scanFrame('{"method":"session/update"}')?.methodText).toBe('"session/update"');
  });

  it('reads params as a message when the frame may be an envelope, and on demand otherwise', () => {
    const envelope = '{"method":"m","params":{"sessionId":"s"}}';
    // `method` after `params`: read while scanning, as the frame could be an envelope.
    const late = scanFrame(`{"params":${envelope},"jsonrpc":"2.0","method":"proxy/successor"}`);
    expect(late?.inner).toMatchObject({ method: 'm', methodText: '"m"' });
    expect(spanText(late!.inner!, late!.inner!.params!)).toBe('{"sessionId":"s"}');
    // Any other method: params are only skipped (their keys are not the frame's business) ...
    const plain = scanFrame(`{"jsonrpc":"2.0","method":"session/update","params":${envelope}}`);
    expect(plain?.inner).toBeUndefined();
    // ... and read when asked (a duplicate `method` may still make it an envelope: the last one counts).
    const duplicate = scanFrame(`{"method":"x","params":${envelope},"method":"proxy/successor"}`);
    expect(duplicate?.method).toBe('proxy/successor');
    expect(innerFrame(duplicate!)).toMatchObject({ method: 'm' });
    expect(innerFrame(scanFrame('{"method":"x","params":[1]}')!)).toBeUndefined();
  });

  it('turns down what is not one well-formed object', () => {
    for (const text of [
      '[{"jsonrpc":"2.0","method":"x"}]',
      '{"method":"x"',
      '{"method":"x"} {}',
      '{"method":1}',
      '{"method":"x","params":{"a":tru}}',
      '{"method":"x","params":{"a":"b}}',
      '{"method":"x","params":{"a":[1}}',
      '{"method" "x"}',
      'not json',
    ]) {
      expect(scanFrame(text), text).toBeUndefined();
    }
  });
});
