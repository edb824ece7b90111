import { type BinaryOperation, type UrlInput, downloadOperation } from '../../lib/call-file.ts';

/** Downloads an admin CSV export (a file operation: docs/decisions/295-file-operations.md); its failure is said as an export's. */
export async function downloadCsv<Op extends BinaryOperation>(op: Op, input: UrlInput<Op>, fallbackName: string): Promise<string | null> {
  const error = await downloadOperation(op, input, fallbackName);
  return error?.replace('Download failed', 'Export failed') ?? null;
}
