import { useEffect, useSyncExternalStore } from 'react';
import type { CustomerWaitingKind, OrderActions, OrderActionsResponse } from '../../contract/actions.ts';
import { getOrdersActionsEndpoint } from '../../contract/endpoints.ts';
import { callEndpoint } from './api.ts';

// What waits for the customer (docs/decisions/213-action-counts.md), read once and shared by the
// navigation's count, My Orders and the order page's tab badges; read again when the window
// regains focus or after an action (`refreshOrderActions`).

let current: OrderActionsResponse | null = null;
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

export function refreshOrderActions(): Promise<void> {
  loading ??= callEndpoint(getOrdersActionsEndpoint)
    .then((r) => {
      current = r;
      for (const l of listeners) l();
    })
    .catch(() => {
      // A count is a hint: without it the pages still work.
    })
    .finally(() => {
      loading = null;
    });
  return loading;
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** The counts (null until read, or when signed out). */
export function useOrderActions(enabled = true): OrderActionsResponse | null {
  const value = useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
  useEffect(() => {
    if (!enabled) return;
    void refreshOrderActions();
    const onFocus = () => void refreshOrderActions();
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [enabled]);
  return enabled ? value : null;
}

/** The waiting count of one kind on one order (0 when nothing waits). */
export const waitingCount = (order: OrderActions | undefined, kind: CustomerWaitingKind) =>
  order?.waiting.find((w) => w.kind === kind)?.count ?? 0;

const WORDS: Record<CustomerWaitingKind, (n: number) => string> = {
  brief: () => 'brief to fill in',
  review: (n) => (n === 1 ? 'design to review' : `${n} designs to review`),
  reply: (n) => (n === 1 ? '1 unread reply' : `${n} unread replies`),
  change: (n) => (n === 1 ? 'change to accept' : `${n} changes to accept`),
  payment: () => 'payment due',
  rating: () => 'tell us how we did',
};

/** Where each kind is acted on: the order page's tab. */
export const WAITING_TAB: Record<CustomerWaitingKind, string> = {
  brief: 'brief',
  review: 'reviews',
  reply: 'messages',
  change: 'progress',
  payment: 'progress',
  rating: 'progress',
};

export const waitingWords = (kind: CustomerWaitingKind, count: number) => WORDS[kind](count);
