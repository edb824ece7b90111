import { Link } from 'react-router';
import { getOrdersTerms, termsVersionPage } from '../../../contract/terms.ts';
import { formatWhen } from '../../../domain/when.ts';
import { useOperation } from '../../lib/use-operation.ts';

// The terms an order was placed under, readable again word for word
// (docs/decisions/272-accepted-terms-readable.md): the customer's order page and the back office's
// order view show when they were accepted and link the exact wording of that version.

/** "Terms and Conditions accepted … IST · Read the terms you accepted". */
export function AcceptedTermsLine({
  version,
  acceptedAt,
  className = '',
  label = 'Read the terms you accepted',
}: {
  version: string;
  acceptedAt: string;
  className?: string;
  label?: string;
}) {
  return (
    <p className={`text-sm text-muted ${className}`} data-testid="terms-accepted">
      Terms and Conditions accepted {formatWhen(acceptedAt)} ·{' '}
      <Link
        to={termsVersionPage(version)}
        target="_blank"
        className="inline-block py-2 text-accent-soft underline underline-offset-2 hover:text-white"
      >
        {label}
      </Link>
    </p>
  );
}

/** The customer's side: reads which version their order was placed under (nothing for older orders). */
export function OrderAcceptedTerms({ orderId }: { orderId: string }) {
  const { data } = useOperation(getOrdersTerms, { params: { orderId } });
  const t = data?.termsAccepted;
  return t ? <AcceptedTermsLine version={t.version} acceptedAt={t.acceptedAt} className="mt-4" /> : null;
}
