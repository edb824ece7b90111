import { Link } from 'react-router';

/** "2 new messages" on an order in a list, straight to the order's Messages tab; nothing when all is read. */
export function UnreadMessagesLink({ to, count }: { to: string; count: number }) {
  if (count <= 0) return null;
  return (
    <Link
      to={`${to}?tab=messages`}
      className="mt-1 inline-flex w-fit items-center gap-1 rounded-full bg-accent-strong px-2 py-0.5 text-xs font-semibold text-white
        hover:bg-accent-hover"
      data-testid="unread-messages"
    >
      {count} new message{count === 1 ? '' : 's'}
    </Link>
  );
}
