import { QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getAdminOrdersById } from '../../contract/admin-orders.ts';
import { createQueryClient, operationQuery } from './use-operation.ts';

// What useOperation asks of TanStack Query (docs/decisions/300-tanstack-query-behind-use-operation.md),
// run on the real QueryClient with our defaults: only the network (fetch) is stood in for.

interface Sent {
  url: string;
  signal: AbortSignal | undefined;
  answer(status: number, body: unknown): void;
}

function fakeNetwork() {
  const sent: Sent[] = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    return new Promise<Response>((resolve, reject) => {
      const signal = init.signal ?? undefined;
      signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      sent.push({ url, signal, answer: (status, body) => resolve(new Response(JSON.stringify(body), { status })) });
    });
  });
  return sent;
}

const tick = () => new Promise((r) => setTimeout(r, 0));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('useOperation on TanStack Query', () => {
  it('cancels the request of an input nobody waits for any more, and shows the newer answer', async () => {
    const sent = fakeNetwork();
    const client = createQueryClient();
    const observer = new QueryObserver(client, operationQuery(getAdminOrdersById, { params: { id: 'ORD-1' } }));
    const unsubscribe = observer.subscribe(() => {});
    await tick();
    expect(sent.map((s) => s.url)).toEqual(['/api/v1/admin/orders/ORD-1']);

    observer.setOptions(operationQuery(getAdminOrdersById, { params: { id: 'ORD-2' } }));
    await tick();
    expect(sent.map((s) => s.url)).toEqual(['/api/v1/admin/orders/ORD-1', '/api/v1/admin/orders/ORD-2']);
    expect(sent[0]!.signal?.aborted).toBe(true);
    expect(sent[1]!.signal?.aborted).toBe(false);

    sent[1]!.answer(200, { order: { id: 'ORD-2' } });
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toEqual({ order: { id: 'ORD-2' } }));
    unsubscribe();
    client.clear();
  });

  it('does not ask again after a refusal (4xx), and reports it', async () => {
    const sent = fakeNetwork();
    const client = createQueryClient();
    const observer = new QueryObserver(client, operationQuery(getAdminOrdersById, { params: { id: 'ORD-9' } }));
    const unsubscribe = observer.subscribe(() => {});
    await tick();
    sent[0]!.answer(403, { code: 'FORBIDDEN', message: 'Owner only.' });
    await vi.waitFor(() => expect(observer.getCurrentResult().status).toBe('error'));
    expect(observer.getCurrentResult().error).toMatchObject({ status: 403, message: 'Owner only.' });
    expect(sent).toHaveLength(1);
    unsubscribe();
    client.clear();
  });

  it('waits while the input is null', async () => {
    const sent = fakeNetwork();
    const client = createQueryClient();
    const observer = new QueryObserver(client, operationQuery(getAdminOrdersById, null));
    const unsubscribe = observer.subscribe(() => {});
    await tick();
    expect(sent).toEqual([]);
    expect(observer.getCurrentResult().fetchStatus).toBe('idle');
    unsubscribe();
    client.clear();
  });
});
