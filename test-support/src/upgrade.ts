import { WebSocket } from 'ws';

/** How a graphql-ws upgrade to `graphqlUrl` (http://…/graphql) ends: the HTTP status of a refusal, or 101. */
export function upgradeStatus(graphqlUrl: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(graphqlUrl.replace(/^http/, 'ws'), 'graphql-transport-ws', { headers });
    socket.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.once('open', () => {
      resolve(101);
      socket.close();
    });
    socket.once('error', reject);
  });
}
