import net from 'node:net';

/**
 * A TCP proxy in front of a server, for simulating its outage: `cut()` drops every connection and
 * refuses new ones, `restore()` serves again on the same port.
 */
export class TcpProxy {
  private server: net.Server | undefined;
  private sockets = new Set<net.Socket>();
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** Proxies a postgres:// URL: returns the same URL pointing at the proxy. */
  static async forUrl(url: string): Promise<{ proxy: TcpProxy; url: string }> {
    const parsed = new URL(url);
    const proxy = new TcpProxy(parsed.hostname, Number(parsed.port || 5432));
    await proxy.restore();
    parsed.hostname = '127.0.0.1';
    parsed.port = String(proxy.port);
    return { proxy, url: parsed.toString() };
  }

  async restore(): Promise<void> {
    if (this.server) return;
    const server = net.createServer((client) => {
      const upstream = net.connect(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    if (address && typeof address === 'object') this.port = address.port;
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
