import net from 'node:net';

/**
 * A TCP proxy in front of a server, for simulating its faults: `cut()` drops every connection and
 * refuses new ones, `restore()` serves again on the same port; `stall()` keeps every connection
 * open but passes nothing either way (a network dropping packets), `resume()` delivers what was
 * held, as TCP's retransmissions would once the network is back.
 */
export class TcpProxy {
  private server: net.Server | undefined;
  private sockets = new Set<net.Socket>();
  private stalled = false;
  /** What arrived while stalled, per destination, in order. */
  private held: { to: () => net.Socket | undefined; data: Buffer }[] = [];
  /** Connections accepted while stalled, whose upstream opens on `resume()`. */
  private pendingConnects: (() => void)[] = [];
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** Proxies a postgres:// or redis:// URL: returns the same URL pointing at the proxy. */
  static async forUrl(url: string): Promise<{ proxy: TcpProxy; url: string }> {
    const parsed = new URL(url);
    const defaultPort = parsed.protocol.startsWith('redis') ? 6379 : 5432;
    const proxy = new TcpProxy(parsed.hostname, Number(parsed.port || defaultPort));
    await proxy.restore();
    parsed.hostname = '127.0.0.1';
    parsed.port = String(proxy.port);
    return { proxy, url: parsed.toString() };
  }

  private track(socket: net.Socket, onError: () => void) {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', onError);
  }

  private forward(from: net.Socket, to: () => net.Socket | undefined) {
    from.on('data', (data: Buffer) => {
      const target = to();
      if (this.stalled || !target) this.held.push({ to, data });
      else target.write(data);
    });
    from.on('end', () => to()?.end());
  }

  async restore(): Promise<void> {
    if (this.server) return;
    const server = net.createServer((client) => {
      let upstream: net.Socket | undefined;
      const destroyBoth = () => {
        client.destroy();
        upstream?.destroy();
      };
      this.track(client, destroyBoth);
      const connectUpstream = () => {
        if (client.destroyed) return;
        upstream = net.connect(this.targetPort, this.targetHost);
        this.track(upstream, destroyBoth);
        this.forward(upstream, () => client);
      };
      this.forward(client, () => upstream);
      if (this.stalled) this.pendingConnects.push(connectUpstream);
      else connectUpstream();
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    if (address && typeof address === 'object') this.port = address.port;
    this.server = server;
  }

  /** Stops passing bytes, in both directions, on every connection old and new. */
  stall(): void {
    this.stalled = true;
  }

  /** Passes bytes again, first what was held. */
  resume(): void {
    this.stalled = false;
    for (const connect of this.pendingConnects.splice(0)) connect();
    this.flush();
  }

  private flush() {
    if (this.stalled) return;
    const waiting = this.held.splice(0);
    for (const item of waiting) {
      const target = item.to();
      // A socket still connecting queues what it is given, in order.
      if (!target) this.held.push(item);
      else if (!target.destroyed) target.write(item.data);
    }
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    this.held = [];
    this.pendingConnects = [];
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
