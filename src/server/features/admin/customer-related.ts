import type { CustomerDetailResponse } from '../../../contract/admin-customers.ts';
import type { Db } from '../../db/client.ts';

// What other features know about a customer (orders: issue 5, chat: issue 6, sign-in: issue 4).
// Each reads that feature's tables; until a table exists the answer is empty.

export async function orderCounts(_db: Db, _userIds: string[]): Promise<Map<string, number>> {
  return new Map();
}

export async function ordersOf(_db: Db, _userId: string): Promise<CustomerDetailResponse['orders']> {
  return [];
}

export async function conversationsOf(_db: Db, _userId: string): Promise<CustomerDetailResponse['conversations']> {
  return [];
}

export async function signInMethodsOf(_db: Db, _userId: string): Promise<string[]> {
  return [];
}
