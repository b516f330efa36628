import { connect, type Socket } from 'node:net';

/** A connection that sends slowly, as a slowloris does; what the server wrote back, and when. */
export interface SlowClient {
  socket: Socket;
  /** What the server wrote, and when its answer began. */
  reply: string;
  answeredAt: number | null;
  closed: boolean;
}

/**
 * Connects, writes `head`, then `drip(n)` every 300 ms, before and after any answer, until the server cuts the
 * connection off. Resolves once connected.
 */
export function slowClient(port: number, head: string, drip: (n: number) => string): Promise<SlowClient> {
  return new Promise((resolve, reject) => {
    const client: SlowClient = {
      socket: connect({ port, host: '127.0.0.1', allowHalfOpen: true }),
      reply: '',
      answeredAt: null,
      closed: false,
    };
    const { socket } = client;
    let n = 0;
    let trickle: NodeJS.Timeout | undefined;
    // The trickle starts once the head is out: under load a connection can take longer than one interval.
    socket.once('connect', () => {
      socket.write(head);
      trickle = setInterval(() => {
        if (socket.writable) socket.write(drip(n++));
      }, 300);
      resolve(client);
    });
    socket.on('data', (chunk: Buffer) => {
      client.answeredAt ??= Date.now();
      client.reply += chunk.toString('latin1');
    });
    // A reset after the answer is what the server may do; an error before the connection is a failure.
    socket.on('error', (err) => {
      if (socket.connecting) reject(err);
    });
    socket.once('close', () => {
      client.closed = true;
      clearInterval(trickle);
    });
  });
}
