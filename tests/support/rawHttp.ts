import { connect } from 'node:net';

export interface RawResponse {
  head: string;
  status: number;
  body: string;
}

function dechunk(body: string): string {
  let out = '';
  for (let rest = body; ;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, lineEnd), 16);
    if (!size) return out;
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 4 + size);
  }
}

/**
 * Sends a request head (and optionally part of a body) over a raw socket and reads the answer until the server closes:
 * for what fetch will not send (a declared length it does not keep, a chunked body it chose itself).
 */
export function rawRequest(url: string, head: string[], bodyPart = ''): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`${head.join('\r\n')}\r\n\r\n${bodyPart}`));
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [headPart = '', ...rest] = received.split('\r\n\r\n');
      const body = rest.join('\r\n\r\n');
      resolve({
        head: headPart,
        status: Number(/^HTTP\/1\.1 (\d+)/.exec(headPart)?.[1]),
        body: /^transfer-encoding: chunked/im.test(headPart) ? dechunk(body) : body,
      });
    });
  });
}
