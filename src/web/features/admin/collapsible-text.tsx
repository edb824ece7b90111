import { useId, useState } from 'react';

/** Longer than this and a message is shown folded to four lines with "more". */
const FOLD_AT = 240;

/**
 * A long contact message folded to four lines with a "more" / "less" toggle, so one long message
 * does not push every other row of the table off the screen.
 */
export function CollapsibleText({ text }: { text: string }) {
  const [isOpen, setIsOpen] = useState(false);
  const id = useId();
  const foldable = text.length > FOLD_AT || text.split('\n').length > 4;
  return (
    <div>
      <p id={id} className={`whitespace-pre-wrap ${foldable && !isOpen ? 'line-clamp-4' : ''}`} data-testid="collapsible-text">
        {text}
      </p>
      {foldable && (
        <button
          type="button"
          aria-expanded={isOpen}
          aria-controls={id}
          onClick={() => setIsOpen((v) => !v)}
          className="mt-1 min-h-8 text-sm font-semibold text-accent-soft underline underline-offset-2 hover:text-white"
        >
          {isOpen ? 'less' : 'more'}
        </button>
      )}
    </div>
  );
}
