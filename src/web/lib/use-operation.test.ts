import { MutationObserver, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getAdminOrdersById } from '../../contract/admin-orders.ts';
import { putAdminOrdersInternalNote } from '../../contract/admin-orders.ts';
import { createQueryClient, operationQuery, readState, writeOptions } from './use-operation.ts';

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

/** A QueryClient with our defaults watching the admin order read of `input`, on a fake network, after one tick. */
async function watching(input: { params: { id: string } } | null) {
  const sent = fakeNetwork();
  const client = createQueryClient();
  const observer = new QueryObserver(client, operationQuery(getAdminOrdersById, input));
  const unsubscribe = observer.subscribe(() => {});
  await tick();
  return {
    sent,
    client,
    observer,
    stop() {
      unsubscribe();
      client.clear();
    },
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('useOperation on TanStack Query', () => {
  it('cancels the request of an input nobody waits for any more, and shows the newer answer', async () => {
    const { sent, observer, stop } = await watching({ params: { id: 'ORD-1' } });
    expect(sent.map((s) => s.url)).toEqual(['/api/v1/admin/orders/ORD-1']);

    observer.setOptions(operationQuery(getAdminOrdersById, { params: { id: 'ORD-2' } }));
    await tick();
    expect(sent.map((s) => s.url)).toEqual(['/api/v1/admin/orders/ORD-1', '/api/v1/admin/orders/ORD-2']);
    expect(sent[0]!.signal?.aborted).toBe(true);
    expect(sent[1]!.signal?.aborted).toBe(false);

    sent[1]!.answer(200, { order: { id: 'ORD-2' } });
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toEqual({ order: { id: 'ORD-2' } }));
    stop();
  });

  it('does not ask again after a refusal (4xx), and reports it', async () => {
    const { sent, observer, stop } = await watching({ params: { id: 'ORD-9' } });
    sent[0]!.answer(403, { code: 'FORBIDDEN', message: 'Owner only.' });
    await vi.waitFor(() => expect(observer.getCurrentResult().status).toBe('error'));
    expect(observer.getCurrentResult().error).toMatchObject({ status: 403, message: 'Owner only.' });
    expect(sent).toHaveLength(1);
    stop();
  });

  it('waits while the input is null', async () => {
    const { sent, observer, stop } = await watching(null);
    expect(sent).toEqual([]);
    expect(observer.getCurrentResult().fetchStatus).toBe('idle');
    stop();
  });
  it('tells a 404 (the Support tab before delivery) by its status, and a 401/403 as denied', async () => {
    const { sent, observer, stop } = await watching({ params: { id: 'ORD-404' } });
    sent[0]!.answer(404, { code: 'NOT_FOUND', message: 'Support starts at delivery.' });
    await vi.waitFor(() => expect(observer.getCurrentResult().status).toBe('error'));
    expect(readState(observer.getCurrentResult())).toMatchObject({
      data: null,
      status: 404,
      denied: false,
      error: 'Support starts at delivery.',
    });

    observer.setOptions(operationQuery(getAdminOrdersById, { params: { id: 'ORD-401' } }));
    await tick();
    sent[1]!.answer(401, { code: 'UNAUTHORIZED', message: 'Please sign in again.' });
    await vi.waitFor(() => expect(observer.getCurrentResult().error).toMatchObject({ status: 401 }));
    expect(readState(observer.getCurrentResult())).toMatchObject({ status: 401, denied: true });
    stop();
  });

  it('a fresh read shows no cached answer: it asks again on mount and shows only that answer', async () => {
    const sent = fakeNetwork();
    const client = createQueryClient();
    const input = { params: { id: 'ORD-7' } };
    // An earlier screen read the order a moment ago (well within staleTime).
    const first = new QueryObserver(client, operationQuery(getAdminOrdersById, input));
    const stopFirst = first.subscribe(() => {});
    await tick();
    sent[0]!.answer(200, { order: { id: 'ORD-7', locked: false } });
    await vi.waitFor(() => expect(first.getCurrentResult().data).toBeDefined());
    stopFirst();

    // A plain read opened now shows the cached copy and does not ask again…
    const plain = new QueryObserver(client, operationQuery(getAdminOrdersById, input));
    const stopPlain = plain.subscribe(() => {});
    await tick();
    expect(readState(plain.getCurrentResult()).data).toEqual({ order: { id: 'ORD-7', locked: false } });
    expect(sent).toHaveLength(1);
    stopPlain();

    // …a fresh one asks again and shows nothing until its own answer.
    const fresh = new QueryObserver(client, operationQuery(getAdminOrdersById, input, { fresh: true }));
    const stopFresh = fresh.subscribe(() => {});
    await tick();
    expect(sent).toHaveLength(2);
    expect(readState(fresh.getCurrentResult(), { fresh: true }).data).toBeNull();
    sent[1]!.answer(200, { order: { id: 'ORD-7', locked: true } });
    await vi.waitFor(() =>
      expect(readState(fresh.getCurrentResult(), { fresh: true }).data).toEqual({ order: { id: 'ORD-7', locked: true } }),
    );
    stopFresh();
    client.clear();
  });

  it('a write, once it succeeds, makes the reads it changes ask again (useWrite, docs/decisions/338-web-reads-and-folder-rules.md)', async () => {
    const { sent, client, stop } = await watching({ params: { id: 'ORD-1' } });
    sent[0]!.answer(200, { order: { id: 'ORD-1' } });
    await tick();
    const write = new MutationObserver(client, writeOptions(client, putAdminOrdersInternalNote, [getAdminOrdersById]));
    const done = write.mutate({ params: { id: 'ORD-1' }, body: { note: 'n' } });
    await tick();
    expect(sent.map((s) => s.url)).toEqual(['/api/v1/admin/orders/ORD-1', '/api/v1/admin/orders/ORD-1/internal-note']);
    sent[1]!.answer(200, {});
    await tick();
    await tick();
    // The order read, on screen, asked again; the write is done once that answer is in.
    expect(sent.map((s) => s.url)).toEqual([
      '/api/v1/admin/orders/ORD-1',
      '/api/v1/admin/orders/ORD-1/internal-note',
      '/api/v1/admin/orders/ORD-1',
    ]);
    sent[2]!.answer(200, { order: { id: 'ORD-1' } });
    await done;
    stop();
  });
});
