import type { FastifyInstance } from 'fastify';
import type { Socket } from 'node:net';

/**
 * Ends, when the server closes, every connection not carrying a request, and each other one once its answer is
 * sent. Node's `server.close()` ends the connections idle at that moment only: it waits for one that has not sent a
 * whole request yet until its headers time out (60 s), and for one whose request was in flight until its keep-alive
 * times out (72 s). A browser's preconnect, a load balancer's TCP check or a client's spare connection held a
 * stopping memd open past MEMD_SHUTDOWN_TIMEOUT_MS, and it exited 1 without saving its vector index snapshot
 * (BENCHMARKS.md, "a stop held by a connection that sent nothing").
 */
export function endConnectionsOnClose(app: FastifyInstance): void {
  const open = new Set<Socket>();
  const carrying = new Set<Socket>();
  let closing = false;
  app.server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      carrying.delete(socket);
    });
  });
  app.server.on('request', (request, response) => {
    const socket = request.socket;
    carrying.add(socket);
    response.once('close', () => {
      carrying.delete(socket);
      // After what was written has gone out.
      if (closing) socket.destroySoon();
    });
  });
  app.addHook('preClose', (done) => {
    closing = true;
    for (const socket of open) if (!carrying.has(socket)) socket.destroy();
    done();
  });
}
